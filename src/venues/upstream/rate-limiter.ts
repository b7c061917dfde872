import type { Clock } from '../../core/clock.js'

/**
 * Client-side rate limiting at a venue's published limits: at most `limit` calls in any sliding window of
 * `windowMs` (a venue may publish its limits per 10 s sliding window, docs/venues/). A sliding *log*, not a token
 * bucket, because that is what the venue enforces: a token bucket sized to the same average would allow a
 * burst the venue then throttles.
 *
 * Each window keeps the timestamps of its last `limit` calls in a ring, so a check is O(1) and memory is
 * bounded by the limit. The limiter never waits: a refused call learns how long until a slot frees, and the
 * caller fails fast with that as `Retry-After` (a latency-sensitive client is better served by an honest
 * answer now than by a request queued behind the venue's throttle).
 *
 * @example
 * const limiter = new SlidingWindowLimiter(clock)
 * limiter.define('data /trades', 200, 10_000)
 * limiter.define('data *', 1_000, 10_000)
 * const wait = limiter.tryAcquire(['data /trades', 'data *']) // 0 = go; otherwise ms until a slot frees
 */
class Window {
  readonly #stamps: Float64Array
  #next = 0
  #filled = 0

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    this.#stamps = new Float64Array(limit)
  }

  /** 0 if a call fits now, else ms until the oldest call in the window leaves it. */
  waitMs(now: number): number {
    if (this.#filled < this.limit) return 0
    const oldest = this.#stamps[this.#next] as number
    const wait = oldest + this.windowMs - now
    return wait > 0 ? wait : 0
  }

  record(now: number): void {
    this.#stamps[this.#next] = now
    this.#next = (this.#next + 1) % this.limit
    if (this.#filled < this.limit) this.#filled++
  }
}

export class SlidingWindowLimiter {
  readonly #clock: Clock
  readonly #windows = new Map<string, Window>()
  /** Calls refused, for metrics and tests. */
  refused = 0

  constructor(clock: Clock) {
    this.#clock = clock
  }

  define(key: string, limit: number, windowMs: number): this {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`rate limit for ${key} must be a positive integer`)
    this.#windows.set(key, new Window(limit, windowMs))
    return this
  }

  has(key: string): boolean {
    return this.#windows.has(key)
  }

  /**
   * Takes one slot in every named window, or none: returns 0 when the call may go out (and records it), else
   * the ms until all of the windows have room. Unknown keys are ignored.
   */
  tryAcquire(keys: readonly string[]): number {
    const now = this.#clock.now()
    let wait = 0
    for (const key of keys) {
      const w = this.#windows.get(key)
      if (w !== undefined) wait = Math.max(wait, w.waitMs(now))
    }
    if (wait > 0) {
      this.refused++
      return Math.ceil(wait)
    }
    for (const key of keys) this.#windows.get(key)?.record(now)
    return 0
  }
}
