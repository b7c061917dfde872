import { randomUUID } from 'node:crypto'
import type { AlertsConfig } from '../config/schema.js'
import type { Clock, TimerHandle } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import { MS_PER_DAY, MS_PER_HOUR } from '../core/time.js'
import type { AlertRuleChanges } from '../store/alert-rule-changes.js'
import type { AlertRule } from './rule-types.js'
import type { AlertRuleRepository } from '../store/alert-rules-repo.js'
import { AlertDeliveryRepository, type Delivery } from '../store/alert-deliveries-repo.js'
import { AlertStateRepository } from '../store/alert-state-repo.js'
import type { Db } from '../store/db.js'
import { warnIfEmailUnconfigured } from './channel-readiness.js'
import { deliveryPayload } from './delivery-payload.js'
import { DeliveryWorker } from './delivery-worker.js'
import { EmailSender } from './email-sender.js'
import { AlertEvaluator, type SpreadSource } from './evaluator.js'
import { OutboxWriter } from './outbox-writer.js'
import { RuleSync } from './rule-sync.js'
import { WebhookSender } from './webhook-sender.js'
import { WebhookTargets } from './webhook-target.js'

/**
 * Alerts, assembled: rule sync → evaluator (on the spread engine) → outbox writer → store ← delivery worker →
 * webhook / e-mail. Built synchronously (routes need it); `start` loads the rules and their state, then listens;
 * `stop` is the graceful shutdown: no more evaluation, every queued decision written to the outbox, in-flight
 * deliveries finished or handed back. It must run after the engine has stopped and before the store closes.
 */
export interface AlertServiceOptions {
  readonly db: Db
  readonly source: SpreadSource
  readonly rules: AlertRuleRepository
  readonly ruleChanges: AlertRuleChanges
  readonly clock: Clock
  readonly log: Logger
  readonly config: AlertsConfig
  /** The webhook target check (policy and resolver), shared with rule creation; built from `config.webhook` when absent. */
  readonly webhookTargets?: WebhookTargets
}

/** A firing as recorded: its outbox row (the durable delivery id is `delivery.id`) and the rule's account. */
export interface Firing {
  readonly delivery: Delivery
  readonly accountId: string | null
}

export class AlertService {
  readonly deliveries: AlertDeliveryRepository
  readonly state: AlertStateRepository
  readonly evaluator: AlertEvaluator
  readonly writer: OutboxWriter
  readonly worker: DeliveryWorker
  readonly #sync: RuleSync
  readonly #o: AlertServiceOptions
  #pruneTimer: TimerHandle | undefined
  #stopped = false
  readonly #firingListeners = new Set<(firing: Firing) => void>()

  constructor(o: AlertServiceOptions) {
    const c = o.config
    this.#o = o
    this.deliveries = new AlertDeliveryRepository(o.db)
    this.state = new AlertStateRepository(o.db)
    const log = o.log
    this.worker = new DeliveryWorker({
      repo: this.deliveries,
      senders: {
        webhook: new WebhookSender({
          clock: o.clock,
          timeoutMs: c.delivery.webhookTimeoutMs,
          targets: o.webhookTargets ?? WebhookTargets.fromConfig(c.webhook),
        }),
        email: new EmailSender(c.smtp),
      },
      clock: o.clock,
      log: log.child({ part: 'delivery' }),
      concurrency: c.delivery.concurrency,
      leaseMs: c.delivery.leaseMs,
      pollMs: c.delivery.pollMs,
      retry: { baseMs: c.delivery.backoffBaseMs, maxMs: c.delivery.backoffMaxMs, maxAttempts: c.delivery.maxAttempts },
    })
    this.writer = new OutboxWriter({
      state: this.state,
      clock: o.clock,
      log,
      capacity: c.queueCapacity,
      onFired: (delivery, accountId) => {
        this.worker.wake()
        for (const listener of this.#firingListeners) listener({ delivery, accountId })
      },
    })
    this.evaluator = new AlertEvaluator({
      source: o.source,
      writer: this.writer,
      clock: o.clock,
      log,
      hysteresis: c.hysteresis,
      newPairWindowMs: c.newPairWindowMs,
      newPairSettleMs: c.newPairSettleMs,
    })
    this.#sync = new RuleSync({
      rules: o.rules,
      changes: o.ruleChanges,
      state: this.state,
      evaluator: this.evaluator,
      clock: o.clock,
      log,
    })
  }

  /**
   * Calls `listener` with every firing this process records, once its outbox row is committed (the stream's
   * `alerts` channel). Returns the unsubscribe function.
   */
  onFiring(listener: (firing: Firing) => void): () => void {
    this.#firingListeners.add(listener)
    return () => this.#firingListeners.delete(listener)
  }

  /** Loads the rules with their state, then evaluates every spread change and delivers. */
  async start(): Promise<void> {
    const d = this.#o.config.delivery
    if (d.leaseMs <= d.webhookTimeoutMs) {
      throw new Error(
        `alerts.delivery.leaseMs (${d.leaseMs}) must exceed webhookTimeoutMs (${d.webhookTimeoutMs}), or a slow webhook is sent twice`,
      )
    }
    warnIfEmailUnconfigured(this.#o.log, this.#o.config.smtp)
    this.evaluator.start(await this.state.seenPairs())
    await this.#sync.start()
    this.worker.start()
    this.#pruneTimer = this.#o.clock.setInterval(() => void this.#prune(), MS_PER_HOUR)
  }

  /** Queues a test delivery of `rule` through the outbox (the same worker path as a firing). */
  async sendTest(rule: AlertRule): Promise<Delivery> {
    const now = this.#o.clock.now()
    const id = randomUUID()
    const dedupeKey = `test:${id}`
    const record = this.evaluator.sampleRecord(rule)
    const payload = deliveryPayload({ deliveryId: id, dedupeKey, rule, record, firedAt: now, test: true })
    const delivery = await this.deliveries.enqueue({
      id,
      ruleId: rule.id,
      pairKey: record?.key ?? null,
      dedupeKey,
      test: true,
      channel: rule.channel,
      target: rule.target,
      payload,
      createdAt: now,
    })
    // A fresh uuid cannot collide; undefined here would mean the insert did not happen at all.
    if (delivery === undefined) throw new Error('test delivery was not stored')
    this.worker.wake()
    return delivery
  }

  /** Graceful shutdown (see the class comment). */
  async stop(): Promise<void> {
    if (this.#stopped) return
    this.#stopped = true
    this.#o.clock.clearInterval(this.#pruneTimer)
    this.evaluator.stop()
    await this.#sync.stop()
    await this.writer.flush()
    await this.worker.stop(this.#o.config.delivery.shutdownGraceMs)
  }

  async #prune(): Promise<void> {
    try {
      await this.deliveries.prune(this.#o.clock.now() - this.#o.config.delivery.retentionDays * MS_PER_DAY)
    } catch (err) {
      this.#o.log.warn({ err }, 'alert delivery log: pruning failed; retried in an hour')
    }
  }
}
