/**
 * Coalesces identical concurrent work: while a call for `key` is in flight, later callers get the same promise
 * instead of starting their own. A burst of identical cold requests therefore costs the venue one call, and
 * the burst shares that call's outcome, success or failure (a failure is not cached, so the next request
 * after it settles tries again).
 *
 * @example
 * const flights = new SingleFlight()
 * const [a, b] = await Promise.all([flights.run('k', fetchIt), flights.run('k', fetchIt)]) // one fetchIt call
 */
export class SingleFlight {
  readonly #inflight = new Map<string, Promise<unknown>>()
  /** Callers that joined a flight already in the air, for metrics and tests. */
  joined = 0

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const pending = this.#inflight.get(key)
    if (pending !== undefined) {
      this.joined++
      return pending as Promise<T>
    }
    const p = fn().finally(() => this.#inflight.delete(key))
    this.#inflight.set(key, p)
    return p
  }

  get size(): number {
    return this.#inflight.size
  }
}
