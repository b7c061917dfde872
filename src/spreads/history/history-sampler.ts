import { backoffDelayMs } from '../../core/backoff.js'
import type { Clock, TimerHandle } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import type { VenueId } from '../../model/types.js'
import { sqlState } from '../../store/db.js'
import type { HistoryPoint } from '../../store/spread-history-repo.js'
import { HistoryQueue, type KeyedPoint } from './history-queue.js'
import type { SpreadChange, SpreadRecord } from '../engine/spread-engine.js'

/**
 * Turns the spread engine's changes into history points and writes them to the store in batches.
 *
 * Sampling rule, per pair (`eventSlug|outcomeKey`), against the pair's last recorded point:
 * - a change is **meaningful** when it is the pair's first value, when platform_a flipped (the cheap side changed),
 *   when spread_bps moved by at least `minChangeBps` (and by more than nothing), or when the last point is
 *   `heartbeatMs` old and either price moved at all (slow drift still shows at that resolution);
 * - at most **one point per pair per `minIntervalMs`**. A meaningful change inside the window is held back; every
 *   later change overwrites it, and when the window opens (the next flush tick, or the next change) the newest
 *   value is written, unless it came back to the last point's value. The rate limit therefore never costs a pair
 *   its latest value: the stored series ends at the newest meaningful value (anything since moved less than
 *   `minChangeBps`), at most `minIntervalMs` + `flushMs` late. Timestamps are when the spread took the value (the
 *   service clock), not when it was written.
 * - a pair that loses its record (a side without a price, unmatched) records nothing; its state is forgotten once
 *   its window is open, so flapping cannot bypass the rate limit.
 *
 * Hot path: the engine calls `observe` synchronously inside its `process`. It does O(1) work per change (one map
 * lookup, a few comparisons, an allocation only for a recorded point), never awaits, never throws into the engine,
 * and never writes: points go into a bounded `HistoryQueue` (overflow policy there). The writer runs on its own:
 * every `flushMs` (clock timer), or as soon as a full batch is queued (`setImmediate`, after the engine's turn).
 * One insert statement per batch, one batch in flight at a time.
 *
 * Write failures: the batch goes back to the front of the queue and is retried with capped exponential backoff
 * (jittered), while newer points keep queueing under the overflow policy. A batch the store rejects as invalid
 * data (SQLSTATE classes 22, 23) would fail forever: it is dropped and counted (`rejected`), never retried.
 *
 * Shutdown: `close()` stops observing, releases every held-back value regardless of its window, and writes the
 * whole queue, retrying for up to `closeTimeoutMs`; whatever is still unwritten then is logged and counted (`lost`).
 */
export interface HistoryWriter {
  insert(points: readonly HistoryPoint[]): Promise<void>
}

/** What the sampler subscribes to (the spread engine). */
export interface SpreadChangeSource {
  subscribe(listener: (changes: readonly SpreadChange[]) => void): () => void
}

export interface HistorySamplerOptions {
  readonly writer: HistoryWriter
  readonly clock: Clock
  readonly log: Logger
  readonly minIntervalMs: number
  readonly minChangeBps: number
  readonly heartbeatMs: number
  readonly queueCapacity: number
  readonly batchSize: number
  readonly flushMs: number
  readonly closeTimeoutMs: number
  /** Write retry backoff (defaults 500 ms doubling to 30 s). */
  readonly retryBaseMs?: number
  readonly retryMaxMs?: number
  /** Jitter source of the retry backoff (tests make it deterministic). */
  readonly random?: () => number
}

export interface SamplerCounters {
  /** Spread changes observed. */
  changes: number
  /** Points queued for writing. */
  accepted: number
  /** Changes held back by the per-pair rate limit (the newest is written when the window opens). */
  deferred: number
  /** Points written to the store. */
  written: number
  batches: number
  writeFailures: number
  /** Points in batches the store refused as invalid (dropped, not retried). */
  rejected: number
  /** Points still unwritten when `close()` gave up. */
  lost: number
  /** Records with impossible values (non-finite, outside 0–1, price_a > price_b), skipped. */
  invalid: number
  /** Exceptions caught in `observe` (kept away from the engine). */
  observeErrors: number
}

