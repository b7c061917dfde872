import { AppError, retryAfter } from '../core/errors.js'
import { isStoreUnavailable } from '../store/db.js'

/**
 * What a route handler returns: a status and an already-serialized JSON body. Serializing in the handler
 * (not in the writer) lets hot routes reuse cached bytes across requests.
 */
export interface Reply {
  readonly status: number
  /**
   * JSON text, or its UTF-8 bytes. Hot cached responses keep the bytes: uWS would otherwise encode a 50 kB string
   * on every response, which costs more than everything else the request does.
   */
  readonly body: string | Uint8Array
  readonly headers?: readonly (readonly [string, string])[]
  /**
   * More headers, already in wire form (`renderHeaderLines`): what a guard adds to every reply it lets through
   * (rate limits). The writer sends them with the standard headers in one call, not one native call each.
   */
  readonly headerLines?: string
  /** Media type of `body`; `JSON_CONTENT_TYPE` when absent (the docs page sets text/html). */
  readonly contentType?: string
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * Headers in wire form, `\r\n<name>: <value>` each, for `Reply.headerLines`. Only for names and values the code
 * makes (numbers, constants): a CR or LF in either would split the response, so they are refused here.
 */
export function renderHeaderLines(headers: readonly (readonly [string, string])[]): string {
  let out = ''
  for (const [name, value] of headers) {
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) throw new Error(`header ${JSON.stringify(name)} has a line break`)
    out += `\r\n${name}: ${value}`
  }
  return out
}

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  201: '201 Created',
  202: '202 Accepted',
  204: '204 No Content',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  413: '413 Payload Too Large',
  415: '415 Unsupported Media Type',
  422: '422 Unprocessable Entity',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  502: '502 Bad Gateway',
  503: '503 Service Unavailable',
  504: '504 Gateway Timeout',
}

export function statusLine(status: number): string {
  return STATUS_TEXT[status] ?? `${status} Status`
}

export function json(status: number, body: unknown, headers?: readonly (readonly [string, string])[]): Reply {
  return headers === undefined
    ? { status, body: JSON.stringify(body) }
    : { status, body: JSON.stringify(body), headers }
}

/**
 * The one rendering of an error (docs/DESIGN.md, API conventions): a 422 is `{"detail":[issues]}` (FastAPI form);
 * every other error `{"detail","code",…extra}` with a stable code. Its headers (`Retry-After`...) go with it.
 */
export function errorReply(err: AppError): Reply {
  const body = err.issues !== undefined ? { detail: err.issues } : { detail: err.message, code: err.code, ...err.extra }
  return json(err.status, body, err.headers)
}

const INTERNAL = errorReply(new AppError(500, 'internal', 'Internal Server Error'))
const STORE_UNAVAILABLE = errorReply(
  new AppError(503, 'store_unavailable', 'The data store cannot be reached right now; retry shortly.', {
    headers: retryAfter(1),
  }),
)

/**
 * Maps any thrown value to a reply: an AppError is rendered as it says; a store that could not run the statement
 * (src/store/db.ts isStoreUnavailable: its process died, the database is down) is a 503 `store_unavailable` to
 * retry; anything else is a bare 500.
 */
export function replyForError(err: unknown): Reply {
  if (err instanceof AppError) return errorReply(err)
  return isStoreUnavailable(err) ? STORE_UNAVAILABLE : INTERNAL
}
