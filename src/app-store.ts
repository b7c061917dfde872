import type { Clock } from './core/clock.js'
import type { Logger } from './core/logger.js'
import type { Config } from './config/schema.js'
import { Authenticator } from './accounts/authenticator.js'
import { DeveloperService } from './accounts/developer-service.js'
import { UsageMeter } from './accounts/usage-meter.js'
import { AccountRepository } from './store/accounts-repo.js'
import { AlertRuleChanges } from './store/alert-rule-changes.js'
import { AlertRuleRepository } from './store/alert-rules-repo.js'
import { ApiKeyRepository } from './store/api-keys-repo.js'
import { ChangeWatcher } from './store/change-watcher.js'
import type { Db } from './store/db.js'
import { UsageRepository } from './store/usage-repo.js'

/**
 * The accounts side of the app over its store: API keys and their cache, usage metering, developer accounts, alert
 * rules and the watcher that carries other replicas' revocations and rule changes. Every role runs it (an edge
 * checks keys and writes rules like any process); src/app.ts starts it first and stops it last.
 */
/** The accounts side of a running app: what the alert evaluator and tests reach for. */
export interface AppStore {
  readonly db: Db
  readonly auth: Authenticator
  readonly developers: DeveloperService
  readonly alertRules: AlertRuleRepository
  /** Published after every rule change (this replica's writes at once, other replicas' via NOTIFY or poll). */
  readonly alertRuleChanges: AlertRuleChanges
  readonly usage: UsageMeter
  readonly watcher: ChangeWatcher
}

export async function startStore(config: Config, db: Db, clock: Clock, log: Logger): Promise<AppStore> {
  const a = config.auth
  const keys = new ApiKeyRepository(db)
  const alertRuleChanges = new AlertRuleChanges()
  const alertRules = new AlertRuleRepository(db, alertRuleChanges)
  const usageRepo = new UsageRepository(db)
  const authLog = log.child({ component: 'auth' })
  const auth = new Authenticator({
    keys,
    clock,
    keyPrefix: a.keyPrefix,
    rateLimit: a.rateLimit,
    maxKeys: a.cache.maxKeys,
    maxUnknownKeys: a.cache.maxUnknownKeys,
    unknownKeyTtlMs: a.cache.unknownKeyTtlMs,
    revalidateMs: a.cache.revalidateMs,
    maxPendingLookups: a.cache.maxPendingLookups,
    log: authLog,
  })
  const usage = new UsageMeter({
    repo: usageRepo,
    clock,
    flushMs: a.usage.flushMs,
    retentionDays: a.usage.retentionDays,
    log: authLog,
  })
  const watcher = new ChangeWatcher({
    db,
    keys,
    rules: alertRules,
    ruleChanges: alertRuleChanges,
    onKeysRevoked: (ids) => auth.evict(ids),
    clock,
    pollMs: a.revocationPollMs,
    log: log.child({ component: 'store-watcher' }),
  })
  await watcher.start()
  usage.start()
  const accounts = new AccountRepository(db)
  const developers = new DeveloperService({
    accounts,
    keys,
    usage: usageRepo,
    meter: usage,
    auth,
    clock,
    keyPrefix: a.keyPrefix,
    maxActiveKeys: a.maxActiveKeysPerAccount,
  })
  return { db, auth, developers, alertRules, alertRuleChanges, usage, watcher }
}

/** Stops the store's background work, writes the last usage counts, then closes the store if the app opened it. */
export async function stopStore(store: AppStore, ownsDb: boolean): Promise<void> {
  await store.watcher.stop()
  await store.usage.stop()
  if (ownsDb) await store.db.close()
}
