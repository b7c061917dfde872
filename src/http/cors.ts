import { renderHeaderLines } from './reply.js'

/**
 * CORS (the Fetch standard's cross-origin protocol) for browser pages on other origins: which origins may read
 * responses, and the answer to a preflight. Configured by `http.corsAllowedOrigins` (CORS_ALLOWED_ORIGINS).
 *
 * - Empty (the default): no CORS header on any response; browsers then let only same-origin pages read the API.
 *   Non-browser clients are not affected by CORS at all.
 * - `*`: `Access-Control-Allow-Origin: *` on every response. Safe for this API because its credential is a header
 *   (`X-API-Key`), not a cookie: a page can only send a key it already holds, so `*` gives a page no more than a
 *   script outside the browser has. Credentials mode is never allowed (no `Access-Control-Allow-Credentials`).
 *   Not for a deployment with AUTH_REQUIRED=false on a private network: any page a user opens could read and write it.
 * - A list of origins: a request whose `Origin` is listed gets it echoed, others get no CORS header; every response
 *   says `Vary: Origin` (the answer depends on it), so a shared cache never hands one origin's answer to another.
 *
 * Responses expose `ETag`, the rate-limit headers and `Retry-After` to scripts (the others a script needs are
 * CORS-safelisted). A preflight (`OPTIONS`) needs no API key (browsers never send one with it), is not metered or
 * rate limited, and is answered 204 with the path's methods, the request headers the API reads and a max age.
 */
export const CORS_ALLOWED_HEADERS: readonly string[] = ['X-API-Key', 'X-User-Id', 'Content-Type', 'If-None-Match']
export const CORS_EXPOSED_HEADERS: readonly string[] = [
  'ETag',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'Retry-After',
]
/** How long a browser may reuse a preflight answer: 2 h, Chromium's cap (Firefox allows 24 h). */
export const CORS_MAX_AGE_SECONDS = 7_200

export class CorsPolicy {
  /** Allowed origins, lowercase (browsers send origins lowercase). */
  readonly #origins: ReadonlySet<string>
  readonly #any: boolean
  /** Origin → the lines an actual response to it carries. */
  readonly #lines: ReadonlyMap<string, string>

  private constructor(origins: readonly string[]) {
    const lower = origins.map((o) => o.toLowerCase())
    this.#any = lower.includes('*')
    this.#origins = new Set(this.#any ? ['*'] : lower)
    this.#lines = new Map([...this.#origins].map((o) => [o, responseLines(o)]))
  }

  /** From `http.corsAllowedOrigins` (the config schema checks each is `*` or `scheme://host[:port]`). */
  static fromConfig(origins: readonly string[]): CorsPolicy {
    return new CorsPolicy(origins)
  }

  /** No origin is allowed: responses carry no CORS header. */
  static none(): CorsPolicy {
    return new CorsPolicy([])
  }

  /**
   * Responses depend on the request's `Origin` (a list of origins), so the server must read it and every response
   * says `Vary: Origin`. With no origin or `*` they never do.
   */
  get variesByOrigin(): boolean {
    return !this.#any && this.#origins.size > 0
  }

  /** Lines (`renderHeaderLines` form) for an actual response to a request from `origin`: '' when none apply. */
  lines(origin: string | undefined): string {
    const allowed = this.#allowed(origin)
    return allowed === undefined ? '' : (this.#lines.get(allowed) as string)
  }

  /**
   * Lines of the 204 answer to `OPTIONS` on a path whose methods are `allow` (e.g. `GET, HEAD, OPTIONS`): `Allow`
   * always (an OPTIONS without CORS asks what the path supports), the preflight headers when the origin is allowed.
   */
  preflightLines(origin: string | undefined, allow: string): string {
    const allowed = this.#allowed(origin)
    const grant =
      allowed === undefined
        ? ''
        : renderHeaderLines([
            ['access-control-allow-origin', allowed],
            ['access-control-allow-methods', allow],
            ['access-control-allow-headers', CORS_ALLOWED_HEADERS.join(', ')],
            ['access-control-max-age', String(CORS_MAX_AGE_SECONDS)],
          ])
    return renderHeaderLines([['allow', allow]]) + grant + (this.variesByOrigin ? VARY_ORIGIN_LINE : '')
  }

  /** The value to send as `Access-Control-Allow-Origin` for `origin` (`*` or the listed origin), or undefined. */
  #allowed(origin: string | undefined): string | undefined {
    if (this.#any) return '*'
    if (origin === undefined || this.#origins.size === 0) return undefined
    if (this.#origins.has(origin)) return origin
    const lower = origin.toLowerCase()
    return this.#origins.has(lower) ? lower : undefined
  }
}

export const VARY_ORIGIN_LINE = renderHeaderLines([['vary', 'Origin']])

function responseLines(origin: string): string {
  return renderHeaderLines([
    ['access-control-allow-origin', origin],
    ['access-control-expose-headers', CORS_EXPOSED_HEADERS.join(', ')],
  ])
}
