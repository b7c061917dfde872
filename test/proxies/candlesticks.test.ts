import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { PriceHistory } from '../../src/venues/venuep/price-history.js'
import { startTestService, type TestService } from '../helpers/service.js'
import {
  groupMarkets,
  mountProxies,
  pcall,
  pinvalid,
  pok,
  served,
  singleMarkets,
  type ProxyHarness,
} from './harness.js'

/** GET /api/v2/venuep/candlesticks: precedence of identifiers, windows, caching, single flight. */
type Candles = {
  history: { t: number; p: number }[]
  market_slug: string
  condition_id: string
  token_id: string
  outcome_index: number
  fidelity_minutes: number
  start_ts: number | null
  end_ts: number | null
}

let s: TestService
let h: ProxyHarness

before(async () => {
  s = await startTestService({ questions: 100 })
  h = await mountProxies(s)
})

after(async () => {
  await h?.close()
  await s?.close()
})

const OP = 'getVenuepCandlesticks'
const calls = () => served(s, 'clob', '/prices-history')

async function venueHistory(query: string): Promise<{ t: number; p: number }[]> {
  return (
    (await (await fetch(`${s.sim.venuep.urls.clob}/prices-history?${query}`)).json()) as {
      history: { t: number; p: number }[]
    }
  ).history
}

