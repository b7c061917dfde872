import { pathToFileURL } from 'node:url'
import type { Clock, TimerHandle } from '../src/core/clock.js'
import { silentLogger } from '../src/core/logger.js'
import { Rng } from '../src/sim/world/random.js'
import { bucketQuery, HISTORY_RANGES } from '../src/spreads/history/history-ranges.js'
import { HistorySampler } from '../src/spreads/history/history-sampler.js'
import type { SpreadChange, SpreadPairSpec, SpreadRecord } from '../src/spreads/engine/spread-engine.js'
import { migrate } from '../src/store/migrate.js'
import { PGliteDb } from '../src/store/pglite-db.js'
import { SpreadHistoryRepository, type HistoryPoint } from '../src/store/spread-history-repo.js'
import { median, quantile } from './harness.js'

/**
 * Spread history costs (standalone: `node dist/bench/history.bench.js`):
 * 1. the sampler's listener per spread change, on the engine's hot path (ns), for the three things a change can
 *    be: not meaningful (the common case: re-scores and sub-threshold moves), meaningful but held back by the
 *    rate limit, meaningful and queued;
 * 2. batch writes to an in-memory PGlite (points/s, raw point plus daily-close upsert per point);
 * 3. range reads of one pair holding 30 days of one point a minute (ms per request).
 * Medians of timed rounds; inputs are seeded and built outside the timed code.
 */
const PAIRS = 10_000
const CHANGES_PER_ROUND = 1_000
const ROUNDS = 400
const MINUTE = 60_000

/** A clock that moves only when told and never fires timers: the listener is timed alone, the writer not at all. */
class ManualClock implements Clock {
  t = Date.UTC(2026, 10, 21, 12)
  now(): number {
    return this.t
  }
  setTimeout(): TimerHandle {
    return { id: 0 }
  }
  clearTimeout(): void {}
  setInterval(): TimerHandle {
    return { id: 0 }
  }
  clearInterval(): void {}
}

/** One spec per pair, shared by its changes, as the engine does (its key string is hashed once). */
const SPECS = Array.from(
  { length: PAIRS },
  (_, i) =>
    ({ key: `event-${i % 997}|text:o${i}`, eventSlug: `event-${i % 997}`, outcomeKey: `text:o${i}` }) as SpreadPairSpec,
)

/** A change of pair `i` as the engine publishes it: the pair's record, its spec. */
function change(i: number, priceB: number): SpreadChange {
  const spec = SPECS[i] as SpreadPairSpec
  const spread = Math.round((priceB - 0.4) * 1e6) / 1e6
  const record = {
    key: spec.key,
    priceA: 0.4,
    priceB,
    spread,
    spreadBps: Math.round(spread * 1e8) / 1e4,
    platformA: 'venuep',
  } as SpreadRecord
  return { spec, record }
}

export interface ListenerFigure {
  readonly scenario: string
  readonly medianNsPerChange: number
  readonly p90NsPerChange: number
}

export async function benchListener(): Promise<ListenerFigure[]> {
  const rng = new Rng(5)
  const clock = new ManualClock()
  const sampler = new HistorySampler({
    writer: { insert: async () => undefined },
    clock,
    log: silentLogger,
    minIntervalMs: MINUTE,
    minChangeBps: 10,
    heartbeatMs: 60 * MINUTE,
    queueCapacity: 1_000_000,
    batchSize: 1_000_000,
    flushMs: 1_000,
    closeTimeoutMs: 0,
  })
  const base = Array.from({ length: PAIRS }, (_, i) => 0.45 + rng.int(0, 100) / 1_000)
  // Every pair gets a first point, then the queue is emptied.
  sampler.observe(base.map((b, i) => change(i, b)))
  await sampler.flush()
  const rounds = (
    n: number,
    make: (round: number) => readonly SpreadChange[],
    before: (round: number) => void | Promise<void>,
  ) => ({ n, make, before })
  const scenarios = {
    // Sub-threshold moves (±0.0005, i.e. 5 bps) on random pairs.
    'not meaningful (< 10 bps)': rounds(
      ROUNDS,
      () =>
        Array.from({ length: CHANGES_PER_ROUND }, () => {
          const i = rng.int(0, PAIRS - 1)
          return change(i, (base[i] as number) + 0.0005)
        }),
      () => undefined,
    ),
    // 2-point moves inside every pair's window: each is held back (the first per pair) or replaces the held value.
    'meaningful, held back by the rate limit': rounds(
      ROUNDS,
      (r) =>
        Array.from({ length: CHANGES_PER_ROUND }, () => {
          const i = rng.int(0, PAIRS - 1)
          return change(i, (base[i] as number) + (r % 2 === 0 ? 0.02 : 0.03))
        }),
      () => undefined,
    ),
    // 2-point moves with every window open: each change is queued as a point.
    'meaningful, queued': rounds(
      ROUNDS / 4,
      (r) =>
        Array.from({ length: CHANGES_PER_ROUND }, (_, j) =>
          change((r * CHANGES_PER_ROUND + j) % PAIRS, 0.6 + (r % 3) * 0.05),
        ),
      async () => {
        clock.t += 2 * MINUTE
        await sampler.flush()
      },
    ),
  }
  const out: ListenerFigure[] = []
  for (const [scenario, s] of Object.entries(scenarios)) {
    const inputs = Array.from({ length: s.n }, (_, r) => s.make(r))
    const perChange: number[] = []
    for (let r = 0; r < s.n; r++) {
      await s.before(r)
      const batch = inputs[r] as readonly SpreadChange[]
      const t0 = process.hrtime.bigint()
      sampler.observe(batch)
      perChange.push(Number(process.hrtime.bigint() - t0) / batch.length)
    }
    const tail = perChange.slice(Math.floor(s.n / 10)) // the first tenth warms up
    const sorted = [...tail].sort((a, b) => a - b)
    out.push({
      scenario,
      medianNsPerChange: Math.round(median(tail)),
      p90NsPerChange: Math.round(quantile(sorted, 0.9)),
    })
  }
  await sampler.close()
  return out
}

