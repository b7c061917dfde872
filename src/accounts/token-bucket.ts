/**
 * A token bucket: `burst` tokens when idle, refilled continuously at `perSecond`; each request takes one.
 * Lazy refill (on use, from the elapsed time), so an idle key costs nothing and there is no timer per key.
 * One bucket per key and replica: with N replicas behind a balancer a key gets up to N × the rate (documented).
 */
export interface RateLimit {
  readonly perSecond: number
  readonly burst: number
}

export class TokenBucket {
  #tokens: number
  #updatedAt: number

  constructor(
    readonly limit: RateLimit,
    nowMs: number,
  ) {
    this.#tokens = limit.burst
    this.#updatedAt = nowMs
  }

  /** Takes a token: the whole tokens left afterwards (≥ 0), or -1 when the bucket is empty. */
  take(nowMs: number): number {
    this.#refill(nowMs)
    if (this.#tokens < 1) return -1
    this.#tokens -= 1
    return Math.floor(this.#tokens)
  }

  /** Whole tokens available now, without taking one. */
  peek(nowMs: number): number {
    this.#refill(nowMs)
    return Math.floor(this.#tokens)
  }

  /** Whole seconds until a token is available (at least 1): the `Retry-After` of a 429. */
  retryAfterSeconds(nowMs: number): number {
    this.#refill(nowMs)
    // Less a hair: refills at rates like 5/60 per second leave float dust (1.0000000000000002 s is 1 s, not 2).
    return Math.max(1, Math.ceil((1 - this.#tokens) / this.limit.perSecond - 1e-9))
  }

  #refill(nowMs: number): void {
    // A wall clock stepping backwards must not mint or destroy tokens.
    const elapsedMs = nowMs - this.#updatedAt
    if (elapsedMs <= 0) return
    this.#updatedAt = nowMs
    if (this.#tokens >= this.limit.burst) return
    this.#tokens = Math.min(this.limit.burst, this.#tokens + (elapsedMs * this.limit.perSecond) / 1000)
  }
}
