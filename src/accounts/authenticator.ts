import { LRUCache } from 'lru-cache'
import type { Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { KeyCredential } from '../store/api-keys-repo.js'
import { hashKey, looksLikeApiKey, sameDigest } from './api-key.js'
import { TokenBucket, type RateLimit } from './token-bucket.js'

/**
 * Resolves `X-API-Key` values to keys, with a cache in front of the store so an authenticated read normally
 * costs a map lookup: no database round trip, no hashing.
 *
 * - **Keyed by the raw key string.** Hashing on every request would cost more than the rest of auth together. The
 *   consequence: plaintext keys of recently used keys sit in this process's memory (as they do, briefly, in every
 *   request buffer). They are never logged, persisted or sent anywhere; a heap dump of a replica must be treated
 *   as a secret. The database only ever sees the SHA-256.
 * - **A miss** checks the key's shape (prefix, length, alphabet) first, then does one lookup by hash, shared by
 *   concurrent requests for the same key (single flight), at most `maxPendingLookups` at once (beyond: 503, so a
 *   flood of random keys cannot queue unbounded work on the database). Unknown and revoked keys are remembered
 *   in a second LRU for `unknownKeyTtlMs`: a repeated bad key does not reach the database either. (A key cannot
 *   be remembered as unknown before it exists: it would have to be guessed first.)
 * - **Revocation** evicts by key id: at once on the replica that revoked (`evict` before the response), through
 *   NOTIFY or the periodic poll on the others (ChangeWatcher: bound `revocationPollMs`). A lookup that was in
 *   flight while its key was revoked is caught by `recentlyRevoked`. As a last resort every cached key is
 *   re-read in the background every `revalidateMs` (the request is still served from the cache).
 * - **Rate limits**: each cached key carries its token bucket, so limits cost no extra lookup. A key pushed out
 *   of the LRU starts again with a full bucket; the LRU holds far more keys than are active at once.
 */
export interface KeyLookup {
  findByHash(hash: string): Promise<KeyCredential | undefined>
}

/** Who made a request, as the handlers see it. */
export interface Caller {
  readonly accountId: string
  readonly keyId: string
}

export interface CachedKey {
  readonly kind: 'key'
  readonly caller: Caller
  readonly bucket: TokenBucket
  validatedAt: number
  revalidating: boolean
}

export type RejectReason = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'unavailable'

export interface Rejection {
  readonly kind: 'rejected'
  readonly reason: RejectReason
}

export type Resolution = CachedKey | Rejection

export interface AuthenticatorOptions {
  readonly keys: KeyLookup
  readonly clock: Clock
  readonly keyPrefix: string
  readonly rateLimit: RateLimit
  readonly maxKeys: number
  readonly maxUnknownKeys: number
  readonly unknownKeyTtlMs: number
  readonly revalidateMs: number
  readonly maxPendingLookups: number
  readonly log: Logger
}

const REJECTIONS: Readonly<Record<RejectReason, Rejection>> = {
  missing: Object.freeze({ kind: 'rejected', reason: 'missing' }),
  malformed: Object.freeze({ kind: 'rejected', reason: 'malformed' }),
  unknown: Object.freeze({ kind: 'rejected', reason: 'unknown' }),
  revoked: Object.freeze({ kind: 'rejected', reason: 'revoked' }),
  unavailable: Object.freeze({ kind: 'rejected', reason: 'unavailable' }),
}

/** How long a revocation is remembered to catch lookups that raced it (far longer than any lookup). */
const RECENT_REVOCATION_MS = 120_000

export class Authenticator {
  readonly rateLimit: RateLimit
  readonly #o: AuthenticatorOptions
  readonly #valid: LRUCache<string, CachedKey>
  readonly #invalid: LRUCache<string, Rejection>
  /** key id → raw key of the cached entry, to evict by id. */
  readonly #rawById = new Map<string, string>()
  readonly #pending = new Map<string, Promise<Resolution>>()
  readonly #recentlyRevoked = new Map<string, number>()
  #lookups = 0

  constructor(options: AuthenticatorOptions) {
    this.#o = options
    this.rateLimit = options.rateLimit
    this.#valid = new LRUCache<string, CachedKey>({
      max: options.maxKeys,
      dispose: (entry, raw) => {
        if (this.#rawById.get(entry.caller.keyId) === raw) this.#rawById.delete(entry.caller.keyId)
      },
    })
    this.#invalid = new LRUCache<string, Rejection>({
      max: options.maxUnknownKeys,
      ttl: Math.max(1, options.unknownKeyTtlMs),
      ttlAutopurge: false,
    })
  }

  /** Database lookups done so far (tests assert the hot path does none). */
  get lookups(): number {
    return this.#lookups
  }

  /** The cached key, a rejection, or (cache miss) a promise of either. Never throws. `nowMs`: the caller's clock read. */
  resolve(raw: string | undefined, nowMs = this.#o.clock.now()): Resolution | Promise<Resolution> {
    if (raw === undefined || raw === '') return REJECTIONS.missing
    const hit = this.#valid.get(raw)
    if (hit !== undefined) {
      if (!hit.revalidating && nowMs - hit.validatedAt >= this.#o.revalidateMs) this.#revalidate(raw, hit)
      return hit
    }
    const known = this.#invalid.get(raw)
    if (known !== undefined) return known
    if (!looksLikeApiKey(this.#o.keyPrefix, raw)) return REJECTIONS.malformed
    const inFlight = this.#pending.get(raw)
    if (inFlight !== undefined) return inFlight
    if (this.#pending.size >= this.#o.maxPendingLookups) return REJECTIONS.unavailable
    const p = this.#load(raw)
    this.#pending.set(raw, p)
    void p.finally(() => this.#pending.delete(raw))
    return p
  }

  /** Forgets revoked keys at once (this replica's revocations, NOTIFY and the poll all end here). */
  evict(keyIds: Iterable<string>): void {
    const now = this.#o.clock.now()
    for (const id of keyIds) {
      this.#recentlyRevoked.set(id, now)
      const raw = this.#rawById.get(id)
      if (raw === undefined) continue
      this.#valid.delete(raw)
      this.#invalid.set(raw, REJECTIONS.revoked)
    }
    for (const [id, at] of this.#recentlyRevoked) if (now - at > RECENT_REVOCATION_MS) this.#recentlyRevoked.delete(id)
  }

  /** Whole tokens left in a cached key's bucket (undefined when the key is not cached). */
  remaining(keyId: string): number | undefined {
    const raw = this.#rawById.get(keyId)
    const entry = raw === undefined ? undefined : this.#valid.peek(raw)
    return entry?.bucket.peek(this.#o.clock.now())
  }

  /** Drops every cached key (tests; an operator could wire it to a signal). */
  clear(): void {
    this.#valid.clear()
    this.#invalid.clear()
  }

  async #load(raw: string): Promise<Resolution> {
    const hash = hashKey(raw)
    let row: KeyCredential | undefined
    try {
      this.#lookups++
      row = await this.#o.keys.findByHash(hash)
    } catch (err) {
      this.#o.log.warn({ err }, 'API key lookup failed')
      return REJECTIONS.unavailable
    }
    const verdict = this.#verdict(row, hash)
    if (verdict !== undefined) {
      this.#invalid.set(raw, verdict)
      return verdict
    }
    const credential = row as KeyCredential
    const entry: CachedKey = {
      kind: 'key',
      caller: Object.freeze({ accountId: credential.accountId, keyId: credential.id }),
      bucket: new TokenBucket(this.rateLimit, this.#o.clock.now()),
      validatedAt: this.#o.clock.now(),
      revalidating: false,
    }
    this.#valid.set(raw, entry)
    this.#rawById.set(credential.id, raw)
    return entry
  }

  /** undefined when the row is a live key matching `hash`, else the rejection. */
  #verdict(row: KeyCredential | undefined, hash: string): Rejection | undefined {
    if (row === undefined || !sameDigest(row.hash, hash)) return REJECTIONS.unknown
    if (row.revokedAt !== null || this.#recentlyRevoked.has(row.id)) return REJECTIONS.revoked
    return undefined
  }

  #revalidate(raw: string, entry: CachedKey): void {
    entry.revalidating = true
    const hash = hashKey(raw)
    this.#lookups++
    this.#o.keys.findByHash(hash).then(
      (row) => {
        entry.revalidating = false
        const verdict = this.#verdict(row, hash)
        if (verdict === undefined) entry.validatedAt = this.#o.clock.now()
        else if (this.#valid.peek(raw) === entry) {
          this.#valid.delete(raw)
          this.#invalid.set(raw, verdict)
        }
      },
      (err: unknown) => {
        // Keep serving from the cache; the next request past revalidateMs tries again.
        entry.revalidating = false
        this.#o.log.warn({ err }, 'API key revalidation failed')
      },
    )
  }
}