describe('GET /api/v2/venuep/candlesticks', () => {
  test("by market slug: the first token's hourly series from the venue, t in seconds, p in [0, 1]", async () => {
    const m = singleMarkets(s, 'active')[0]!
    const body = await pok<Candles>(h, OP, `/api/v2/venuep/candlesticks?market_slug=${m.marketId}`)
    assert.equal(body.market_slug, m.marketId)
    assert.equal(body.condition_id, m.outcomes[0]!.conditionId)
    assert.equal(body.token_id, m.outcomes[0]!.instrumentId)
    assert.equal(body.fidelity_minutes, 60)
    assert.deepEqual([body.start_ts, body.end_ts], [null, null])
    assert.ok(body.history.length > 1)
    for (const pt of body.history) assert.ok(Number.isInteger(pt.t) && pt.t % 3600 === 0 && pt.p >= 0 && pt.p <= 1)
    assert.deepEqual(body.history, await venueHistory(`market=${body.token_id}&interval=max&fidelity=60`))
  })

  test('precedence: token_id > condition_id > market_slug', async () => {
    const [a, b, c] = singleMarkets(s, 'active')
    const tokenOfB1 = b!.outcomes[1]!.instrumentId
    const all = await pok<Candles>(
      h,
      OP,
      `/api/v2/venuep/candlesticks?market_slug=${a!.marketId}&condition_id=${c!.outcomes[0]!.conditionId}&token_id=${tokenOfB1}&fidelity=1440`,
    )
    assert.deepEqual(
      [all.token_id, all.outcome_index, all.market_slug, all.condition_id],
      [tokenOfB1, 1, b!.marketId, b!.outcomes[0]!.conditionId],
    )
    const cond = await pok<Candles>(
      h,
      OP,
      `/api/v2/venuep/candlesticks?market_slug=${a!.marketId}&condition_id=${c!.outcomes[0]!.conditionId}&fidelity=1440`,
    )
    assert.deepEqual([cond.token_id, cond.market_slug], [c!.outcomes[0]!.instrumentId, c!.marketId])
    // A group child: its own slug and its condition id name the same series.
    const child = groupMarkets(s, 'active')[0]!.outcomes[0]!
    const bySlug = await pok<Candles>(
      h,
      OP,
      `/api/v2/venuep/candlesticks?market_slug=${child.childMarketSlug}&fidelity=1440`,
    )
    const byCond = await pok<Candles>(
      h,
      OP,
      `/api/v2/venuep/candlesticks?condition_id=${child.conditionId}&fidelity=1440`,
    )
    assert.deepEqual(bySlug, byCond)
    assert.equal(bySlug.token_id, child.instrumentId)
  })

  test('start_ts and end_ts are inclusive; fidelity sets the width', async () => {
    const m = singleMarkets(s, 'active')[1]!
    const end = Math.floor(s.clock.now() / 1000 / 300) * 300 - 3 * 3600
    const start = end - 2 * 3600
    const body = await pok<Candles>(
      h,
      OP,
      `/api/v2/venuep/candlesticks?market_slug=${m.marketId}&fidelity=5&start_ts=${start}&end_ts=${end}`,
    )
    assert.equal(body.fidelity_minutes, 5)
    assert.deepEqual([body.start_ts, body.end_ts], [start, end])
    assert.equal(body.history[0]!.t, start, 'a candle opening at start_ts is included')
    assert.equal(body.history.at(-1)!.t, end, 'a candle opening at end_ts is included')
    assert.equal(body.history.length, 2 * 12 + 1)
    for (let i = 1; i < body.history.length; i++) assert.equal(body.history[i]!.t - body.history[i - 1]!.t, 300)
  })

  test('validation and unknown ids', async () => {
    await pinvalid(h, OP, '/api/v2/venuep/candlesticks', [['query', 'market_slug']])
    await pinvalid(h, OP, '/api/v2/venuep/candlesticks?market_slug=x&fidelity=0', [['query', 'fidelity']])
    await pinvalid(h, OP, '/api/v2/venuep/candlesticks?market_slug=x&start_ts=-5', [['query', 'start_ts']])
    const m = singleMarkets(s, 'active')[0]!
    await pinvalid(h, OP, `/api/v2/venuep/candlesticks?market_slug=${m.marketId}&start_ts=200&end_ts=100`, [
      ['query', 'start_ts'],
    ])
    for (const q of ['market_slug=nope', 'condition_id=0xdead', 'token_id=42']) {
      const r = await pcall(h, OP, `/api/v2/venuep/candlesticks?${q}`)
      assert.deepEqual([r.status, r.body.code], [404, 'not_found'], q)
    }
  })

  test('cache: a closed window is kept for a day, a window reaching now for 30 s', async () => {
    const m = singleMarkets(s, 'active')[2]!
    const end = Math.floor(s.clock.now() / 1000) - 86_400
    const closed = `/api/v2/venuep/candlesticks?market_slug=${m.marketId}&fidelity=15&start_ts=${end - 86_400}&end_ts=${end}`
    const open = `/api/v2/venuep/candlesticks?market_slug=${m.marketId}&fidelity=15&start_ts=${end}`
    const c0 = calls()
    const first = await pok<Candles>(h, OP, closed)
    await pok<Candles>(h, OP, open)
    assert.equal(calls(), c0 + 2)
    assert.deepEqual(await pok<Candles>(h, OP, closed), first)
    await pok<Candles>(h, OP, open)
    assert.equal(calls(), c0 + 2, 'both served from the cache')
    s.clock.increment(31_000)
    await pok<Candles>(h, OP, closed)
    await pok<Candles>(h, OP, open)
    assert.equal(calls(), c0 + 3, 'only the open window was fetched again')
    s.clock.increment(3_600_000)
    await pok<Candles>(h, OP, closed)
    assert.equal(calls(), c0 + 3, 'the closed window is still cached an hour later')
  })

  test('single flight: 100 concurrent identical cold requests make exactly one venue call', async () => {
    const m = singleMarkets(s, 'active')[3]!
    const path = `/api/v2/venuep/candlesticks?market_slug=${m.marketId}&fidelity=30`
    const c0 = calls()
    const before = h.live.upstreams.clob.stats()
    const bodies = await Promise.all(
      Array.from({ length: 100 }, () =>
        fetch(`${h.baseUrl}${path}`, { headers: h.headers }).then(async (r) => [r.status, await r.text()] as const),
      ),
    )
    assert.equal(calls(), c0 + 1, 'one upstream call')
    assert.ok(
      bodies.every(([status, text]) => status === 200 && text === bodies[0]![1]),
      'every caller got the same answer',
    )
    const after = h.live.upstreams.clob.stats()
    assert.equal(after.calls - before.calls, 1)
    assert.equal(
      after.joined - before.joined + (after.cacheHits - before.cacheHits),
      99,
      'the 99 others joined the flight or hit the cache',
    )
  })

  test("market-price's history lookups can share the proxies' CLOB upstream (cache, breaker, limits)", async () => {
    const history = new PriceHistory({ clob: h.live.upstreams.clob, clock: s.clock })
    const token = singleMarkets(s, 'active')[4]!.outcomes[0]!.instrumentId
    const ts = Math.floor(s.clock.now() / 1000) - 36 * 3600 + 17
    const before = h.live.upstreams.clob.stats().calls
    const point = await history.nearest(token, ts)
    const venue = await venueHistory(`market=${token}&startTs=${ts - 3600}&endTs=${ts + 3600}&fidelity=1`)
    const nearest = venue.reduce((b, p) => (Math.abs(p.t - ts) < Math.abs(b.t - ts) ? p : b))
    assert.deepEqual(point, nearest)
    await history.nearest(token, ts + 60)
    assert.equal(h.live.upstreams.clob.stats().calls, before + 1, 'one window per 3-hour bucket, cached')
  })
})
