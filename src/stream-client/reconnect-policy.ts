import { backoffDelayMs } from '../core/backoff.js'
import { CLOSE } from '../stream/protocol.js'

/**
 * When and how soon to reconnect. Terminal close codes (4400 bad request, 4401 auth failed, 4403 forbidden) mean
 * the same request would fail again: stop. Everything else (1001 going away, 4008 slow consumer, 4029 rate
 * limited, a network error's 1006, a missed heartbeat) reconnects with capped exponential backoff and full jitter,
 * so a server restart is not met by every client at the same instant. After a `bye`, the server's
 * `reconnect_after_ms` is a floor: the jittered delay is added to it.
 */
export const TERMINAL_CLOSE_CODES: ReadonlySet<number> = new Set([CLOSE.badRequest, CLOSE.authFailed, CLOSE.forbidden])

export function isTerminalClose(code: number): boolean {
  return TERMINAL_CLOSE_CODES.has(code)
}

export interface ReconnectOptions {
  /** First ceiling of the jittered delay (doubles per failed attempt). */
  readonly baseMs: number
  /** Largest ceiling. */
  readonly maxMs: number
  /** A source in [0, 1): injectable so tests are deterministic. */
  readonly random: () => number
}

export const DEFAULT_RECONNECT: Omit<ReconnectOptions, 'random'> = { baseMs: 500, maxMs: 30_000 }

/** The delay before reconnect attempt `attempt` (0 for the first after a good connection). */
export function reconnectDelayMs(attempt: number, options: ReconnectOptions, byeAfterMs?: number): number {
  return (byeAfterMs ?? 0) + backoffDelayMs(attempt, options)
}
