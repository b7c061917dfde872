import { randomUUID } from 'node:crypto'
import type { Clock } from '../core/clock.js'
import type { Account, AccountRepository, SignupInput } from '../store/accounts-repo.js'
import type { ApiKeyRecord, ApiKeyRepository, RevokeKeyResult } from '../store/api-keys-repo.js'
import type { UsageCounts, UsageRepository, UsageWindows } from '../store/usage-repo.js'
import { generateApiKey } from './api-key.js'
import type { Authenticator, Caller } from './authenticator.js'
import type { RateLimit } from './token-bucket.js'
import type { PendingDelta, UsageMeter } from './usage-meter.js'

/**
 * Developer accounts and keys as the API exposes them (spec 4.5, part 5): signup, key creation, listing,
 * revocation and usage. Key values are generated here and leave only in the one response that creates them;
 * what is stored is the hash (accounts/api-key.ts).
 */
export interface DeveloperServiceOptions {
  readonly accounts: AccountRepository
  readonly keys: ApiKeyRepository
  readonly usage: UsageRepository
  readonly meter: UsageMeter
  readonly auth: Authenticator
  readonly clock: Clock
  readonly keyPrefix: string
  readonly maxActiveKeys: number
}

export type SignupOutcome =
  | { readonly created: true; readonly account: Account; readonly apiKey: string; readonly key: ApiKeyRecord }
  | { readonly created: false; readonly account: Account }

export type CreateKeyOutcome =
  | { readonly kind: 'created'; readonly apiKey: string; readonly key: ApiKeyRecord }
  | { readonly kind: 'limit'; readonly max: number }
  | { readonly kind: 'no_account' }

export interface UsageReport {
  readonly caller: Caller
  readonly key: ApiKeyRecord | undefined
  readonly remaining: number | undefined
  readonly keyUsage: UsageCounts
  readonly accountUsage: UsageCounts
  readonly asOf: number
}

/** Name of the key created with the account. */
const FIRST_KEY_NAME = 'default'
const MINUTE_MS = 60_000

export class DeveloperService {
  readonly #o: DeveloperServiceOptions

  constructor(options: DeveloperServiceOptions) {
    this.#o = options
  }

  get rateLimit(): RateLimit {
    return this.#o.auth.rateLimit
  }

  /** Creates the account with a first key, or updates company and use case of the existing one (no key). */
  async signup(input: SignupInput): Promise<SignupOutcome> {
    const key = generateApiKey(this.#o.keyPrefix)
    const stored = { id: randomUUID(), name: FIRST_KEY_NAME, hash: key.hash, displayPrefix: key.displayPrefix }
    const result = await this.#o.accounts.signup(randomUUID(), input, stored, this.#o.clock.now())
    if (!result.created) return { created: false, account: result.account }
    return { created: true, account: result.account, apiKey: key.value, key: result.key }
  }

  async createKey(caller: Caller, name: string): Promise<CreateKeyOutcome> {
    const key = generateApiKey(this.#o.keyPrefix)
    const stored = { id: randomUUID(), name, hash: key.hash, displayPrefix: key.displayPrefix }
    const result = await this.#o.keys.create(caller.accountId, stored, this.#o.clock.now(), this.#o.maxActiveKeys)
    return result.kind === 'created' ? { kind: 'created', apiKey: key.value, key: result.key } : result
  }

  /** The account's e-mail address (the default target of its e-mail alert rules); undefined if it is gone. */
  async accountEmail(accountId: string): Promise<string | undefined> {
    return (await this.#o.accounts.get(accountId))?.email
  }

  listKeys(caller: Caller): Promise<ApiKeyRecord[]> {
    return this.#o.keys.list(caller.accountId)
  }

  /** Revokes, then evicts the key from this replica's cache before answering: 401 from the next request on. */
  async revokeKey(caller: Caller, keyId: string): Promise<RevokeKeyResult> {
    const result = await this.#o.keys.revoke(caller.accountId, keyId, this.#o.clock.now())
    if (result.kind === 'revoked') this.#o.auth.evict([keyId])
    return result
  }

  /** Stored counts of every replica plus this replica's counts not flushed yet. */
  async usage(caller: Caller): Promise<UsageReport> {
    const now = this.#o.clock.now()
    const [stored, key] = await Promise.all([
      this.#o.usage.summary(caller.keyId, caller.accountId, now),
      this.#o.keys.get(caller.accountId, caller.keyId),
    ])
    const pending = this.#o.meter.pending()
    return {
      caller,
      key,
      remaining: this.#o.auth.remaining(caller.keyId),
      keyUsage: addPending(
        stored.key,
        pending.filter((d) => d.keyId === caller.keyId),
        now,
      ),
      accountUsage: addPending(
        stored.account,
        pending.filter((d) => d.accountId === caller.accountId),
        now,
      ),
      asOf: now,
    }
  }
}

function addPending(counts: UsageCounts, deltas: readonly PendingDelta[], nowMs: number): UsageCounts {
  const minute = nowMs - (nowMs % MINUTE_MS)
  const add = (w: UsageWindows, pick: (d: PendingDelta) => number): UsageWindows => {
    let { currentMinute, lastHour, lastDay } = w
    for (const d of deltas) {
      const age = (minute - d.minuteMs) / MINUTE_MS
      const n = pick(d)
      if (age < 0 || age >= 24 * 60) continue
      lastDay += n
      if (age < 60) lastHour += n
      if (age === 0) currentMinute += n
    }
    return { currentMinute, lastHour, lastDay }
  }
  return {
    requests: add(counts.requests, (d) => d.requests),
    rateLimited: add(counts.rateLimited, (d) => d.rateLimited),
  }
}
