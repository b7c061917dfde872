/**
 * Request counters kept by HttpServer: responses by status code and a latency histogram (time from the uWS
 * callback to the response write, seconds). Plain arrays and a small map, so a request pays a few tens of
 * nanoseconds; /metrics (src/metrics.ts) turns them into Prometheus series at scrape time.
 */
export const LATENCY_BOUNDS_SECONDS: readonly number[] = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
]

export interface HttpStatsSnapshot {
  /** Status code → responses written. */
  readonly responses: ReadonlyMap<number, number>
  /** Requests the client aborted before a response was written. */
  readonly aborted: number
  /** Upper bound (seconds) → cumulative count, ending with +Inf. */
  readonly buckets: readonly (readonly [number, number])[]
  readonly sum: number
  readonly count: number
}

export class HttpStats {
  readonly #responses = new Map<number, number>()
  /** Non-cumulative counts per bound, plus one overflow slot. */
  readonly #counts = new Float64Array(LATENCY_BOUNDS_SECONDS.length + 1)
  #sum = 0
  #count = 0
  #aborted = 0

  observe(status: number, seconds: number): void {
    this.#responses.set(status, (this.#responses.get(status) ?? 0) + 1)
    let i = 0
    while (i < LATENCY_BOUNDS_SECONDS.length && seconds > (LATENCY_BOUNDS_SECONDS[i] as number)) i++
    this.#counts[i]++
    this.#sum += seconds
    this.#count++
  }

  aborted(): void {
    this.#aborted++
  }

  snapshot(): HttpStatsSnapshot {
    const buckets: [number, number][] = []
    let cumulative = 0
    for (let i = 0; i < this.#counts.length; i++) {
      cumulative += this.#counts[i] as number
      buckets.push([
        i < LATENCY_BOUNDS_SECONDS.length ? (LATENCY_BOUNDS_SECONDS[i] as number) : Number.POSITIVE_INFINITY,
        cumulative,
      ])
    }
    return { responses: new Map(this.#responses), aborted: this.#aborted, buckets, sum: this.#sum, count: this.#count }
  }
}
