import { requestLabel, UpstreamNetworkError } from './transport-errors.js'

export { UpstreamNetworkError } from './transport-errors.js'

/**
 * JSON over HTTP to a venue, with a per-request timeout and typed failures. Uses Node's built-in fetch.
 * Retrying is the caller's choice (`withRetry`): catalog sync retries, latency-sensitive proxies do not.
 *
 * Every failure's message names the request and the cause (transport-errors.ts): `GET https://host/path: HTTP 503`,
 * `…: no answer within 10000 ms`, `…: connection refused (ECONNREFUSED 10.0.0.1:443)`. Those messages are what
 * /readyz `last_error` and the catalog sync's log lines show.
 */
export class UpstreamHttpError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly bodySnippet: string,
    readonly method = 'GET',
  ) {
    super(`${requestLabel(method, url)}: HTTP ${status}${venueErrorBody(bodySnippet)}`)
    this.name = 'UpstreamHttpError'
  }
}

export class UpstreamTimeoutError extends Error {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
    readonly method = 'GET',
  ) {
    super(`${requestLabel(method, url)}: no answer within ${timeoutMs} ms (timeout)`)
    this.name = 'UpstreamTimeoutError'
  }
}

/** Characters of a venue's JSON error body kept in the message (a 401 body may say which auth check failed). */
const ERROR_BODY_CHARS = 160

/**
 * A venue's own JSON error body, shortened, after the status; nothing for other bodies (a CDN's HTML error page
 * says nothing the status does not).
 */
function venueErrorBody(body: string): string {
  const text = body.trim().replace(/\s+/g, ' ')
  if (!text.startsWith('{') && !text.startsWith('[')) return ''
  return `: ${text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS)}…` : text}`
}

/** The response arrived but was not the JSON we expect. */
export class UpstreamProtocolError extends Error {
  constructor(
    readonly url: string,
    message: string,
    readonly method = 'GET',
  ) {
    super(`${requestLabel(method, url)}: ${message}`)
    this.name = 'UpstreamProtocolError'
  }
}

export type QueryValue = string | number | boolean | readonly string[] | undefined

export interface HttpClientOptions {
  readonly baseUrl: string
  readonly timeoutMs: number
  /** Extra headers per request (request signing needs method and full path). */
  readonly headers?: (method: string, path: string) => Record<string, string>
}

export class HttpClient {
  readonly #options: HttpClientOptions
  readonly #base: URL

  constructor(options: HttpClientOptions) {
    this.#options = options
    this.#base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`)
  }

  /** Full URL for a path relative to the base URL (keeps the base's own path prefix). */
  url(path: string, query?: Readonly<Record<string, QueryValue>>): URL {
    const url = new URL(path.replace(/^\//, ''), this.#base)
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined) continue
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, item)
      else url.searchParams.set(k, String(v))
    }
    return url
  }

  getJson<T>(path: string, query?: Readonly<Record<string, QueryValue>>, signal?: AbortSignal): Promise<T> {
    return this.#request<T>('GET', this.url(path, query), undefined, signal)
  }

  /**
   * A GET's body as bytes, unparsed, and the URL it came from: for a caller that can tell an unchanged body by its
   * bytes and skip parsing it (a catalog page, mapped-records.ts). `parseJsonBytes` parses it as `getJson` would.
   */
  async getBytes(
    path: string,
    query?: Readonly<Record<string, QueryValue>>,
    signal?: AbortSignal,
  ): Promise<{ readonly url: string; readonly bytes: Buffer }> {
    const url = this.url(path, query)
    const { res, bytes } = await this.#fetch('GET', url, undefined, signal)
    if (!res.ok)
      throw new UpstreamHttpError(res.status, url.href, bytes.subarray(0, 1200).toString('utf8').slice(0, 300))
    return { url: url.href, bytes }
  }

  postJson<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    return this.#request<T>('POST', this.url(path), body, signal)
  }

  async #request<T>(method: string, url: URL, body: unknown, signal: AbortSignal | undefined): Promise<T> {
    const { res, bytes } = await this.#fetch(method, url, body, signal)
    const text = utf8Text(bytes)
    if (!res.ok) throw new UpstreamHttpError(res.status, url.href, text.slice(0, 300), method)
    try {
      return JSON.parse(text) as T
    } catch {
      throw new UpstreamProtocolError(url.href, 'response body is not valid JSON', method)
    }
  }

  async #fetch(
    method: string,
    url: URL,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<{ res: Response; bytes: Buffer }> {
    const timeout = AbortSignal.timeout(this.#options.timeoutMs)
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout])
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.#options.headers?.(method, url.pathname),
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    try {
      const res = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: combined,
      })
      return { res, bytes: Buffer.from(await res.arrayBuffer()) }
    } catch (err) {
      if (signal?.aborted === true) throw err
      if (timeout.aborted) throw new UpstreamTimeoutError(url.href, this.#options.timeoutMs, method)
      throw new UpstreamNetworkError(method, url.href, err)
    }
  }
}

/** A body from `getBytes` parsed as JSON; a body that is not JSON is an UpstreamProtocolError (retryable). */
export function parseJsonBytes<T>(url: string, bytes: Buffer): T {
  try {
    return JSON.parse(utf8Text(bytes)) as T
  } catch {
    throw new UpstreamProtocolError(url, 'response body is not valid JSON')
  }
}

/** The body as text, as fetch's `text()` decodes it (UTF-8, a leading byte-order mark dropped). */
function utf8Text(bytes: Buffer): string {
  const text = bytes.toString('utf8')
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/**
 * Whether a failure is worth retrying: timeouts, network errors, 429 and 5xx, and a signing venue's 401 for an expired
 * signature timestamp (the request waited too long somewhere between signing and the venue reading it; each attempt
 * is signed anew, so the next one carries a fresh timestamp).
 */
export function isRetryable(err: unknown): boolean {
  if (err instanceof UpstreamHttpError)
    return (
      err.status === 429 ||
      err.status >= 500 ||
      (err.status === 401 && err.bodySnippet.includes('header_timestamp_expired'))
    )
  return (
    err instanceof UpstreamTimeoutError || err instanceof UpstreamProtocolError || err instanceof UpstreamNetworkError
  )
}

export interface RetryOptions {
  readonly attempts: number
  readonly baseMs: number
  readonly maxMs: number
  readonly signal?: AbortSignal
}

/** Runs `fn` until it succeeds, a non-retryable error occurs, or `attempts` are used (capped exponential backoff). */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  let lastError: unknown
  for (let attempt = 0; attempt < options.attempts; attempt++) {
    if (options.signal?.aborted === true) throw options.signal.reason
    try {
      return await fn()
    } catch (err) {
      lastError = err
      if (!isRetryable(err) || attempt === options.attempts - 1) throw err
      const delay = Math.min(options.maxMs, options.baseMs * 2 ** attempt) * (0.5 + Math.random() * 0.5)
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }
  throw lastError
}
