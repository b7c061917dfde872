/**
 * When a failed delivery is tried again: exponential backoff with "equal jitter" (AWS architecture blog,
 * "Exponential Backoff And Jitter"): after failed attempt n (1, 2, …) the next one waits
 *
 *   d = min(maxMs, baseMs × 2^(n−1)),   delay = d/2 + random(0, d/2)
 *
 * so delays still double (a receiver that is down gets fewer and fewer requests), while many deliveries that
 * failed together (one receiver down for all of them) spread out instead of returning in lockstep. Unlike full
 * jitter (src/core/backoff.ts, for reconnects) a delay is never much below its step: a webhook that just failed
 * is not hit again at once. With the defaults (30 s, cap 1 h, 8 attempts) the waits are 15–30 s, 30–60 s, 1–2, 2–4,
 * 4–8, 8–16 and 16–32 minutes: the 8th attempt comes 32 to 64 minutes after the first, and if it fails too the
 * delivery is marked failed.
 */
export interface RetryPolicy {
  readonly baseMs: number
  readonly maxMs: number
  readonly maxAttempts: number
}

/** Delay before the attempt after failed attempt `attempt` (1-based). `random` in [0, 1) is injectable for tests. */
export function retryDelayMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 40))
  return Math.round(step / 2 + random() * (step / 2))
}

/** Whether a delivery that failed its `attempt`-th attempt gets another. */
export function shouldRetry(attempt: number, policy: RetryPolicy): boolean {
  return attempt < policy.maxAttempts
}