export interface SamplerStats extends Readonly<SamplerCounters> {
  /** Overflow: intermediate points evicted (their pair kept a newer one) and latest points lost. */
  readonly thinned: number
  readonly dropped: number
  readonly queued: number
  /** Pairs with a value held back by the rate limit. */
  readonly waiting: number
  /** Pairs tracked. */
  readonly pairs: number
}

interface SampledPoint extends KeyedPoint {
  at: number
  spreadBps: number
  priceA: number
  priceB: number
  platformA: VenueId
}

interface PairState {
  readonly key: string
  readonly eventSlug: string
  readonly outcomeKey: string
  /** The last point queued for this pair (the reference for "meaningful"). */
  last: SampledPoint | undefined
  /** When `last` was queued: the pair's rate-limit window runs from here. */
  acceptedAt: number
  /** The newest value held back by the window. */
  pending: SampledPoint | undefined
  /** The pair has a record now. */
  live: boolean
}

/** Forgotten pairs (unmatched, no price) are swept from memory this often. */
const SWEEP_MS = 3_600_000

export class HistorySampler {
  readonly counters: SamplerCounters = {
    changes: 0,
    accepted: 0,
    deferred: 0,
    written: 0,
    batches: 0,
    writeFailures: 0,
    rejected: 0,
    lost: 0,
    invalid: 0,
    observeErrors: 0,
  }
  readonly #o: HistorySamplerOptions
  readonly #queue: HistoryQueue<SampledPoint>
  readonly #pairs = new Map<string, PairState>()
  /** Pairs with a pending value, released by the flush tick once their window opens. */
  readonly #waiting = new Set<PairState>()
  #unsubscribe: (() => void) | undefined
  #tick: TimerHandle | undefined
  #lastSweepAt: number
  #writing: Promise<void> | undefined
  #retryTimer: TimerHandle | undefined
  #kickScheduled = false
  #consecutiveFailures = 0
  #lastError: unknown
  #closed = false
  #closing: Promise<void> | undefined

  constructor(options: HistorySamplerOptions) {
    this.#o = options
    this.#queue = new HistoryQueue<SampledPoint>(options.queueCapacity)
    this.#lastSweepAt = options.clock.now()
  }

