/**
 * What went wrong reaching a venue, in words an operator can act on: every venue HTTP and WebSocket client
 * describes its failures with these, so `/readyz` (`catalog.last_error`), the log lines and the errors the
 * callers see all name the host and the cause, e.g.
 *
 *   GET https://gamma.example/events: DNS lookup failed (ENOTFOUND gamma.example)
 *   GET http://127.0.0.1:9/events: connection refused (ECONNREFUSED 127.0.0.1:9)
 *   GET https://127.0.0.1:8080/events: TLS: wrong version number; the port may not speak TLS (ERR_SSL_WRONG_VERSION_NUMBER)
 *   wss://ws.example/v2: handshake rejected with HTTP 401
 *
 * Node's fetch throws `TypeError: fetch failed` and keeps the real cause (a system error with a `code`) in `cause`;
 * the ws library emits the system error itself. Both reach `describeNetworkFailure`.
 */

/** `GET https://host/path`: the query is left out (catalog cursors are long, and it says nothing about the cause). */
export function requestLabel(method: string, url: string): string {
  return `${method} ${urlLabel(url)}`
}

/** Scheme, host and path of a URL, without query or credentials. */
export function urlLabel(url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    return url
  }
}

/** The venue could not be reached at all: no HTTP answer (DNS, refused, reset, TLS, connect timeout). */
export class UpstreamNetworkError extends Error {
  /** What failed, in short (`DNS lookup failed (ENOTFOUND host)`), without the request. */
  readonly reason: string

  constructor(
    readonly method: string,
    readonly url: string,
    cause: unknown,
  ) {
    const reason = describeNetworkFailure(cause)
    super(`${requestLabel(method, url)}: ${reason}`, { cause })
    this.name = 'UpstreamNetworkError'
    this.reason = reason
  }
}

interface SystemErrorLike {
  readonly code?: unknown
  readonly message?: unknown
  readonly hostname?: unknown
  readonly address?: unknown
  readonly port?: unknown
  readonly cause?: unknown
  readonly errors?: unknown
}

const TLS_CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
])

/**
 * The cause of a network failure, e.g. `DNS lookup failed (ENOTFOUND host)`, `connection refused (ECONNREFUSED
 * 127.0.0.1:9)`, `TLS: certificate has expired (CERT_HAS_EXPIRED)`. Anything it does not recognise is shown as
 * its message with its code.
 */
export function describeNetworkFailure(err: unknown): string {
  const e = innermost(err)
  const code = typeof e.code === 'string' ? e.code : undefined
  const message = typeof e.message === 'string' ? e.message : String(err)
  const where = endpointOf(e)
  switch (code) {
    case 'ENOTFOUND':
      return `DNS lookup failed (ENOTFOUND${hostOf(e, message)})`
    case 'EAI_AGAIN':
      return `DNS lookup failed: the resolver did not answer (EAI_AGAIN${hostOf(e, message)})`
    case 'ECONNREFUSED':
      return `connection refused (ECONNREFUSED${where})`
    case 'ECONNRESET':
      return `connection reset by the peer (ECONNRESET${where})`
    case 'EPIPE':
      return `connection closed by the peer while sending (EPIPE${where})`
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `connect timeout (${code}${where})`
    case 'EHOSTUNREACH':
      return `host unreachable (EHOSTUNREACH${where})`
    case 'ENETUNREACH':
      return `network unreachable (ENETUNREACH${where})`
    case 'UND_ERR_SOCKET':
      return `connection closed by the peer (UND_ERR_SOCKET${where})`
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'no response headers in time (UND_ERR_HEADERS_TIMEOUT)'
    case 'UND_ERR_BODY_TIMEOUT':
      return 'response body stalled (UND_ERR_BODY_TIMEOUT)'
    default:
      break // another code, or none: TLS or the message as it is, below
  }
  if (isTls(code, message)) return `TLS: ${tlsReason(message)}${code === undefined ? '' : ` (${code})`}`
  return code === undefined || message.includes(code) ? message : `${message} (${code})`
}

/** Follows `cause` (fetch's wrapper) and the first coded error of an AggregateError (both address families failed). */
function innermost(err: unknown): SystemErrorLike {
  let e: unknown = err
  for (let depth = 0; depth < 5; depth++) {
    if (typeof e !== 'object' || e === null) break
    const s = e as SystemErrorLike
    if (typeof s.code !== 'string' && Array.isArray(s.errors)) {
      const coded = (s.errors as unknown[]).find((x) => typeof (x as SystemErrorLike | null)?.code === 'string')
      if (coded !== undefined) return coded as SystemErrorLike
    }
    if (typeof s.code === 'string' || s.cause === undefined) return s
    e = s.cause
  }
  return typeof e === 'object' && e !== null ? (e as SystemErrorLike) : { message: String(e) }
}

function hostOf(e: SystemErrorLike, message: string): string {
  if (typeof e.hostname === 'string') return ` ${e.hostname}`
  // `getaddrinfo ENOTFOUND host` (ws does not always set `hostname`).
  const m = /getaddrinfo \w+ (\S+)/.exec(message)
  return m === null ? '' : ` ${m[1]}`
}

function endpointOf(e: SystemErrorLike): string {
  if (typeof e.address !== 'string') return ''
  const host = e.address.includes(':') ? `[${e.address}]` : e.address
  return typeof e.port === 'number' ? ` ${host}:${e.port}` : ` ${host}`
}

function isTls(code: string | undefined, message: string): boolean {
  if (
    code !== undefined &&
    (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code.startsWith('CERT_') || TLS_CERT_CODES.has(code))
  )
    return true
  return /SSL routines|tls|certificate/i.test(message)
}

/**
 * OpenSSL's messages carry the reason in their fifth field (`…:error:0A00010B:SSL routines:ssl3_get_record:wrong
 * version number:…`); Node's certificate errors are already plain (`certificate has expired`).
 */
function tlsReason(message: string): string {
  const m = /error:[0-9A-Fa-f]+:[^:]*:[^:]*:([^:]+)/.exec(message)
  const reason = m === null ? message.trim() : (m[1] as string).trim()
  // The usual cause: https:// or wss:// to a port that speaks plain HTTP.
  return reason === 'wrong version number' || reason === 'packet length too long' || reason === 'http request'
    ? `${reason}; the port may not speak TLS`
    : reason
}
