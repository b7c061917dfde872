/**
 * Typed errors with stable codes. Every error a client sees is an `AppError`, rendered by the one reply writer
 * (src/http/reply.ts `errorReply`): a 422 as `{"detail":[issues]}`, anything else as `{"detail","code",…extra}`,
 * with its headers (`Retry-After`...). Anything else thrown becomes a generic 500 `internal` without its message.
 */
export type ErrorCode =
  /** 422: the request's parameters or body (the body lists the issues, no `code`). */
  | 'validation_error'
  /** 401: missing, unknown or revoked API key, or its account is gone. */
  | 'unauthorized'
  | 'not_found'
  /** 409: a limit of the account or user (keys, alert rules), or an operation the resource does not allow. */
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  /** 429: a key's bucket, or the signup throttle of a client address, is empty (`Retry-After`). */
  | 'rate_limited'
  /** 503: catalogs, read models or spread pairs are still being built. */
  | 'not_ready'
  /** 503: the service is stopping (SIGTERM): the request was not run; retry (`Retry-After`), another replica answers. */
  | 'shutting_down'
  /** 503: the data store could not run the request's statements (its process died, the database is down; `Retry-After`). */
  | 'store_unavailable'
  /** 503: the key store cannot be read (`Retry-After`). */
  | 'auth_unavailable'
  /** 503: a webhook host could not be looked up (`Retry-After`). */
  | 'dns_unavailable'
  /** 503: the spread history store cannot be read (`Retry-After`). */
  | 'history_unavailable'
  /** 502 (the venue failed) or 503 (we did not call it: breaker open or budget used up, `Retry-After`). */
  | 'upstream_error'
  | 'upstream_timeout'
  | 'internal'

/** The statuses an error is answered with. */
export type ErrorStatus = 401 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504

/** One problem of a 422 body, in FastAPI/pydantic form (built by src/http/validation-errors.ts `issue`). */
export interface ValidationIssue {
  readonly type: string
  readonly loc: readonly (string | number)[]
  readonly msg: string
  readonly input: unknown
  readonly ctx?: Readonly<Record<string, unknown>>
}

export type ErrorHeaders = readonly (readonly [string, string])[]

export interface AppErrorOptions {
  readonly cause?: unknown
  /** Extra fields merged into the JSON error body after `detail` and `code` (e.g. `upstream_status`). */
  readonly extra?: Readonly<Record<string, unknown>>
  /** The entries of a 422 body (`validation_error` only): the body is `{"detail": issues}`. */
  readonly issues?: readonly ValidationIssue[]
  /** Response headers (`Retry-After`...). */
  readonly headers?: ErrorHeaders
}

export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: ErrorStatus
  readonly extra: Readonly<Record<string, unknown>> | undefined
  readonly issues: readonly ValidationIssue[] | undefined
  readonly headers: ErrorHeaders | undefined

  constructor(status: ErrorStatus, code: ErrorCode, message: string, options?: AppErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.status = status
    this.code = code
    this.extra = options?.extra
    this.issues = options?.issues
    this.headers = options?.headers
  }
}

/** A 422 with these entries. */
export function validationError(issues: readonly ValidationIssue[]): AppError {
  return new AppError(422, 'validation_error', 'Invalid parameters', { issues })
}

/** `Retry-After` in seconds, for `AppErrorOptions.headers`. */
export function retryAfter(seconds: number): ErrorHeaders {
  return [['retry-after', String(seconds)]]
}

/** A venue protocol invariant was broken (sequence gap, delta before snapshot...). The actor resyncs. */
export class FeedProtocolError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'FeedProtocolError'
  }
}

/** Messages for logs: the message of an Error, or a short rendering of anything else. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`
  return String(err)
}
