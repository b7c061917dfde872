import type { ClientThrottle } from '../accounts/client-throttle.js'
import type { Clock } from '../core/clock.js'
import { AppError, retryAfter } from '../core/errors.js'
import type { Cidr } from '../core/ip.js'
import { clientKey } from './client-address.js'
import type { GuardOutcome, RouteGuard } from './register.js'
import { errorReply, type Reply } from './reply.js'
import type { RequestContext } from './server.js'

/**
 * The throttle of `POST /api/v2/developers/signup`, the one write anyone may make without a key: a token bucket per
 * client address (client-address.ts, accounts/client-throttle.ts), taken before the body is validated, so
 * malformed attempts count too. An empty bucket is 429 `rate_limited` with `retry_after_seconds` and
 * `Retry-After`, like the key rate limit (auth.ts).
 */
export const FORWARDED_FOR_HEADER = 'x-forwarded-for'

export class SignupGuard implements RouteGuard {
  readonly headers: readonly string[]
  readonly remoteAddress = true
  readonly #throttle: ClientThrottle
  readonly #clock: Clock
  readonly #trustedProxies: readonly Cidr[]
  readonly #replies = new Map<number, Reply>()

  constructor(throttle: ClientThrottle, clock: Clock, trustedProxies: readonly Cidr[]) {
    this.#throttle = throttle
    this.#clock = clock
    this.#trustedProxies = trustedProxies
    // X-Forwarded-For is read only when someone is trusted to write it.
    this.headers = trustedProxies.length > 0 ? [FORWARDED_FOR_HEADER] : []
  }

  check(ctx: RequestContext): GuardOutcome {
    const client = clientKey(ctx.remoteAddress, ctx.headers[FORWARDED_FOR_HEADER], this.#trustedProxies)
    const out = this.#throttle.take(client, this.#clock.now())
    return out.ok ? undefined : this.#limited(out.retryAfterSeconds)
  }

  #limited(seconds: number): Reply {
    let reply = this.#replies.get(seconds)
    if (reply === undefined) {
      const { burst, perSecond } = this.#throttle.limit
      const perMinute = Math.round(perSecond * 60 * 100) / 100
      const detail = `Too many signups from your address (bursts of ${burst}, then ${perMinute} per minute); retry in ${seconds} s.`
      reply = errorReply(
        new AppError(429, 'rate_limited', detail, {
          extra: { retry_after_seconds: seconds },
          headers: retryAfter(seconds),
        }),
      )
      if (this.#replies.size < 64) this.#replies.set(seconds, reply)
    }
    return reply
  }
}
