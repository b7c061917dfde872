import { LRUCache } from 'lru-cache'
import { TokenBucket, type RateLimit } from './token-bucket.js'

/**
 * A token bucket per client (an address or address block, see http/client-address.ts) for public endpoints that
 * have no API key to limit by: signup. The buckets live in an LRU of at most `maxClients` entries, so a flood from
 * many addresses costs bounded memory. An evicted client comes back with a full bucket: eviction only ever helps
 * the evicted, and the LRU holds far more clients than sign up within one refill period.
 *
 * Per replica, like the key buckets: N replicas behind a balancer allow up to N times the rate.
 */
export interface ClientThrottleOptions {
  readonly limit: RateLimit
  readonly maxClients: number
}

export type ThrottleResult =
  { readonly ok: true; readonly remaining: number } | { readonly ok: false; readonly retryAfterSeconds: number }

export class ClientThrottle {
  readonly limit: RateLimit
  readonly #buckets: LRUCache<string, TokenBucket>

  constructor(options: ClientThrottleOptions) {
    this.limit = options.limit
    this.#buckets = new LRUCache({ max: options.maxClients })
  }

  /** Takes a token from `client`'s bucket. */
  take(client: string, nowMs: number): ThrottleResult {
    let bucket = this.#buckets.get(client)
    if (bucket === undefined) {
      bucket = new TokenBucket(this.limit, nowMs)
      this.#buckets.set(client, bucket)
    }
    const remaining = bucket.take(nowMs)
    return remaining < 0 ? { ok: false, retryAfterSeconds: bucket.retryAfterSeconds(nowMs) } : { ok: true, remaining }
  }

  /** Clients with a bucket now (at most `maxClients`). */
  get size(): number {
    return this.#buckets.size
  }
}
