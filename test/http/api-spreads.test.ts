import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { call, invalid, ok } from '../helpers/api.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { settle, waitFor } from '../helpers/wait.js'
import { isStale, spreadJson } from '../../src/spreads/engine/spread-json.js'
import type { SpreadRecord } from '../../src/spreads/engine/spread-engine.js'

/** /spreads and /spreads/top against the simulator: ordering, filters, invariants, dislocations, staleness. */
type Spread = {
  event_slug: string
  outcome_key: string
  platform_a: string
  platform_b: string
  price_a: number
  price_b: number
  spread: number
  spread_bps: number
  confidence: number
  is_stale: boolean
  updated_at: string
  volume_min: number | null
  executable: { buy_platform: string; sell_platform: string; edge: number; net_edge: number; size: number } | null
}
type Body = { data: Spread[]; count: number }

let s: TestService

before(async () => {
  // Feeds tolerate an hour of silence here: the staleness test moves the clock 46 minutes with no venue activity,
  // and the point is the quote-age cutoff, not the feeds' own silence detection (the lifecycle suite covers that).
  const quiet = { staleAfterMs: 3_600_000, probeReplyMs: 3_600_000, snapshotTimeoutMs: 3_600_000 }
  const catalog = { refreshMs: 7_200_000 }
  s = await startTestService({
    questions: 150,
    config: { venues: { venuep: { feed: quiet, catalog }, venuek: { feed: quiet, catalog } } },
  })
  await waitFor(() => s.app.spreads.pairCount > 20, 5_000, 'matched pairs in the spread engine')
  await settle(50)
})

after(async () => {
  await s?.close()
})

function assertInvariants(r: Spread): void {
  assert.ok(r.price_a <= r.price_b, `price_a ≤ price_b (${r.price_a}, ${r.price_b})`)
  assert.notEqual(r.platform_a, r.platform_b)
  assert.ok(Math.abs(r.spread - (r.price_b - r.price_a)) < 1e-9, 'spread = price_b − price_a')
  assert.ok(Math.abs(r.spread_bps - r.spread * 10_000) < 1e-6, 'spread_bps = spread × 10,000')
  assert.ok(r.confidence >= 0 && r.confidence <= 1)
  assert.match(r.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/)
  if (r.executable !== null)
    assert.deepEqual([r.executable.buy_platform, r.executable.sell_platform], [r.platform_a, r.platform_b])
}

describe('GET /api/v2/spreads/top', () => {
  test('ordered by confidence, limited, every record consistent', async () => {
    const top = await ok<Body>(s, 'topSpreads', '/api/v2/spreads/top?limit=50')
    assert.equal(top.count, top.data.length)
    assert.ok(top.count > 0 && top.count <= 50)
    for (let i = 1; i < top.data.length; i++)
      assert.ok(top.data[i - 1]!.confidence >= top.data[i]!.confidence, 'descending confidence')
    top.data.forEach(assertInvariants)
    assert.equal((await ok<Body>(s, 'topSpreads', '/api/v2/spreads/top')).count, Math.min(20, s.app.spreads.pairCount))
  })

  test('a cached list is always the bytes a fresh walk of the ranking gives, as quotes move and time passes', async () => {
    // What the route must answer right now, built from the engine without any cache.
    const fresh = (limit: number, windowHours: number): string => {
      const now = s.clock.now()
      const records: SpreadRecord[] = []
      s.app.spreads.byConfidence((r) => {
        if (now - r.olderQuoteAt <= windowHours * 3_600_000) records.push(r)
        return records.length < limit
      })
      return `{"data":[${records.map((r) => spreadJson(r, isStale(r, now, 45 * 60_000))).join(',')}],"count":${records.length}}`
    }
    const lists = [
      [5, 24],
      [50, 24],
      [200, 1],
    ] as const
    const dislocated = s.sim.world.truth.outcomePairs
      .filter((p) => s.sim.world.questionsById.get(p.questionId)!.lifecycle === 'active')
      .slice(0, 12)
    for (let step = 0; step < 12; step++) {
      for (const [limit, window] of lists) {
        const path = `/api/v2/spreads/top?limit=${limit}&window=${window}`
        for (let read = 0; read < 2; read++) {
          // Frames may still be arriving: a read counts when the ranking was the same before and after it.
          let checked = false
          for (let attempt = 0; attempt < 50 && !checked; attempt++) {
            const before = fresh(limit, window)
            const body = (await call(s, 'topSpreads', path)).body
            if (fresh(limit, window) !== before) continue
            assert.deepEqual(body, JSON.parse(before), `step ${step}, ${path}, read ${read}`)
            checked = true
          }
          assert.ok(checked, `step ${step}, ${path}: the ranking never held still for one read`)
        }
      }
      // Move one pair's price a lot (it may jump into the top list or leave it), then let the books and time run.
      const pair = dislocated[step]!
      const contract = s.sim.world.questionsById
        .get(pair.questionId)!
        .contracts.find((c) => c.key === pair.contractKey)!
      s.sim.engine.openDislocation(contract, step % 2 === 0 ? 'venuek' : 'venuep', 1.2, 60_000, s.clock.now())
      s.clock.increment(20_000)
      await settle(20)
    }
  })

  test('validation: limit bounds and window', async () => {
    await invalid(s, 'topSpreads', '/api/v2/spreads/top?limit=0', [['query', 'limit']])
    await invalid(s, 'topSpreads', '/api/v2/spreads/top?limit=201&window=0', [
      ['query', 'limit'],
      ['query', 'window'],
    ])
  })
})

