/**
 * Typed errors with stable codes. Anything that reaches a client is an `AppError` rendered by the HTTP layer;
 * anything else becomes a generic 500 `internal` without its message (see `replyForError` in src/http/reply.ts).
 */
export type ErrorCode =
  | 'validation_error'
  | 'unauthorized'
  | 'not_found'
  | 'rate_limited'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'not_ready'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'internal'

export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number
  /** Extra fields merged into the JSON error body (e.g. `upstream_status`). */
  readonly extra: Readonly<Record<string, unknown>> | undefined

  constructor(status: number, code: ErrorCode, message: string, options?: { cause?: unknown; extra?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.status = status
    this.code = code
    this.extra = options?.extra
  }
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