export interface WriteFigure {
  readonly batchSize: number
  readonly points: number
  readonly pointsPerSecond: number
}

export interface ReadFigure {
  readonly range: string
  readonly buckets: number
  readonly medianMs: number
}

/** Batch inserts into a fresh in-memory PGlite, then range reads of one dense pair. */
export async function benchStore(): Promise<{ writes: WriteFigure[]; reads: ReadFigure[] }> {
  const db = await PGliteDb.open()
  await migrate(db, silentLogger)
  const repo = new SpreadHistoryRepository(db)
  const rng = new Rng(9)
  const t0 = Date.UTC(2026, 9, 22, 12)
  const writes: WriteFigure[] = []
  for (const batchSize of [100, 1_000, 5_000]) {
    const total = 50_000
    const points: HistoryPoint[] = Array.from({ length: total }, (_, i) => {
      const a = Math.round(rng.next() * 0.5 * 1e4) / 1e4
      const b = Math.round((a + rng.next() * 0.2) * 1e4) / 1e4
      return {
        eventSlug: `bench-${batchSize}-${i % 500}`,
        outcomeKey: `text:o${i % 7}`,
        at: t0 + i * 1_000,
        spreadBps: Math.round((b - a) * 1e8) / 1e4,
        priceA: a,
        priceB: b,
        platformA: 'venuep',
      }
    })
    const start = process.hrtime.bigint()
    for (let i = 0; i < total; i += batchSize) await repo.insert(points.slice(i, i + batchSize))
    const seconds = Number(process.hrtime.bigint() - start) / 1e9
    writes.push({ batchSize, points: total, pointsPerSecond: Math.round(total / seconds) })
  }
  // One pair, a point a minute for 30 days (43,200 points): what `1m` reads at the sampler's densest.
  const dense: HistoryPoint[] = Array.from({ length: 30 * 24 * 60 }, (_, i) => ({
    eventSlug: 'dense',
    outcomeKey: 'text:yes',
    at: t0 + i * MINUTE,
    spreadBps: 100 + (i % 50),
    priceA: 0.4,
    priceB: 0.41 + (i % 50) / 10_000,
    platformA: 'venuep',
  }))
  for (let i = 0; i < dense.length; i += 5_000) await repo.insert(dense.slice(i, i + 5_000))
  const now = t0 + 30 * 24 * 60 * MINUTE
  const reads: ReadFigure[] = []
  for (const range of HISTORY_RANGES) {
    const times: number[] = []
    let buckets = 0
    for (let i = 0; i < 15; i++) {
      const start = process.hrtime.bigint()
      buckets = (await repo.buckets('dense', 'text:yes', bucketQuery(range, now))).length
      times.push(Number(process.hrtime.bigint() - start) / 1e6)
    }
    reads.push({ range, buckets, medianMs: Math.round(median(times.slice(3)) * 100) / 100 })
  }
  await db.close()
  return { writes, reads }
}

async function main(): Promise<void> {
  console.log(
    `spread history bench — node ${process.version}, ${PAIRS.toLocaleString('en')} pairs, ${CHANGES_PER_ROUND} changes per timed round`,
  )
  console.table(await benchListener())
  const store = await benchStore()
  console.log('batch writes, in-memory PGlite (raw point + daily close per point):')
  console.table(store.writes)
  console.log('range reads of one pair with 43,200 raw points (30 days, one a minute), in-memory PGlite:')
  console.table(store.reads)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err)
    process.exit(1)
  })
}
