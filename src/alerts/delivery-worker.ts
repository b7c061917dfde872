import type { Clock, TimerHandle } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { AlertDeliveryRepository, ClaimedDelivery } from '../store/alert-deliveries-repo.js'
import { logFailedAttempt } from './delivery-failure-log.js'
import { retryDelayMs, shouldRetry, type RetryPolicy } from './retry-policy.js'
import type { Senders } from './sender.js'

/**
 * Delivers the outbox. Any number of replicas run one each; Postgres hands every due row to exactly one of them
 * at a time (`FOR UPDATE SKIP LOCKED` plus a lease, see AlertDeliveryRepository.claim), so there is no coordinator.
 *
 * Up to `concurrency` deliveries are in flight. The worker claims when woken: by its poll timer (`pollMs`, the
 * injected clock), by this replica's own firings and test deliveries (at once), and whenever a delivery finishes.
 * A delivery's outcome: delivered; failed for now and due again after the retry policy's backoff; or failed for
 * good (attempts used up, or a permanent failure). A row found with a lease that passed after its last attempt
 * (its worker died) is failed without another try.
 *
 * Delivery is at least once: a worker that dies after the receiver got the request but before recording it makes
 * the next holder send it again. Receivers deduplicate on `X-Alert-Delivery-Id`.
 *
 * Every failed attempt it records is logged at warn (delivery-failure-log.ts): rule, delivery, channel, target
 * host, attempt, whether it is retried, and the cause.
 *
 * Shutdown: stop claiming, give in-flight deliveries `graceMs` (wall-clock: it bounds network I/O) to finish,
 * abort the rest and hand their rows back (pending, the attempt not counted) for the next worker.
 */
export interface DeliveryWorkerOptions {
  readonly repo: AlertDeliveryRepository
  readonly senders: Senders
  readonly clock: Clock
  readonly log: Logger
  /** Deliveries in flight at once; 0 disables the worker (an evaluate-only replica). */
  readonly concurrency: number
  readonly leaseMs: number
  readonly pollMs: number
  readonly retry: RetryPolicy
  readonly random?: () => number
}

export interface WorkerCounters {
  claimed: number
  delivered: number
  retried: number
  failed: number
  /** Outcomes not recorded because the lease had passed and another worker held the row. */
  lostLeases: number
  released: number
}

interface InFlight {
  readonly delivery: ClaimedDelivery
  readonly abort: AbortController
  readonly done: Promise<void>
}

export class DeliveryWorker {
  readonly #o: DeliveryWorkerOptions
  readonly #inFlight = new Map<string, InFlight>()
  #timer: TimerHandle | undefined
  #claiming: Promise<void> | undefined
  #again = false
  #stopped = false
  #claimFailures = 0
  readonly counters: WorkerCounters = { claimed: 0, delivered: 0, retried: 0, failed: 0, lostLeases: 0, released: 0 }

  constructor(options: DeliveryWorkerOptions) {
    this.#o = options
  }

  get inFlight(): number {
    return this.#inFlight.size
  }

  start(): void {
    if (this.#o.concurrency === 0 || this.#timer !== undefined) return
    this.#timer = this.#o.clock.setInterval(() => this.wake(), this.#o.pollMs)
    this.wake()
  }

  /** Claims due rows now (if there is room). Never throws; concurrent wakes share one claim round. */
  wake(): void {
    if (this.#stopped || this.#o.concurrency === 0) return
    if (this.#claiming !== undefined) {
      this.#again = true
      return
    }
    this.#claiming = this.#claimRound().finally(() => {
      this.#claiming = undefined
      if (this.#again) {
        this.#again = false
        this.wake()
      }
    })
  }

