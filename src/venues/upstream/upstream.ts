import type { Clock } from '../../core/clock.js'
import {
  HttpClient,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamProtocolError,
  UpstreamTimeoutError,
  type QueryValue,
} from '../http-client.js'
import { CircuitBreaker, type BreakerState } from './breaker.js'
import { isVenueFailure, UpstreamRejectedError, type UpstreamName } from './errors.js'
import { SlidingWindowLimiter } from './rate-limiter.js'
import { SingleFlight } from './single-flight.js'
import type { TtlCache } from './ttl-cache.js'

/**
 * One venue host (e.g. a venue's catalog, book or data API) as the latency-sensitive proxies use it. Every call goes,
 * in order, through:
 *
 * 1. the cache (TTL per answer, chosen by the caller: see a venue's proxy TTL table, e.g. src/venues/<venue>/proxy/ttl.ts);
 * 2. single flight: identical concurrent calls share one request;
 * 3. the circuit breaker (refused at once while open, see breaker.ts);
 * 4. the client-side rate limiter at the venue's published limits (refused at once when the budget is used);
 * 5. the HTTP call with this host's timeout, no retry (a retry doubles the worst-case latency; the client can
 *    retry with better knowledge of its own deadline).
 *
 * Callers convert the body with `parse`, which throws `UpstreamProtocolError` on a shape it cannot use: such
 * an answer counts as a venue failure and is never cached. Failures map to API errors in errors.ts.
 *
 * @example
 * const clob = new Upstream({ name: 'clob', baseUrl, timeoutMs: 2_000, clock, cache, breaker: { failureThreshold: 5, openMs: 30_000 },
 *   limits: { windowMs: 10_000, general: 9_000, routes: { '/book': 1_500 } } })
 * const book = await clob.get({ path: '/book', query: { token_id }, parse: parseBook, ttlMs: () => 1_000 })
 */
export interface UpstreamLimits {
  readonly windowMs: number
  /** Calls per window across every path of the host. */
  readonly general: number
  /** Calls per window for particular paths (exact path match), on top of `general`. */
  readonly routes?: Readonly<Record<string, number>>
}

export interface UpstreamOptions {
  readonly name: UpstreamName
  readonly baseUrl: string
  readonly timeoutMs: number
  readonly clock: Clock
  readonly limits: UpstreamLimits
  readonly breaker: { readonly failureThreshold: number; readonly openMs: number }
  readonly cache: TtlCache
}

export interface FetchSpec<T> {
  readonly path: string
  readonly query?: Readonly<Record<string, QueryValue>>
  /** Cache and single-flight key; defaults to the request URL. */
  readonly key?: string
  /** Checks and converts the JSON body; throws `UpstreamProtocolError` for a shape it cannot use. */
  readonly parse: (body: unknown, url: string) => T
  /** How long this answer may be served from the cache; 0 = not cached (still single-flight). */
  readonly ttlMs: (value: T) => number
  /** The value a 404 stands for (e.g. "no such profile"); without it a 404 is an error. */
  readonly notFound?: () => T
  /** Estimated bytes, for the cache's size bound. */
  readonly sizeOf?: (value: T) => number
}

export interface UpstreamStats {
  readonly name: UpstreamName
  readonly breaker: BreakerState
  /** Requests actually sent to the venue. */
  readonly calls: number
  readonly cacheHits: number
  /** Callers that shared another caller's in-flight request. */
  readonly joined: number
  readonly failures: number
  readonly refusedOpen: number
  readonly refusedRateLimit: number
}

export class Upstream {
  readonly name: UpstreamName
  readonly timeoutMs: number
  readonly #http: HttpClient
  readonly #cache: TtlCache
  readonly #breaker: CircuitBreaker
  readonly #limiter: SlidingWindowLimiter
  readonly #flights = new SingleFlight()
  readonly #generalKey: string
  #calls = 0
  #hits = 0
  #failures = 0
  #refusedRate = 0
  #refusedOpen = 0

