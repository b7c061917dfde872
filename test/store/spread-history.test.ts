import assert from 'node:assert/strict'
import { after, before, beforeEach, test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { isoNoZone } from '../../src/core/time.js'
import { Rng } from '../../src/sim/world/random.js'
import {
  bucketQuery,
  HISTORY_RANGES,
  RANGE_PLANS,
  type HistoryRange,
} from '../../src/spreads/history/history-ranges.js'
import { HistoryRetention } from '../../src/spreads/history/history-retention.js'
import { HistorySampler } from '../../src/spreads/history/history-sampler.js'
import type { SpreadChange, SpreadPairSpec, SpreadRecord } from '../../src/spreads/engine/spread-engine.js'
import type { Db, Queryable } from '../../src/store/db.js'
import { SpreadHistoryRepository, utcDayStart, type HistoryPoint } from '../../src/store/spread-history-repo.js'
import { storeBackends, type TestDb } from '../helpers/db.js'
import { describeOrSkip } from '../helpers/skippable-suite.js'
import { INJECTIONS } from './scan.js'

/**
 * The spread-history store on every backend (PGlite always, Postgres with TEST_DATABASE_URL): batch writes and
 * daily closes, bucketing per range against a reference, retention in bounded batches, and the sampler's close
 * writing everything it accepted.
 */
const NOW = Date.UTC(2026, 10, 21, 12, 7, 13)
const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

function point(outcomeKey: string, at: number, priceA: number, priceB: number, eventSlug = 'fed-cut'): HistoryPoint {
  const spread = Math.round((priceB - priceA) * 1e6) / 1e6
  return { eventSlug, outcomeKey, at, spreadBps: Math.round(spread * 1e8) / 1e4, priceA, priceB, platformA: 'venuep' }
}

/** What a range should return, computed in plain code from the points: each bucket's latest point, ascending. */
function reference(points: readonly HistoryPoint[], range: HistoryRange, now: number) {
  const q = bucketQuery(range, now)
  const last = new Map<number, HistoryPoint>()
  for (const p of points) {
    if (q.fromMs !== undefined && p.at < q.fromMs) continue
    const start = Math.floor(p.at / q.bucketMs) * q.bucketMs
    const seen = last.get(start)
    if (seen === undefined || p.at >= seen.at) last.set(start, p)
  }
  return [...last.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([start, p]) => ({ bucketStart: start, at: p.at, spreadBps: p.spreadBps, priceA: p.priceA, priceB: p.priceB }))
}

function counting(db: Db): Queryable & { statements: number } {
  const wrapper = {
    statements: 0,
    query: <R extends object>(sql: string, params?: readonly unknown[]) => {
      wrapper.statements++
      return db.query<R>(sql, params)
    },
  }
  return wrapper
}

async function count(db: Db, table: 'spread_history' | 'spread_history_daily'): Promise<number> {
  const { rows } = await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${table}`)
  return Number(rows[0]?.n)
}

for (const backend of storeBackends()) {
  describeOrSkip(`spread history store on ${backend.name}`, backend.skip, () => {
    let t: TestDb
    let db: Db
    let repo: SpreadHistoryRepository

    before(async () => {
      t = await backend.open()
      db = t.db
    })
    after(() => t.dispose())
    beforeEach(async () => {
      await db.query('TRUNCATE spread_history, spread_history_daily')
      repo = new SpreadHistoryRepository(db)
    })

    test('a batch is one statement; points round-trip exactly; each UTC day keeps its last point as the close', async () => {
      const q = counting(db)
      const points = [
        point('text:yes', NOW - DAY - 2 * HOUR, 0.41, 0.45),
        point('text:yes', NOW - DAY + MIN, 0.4, 0.47), // the previous day's last point (11-20 12:08)
        point('text:no', NOW - DAY, 0.5, 0.5001),
        point('text:yes', NOW - 2 * MIN, 0.123456, 0.654321),
        point('text:yes', NOW, 0.3, 0.35),
      ]
      await new SpreadHistoryRepository(q).insert(points)
      assert.equal(q.statements, 1)
      const { rows } = await db.query<{
        outcome_key: string
        ts: Date
        spread_bps: number
        price_a: number
        price_b: number
        platform_a: string
      }>(
        'SELECT outcome_key, ts, spread_bps, price_a, price_b, platform_a FROM spread_history ORDER BY outcome_key, ts',
      )
      assert.deepEqual(
        rows.map((r) => [r.outcome_key, r.ts.getTime(), r.spread_bps, r.price_a, r.price_b, r.platform_a]),
        [...points]
          .sort((a, b) => a.outcomeKey.localeCompare(b.outcomeKey) || a.at - b.at)
          .map((p) => [p.outcomeKey, p.at, p.spreadBps, p.priceA, p.priceB, p.platformA]),
      )
      assert.deepEqual(
        rows.find((r) => r.outcome_key === 'text:yes' && r.ts.getTime() === NOW - 2 * MIN)?.spread_bps,
        5308.65,
      )
      const all = await repo.buckets('fed-cut', 'text:yes', bucketQuery('all', NOW))
      assert.deepEqual(all, [
        { bucketStart: utcDayStart(NOW - DAY), at: NOW - DAY + MIN, spreadBps: 700, priceA: 0.4, priceB: 0.47 },
        { bucketStart: utcDayStart(NOW), at: NOW, spreadBps: 500, priceA: 0.3, priceB: 0.35 },
      ])
      assert.equal(await count(db, 'spread_history_daily'), 3)
    })

    test('the same pair and instant twice: the later write wins, in a batch and across batches; an older point never rewinds the close', async () => {
      await repo.insert([point('k', NOW, 0.1, 0.2), point('k', NOW, 0.1, 0.3)])
      await repo.insert([point('k', NOW - HOUR, 0.2, 0.25)]) // a late retry of an older point
      await repo.insert([point('k', NOW - HOUR, 0.2, 0.26)]) // …and a rewrite of it
      const raw = await repo.buckets('fed-cut', 'k', { source: 'raw', bucketMs: 60_000, fromMs: undefined })
      assert.deepEqual(
        raw.map((b) => [b.at, b.priceB]),
        [
          [NOW - HOUR, 0.26],
          [NOW, 0.3],
        ],
      )
      const close = await repo.buckets('fed-cut', 'k', bucketQuery('all', NOW))
      assert.deepEqual(
        close.map((b) => [b.at, b.priceB]),
        [[NOW, 0.3]],
      )
    })

    test('1d: 5-minute buckets from the bucket holding now − 24 h, each its last point, ascending, stamped with the bucket start', async () => {
      const points = [
        point('k', Date.UTC(2026, 10, 20, 12, 4, 59, 999), 0.1, 0.2), // before the window (it starts 11-20 12:05)
        point('k', Date.UTC(2026, 10, 20, 12, 5), 0.1, 0.21), // first instant of the window
        point('k', Date.UTC(2026, 10, 20, 12, 9, 59, 999), 0.1, 0.22), // same bucket, later: it closes the bucket
        point('k', Date.UTC(2026, 10, 21, 11, 59, 30), 0.1, 0.24),
        point('k', Date.UTC(2026, 10, 21, 11, 58), 0.1, 0.23),
        point('k', Date.UTC(2026, 10, 21, 12, 7), 0.1, 0.25),
        point('other', Date.UTC(2026, 10, 21, 12, 6), 0.1, 0.9),
      ]
      await repo.insert(points)
      const got = await repo.buckets('fed-cut', 'k', bucketQuery('1d', NOW))
      assert.deepEqual(
        got.map((b) => [isoNoZone(b.bucketStart), isoNoZone(b.at), b.priceB, b.spreadBps]),
        [
          ['2026-11-20T12:05:00.000', '2026-11-20T12:09:59.999', 0.22, 1200],
          ['2026-11-21T11:55:00.000', '2026-11-21T11:59:30.000', 0.24, 1400],
          ['2026-11-21T12:05:00.000', '2026-11-21T12:07:00.000', 0.25, 1500],
        ],
      )
    })

    test('every range equals a plain-code reference on a random 40-day series (window, bucket width, last point per bucket)', async () => {
      const rng = new Rng(7)
      const points: HistoryPoint[] = []
      for (let i = 0; i < 1_500; i++) {
        const a = Math.round(rng.next() * 0.5 * 1e6) / 1e6
        points.push(point('k', NOW - rng.int(0, 40 * DAY), a, Math.round((a + rng.next() * 0.3) * 1e6) / 1e6))
      }
      // Distinct instants: a duplicate would make the reference depend on insertion order.
      const unique = [...new Map(points.map((p) => [p.at, p])).values()]
      for (let i = 0; i < unique.length; i += 400) await repo.insert(unique.slice(i, i + 400))
      for (const range of HISTORY_RANGES) {
        const got = await repo.buckets('fed-cut', 'k', bucketQuery(range, NOW))
        assert.deepEqual(got, reference(unique, range, NOW), range)
        const width = RANGE_PLANS[range].bucketMs
        assert.ok(
          got.every((b) => b.bucketStart % width === 0 && b.at >= b.bucketStart && b.at < b.bucketStart + width),
          `${range}: aligned buckets`,
        )
        assert.ok(got.length > 20, `${range}: ${got.length} buckets`)
      }
    })

    test('hasHistory: only for pairs that have a point; other pairs never leak into a series', async () => {
      await repo.insert([point('k', NOW, 0.1, 0.2), point('k', NOW, 0.1, 0.2, 'other-event')])
      assert.equal(await repo.hasHistory('fed-cut', 'k'), true)
      assert.equal(await repo.hasHistory('fed-cut', 'x'), false)
      assert.equal(await repo.hasHistory('fed-cu', 'k'), false)
      assert.equal((await repo.buckets('other-event', 'k', bucketQuery('1d', NOW))).length, 1)
    })

    test('slugs and keys are parameters: injection attempts are stored and read back verbatim', async () => {
      await repo.insert(INJECTIONS.map((evil, i) => point(evil, NOW - i, 0.1, 0.2, evil)))
      for (const evil of INJECTIONS) assert.equal((await repo.buckets(evil, evil, bucketQuery('1d', NOW))).length, 1)
      assert.equal(await count(db, 'spread_history'), INJECTIONS.length)
    })

    test('retention deletes raw points past retentionDays in bounded statements, keeps daily closes, resumes where a run stopped', async () => {
      const old = Array.from({ length: 25 }, (_, i) => point('k', NOW - 40 * DAY + i * MIN, 0.1, 0.2 + i / 1000))
      const recent = Array.from({ length: 5 }, (_, i) => point('k', NOW - 34 * DAY + i * MIN, 0.1, 0.3))
      await repo.insert([...old, ...recent])
      const q = counting(db)
      const clock = new SimulatedClock(NOW)
      const retention = new HistoryRetention({
        repo: new SpreadHistoryRepository(q),
        clock,
        log: silentLogger,
        retentionDays: 35,
        batchSize: 10,
        maxBatches: 2,
        intervalMs: HOUR,
      })
      assert.deepEqual(
        await retention.run(),
        { deleted: 20, statements: 2, complete: false },
        'stopped at its statement limit',
      )
      assert.equal(q.statements, 2)
      assert.deepEqual(await retention.run(), { deleted: 5, statements: 1, complete: true })
      assert.equal(await count(db, 'spread_history'), 5, 'recent points kept')
      const closes = await repo.buckets('fed-cut', 'k', bucketQuery('all', NOW))
      assert.deepEqual(
        closes.map((b) => [b.at, b.priceB]),
        [
          [old[24]!.at, old[24]!.priceB],
          [recent[4]!.at, 0.3],
        ],
        'the old day still has its close',
      )
      // Scheduled: a minute after start, then every interval.
      await repo.insert([point('k', NOW - 36 * DAY, 0.1, 0.2)])
      retention.start()
      clock.increment(MIN)
      await retention.run()
      assert.equal(await count(db, 'spread_history'), 5)
      await retention.stop()
    })

    test('sampler → store: batches of batchSize, and close() writes every accepted point; each series ends at its latest value', async () => {
      const clock = new SimulatedClock(NOW)
      const q = counting(db)
      const sampler = new HistorySampler({
        writer: new SpreadHistoryRepository(q),
        clock,
        log: silentLogger,
        minIntervalMs: 60_000,
        minChangeBps: 10,
        heartbeatMs: HOUR,
        queueCapacity: 10_000,
        batchSize: 64,
        flushMs: 1_000,
        closeTimeoutMs: 5_000,
      })
      const listeners: ((c: readonly SpreadChange[]) => void)[] = []
      sampler.start({ subscribe: (l) => (listeners.push(l), () => undefined) })
      const rng = new Rng(11)
      const latest = new Map<string, number>()
      for (let step = 0; step < 30; step++) {
        const changes: SpreadChange[] = []
        for (let i = 0; i < 100; i++) {
          const key = `o${rng.int(0, 199)}`
          const b = Math.round((0.5 + rng.int(0, 200) * 0.002) * 1e4) / 1e4 // a 20-bps grid: every new value is meaningful
          const spread = Math.round((b - 0.5) * 1e6) / 1e6
          const record = {
            key: `fed-cut|${key}`,
            priceA: 0.5,
            priceB: b,
            spread,
            spreadBps: Math.round(spread * 1e8) / 1e4,
            platformA: 'venuep',
          } as SpreadRecord
          changes.push({
            spec: { key: `fed-cut|${key}`, eventSlug: 'fed-cut', outcomeKey: key } as SpreadPairSpec,
            record,
          })
          latest.set(key, b)
        }
        for (const l of listeners) l(changes)
        clock.increment(7_000) // flush ticks write in the background
      }
      await sampler.close()
      const s = sampler.stats()
      assert.equal(s.written, s.accepted)
      assert.equal(s.lost + s.dropped + s.thinned + s.rejected, 0)
      assert.equal(await count(db, 'spread_history'), s.accepted, 'every accepted point is in the store')
      assert.ok(
        s.batches >= Math.ceil(s.accepted / 64) && q.statements === s.batches,
        `${s.batches} batches, ${q.statements} statements`,
      )
      const { rows } = await db.query<{ outcome_key: string; price_b: number }>(
        'SELECT DISTINCT ON (outcome_key) outcome_key, price_b FROM spread_history ORDER BY outcome_key, ts DESC',
      )
      assert.equal(rows.length, latest.size)
      for (const r of rows)
        assert.equal(r.price_b, latest.get(r.outcome_key), `${r.outcome_key} ends at its latest value`)
    })
  })
}