  /** Subscribes to the engine and starts the flush tick. */
  start(source: SpreadChangeSource): void {
    if (this.#closed || this.#unsubscribe !== undefined) return
    this.#unsubscribe = source.subscribe(this.observe)
    this.#tick = this.#o.clock.setInterval(() => this.#onTick(), this.#o.flushMs)
  }

  stats(): SamplerStats {
    return {
      ...this.counters,
      ...this.#queue.counters,
      queued: this.#queue.size,
      waiting: this.#waiting.size,
      pairs: this.#pairs.size,
    }
  }

  /** The engine's listener (an arrow, so it can be passed as is). O(1) per change; never throws. */
  readonly observe = (changes: readonly SpreadChange[]): void => {
    if (this.#closed) return
    const now = this.#o.clock.now()
    try {
      for (const c of changes) this.#observeOne(c.spec.key, c.spec.eventSlug, c.spec.outcomeKey, c.record, now)
    } catch (err) {
      // A bug here must not fail the spread actor: history is secondary to serving spreads.
      this.counters.observeErrors++
      this.#o.log.error({ err }, 'spread history: observe failed')
    }
  }

  /**
   * Releases the held-back values whose window is open and writes everything queued. Resolves once the queue has
   * been written; rejects with the store's error when a write fails (the points stay queued and are retried).
   */
  async flush(): Promise<void> {
    this.#releaseDue(this.#o.clock.now())
    let attempted = false
    for (;;) {
      if (this.#writing !== undefined) {
        await this.#writing
        continue
      }
      if (this.#queue.size === 0) return
      if (this.#retryTimer !== undefined) {
        if (attempted) throw this.#lastError
        // Asked to write now: a retry waiting out its backoff runs at once (one attempt per flush).
        this.#o.clock.clearTimeout(this.#retryTimer)
        this.#retryTimer = undefined
      }
      attempted = true
      this.#startWriting()
    }
  }

  /** Stops observing and writes everything, held-back values included (graceful shutdown). Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#close()
    return this.#closing
  }

  // ------------------------------------------------------------------------------------------ sampling

  #observeOne(key: string, eventSlug: string, outcomeKey: string, r: SpreadRecord | undefined, now: number): void {
    this.counters.changes++
    let s = this.#pairs.get(key)
    if (r === undefined) {
      if (s === undefined) return
      s.live = false
      if (s.pending === undefined && now - s.acceptedAt >= this.#o.minIntervalMs) this.#pairs.delete(key)
      return
    }
    if (!isValid(r)) {
      this.counters.invalid++
      return
    }
    if (s === undefined) {
      s = { key, eventSlug, outcomeKey, last: undefined, acceptedAt: -Infinity, pending: undefined, live: true }
      this.#pairs.set(key, s)
    }
    s.live = true
    const open = now - s.acceptedAt >= this.#o.minIntervalMs
    if (s.pending !== undefined) {
      // Already waiting: keep only the newest value.
      setValue(s.pending, r, now)
      if (open) this.#release(s, now)
      else this.counters.deferred++
      return
    }
    if (!this.#meaningful(s, r, now)) return
    const point: SampledPoint = {
      key,
      eventSlug,
      outcomeKey,
      at: now,
      spreadBps: r.spreadBps,
      priceA: r.priceA,
      priceB: r.priceB,
      platformA: r.platformA,
    }
    if (open) {
      this.#accept(s, point, now)
    } else {
      s.pending = point
      this.#waiting.add(s)
      this.counters.deferred++
    }
  }

  #meaningful(s: PairState, r: SpreadRecord, now: number): boolean {
    const last = s.last
    if (last === undefined || r.platformA !== last.platformA) return true
    const moved = Math.abs(r.spreadBps - last.spreadBps)
    if (moved > 0 && moved >= this.#o.minChangeBps) return true
    return now - s.acceptedAt >= this.#o.heartbeatMs && (r.priceA !== last.priceA || r.priceB !== last.priceB)
  }

  /** Queues the held-back value of `s`, unless it is the value last recorded. */
  #release(s: PairState, now: number): void {
    const p = s.pending as SampledPoint
    s.pending = undefined
    this.#waiting.delete(s)
    const last = s.last
    if (last !== undefined && last.priceA === p.priceA && last.priceB === p.priceB && last.platformA === p.platformA)
      return
    this.#accept(s, p, now)
  }

  #accept(s: PairState, p: SampledPoint, now: number): void {
    s.last = p
    s.acceptedAt = now
    this.#queue.push(p)
    this.counters.accepted++
    if (this.#queue.size >= this.#o.batchSize) this.#kickSoon()
  }

  #releaseDue(now: number): void {
    for (const s of this.#waiting) if (now - s.acceptedAt >= this.#o.minIntervalMs) this.#release(s, now)
  }

  #onTick(): void {
    const now = this.#o.clock.now()
    this.#releaseDue(now)
    if (now - this.#lastSweepAt >= SWEEP_MS) this.#sweep(now)
    this.#startWriting()
  }

  /** Forgets pairs without a record whose window is open (removed pairs would otherwise stay forever). */
  #sweep(now: number): void {
    this.#lastSweepAt = now
    for (const [key, s] of this.#pairs) {
      if (!s.live && s.pending === undefined && now - s.acceptedAt >= this.#o.minIntervalMs) this.#pairs.delete(key)
    }
  }

  // ------------------------------------------------------------------------------------------ writing

  /** A full batch is waiting: write it after the engine's current turn, not inside it. */
  #kickSoon(): void {
    if (this.#kickScheduled || this.#writing !== undefined) return
    this.#kickScheduled = true
    setImmediate(() => {
      this.#kickScheduled = false
      this.#startWriting()
    })
  }

  /** Starts draining the queue unless a write is in flight or a retry is scheduled. */
  #startWriting(): void {
    if (this.#writing !== undefined || this.#retryTimer !== undefined || this.#queue.size === 0) return
    this.#writing = this.#drain().finally(() => {
      this.#writing = undefined
    })
  }