describe('GET /api/v2/spreads', () => {
  test('defaults: gaps of at least 2 points on venues with at least $1,000, largest first', async () => {
    const body = await ok<Body>(s, 'listSpreads', '/api/v2/spreads?min_spread=0&min_volume=0')
    assert.ok(body.count > 20, 'every matched pair with two prices')
    body.data.forEach(assertInvariants)
    for (let i = 1; i < body.data.length; i++) assert.ok(body.data[i - 1]!.spread >= body.data[i]!.spread)
    const def = await ok<Body>(s, 'listSpreads', '/api/v2/spreads')
    assert.deepEqual(
      def.data.map((r) => r.outcome_key + r.event_slug),
      body.data
        .filter((r) => r.spread >= 0.02 && (r.volume_min ?? -1) >= 1000)
        .map((r) => r.outcome_key + r.event_slug),
    )
  })

  test('a dislocation at one venue opens a gap that the scanner reports, on the right side', async () => {
    // A mid-priced contract, so a shift in logit space moves its price by many points.
    const pair = s.sim.world.truth.outcomePairs.find((p) => {
      const q = s.sim.world.questionsById.get(p.questionId)!
      const c = q.contracts.find((x) => x.key === p.contractKey)!
      const fair = s.sim.world.venueFair(c, 'venuek', s.clock.now())
      // Venues agreeing now (a small gap), so the gap the test opens is the dislocation's.
      const now = [...s.app.spreads.eventRecords(p.a.event)].find(
        (r) => s.app.spreads.spec(r.key)?.b.outcome.instrumentId === p.b.outcome,
      )
      return (
        q.lifecycle === 'active' &&
        q.kind !== 'binary' &&
        fair > 0.25 &&
        fair < 0.6 &&
        now !== undefined &&
        now.spread < 0.05
      )
    })!
    const contract = s.sim.world.questionsById.get(pair.questionId)!.contracts.find((c) => c.key === pair.contractKey)!
    // venuek quotes this contract far above its fair value for ten minutes.
    s.sim.engine.openDislocation(contract, 'venuek', 1.5, 10 * 60_000, s.clock.now())
    const key = [...s.app.spreads.eventRecords(pair.a.event)].find(
      (r) => r.outcomeKey.length > 0 && s.app.spreads.spec(r.key)?.b.outcome.instrumentId === pair.b.outcome,
    )?.key
    await waitFor(
      () => {
        const r = s.app.spreads.record(key ?? '')
        return r !== undefined && r.platformB === 'venuek' && r.spread >= 0.1
      },
      5_000,
      'the gap reaches the engine',
    )
    const body = await ok<Body>(
      s,
      'listSpreads',
      `/api/v2/spreads?event_slug=${pair.a.event}&min_spread=0.1&min_volume=0`,
    )
    const r = body.data.find(
      (x) => s.app.spreads.spec(`${x.event_slug}|${x.outcome_key}`)?.b.outcome.instrumentId === pair.b.outcome,
    )!
    assert.ok(r !== undefined, 'the dislocated pair is listed')
    assert.deepEqual([r.platform_a, r.platform_b], ['venuep', 'venuek'], 'venuek is dear, venuep cheap')
    assertInvariants(r)
  })

  test('platforms filter and validation of every parameter', async () => {
    assert.equal(
      (await ok<Body>(s, 'listSpreads', '/api/v2/spreads?min_spread=0&min_volume=0&platforms=venuep')).count,
      0,
      'a pair needs both its platforms listed',
    )
    const both = await ok<Body>(s, 'listSpreads', '/api/v2/spreads?min_spread=0&min_volume=0&platforms=venuek,venuep')
    assert.ok(both.count > 0)
    await invalid(s, 'listSpreads', '/api/v2/spreads?platforms=venuex', [['query', 'platforms']])
    await invalid(s, 'listSpreads', '/api/v2/spreads?min_spread=-0.1&min_volume=-1&stale_cutoff_minutes=0', [
      ['query', 'min_spread'],
      ['query', 'min_volume'],
      ['query', 'stale_cutoff_minutes'],
    ])
    await invalid(s, 'listSpreads', '/api/v2/spreads?min_spread=1.5', [['query', 'min_spread']])
  })

  test('is_stale is computed per request from the cutoff and the injected clock', async () => {
    const fresh = await ok<Body>(s, 'listSpreads', '/api/v2/spreads?min_spread=0&min_volume=0')
    assert.ok(fresh.data.some((r) => !r.is_stale))
    // 46 minutes pass with no book activity (heartbeats still flow, in 30-second steps): every quote ages
    // past the default 45-minute cutoff while the feeds stay connected.
    for (let t = 0; t < 46 * 60_000; t += 30_000) {
      s.clock.increment(30_000)
      await settle(3)
    }
    assert.equal(s.app.venues.venuek.venueStatus().books.stale, 0, 'the feeds stayed up')
    const aged = await ok<Body>(s, 'listSpreads', '/api/v2/spreads?min_spread=0&min_volume=0')
    assert.ok(
      aged.data.every((r) => r.is_stale),
      'older than the default cutoff',
    )
    const lenient = await ok<Body>(
      s,
      'listSpreads',
      '/api/v2/spreads?min_spread=0&min_volume=0&stale_cutoff_minutes=120',
    )
    assert.ok(
      lenient.data.some((r) => !r.is_stale),
      'within a 2-hour cutoff',
    )
    const r = await call(s, 'topSpreads', '/api/v2/spreads/top?window=1')
    assert.equal(r.status, 200)
  })
})
