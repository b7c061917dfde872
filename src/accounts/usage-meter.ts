import type { Clock, TimerHandle } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { UsageDelta, UsageRepository } from '../store/usage-repo.js'

/**
 * Counts requests per key in memory and writes them to the store in batches: one statement per `flushMs`
 * whatever the traffic, never a write per request. Counts are bucketed by clock minute as they happen, so the
 * persisted minutes are exact even though they are written later.
 *
 * Failure policy: a failed flush keeps its deltas for the next one, up to MAX_PENDING_DELTAS (oldest dropped and
 * logged); usage is informational, it must never stall serving. `stop()` flushes what is left (graceful shutdown).
 */
interface Counter {
  readonly accountId: string
  minuteMs: number
  requests: number
  rateLimited: number
}

const MINUTE_MS = 60_000
const HOUR_MS = 3_600_000
const MAX_PENDING_DELTAS = 100_000

export interface UsageMeterOptions {
  readonly repo: UsageRepository
  readonly clock: Clock
  readonly flushMs: number
  readonly retentionDays: number
  readonly log: Logger
}

export interface PendingDelta extends UsageDelta {
  readonly accountId: string
}

export class UsageMeter {
  readonly #o: UsageMeterOptions
  readonly #counters = new Map<string, Counter>()
  #closed: PendingDelta[] = []
  #timer: TimerHandle | undefined
  #flushing: Promise<void> | undefined
  #lastPruneMs = 0

  constructor(options: UsageMeterOptions) {
    this.#o = options
  }

  start(): void {
    this.#timer ??= this.#o.clock.setInterval(() => void this.flush(), this.#o.flushMs)
  }

  /** Counts one request of `keyId` (hot path: a map lookup and two integer updates). */
  count(keyId: string, accountId: string, nowMs: number, rateLimited: boolean): void {
    const minuteMs = nowMs - (nowMs % MINUTE_MS)
    let c = this.#counters.get(keyId)
    if (c === undefined) {
      c = { accountId, minuteMs, requests: 0, rateLimited: 0 }
      this.#counters.set(keyId, c)
    } else if (c.minuteMs !== minuteMs) {
      this.#close(keyId, c)
      c.minuteMs = minuteMs
    }
    if (rateLimited) c.rateLimited++
    else c.requests++
  }

  /** Counts of this replica not written yet (the usage endpoint adds them to what the store has). */
  pending(): PendingDelta[] {
    const out = [...this.#closed]
    for (const [keyId, c] of this.#counters) {
      if (c.requests === 0 && c.rateLimited === 0) continue
      out.push({
        keyId,
        accountId: c.accountId,
        minuteMs: c.minuteMs,
        requests: c.requests,
        rateLimited: c.rateLimited,
      })
    }
    return out
  }

  /** Writes everything counted so far. Concurrent calls share one write. */
  flush(): Promise<void> {
    this.#flushing ??= this.#flush().finally(() => {
      this.#flushing = undefined
    })
    return this.#flushing
  }

  async stop(): Promise<void> {
    this.#o.clock.clearInterval(this.#timer)
    this.#timer = undefined
    await this.#flushing
    await this.flush()
  }

  async #flush(): Promise<void> {
    for (const [keyId, c] of this.#counters) {
      if (c.requests > 0 || c.rateLimited > 0) this.#close(keyId, c)
      else this.#counters.delete(keyId)
    }
    const batch = this.#closed
    this.#closed = []
    try {
      await this.#o.repo.add(batch)
    } catch (err) {
      this.#closed = batch.concat(this.#closed)
      const dropped = this.#closed.length - MAX_PENDING_DELTAS
      if (dropped > 0) this.#closed.splice(0, dropped)
      this.#o.log.warn(
        { err, pending: this.#closed.length, dropped: Math.max(0, dropped) },
        'usage flush failed; keeping counts for the next flush',
      )
      return
    }
    await this.#pruneHourly()
  }

  async #pruneHourly(): Promise<void> {
    const now = this.#o.clock.now()
    if (now - this.#lastPruneMs < HOUR_MS) return
    this.#lastPruneMs = now
    try {
      await this.#o.repo.prune(now - this.#o.retentionDays * 24 * HOUR_MS)
    } catch (err) {
      this.#o.log.warn({ err }, 'usage prune failed')
    }
  }

  /** Moves a counter's current minute to the batch and zeroes it (the counter object is reused). */
  #close(keyId: string, c: Counter): void {
    if (c.requests > 0 || c.rateLimited > 0) {
      this.#closed.push({
        keyId,
        accountId: c.accountId,
        minuteMs: c.minuteMs,
        requests: c.requests,
        rateLimited: c.rateLimited,
      })
    }
    c.requests = 0
    c.rateLimited = 0
  }
}