  constructor(options: UpstreamOptions) {
    this.name = options.name
    this.timeoutMs = options.timeoutMs
    this.#http = new HttpClient({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs })
    this.#cache = options.cache
    this.#breaker = new CircuitBreaker({ clock: options.clock, ...options.breaker })
    this.#limiter = new SlidingWindowLimiter(options.clock)
    this.#generalKey = `${options.name} *`
    this.#limiter.define(this.#generalKey, options.limits.general, options.limits.windowMs)
    for (const [path, limit] of Object.entries(options.limits.routes ?? {})) {
      this.#limiter.define(`${options.name} ${path}`, limit, options.limits.windowMs)
    }
  }

  get breakerState(): BreakerState {
    return this.#breaker.state
  }

  stats(): UpstreamStats {
    return {
      name: this.name,
      breaker: this.#breaker.state,
      calls: this.#calls,
      cacheHits: this.#hits,
      joined: this.#flights.joined,
      failures: this.#failures,
      refusedOpen: this.#refusedOpen,
      refusedRateLimit: this.#refusedRate,
    }
  }

  /** The cache key of a spec (the request URL unless the spec names its own key). */
  keyOf(spec: Pick<FetchSpec<unknown>, 'path' | 'query' | 'key'>): string {
    return spec.key ?? `${this.name}:${this.#http.url(spec.path, spec.query).href}`
  }

  /**
   * The cached answer with its expiry (epoch ms on the upstream's clock), synchronously, or undefined: the fast
   * path of cached reads (no promise, no await).
   */
  peekEntry<T>(
    spec: Pick<FetchSpec<T>, 'path' | 'query' | 'key'>,
  ): { readonly value: T; readonly expiresAt: number } | undefined {
    const entry = this.#cache.entry<T>(this.keyOf(spec))
    if (entry !== undefined) this.#hits++
    return entry
  }

  /** When the cached answer of `spec` expires, if one is cached (not counted as a hit). */
  expiresAt(spec: Pick<FetchSpec<unknown>, 'path' | 'query' | 'key'>): number | undefined {
    return this.#cache.expiresAt(this.keyOf(spec))
  }

  get<T>(spec: FetchSpec<T>): Promise<T> {
    const key = this.keyOf(spec)
    const cached = this.#cache.get<T>(key)
    if (cached !== undefined) {
      this.#hits++
      return Promise.resolve(cached)
    }
    return this.#flights.run(key, () => this.#call(key, spec))
  }

  async #call<T>(key: string, spec: FetchSpec<T>): Promise<T> {
    // A breaker that is open refuses before the budget is touched; the permit (the probe, when half-open)
    // is taken only once the limiter has let the call through.
    const wait = this.#breaker.retryAfterMs()
    if (wait > 0) {
      this.#refusedOpen++
      throw new UpstreamRejectedError(this.name, 'circuit_open', wait)
    }
    // Paths without a window of their own are simply not found by the limiter: only the general window applies.
    const budgetWait = this.#limiter.tryAcquire([this.#generalKey, `${this.name} ${spec.path}`])
    if (budgetWait > 0) {
      this.#refusedRate++
      throw new UpstreamRejectedError(this.name, 'upstream_rate_limit', budgetWait)
    }
    const permit = this.#breaker.tryAcquire()
    if (!permit.ok) {
      this.#refusedOpen++
      throw new UpstreamRejectedError(this.name, 'circuit_open', permit.retryAfterMs)
    }
    this.#calls++
    let value: T
    try {
      value = await this.#fetch(spec)
    } catch (err) {
      if (isVenueFailure(err)) {
        this.#failures++
        this.#breaker.onFailure()
      } else {
        this.#breaker.onSuccess()
      }
      throw err
    }
    this.#breaker.onSuccess()
    this.#cache.set(key, value, spec.ttlMs(value), spec.sizeOf?.(value))
    return value
  }

  async #fetch<T>(spec: FetchSpec<T>): Promise<T> {
    const url = this.#http.url(spec.path, spec.query).href
    let body: unknown
    try {
      body = await this.#http.getJson<unknown>(spec.path, spec.query)
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.status === 404 && spec.notFound !== undefined) return spec.notFound()
      if (
        err instanceof UpstreamHttpError ||
        err instanceof UpstreamTimeoutError ||
        err instanceof UpstreamProtocolError ||
        err instanceof UpstreamNetworkError
      )
        throw err
      throw new UpstreamNetworkError('GET', url, err)
    }
    return spec.parse(body, url)
  }
}
