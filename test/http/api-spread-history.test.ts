import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { isoNoZone } from '../../src/core/time.js'
import type { OpenApiDocument } from '../../src/http/openapi.js'
import {
  bucketQuery,
  HISTORY_RANGES,
  RANGE_PLANS,
  type HistoryRange,
} from '../../src/spreads/history/history-ranges.js'
import type { SpreadRecord } from '../../src/spreads/engine/spread-engine.js'
import { call, invalid, ok } from '../helpers/api.js'
import { startTestService, TEST_ANCHOR_MS, type TestService } from '../helpers/service.js'
import { settle, waitFor } from '../helpers/wait.js'

/**
 * GET /api/v2/spreads/history end to end: the simulator moves books, the venue feeds carry the changes, the spread
 * engine publishes records, the sampler writes them to the service's store, and the endpoint buckets them. Time is
 * simulated; the default sampling settings apply (10 bps, one point per pair per minute).
 */
type Point = { timestamp: string; spread_bps: number; price_a: number; price_b: number }
type Body = { event_slug: string; outcome_key: string; range: string; bucket_seconds: number; data: Point[] }
type Row = {
  event_slug: string
  outcome_key: string
  ts: Date
  spread_bps: number
  price_a: number
  price_b: number
  platform_a: string
}

let s: TestService
/** Every value the engine published per pair (`price_a/price_b/platform_a`), from the subscription on. */
const published = new Map<string, Set<string>>()
const valueOf = (a: number, b: number, platform: string) => `${a}/${b}/${platform}`
const MINUTES = 20

before(async () => {
  // Feeds tolerate long silences: the clock jumps a minute at a time while frames wait on the sockets.
  const quiet = { staleAfterMs: 3_600_000, probeReplyMs: 3_600_000, snapshotTimeoutMs: 3_600_000 }
  const catalog = { refreshMs: 7_200_000 }
  // Fewer book moves per second than the suite default: simulated minutes cost less, and spreads still move.
  const sim = { quoteChangesPerSec: 40, tradesPerSec: 0.5 }
  s = await startTestService({
    questions: 120,
    config: { sim, venues: { venuep: { feed: quiet, catalog }, venuek: { feed: quiet, catalog } } },
  })
  await waitFor(() => s.app.spreads.pairCount > 20, 5_000, 'matched pairs in the spread engine')
  await settle(50)
  const note = (r: SpreadRecord) => {
    let set = published.get(r.key)
    if (set === undefined) published.set(r.key, (set = new Set()))
    set.add(valueOf(r.priceA, r.priceB, r.platformA))
  }
  s.app.spreads.byConfidence((r) => (note(r), true))
  let changes = 0
  s.app.spreads.subscribe((batch) => {
    changes += batch.length
    for (const c of batch) if (c.record !== undefined) note(c.record)
  })
  /** Waits (real time) until the frames on the sockets have reached the engine: no change for 100 ms. */
  const quiesce = async () => {
    for (let seen = -1; seen !== changes;) {
      seen = changes
      await settle(100)
    }
  }
  for (let m = 0; m < MINUTES; m++) {
    s.advance(60_000, 2_000)
    await settle(20)
  }
  await quiesce()
  // A quiet minute and a half (no book moves): every value held back by the rate limit is released and written.
  for (let i = 0; i < 90; i++) s.clock.increment(1_000)
  await quiesce()
  await s.app.history.sampler.flush()
  assert.equal(s.app.history.sampler.stats().waiting, 0, 'no value held back')
})

after(async () => {
  await s?.close()
})

async function rows(eventSlug?: string, outcomeKey?: string): Promise<Row[]> {
  const where = eventSlug === undefined ? '' : 'WHERE event_slug = $1 AND outcome_key = $2'
  const { rows } = await s.db.query<Row>(
    `SELECT event_slug, outcome_key, ts, spread_bps, price_a, price_b, platform_a FROM spread_history ${where} ORDER BY ts`,
    eventSlug === undefined ? [] : [eventSlug, outcomeKey],
  )
  return rows
}

