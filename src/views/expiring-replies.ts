/**
 * Serialized replies kept until a deadline, keyed by whatever names a reply completely: a proxy route's raw
 * query string (until the upstream cache entry it was rendered from expires), or the top list's parameters and
 * engine epoch (until time moves a listed record). A hit costs one Map lookup and a clock read.
 *
 * Bounded by entry count, evicting in insertion order (PageCache's reasoning: a lookup is on every read, and
 * hot keys are re-inserted within moments of being evicted).
 */
interface Entry {
  readonly body: Uint8Array
  readonly expiresAt: number
}

export class ExpiringReplies {
  readonly #entries = new Map<string, Entry>()
  readonly #maxEntries: number

  constructor(maxEntries = 2_000) {
    this.#maxEntries = maxEntries
  }

  get size(): number {
    return this.#entries.size
  }

  get(key: string, now: number): Uint8Array | undefined {
    const e = this.#entries.get(key)
    if (e === undefined) return undefined
    if (e.expiresAt <= now) {
      this.#entries.delete(key)
      return undefined
    }
    return e.body
  }

  /** Keeps `body` under `key` until `expiresAt` (nothing is kept when that is not after `now`). */
  set(key: string, body: Uint8Array, expiresAt: number, now: number): void {
    if (expiresAt <= now) return
    if (!this.#entries.has(key) && this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string)
    this.#entries.set(key, { body, expiresAt })
  }
}
