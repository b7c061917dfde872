import type { Clock, TimerHandle } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { AlertRuleChanges } from '../store/alert-rule-changes.js'
import type { AlertRuleRepository } from '../store/alert-rules-repo.js'
import type { AlertStateRepository } from '../store/alert-state-repo.js'
import type { AlertEvaluator } from './evaluator.js'

/**
 * Keeps the evaluator's rules current: every active rule at start (`listActive`), then every change from the
 * rule change feed (`changesSince(cursor)` whenever `AlertRuleChanges` publishes a newer version: this replica's
 * writes at once, other replicas' through NOTIFY or the store watcher's poll). A paused or deleted rule leaves the
 * index as soon as its change is read; a created or resumed one enters with its stored evaluation state.
 *
 * A failed read is retried every `retryMs` until it succeeds (the feed only publishes newer versions, so waiting
 * for the next publish could wait forever).
 */
export interface RuleSyncOptions {
  readonly rules: AlertRuleRepository
  readonly changes: AlertRuleChanges
  readonly state: AlertStateRepository
  readonly evaluator: AlertEvaluator
  readonly clock: Clock
  readonly log: Logger
  readonly retryMs?: number
}

const PAGE = 1_000

export class RuleSync {
  readonly #o: RuleSyncOptions
  #cursor = 0
  #running: Promise<void> | undefined
  #again = false
  #stopped = false
  #retry: TimerHandle | undefined
  #unsubscribe: (() => void) | undefined
  #failures = 0

  constructor(options: RuleSyncOptions) {
    this.#o = options
  }

  /** Version of the last rule change applied. */
  get cursor(): number {
    return this.#cursor
  }

  /** Installs every active rule, then follows the change feed. */
  async start(): Promise<void> {
    const { rules, version } = await this.#o.rules.listActive()
    const states = await this.#o.state.loadActive()
    for (const rule of rules)
      this.#o.evaluator.install(rule, states.get(rule.id) ?? { pairs: [], lastFiredAt: undefined })
    this.#cursor = version
    this.#unsubscribe = this.#o.changes.subscribe(() => void this.catchUp())
    await this.catchUp()
  }

  /** Applies every change after the cursor. Concurrent calls share one run (plus one more if asked meanwhile). */
  catchUp(): Promise<void> {
    if (this.#stopped) return Promise.resolve()
    if (this.#running !== undefined) {
      this.#again = true
      return this.#running
    }
    this.#running = this.#catchUp().finally(() => {
      this.#running = undefined
      if (this.#again) {
        this.#again = false
        void this.catchUp()
      }
    })
    return this.#running
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#unsubscribe?.()
    this.#o.clock.clearTimeout(this.#retry)
    await this.#running
  }

  async #catchUp(): Promise<void> {
    try {
      for (;;) {
        const batch = await this.#o.rules.changesSince(this.#cursor, PAGE)
        for (const rule of batch) {
          if (this.#stopped) return
          if (rule.status === 'active') this.#o.evaluator.install(rule, await this.#o.state.loadRule(rule.id))
          else this.#o.evaluator.remove(rule.id)
          this.#cursor = rule.version
        }
        if (batch.length < PAGE) break
      }
      this.#failures = 0
    } catch (err) {
      if (this.#failures++ % 60 === 0)
        this.#o.log.warn({ err, failures: this.#failures }, 'alert rules: reading the change feed failed; retrying')
      this.#o.clock.clearTimeout(this.#retry)
      this.#retry = this.#o.clock.setTimeout(() => void this.catchUp(), this.#o.retryMs ?? 1_000)
    }
  }
}
