import { AppError, retryAfter } from '../../core/errors.js'
import { UpstreamHttpError, UpstreamProtocolError, UpstreamTimeoutError } from '../http-client.js'
import { UpstreamNetworkError } from '../transport-errors.js'

export { UpstreamNetworkError }

/**
 * The upstream layer's own failures and the one mapping from any upstream failure to the API's error contract
 * (docs/DESIGN.md "API conventions"); every body is `{detail, code, upstream, …}`:
 *
 * - the venue answered non-2xx (429 included): 502 `upstream_error`, `upstream_status` = its status;
 * - the venue answered 200 with an unreadable body: 502 `upstream_error`, `upstream_status: 200`,
 *   `reason: "malformed_response"`;
 * - the venue could not be reached (refused, reset): 502 `upstream_error`, `upstream_status: null`,
 *   `reason: "unreachable"`;
 * - the venue was too slow (our per-host timeout): 504 `upstream_timeout`, `timeout_ms`;
 * - we did not call the venue (breaker open, or our budget at its published limits used up): 503
 *   `upstream_error`, `reason: "circuit_open" | "upstream_rate_limit"`, `retry_after_seconds` and `Retry-After`.
 *
 * A refused call is a 503, not a 502: nothing was asked of the venue, the condition is temporary, and
 * `Retry-After` says when asking again makes sense.
 */
export type UpstreamName = 'gamma' | 'clob' | 'data'

export type RejectReason = 'circuit_open' | 'upstream_rate_limit'

/** We did not call the venue: its breaker is open or our request budget for it is used up. */
export class UpstreamRejectedError extends Error {
  constructor(
    readonly upstream: UpstreamName,
    readonly reason: RejectReason,
    readonly retryAfterMs: number,
  ) {
    super(`${upstream}: ${reason}, retry in ${retryAfterMs} ms`)
    this.name = 'UpstreamRejectedError'
  }
}

/** Whether a failure says the venue is unhealthy (counts against its breaker). 4xx other than 429 does not. */
export function isVenueFailure(err: unknown): boolean {
  if (err instanceof UpstreamHttpError) return err.status === 429 || err.status >= 500
  return (
    err instanceof UpstreamTimeoutError || err instanceof UpstreamProtocolError || err instanceof UpstreamNetworkError
  )
}

/** Any failure of an upstream call → the AppError the client sees. AppErrors pass through unchanged. */
export function upstreamAppError(err: unknown, upstream: UpstreamName): AppError {
  if (err instanceof AppError) return err
  if (err instanceof UpstreamRejectedError) {
    const seconds = Math.max(1, Math.ceil(err.retryAfterMs / 1000))
    const what =
      err.reason === 'circuit_open'
        ? 'is failing; calls are paused (circuit open)'
        : 'request budget is used up for now'
    return new AppError(503, 'upstream_error', `the venue's ${err.upstream} API ${what}; retry after ${seconds} s`, {
      cause: err,
      extra: { upstream: err.upstream, reason: err.reason, retry_after_seconds: seconds },
      headers: retryAfter(seconds),
    })
  }
  if (err instanceof UpstreamTimeoutError) {
    const detail = `the venue's ${upstream} API did not answer within ${err.timeoutMs} ms`
    return new AppError(504, 'upstream_timeout', detail, { cause: err, extra: { upstream, timeout_ms: err.timeoutMs } })
  }
  if (err instanceof UpstreamHttpError) {
    const detail = `the venue's ${upstream} API answered ${err.status}`
    return new AppError(502, 'upstream_error', detail, { cause: err, extra: { upstream, upstream_status: err.status } })
  }
  if (err instanceof UpstreamProtocolError) {
    return new AppError(502, 'upstream_error', `the venue's ${upstream} API sent an unreadable response`, {
      cause: err,
      extra: { upstream, upstream_status: 200, reason: 'malformed_response' },
    })
  }
  return new AppError(502, 'upstream_error', `the venue's ${upstream} API could not be reached`, {
    cause: err,
    extra: { upstream, upstream_status: null, reason: 'unreachable' },
  })
}
