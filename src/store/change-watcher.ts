import type { Clock, TimerHandle } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { AlertRuleChanges } from './alert-rule-changes.js'
import { ALERT_RULES_CHANNEL, type AlertRuleRepository } from './alert-rules-repo.js'
import { KEY_REVOKED_CHANNEL, type ApiKeyRepository } from './api-keys-repo.js'
import type { Db } from './db.js'

/**
 * Brings other replicas' writes into this process's caches: revoked API keys (evicted from the auth cache) and
 * alert-rule versions (published to the in-process evaluator).
 *
 * Two paths, so a lost notification costs latency, never correctness:
 * 1. Postgres LISTEN: the revoking replica NOTIFYs in its transaction; others hear it on commit (milliseconds).
 * 2. A poll every `pollMs` (both backends): keys revoked since the previous poll (with a grace window for
 *    transactions that committed late and for clock skew between replicas), and the newest rule version.
 *    This is the stated bound: a revocation reaches every replica within `pollMs` plus one query, even when
 *    NOTIFY is not heard.
 */
export interface ChangeWatcherOptions {
  readonly db: Db
  readonly keys: ApiKeyRepository
  readonly rules: AlertRuleRepository
  readonly ruleChanges: AlertRuleChanges
  readonly onKeysRevoked: (keyIds: readonly string[]) => void
  readonly clock: Clock
  readonly pollMs: number
  readonly log: Logger
}

/** Revocations are re-read for this long after the poll that could first have seen them. */
const GRACE_MS = 60_000

export class ChangeWatcher {
  readonly #o: ChangeWatcherOptions
  readonly #unlisten: (() => Promise<void>)[] = []
  #timer: TimerHandle | undefined
  #polling: Promise<void> | undefined
  /** Clock time at the start of the last successful poll. */
  #watermark: number | undefined
  #failures = 0

  constructor(options: ChangeWatcherOptions) {
    this.#o = options
  }

  async start(): Promise<void> {
    const { db } = this.#o
    const catchUp = () => void this.poll()
    this.#unlisten.push(await db.listen(db.channel(KEY_REVOKED_CHANNEL), (id) => this.#o.onKeysRevoked([id]), catchUp))
    this.#unlisten.push(
      await db.listen(
        db.channel(ALERT_RULES_CHANNEL),
        (v) => {
          const version = Number(v)
          if (Number.isFinite(version)) this.#o.ruleChanges.publish(version)
        },
        catchUp,
      ),
    )
    await this.poll()
    this.#timer = this.#o.clock.setInterval(catchUp, this.#o.pollMs)
  }

  /** One poll; concurrent calls share it. Never throws (a failing store is logged and retried next period). */
  poll(): Promise<void> {
    this.#polling ??= this.#poll().finally(() => {
      this.#polling = undefined
    })
    return this.#polling
  }

  async stop(): Promise<void> {
    this.#o.clock.clearInterval(this.#timer)
    this.#timer = undefined
    await this.#polling
    await Promise.all(this.#unlisten.splice(0).map((f) => f()))
  }

  async #poll(): Promise<void> {
    const startedAt = this.#o.clock.now()
    const since = (this.#watermark ?? startedAt) - GRACE_MS
    try {
      const [revoked, version] = await Promise.all([this.#o.keys.revokedSince(since), this.#o.rules.currentVersion()])
      if (revoked.length > 0) this.#o.onKeysRevoked(revoked)
      this.#o.ruleChanges.publish(version)
      this.#watermark = startedAt
      if (this.#failures > 0) this.#o.log.info({ failures: this.#failures }, 'store poll recovered')
      this.#failures = 0
    } catch (err) {
      // Log the first failure and then every 60th, not one line per second while the store is down.
      if (this.#failures++ % 60 === 0) {
        this.#o.log.warn(
          { err, failures: this.#failures },
          'store poll failed; revocations from other replicas are delayed',
        )
      }
    }
  }
}