  async #drain(): Promise<void> {
    while (this.#queue.size > 0) {
      const batch = this.#queue.take(this.#o.batchSize)
      try {
        await this.#o.writer.insert(batch)
      } catch (err) {
        this.counters.writeFailures++
        this.#lastError = err
        if (isDataError(err)) {
          this.counters.rejected += batch.length
          this.#o.log.error(
            { err, points: batch.length },
            'spread history: the store rejected a batch as invalid; dropped',
          )
          continue
        }
        this.#queue.requeue(batch)
        const delayMs = backoffDelayMs(this.#consecutiveFailures++, {
          baseMs: this.#o.retryBaseMs ?? 500,
          maxMs: this.#o.retryMaxMs ?? 30_000,
          random: this.#o.random,
        })
        this.#o.log.warn(
          { err, queued: this.#queue.size, retryInMs: delayMs },
          'spread history: write failed; points kept for a retry',
        )
        this.#retryTimer = this.#o.clock.setTimeout(() => {
          this.#retryTimer = undefined
          this.#startWriting()
        }, delayMs)
        return
      }
      this.#consecutiveFailures = 0
      this.counters.written += batch.length
      this.counters.batches++
    }
  }

  async #close(): Promise<void> {
    this.#closed = true
    this.#unsubscribe?.()
    this.#o.clock.clearInterval(this.#tick)
    const now = this.#o.clock.now()
    // The rate limit bounds how often a pair is written; at shutdown it must not cost the latest values.
    for (const s of this.#waiting) this.#release(s, now)
    const deadline = now + this.#o.closeTimeoutMs
    for (let attempt = 0; ; attempt++) {
      try {
        await this.flush()
        return
      } catch (err) {
        if (this.#o.clock.now() >= deadline) {
          this.counters.lost += this.#queue.size
          this.#o.clock.clearTimeout(this.#retryTimer)
          this.#retryTimer = undefined
          this.#o.log.error(
            { err, lost: this.#queue.size },
            'spread history: store unavailable at shutdown; unwritten points lost',
          )
          this.#queue.take(this.#queue.size)
          return
        }
        const delayMs = Math.min(
          backoffDelayMs(attempt, { baseMs: this.#o.retryBaseMs ?? 500, maxMs: 2_000, random: this.#o.random }),
          deadline - this.#o.clock.now(),
        )
        await new Promise<void>((resolve) => this.#o.clock.setTimeout(resolve, delayMs))
      }
    }
  }
}

function setValue(p: SampledPoint, r: SpreadRecord, now: number): void {
  p.at = now
  p.spreadBps = r.spreadBps
  p.priceA = r.priceA
  p.priceB = r.priceB
  p.platformA = r.platformA
}

function isValid(r: SpreadRecord): boolean {
  return Number.isFinite(r.spreadBps) && r.spreadBps >= 0 && r.priceA >= 0 && r.priceA <= r.priceB && r.priceB <= 1
}

/** Invalid data (class 22) or a violated constraint (class 23): retrying the same rows cannot succeed. */
function isDataError(err: unknown): boolean {
  const state = sqlState(err)
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'))
}
