import type { Authenticator, RejectReason, Resolution } from '../accounts/authenticator.js'
import type { UsageMeter } from '../accounts/usage-meter.js'
import type { Clock } from '../core/clock.js'
import { AppError, retryAfter } from '../core/errors.js'
import type { GuardOutcome, RouteGuard } from './register.js'
import { errorReply, renderHeaderLines, type Reply } from './reply.js'
import type { AnyRoute, ResponseSpec } from './route.js'
import type { RequestContext } from './server.js'
import { ErrorBody } from './schemas/common.js'

/**
 * The `X-API-Key` guard of non-public routes (spec part 5, docs/DESIGN.md Auth): 401 `unauthorized` for a missing,
 * unknown or revoked key, 429 `rate_limited` with `Retry-After` when the key's bucket is empty, and
 * `X-RateLimit-Limit` / `X-RateLimit-Remaining` on every response it lets through.
 *
 * Two flavours: `metered` takes a token and counts the request (data, alert and key-management routes);
 * `unmetered` only identifies the caller and reports the bucket (the usage endpoint, which is free).
 *
 * Hot path (cached key): one LRU lookup, token arithmetic, one counter increment, and header tuples reused from a
 * small table; no hashing, no database, no promise.
 */
export const API_KEY_HEADER = 'x-api-key'
export const LIMIT_HEADER = 'x-ratelimit-limit'
export const REMAINING_HEADER = 'x-ratelimit-remaining'

export interface KeyGuards {
  readonly metered: RouteGuard
  readonly unmetered: RouteGuard
}

export function keyGuards(auth: Authenticator, meter: UsageMeter, clock: Clock): KeyGuards {
  const headers = new RateLimitHeaders(auth.rateLimit.burst)
  return {
    metered: new KeyGuard(auth, meter, clock, headers, true),
    unmetered: new KeyGuard(auth, meter, clock, headers, false),
  }
}

/** Prebuilt: a client sending a bad key in a loop gets the same reply object, not a new error each time. */
const REJECTED: Readonly<Record<RejectReason, Reply>> = {
  missing: errorReply(
    new AppError(
      401,
      'unauthorized',
      'Missing API key: send it in the X-API-Key header (POST /api/v2/developers/signup issues one).',
    ),
  ),
  malformed: errorReply(new AppError(401, 'unauthorized', 'Invalid API key.')),
  unknown: errorReply(new AppError(401, 'unauthorized', 'Invalid API key.')),
  revoked: errorReply(new AppError(401, 'unauthorized', 'This API key has been revoked.')),
  unavailable: errorReply(
    new AppError(503, 'auth_unavailable', 'API keys cannot be checked right now; retry shortly.', {
      headers: retryAfter(1),
    }),
  ),
}

class KeyGuard implements RouteGuard {
  readonly headers = [API_KEY_HEADER] as const
  /** 429 replies by Retry-After: a client hammering an empty bucket gets a prebuilt reply, not a fresh JSON body. */
  readonly #limitedReplies = new Map<number, Reply>()

  constructor(
    readonly auth: Authenticator,
    readonly meter: UsageMeter,
    readonly clock: Clock,
    readonly rateHeaders: RateLimitHeaders,
    readonly metered: boolean,
  ) {}

  check(ctx: RequestContext): GuardOutcome | Promise<GuardOutcome> {
    const now = this.clock.now()
    const resolved = this.auth.resolve(ctx.headers[API_KEY_HEADER], now)
    return resolved instanceof Promise
      ? resolved.then((r) => this.#admit(r, ctx, this.clock.now()))
      : this.#admit(resolved, ctx, now)
  }

  #admit(r: Resolution, ctx: RequestContext, now: number): GuardOutcome {
    if (r.kind === 'rejected') return REJECTED[r.reason]
    ctx.caller = r.caller
    if (!this.metered) {
      ctx.responseHeaderLines = this.rateHeaders.get(r.bucket.peek(now))
      return undefined
    }
    const remaining = r.bucket.take(now)
    this.meter.count(r.caller.keyId, r.caller.accountId, now, remaining < 0)
    if (remaining < 0) return this.#limited(r.bucket.retryAfterSeconds(now))
    ctx.responseHeaderLines = this.rateHeaders.get(remaining)
    return undefined
  }

  #limited(seconds: number): Reply {
    let reply = this.#limitedReplies.get(seconds)
    if (reply === undefined) {
      reply = this.#limitedReply(seconds)
      if (this.#limitedReplies.size < 64) this.#limitedReplies.set(seconds, reply)
    }
    return reply
  }

  #limitedReply(seconds: number): Reply {
    const { burst, perSecond } = this.auth.rateLimit
    const reply = errorReply(
      new AppError(
        429,
        'rate_limited',
        `Rate limit exceeded (bursts of ${burst}, ${perSecond} requests per second per key); retry in ${seconds} s.`,
        {
          extra: { retry_after_seconds: seconds },
          headers: retryAfter(seconds),
        },
      ),
    )
    return { ...reply, headerLines: this.rateHeaders.get(0) }
  }
}

/**
 * The two rate-limit headers in wire form for each remaining count, rendered once (counts above the table are
 * rendered per request). Written as two headers of their own they cost two native uWS calls per keyed response
 * (bench/auth.bench.ts uws); as lines they go out with the content type in one.
 */
class RateLimitHeaders {
  readonly #burst: number
  readonly #table: (string | undefined)[] = []

  constructor(burst: number) {
    this.#burst = burst
  }

  get(remaining: number): string {
    if (remaining > 4_096) return this.#render(remaining)
    return (this.#table[remaining] ??= this.#render(remaining))
  }

  #render(remaining: number): string {
    return renderHeaderLines([
      [LIMIT_HEADER, String(this.#burst)],
      [REMAINING_HEADER, String(remaining)],
    ])
  }
}

const RATE_HEADERS_DOC = {
  'X-RateLimit-Limit': 'Bucket size of this key (requests it may make at once after being idle).',
  'X-RateLimit-Remaining': 'Requests left in the bucket now; it refills continuously at the per-second rate.',
} as const

/**
 * The route as published in OpenAPI once the guard applies: the rate-limit headers on its responses and the
 * 429/503 the guard can answer (401 is implied for every non-public route by openapi.ts).
 */
export function documentGuard(route: AnyRoute, metered: boolean): AnyRoute {
  const responses: Record<number, ResponseSpec> = {}
  for (const [status, spec] of Object.entries(route.responses as Record<string, ResponseSpec>)) {
    responses[Number(status)] = { ...spec, headers: { ...spec.headers, ...RATE_HEADERS_DOC } }
  }
  if (metered) {
    responses[429] ??= {
      description: 'Rate limit of the key exceeded (`rate_limited`); `Retry-After` says when to retry.',
      schema: ErrorBody,
      headers: { 'Retry-After': 'Seconds until a request will be accepted.', ...RATE_HEADERS_DOC },
    }
  }
  responses[503] ??= {
    description:
      'Not ready, API keys cannot be checked right now (`auth_unavailable`), or the data store cannot be reached (`store_unavailable`).',
    schema: ErrorBody,
    headers: { 'Retry-After': 'Seconds.' },
  }
  return { ...route, responses }
}