  /** Resolves when no claim is running and nothing is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#claiming !== undefined || this.#inFlight.size > 0) {
      await this.#claiming
      await Promise.all([...this.#inFlight.values()].map((f) => f.done))
    }
  }

  async stop(graceMs: number): Promise<void> {
    if (this.#stopped) return
    this.#stopped = true
    this.#o.clock.clearInterval(this.#timer)
    await this.#claiming
    const pending = [...this.#inFlight.values()]
    if (pending.length > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))
      await Promise.race([Promise.all(pending.map((f) => f.done)), grace])
      clearTimeout(timer)
    }
    const unfinished = [...this.#inFlight.values()]
    for (const f of unfinished) f.abort.abort()
    if (unfinished.length > 0) {
      try {
        this.counters.released += await this.#o.repo.release(
          unfinished.map((f) => f.delivery),
          this.#o.clock.now(),
        )
      } catch (err) {
        // Their leases run out instead, and another worker claims them then.
        this.#o.log.warn(
          { err, deliveries: unfinished.length },
          'alert delivery: could not hand back in-flight deliveries at shutdown',
        )
      }
    }
    for (const sender of Object.values(this.#o.senders)) sender.close?.()
  }

  async #claimRound(): Promise<void> {
    while (!this.#stopped) {
      const room = this.#o.concurrency - this.#inFlight.size
      if (room <= 0) return
      let claimed: ClaimedDelivery[]
      try {
        claimed = await this.#o.repo.claim(room, this.#o.clock.now(), this.#o.leaseMs)
        this.#claimFailures = 0
      } catch (err) {
        if (this.#claimFailures++ % 60 === 0)
          this.#o.log.warn(
            { err, failures: this.#claimFailures },
            'alert delivery: claiming from the outbox failed; retrying at the next poll',
          )
        return
      }
      this.counters.claimed += claimed.length
      if (this.#stopped) {
        // Stopped while claiming: hand them straight back.
        await this.#o.repo.release(claimed, this.#o.clock.now()).catch(() => undefined)
        return
      }
      for (const d of claimed) this.#begin(d)
      if (claimed.length < room) return
    }
  }

  #begin(d: ClaimedDelivery): void {
    const abort = new AbortController()
    const done = this.#deliver(d, abort.signal)
      .catch((err: unknown) =>
        this.#o.log.error(
          { err, rule_id: d.ruleId, delivery_id: d.id },
          'alert delivery: recording the outcome failed; the lease will expire and it is retried',
        ),
      )
      .finally(() => {
        this.#inFlight.delete(d.leaseToken)
        this.wake()
      })
    this.#inFlight.set(d.leaseToken, { delivery: d, abort, done })
  }

  async #deliver(d: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const policy = this.#o.retry
    if (d.attempts > policy.maxAttempts) {
      const cause = 'the last attempt was interrupted (its worker stopped) and no attempts are left'
      if (await this.#record(d, this.#o.repo.fail(d, this.#o.clock.now(), cause, null), 'failed')) {
        logFailedAttempt(this.#o.log, {
          delivery: d,
          maxAttempts: policy.maxAttempts,
          cause,
          responseStatus: null,
          nextAttemptAt: undefined,
        })
      }
      return
    }
    const outcome = await this.#o.senders[d.channel].send(d, signal)
    // Shut down mid-attempt: stop() hands the row back.
    if (signal.aborted) return
    const now = this.#o.clock.now()
    if (outcome.ok) {
      await this.#record(d, this.#o.repo.complete(d, now, outcome.responseStatus), 'delivered')
      return
    }
    const failed = {
      delivery: d,
      maxAttempts: policy.maxAttempts,
      cause: outcome.error,
      responseStatus: outcome.responseStatus,
    }
    if (outcome.permanent || !shouldRetry(d.attempts, policy)) {
      if (await this.#record(d, this.#o.repo.fail(d, now, outcome.error, outcome.responseStatus), 'failed'))
        logFailedAttempt(this.#o.log, { ...failed, nextAttemptAt: undefined })
    } else {
      const next = now + retryDelayMs(d.attempts, policy, this.#o.random)
      if (await this.#record(d, this.#o.repo.retry(d, now, next, outcome.error, outcome.responseStatus), 'retried'))
        logFailedAttempt(this.#o.log, { ...failed, nextAttemptAt: next })
    }
  }

  /** Counts the outcome if it was recorded (true); false when the lease had passed and another worker holds the row. */
  async #record(
    d: ClaimedDelivery,
    write: Promise<boolean>,
    outcome: 'delivered' | 'retried' | 'failed',
  ): Promise<boolean> {
    if (await write) {
      this.counters[outcome]++
      return true
    }
    this.counters.lostLeases++
    this.#o.log.warn(
      { rule_id: d.ruleId, delivery_id: d.id, outcome },
      'alert delivery: lease had passed; another worker holds this delivery now',
    )
    return false
  }
}