/** The body a range should have, computed from the stored points in plain code. */
function expectedBody(eventSlug: string, outcomeKey: string, range: HistoryRange, points: readonly Row[]): Body {
  const q = bucketQuery(range, s.clock.now())
  const last = new Map<number, Row>()
  for (const p of points) {
    const at = p.ts.getTime()
    if (q.fromMs !== undefined && at < q.fromMs) continue
    const start = Math.floor(at / q.bucketMs) * q.bucketMs
    if ((last.get(start)?.ts.getTime() ?? -1) <= at) last.set(start, p)
  }
  const data = [...last.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([start, p]) => ({
      timestamp: isoNoZone(start),
      spread_bps: p.spread_bps,
      price_a: p.price_a,
      price_b: p.price_b,
    }))
  return {
    event_slug: eventSlug,
    outcome_key: outcomeKey,
    range,
    bucket_seconds: RANGE_PLANS[range].bucketMs / 1000,
    data,
  }
}

const path = (eventSlug: string, outcomeKey: string, range?: string) =>
  `/api/v2/spreads/history?event_slug=${encodeURIComponent(eventSlug)}&outcome_key=${encodeURIComponent(outcomeKey)}${range === undefined ? '' : `&range=${range}`}`

describe('the sampled points', () => {
  test("come from the engine's published records, consistent on every point: price_a ≤ price_b, spread_bps = (price_b − price_a) × 10,000", async () => {
    const all = await rows()
    const stats = s.app.history.sampler.stats()
    // A value held back at the instant of a written point replaces it (the same pair and time: the later value wins).
    assert.equal(stats.written, stats.accepted)
    assert.ok(
      all.length <= stats.written && all.length > stats.written * 0.5,
      `${all.length} rows for ${stats.written} points written`,
    )
    assert.ok(all.length > s.app.spreads.pairCount, `${all.length} points for ${s.app.spreads.pairCount} pairs`)
    assert.ok(new Set(all.map((r) => r.ts.getTime())).size > MINUTES / 2, 'points spread over the run')
    assert.deepEqual(
      [stats.lost, stats.dropped, stats.thinned, stats.rejected, stats.invalid, stats.observeErrors],
      [0, 0, 0, 0, 0, 0],
    )
    for (const r of all) {
      assert.ok(r.price_a <= r.price_b, `price_a ≤ price_b (${r.price_a}, ${r.price_b})`)
      assert.ok(
        Math.abs(r.spread_bps - (r.price_b - r.price_a) * 10_000) < 1e-6,
        `spread_bps ${r.spread_bps} = (${r.price_b} − ${r.price_a}) × 10,000`,
      )
      assert.ok(r.platform_a === 'venuep' || r.platform_a === 'venuek')
      // Values from before the test subscribed carry the anchor time (the clock had not moved yet).
      if (r.ts.getTime() > TEST_ANCHOR_MS) {
        const key = `${r.event_slug}|${r.outcome_key}`
        assert.ok(
          published.get(key)?.has(valueOf(r.price_a, r.price_b, r.platform_a)),
          `${key} at ${r.ts.toISOString()}: a value the engine published`,
        )
      }
    }
  })

  test("at most one point per pair per minute, and each series ends at the engine's current value (within the 10-bps threshold)", async () => {
    const byPair = new Map<string, Row[]>()
    for (const r of await rows()) {
      const key = `${r.event_slug}|${r.outcome_key}`
      byPair.set(key, [...(byPair.get(key) ?? []), r])
    }
    let exact = 0
    for (const [key, series] of byPair) {
      // The rate limit bounds how many points a window holds: a written point plus at most one held-back value.
      for (let i = 2; i < series.length; i++)
        assert.ok(series[i]!.ts.getTime() - series[i - 2]!.ts.getTime() >= 60_000, `${key}: rate limit`)
      const record = s.app.spreads.record(key)
      if (record === undefined) continue
      const last = series.at(-1)!
      assert.equal(last.platform_a, record.platformA, `${key}: platform_a`)
      assert.ok(
        Math.abs(last.spread_bps - record.spreadBps) < 10,
        `${key}: last ${last.spread_bps} vs current ${record.spreadBps}`,
      )
      if (last.price_a === record.priceA && last.price_b === record.priceB) exact++
    }
    assert.ok(exact > byPair.size / 2, `${exact} of ${byPair.size} series end exactly at the current prices`)
  })
})

