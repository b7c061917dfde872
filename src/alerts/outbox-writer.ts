import type { Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { Delivery } from '../store/alert-deliveries-repo.js'
import type { AlertStateRepository, ArmChange, FiringOutcome, FiringRequest } from '../store/alert-state-repo.js'

/**
 * Takes the evaluator's decisions off the hot path: the spread listener only enqueues; this writes them to the
 * store in order, in batches, one transaction per firing (state transition + cooldown + outbox row together,
 * see AlertStateRepository.fire) and one statement per run of arm changes and per batch of first sightings.
 *
 * Overflow policy: the queue holds `capacity` operations. When it is full, a new one is refused (counted) and the
 * evaluator puts its in-memory state back, so the transition is derived again from a later spread change instead
 * of being lost or written out of order. A write that fails (store down) is reported the same way. `flush()`
 * writes everything queued (graceful shutdown calls it before the store closes).
 */
export type WriterOp =
  | {
      readonly kind: 'fire'
      readonly request: FiringRequest
      readonly done: (outcome: FiringOutcome | Error) => void
      /** The rule's account (the stream's `alerts` channel serves an account its own firings). */
      readonly accountId?: string | null
    }
  | { readonly kind: 'arm'; readonly change: ArmChange; readonly failed: () => void }
  | { readonly kind: 'seen'; readonly pairKey: string; readonly at: number }

export interface OutboxWriterOptions {
  readonly state: AlertStateRepository
  readonly clock: Clock
  readonly log: Logger
  readonly capacity: number
  /** Operations taken per round (arm changes in one statement, firings one transaction each). */
  readonly batchSize?: number
  /**
   * Called after a firing's outbox row is committed, with the row and the rule's account: the local delivery
   * worker claims it at once, and the stream's `alerts` channel publishes it (src/stream/sources/spreads/).
   */
  readonly onFired?: (delivery: Delivery, accountId: string | null) => void
}

export interface WriterCounters {
  enqueued: number
  refused: number
  firings: number
  failures: number
}

export class OutboxWriter {
  readonly #o: OutboxWriterOptions
  #queue: WriterOp[] = []
  #draining: Promise<void> | undefined
  #scheduled = false
  readonly counters: WriterCounters = { enqueued: 0, refused: 0, firings: 0, failures: 0 }
  #failuresLogged = 0

  constructor(options: OutboxWriterOptions) {
    this.#o = options
  }

  get pending(): number {
    return this.#queue.length
  }

  /** Queues an operation; false when the queue is full (the caller reverts its state). Never blocks. */
  enqueue(op: WriterOp): boolean {
    if (this.#queue.length >= this.#o.capacity) {
      this.counters.refused++
      return false
    }
    this.#queue.push(op)
    this.counters.enqueued++
    // After the current engine batch, not inside it: one round then carries the whole batch's decisions.
    if (!this.#scheduled && this.#draining === undefined) {
      this.#scheduled = true
      setImmediate(() => {
        this.#scheduled = false
        this.#kick()
      })
    }
    return true
  }

  /** Writes everything queued so far (and whatever is queued meanwhile). */
  async flush(): Promise<void> {
    while (this.#queue.length > 0 || this.#draining !== undefined) {
      this.#kick()
      await this.#draining
    }
  }

  #kick(): void {
    if (this.#draining !== undefined || this.#queue.length === 0) return
    this.#draining = this.#drain().finally(() => {
      this.#draining = undefined
      if (this.#queue.length > 0) this.#kick()
    })
  }

  async #drain(): Promise<void> {
    const size = this.#o.batchSize ?? 500
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, size)
      await this.#write(batch)
    }
  }

  async #write(batch: readonly WriterOp[]): Promise<void> {
    const seen: { pairKey: string; at: number }[] = []
    let arms: Extract<WriterOp, { kind: 'arm' }>[] = []
    const writeArms = async () => {
      if (arms.length === 0) return
      const run = arms
      arms = []
      try {
        await this.#o.state.setArmed(
          run.map((a) => a.change),
          this.#o.clock.now(),
        )
      } catch (err) {
        this.#failed(err, 'arm changes')
        for (const a of run) a.failed()
      }
    }
    for (const op of batch) {
      if (op.kind === 'seen') seen.push(op)
      else if (op.kind === 'arm') arms.push(op)
      else {
        // In order: a re-arm queued before this firing must be in the store before the firing's compare-and-set.
        await writeArms()
        await this.#fire(op)
      }
    }
    await writeArms()
    if (seen.length > 0) {
      try {
        await this.#o.state.recordSeen(seen)
      } catch (err) {
        // Sightings are only for new_pair; the next boot records them again.
        this.#failed(err, 'pair sightings')
      }
    }
  }

  async #fire(op: Extract<WriterOp, { kind: 'fire' }>): Promise<void> {
    let outcome: FiringOutcome | Error
    try {
      outcome = await this.#o.state.fire(op.request)
    } catch (err) {
      this.#failed(err, 'a firing')
      outcome = err instanceof Error ? err : new Error(String(err))
    }
    if (!(outcome instanceof Error) && outcome.kind === 'fired') {
      this.counters.firings++
      this.#o.onFired?.(outcome.delivery, op.accountId ?? null)
    }
    try {
      op.done(outcome)
    } catch (err) {
      this.#o.log.error({ err }, 'alert evaluator: firing callback threw')
    }
  }

  #failed(err: unknown, what: string): void {
    this.counters.failures++
    // The first failure and then every 100th: a store outage must not become a log flood.
    if (this.#failuresLogged++ % 100 === 0)
      this.#o.log.warn(
        { err, failures: this.counters.failures },
        `alert store write failed (${what}); re-derived from later spread changes`,
      )
  }
}
