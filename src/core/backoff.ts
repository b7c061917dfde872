/**
 * Capped exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff And Jitter"):
 * delay = random(0, min(cap, base * 2^attempt)). Jitter keeps many connections from reconnecting in lockstep
 * after a venue-wide drop. `random` is injectable so tests are deterministic.
 */
export interface BackoffOptions {
  baseMs: number
  maxMs: number
  random?: () => number
}

export function backoffDelayMs(attempt: number, options: BackoffOptions): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(attempt, 30))
  const random = options.random ?? Math.random
  // Never zero: a floor of half the base keeps a tight reconnect loop from hammering a failing venue.
  return Math.max(options.baseMs / 2, Math.floor(random() * ceiling))
}