describe('GET /api/v2/spreads/history', () => {
  test('every range: the whole body, buckets of the right width, each its last point, ascending', async () => {
    const [busiest] = (
      await s.db.query<{ event_slug: string; outcome_key: string }>(
        'SELECT event_slug, outcome_key FROM spread_history GROUP BY 1, 2 ORDER BY count(*) DESC, 1, 2 LIMIT 1',
      )
    ).rows
    const { event_slug: e, outcome_key: o } = busiest!
    const points = await rows(e, o)
    assert.ok(points.length >= 8, `${points.length} points`)
    for (const range of HISTORY_RANGES) {
      const body = await ok<Body>(s, 'getSpreadHistory', path(e, o, range))
      assert.deepEqual(body, expectedBody(e, o, range, points), range)
      assert.ok(body.data.length > 0)
      const last = points.at(-1)!
      assert.deepEqual(
        body.data.at(-1),
        {
          timestamp: body.data.at(-1)!.timestamp,
          spread_bps: last.spread_bps,
          price_a: last.price_a,
          price_b: last.price_b,
        },
        `${range} ends at the last point`,
      )
    }
    const oneDay = await ok<Body>(s, 'getSpreadHistory', path(e, o, '1d'))
    assert.ok(oneDay.data.length >= 4, `${MINUTES} minutes of 5-minute buckets`)
    assert.deepEqual(
      await ok<Body>(s, 'getSpreadHistory', path(e, o)),
      { ...expectedBody(e, o, '1w', points) },
      'range defaults to 1w',
    )
  })

  test('a pair the service neither matches nor ever sampled is 404', async () => {
    const r = await call(s, 'getSpreadHistory', path('no-such-event', 'text:yes'))
    assert.equal(r.status, 404)
    assert.deepEqual(r.body, {
      detail: 'no spread history for event_slug no-such-event and outcome_key text:yes',
      code: 'not_found',
    })
  })

  test('422 for a missing event_slug or outcome_key and for an unknown range, with the validation body', async () => {
    const r = await call(s, 'getSpreadHistory', '/api/v2/spreads/history?outcome_key=text:yes')
    assert.equal(r.status, 422)
    assert.deepEqual(r.body, {
      detail: [{ type: 'missing', loc: ['query', 'event_slug'], msg: 'Field required', input: null }],
    })
    const range = await call(s, 'getSpreadHistory', '/api/v2/spreads/history?event_slug=e&outcome_key=k&range=2d')
    assert.equal(range.status, 422)
    const expected = "'1d', '1w', '1m' or 'all'"
    assert.deepEqual(range.body, {
      detail: [
        {
          type: 'literal_error',
          loc: ['query', 'range'],
          msg: `Input should be ${expected}`,
          input: '2d',
          ctx: { expected },
        },
      ],
    })
    await invalid(s, 'getSpreadHistory', '/api/v2/spreads/history', [
      ['query', 'event_slug'],
      ['query', 'outcome_key'],
    ])
    await invalid(s, 'getSpreadHistory', '/api/v2/spreads/history?event_slug=e', [['query', 'outcome_key']])
    await invalid(s, 'getSpreadHistory', '/api/v2/spreads/history?event_slug=&outcome_key=k&range=', [
      ['query', 'event_slug'],
      ['query', 'range'],
    ])
  })

  test('published in the OpenAPI document: required event_slug and outcome_key, range defaulting to 1w', async () => {
    const doc = (await (await fetch(`${s.baseUrl}/api/v2/openapi.json`)).json()) as OpenApiDocument
    const op = doc.paths['/api/v2/spreads/history']?.get
    assert.ok(op !== undefined)
    assert.deepEqual(
      op.parameters?.map((p) => [p.name, p.in, p.required, p.schema.default ?? null, p.schema.enum ?? null]),
      [
        ['event_slug', 'query', true, null, null],
        ['outcome_key', 'query', true, null, null],
        ['range', 'query', false, '1w', ['1d', '1w', '1m', 'all']],
        ['If-None-Match', 'header', false, null, null],
      ],
    )
    assert.deepEqual(Object.keys(op.responses).sort(), ['200', '304', '401', '404', '422', '429', '503'])
    assert.equal(
      op.responses['200']?.headers?.['Cache-Control']?.description.startsWith('Addition: `private, max-age=60`'),
      true,
      'a series gains at most a point a minute',
    )
    assert.match(op.description ?? '', /stamped with the bucket's start/)
  })
})
