import type { Clock, TimerHandle } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import { MS_PER_DAY } from '../../core/time.js'

/**
 * Deletes raw spread-history points older than `retentionDays`, in bounded batches (migration 0004 documents the
 * policy): each statement removes at most `batchSize` rows, a run issues at most `maxBatches` statements and
 * leaves the rest to the next run, so a backlog (first run after a long stop) never becomes one giant DELETE.
 * Daily closes are kept. Runs a minute after start, then every `intervalMs`; one run at a time.
 */
export interface HistoryPruner {
  pruneRaw(beforeMs: number, limit: number): Promise<number>
}

export interface HistoryRetentionOptions {
  readonly repo: HistoryPruner
  readonly clock: Clock
  readonly log: Logger
  readonly retentionDays: number
  readonly batchSize: number
  readonly maxBatches: number
  readonly intervalMs: number
}

export interface RetentionRun {
  readonly deleted: number
  readonly statements: number
  /** False when the run stopped at `maxBatches` with old rows left. */
  readonly complete: boolean
}

const FIRST_RUN_DELAY_MS = 60_000

export class HistoryRetention {
  readonly #o: HistoryRetentionOptions
  #timer: TimerHandle | undefined
  #running: Promise<RetentionRun> | undefined
  #stopped = false

  constructor(options: HistoryRetentionOptions) {
    this.#o = options
  }

  start(): void {
    if (this.#stopped || this.#timer !== undefined) return
    this.#schedule(Math.min(FIRST_RUN_DELAY_MS, this.#o.intervalMs))
  }

  /** One run now (or the one in progress). Never rejects: a failure is logged and the next run tries again. */
  run(): Promise<RetentionRun> {
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined
    })
    return this.#running
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#o.clock.clearTimeout(this.#timer)
    this.#timer = undefined
    await this.#running
  }

  #schedule(delayMs: number): void {
    this.#timer = this.#o.clock.setTimeout(() => {
      void this.run().then(() => {
        if (!this.#stopped) this.#schedule(this.#o.intervalMs)
      })
    }, delayMs)
  }

  async #run(): Promise<RetentionRun> {
    const before = this.#o.clock.now() - this.#o.retentionDays * MS_PER_DAY
    let deleted = 0
    let statements = 0
    try {
      while (statements < this.#o.maxBatches && !this.#stopped) {
        const n = await this.#o.repo.pruneRaw(before, this.#o.batchSize)
        statements++
        deleted += n
        if (n < this.#o.batchSize) {
          if (deleted > 0) this.#o.log.info({ deleted, statements }, 'spread history: old raw points deleted')
          return { deleted, statements, complete: true }
        }
      }
      this.#o.log.info(
        { deleted, statements },
        'spread history: retention run stopped at its batch limit; the rest follows next run',
      )
    } catch (err) {
      this.#o.log.warn({ err, deleted }, 'spread history: retention run failed; retrying next run')
    }
    return { deleted, statements, complete: false }
  }
}
