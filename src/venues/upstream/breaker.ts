import type { Clock } from '../../core/clock.js'

/**
 * A circuit breaker per upstream host, on an injected clock. While a venue is failing, asking it again only
 * adds our timeout to every client's latency and adds load to a host that is already struggling; an open
 * breaker answers at once instead (the routes turn that into a 503 with `Retry-After`).
 *
 * - closed: calls go through; `failureThreshold` consecutive failures open it (a success resets the count).
 * - open: calls are refused for `openMs`, then the breaker is half-open.
 * - half-open: one probe call at a time goes through; its success closes the breaker, its failure re-opens it
 *   for another `openMs`. Other calls are refused while the probe is out.
 *
 * Only failures that say something about the venue's health count: 5xx, 429, timeouts, network errors and
 * unreadable bodies. A 4xx answer (bad id, not found) is a healthy venue and counts as a success.
 *
 * @example
 * const b = new CircuitBreaker({ clock, failureThreshold: 5, openMs: 30_000 })
 * const permit = b.tryAcquire()
 * if (!permit.ok) throw new Error(`retry in ${permit.retryAfterMs} ms`)
 * try { await call(); b.onSuccess() } catch (e) { b.onFailure(); throw e }
 */
export type BreakerState = 'closed' | 'open' | 'half_open'

export interface BreakerOptions {
  readonly clock: Clock
  /** Consecutive failures that open the breaker. */
  readonly failureThreshold: number
  /** How long an open breaker refuses calls before it lets a probe through. */
  readonly openMs: number
}

export type Permit = { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number }

const GRANTED: Permit = { ok: true }
/** While a half-open probe is out, others are told to come back after about this long. */
const PROBE_WAIT_MS = 1_000

export class CircuitBreaker {
  readonly #o: BreakerOptions
  #failures = 0
  #openedAt = 0
  #open = false
  #probeOut = false
  /** Transitions, for metrics and tests. */
  readonly counters = { opened: 0, closed: 0, refused: 0 }

  constructor(options: BreakerOptions) {
    this.#o = options
  }

  get state(): BreakerState {
    if (!this.#open) return 'closed'
    return this.#o.clock.now() - this.#openedAt >= this.#o.openMs ? 'half_open' : 'open'
  }

  /** Whether a call may go out now; in half-open state the caller that gets the permit is the probe. */
  tryAcquire(): Permit {
    const state = this.state
    if (state === 'closed') return GRANTED
    if (state === 'half_open' && !this.#probeOut) {
      this.#probeOut = true
      return GRANTED
    }
    this.counters.refused++
    const retryAfterMs = state === 'open' ? this.#openedAt + this.#o.openMs - this.#o.clock.now() : PROBE_WAIT_MS
    return { ok: false, retryAfterMs: Math.max(1, retryAfterMs) }
  }

  /** Without taking a permit: how long until a call could go out (0 = now). */
  retryAfterMs(): number {
    const state = this.state
    if (state === 'closed') return 0
    if (state === 'half_open') return this.#probeOut ? PROBE_WAIT_MS : 0
    return Math.max(1, this.#openedAt + this.#o.openMs - this.#o.clock.now())
  }

  onSuccess(): void {
    this.#failures = 0
    this.#probeOut = false
    if (this.#open) {
      this.#open = false
      this.counters.closed++
    }
  }

  onFailure(): void {
    this.#failures++
    const probeFailed = this.#probeOut
    this.#probeOut = false
    if (probeFailed || (!this.#open && this.#failures >= this.#o.failureThreshold)) {
      if (!this.#open) this.counters.opened++
      this.#open = true
      this.#openedAt = this.#o.clock.now()
    }
  }
}
