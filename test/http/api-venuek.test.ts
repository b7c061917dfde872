import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { assertOrdered, assertPagesTile, call, invalid, ok } from '../helpers/api.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { waitFor } from '../helpers/wait.js'

/** venuek endpoints (spec 4.2) against the simulator: shapes (contract), filters, sorts, paging, validation. */
type Outcome = {
  market_ticker: string
  title: string
  status: string
  probability: number | null
  best_bid: number | null
  best_ask: number | null
}
type Market = {
  event_ticker: string
  event_slug: string
  title: string
  status: string
  category: string
  volume_total: number | null
  outcomes: Outcome[]
} & Record<string, unknown>
type Page = { markets: Market[]; total: number }

let s: TestService
let all: Market[]

before(async () => {
  s = await startTestService({ questions: 100 })
  await waitFor(() => s.app.models.view('venuek') !== undefined)
  const first = await ok<Page>(s, 'listVenuekMarkets', '/api/v2/venuek/markets?status=all&limit=100')
  assert.ok(first.total <= 100)
  all = first.markets
})

after(async () => {
  await s?.close()
})

describe('GET /api/v2/venuek/markets', () => {
  test('defaults, status filter, and the record shape of spec 2.3', async () => {
    const page = await ok<Page>(s, 'listVenuekMarkets', '/api/v2/venuek/markets')
    assert.equal(page.total, all.filter((m) => m.status === 'active').length)
    assertOrdered(page.markets, 'volume_total', 'desc', 'event_ticker')
    const m = page.markets[0]!
    assert.match(String(m.end_time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/, 'timestamps have no zone suffix')
    assert.ok(m.outcomes.every((o) => o.market_ticker.startsWith(m.event_ticker)))
    let sum = 0
    for (const status of ['active', 'closed', 'resolved'])
      sum += (await ok<Page>(s, 'listVenuekMarkets', `/api/v2/venuek/markets?status=${status}&limit=1`)).total
    assert.equal(sum, all.length)
  })

  test('every sort key in both orders; liquidity is not a venuek sort key', async () => {
    const fields: Record<string, string> = {
      volume: 'volume_total',
      volume_24h: 'volume_24h',
      updated_at: 'updated_at',
      end_time: 'end_time',
      created_at: 'created_at',
    }
    for (const [sort, field] of Object.entries(fields)) {
      for (const order of ['asc', 'desc'] as const) {
        const page = await ok<Page>(
          s,
          'listVenuekMarkets',
          `/api/v2/venuek/markets?status=all&limit=100&sort=${sort}&order=${order}`,
        )
        assertOrdered(page.markets, field, order, 'event_ticker')
      }
    }
    await invalid(s, 'listVenuekMarkets', '/api/v2/venuek/markets?sort=liquidity', [['query', 'sort']])
  })

  test('min_volume, tickers (CSV), search, category, paging', async () => {
    const volumes = all
      .map((m) => m.volume_total)
      .filter((v): v is number => v !== null)
      .sort((a, b) => a - b)
    const threshold = volumes[Math.floor(volumes.length / 2)]!
    const rich = await ok<Page>(
      s,
      'listVenuekMarkets',
      `/api/v2/venuek/markets?status=all&limit=100&min_volume=${threshold}`,
    )
    assert.equal(rich.total, volumes.filter((v) => v >= threshold).length)
    assert.ok(rich.markets.every((m) => (m.volume_total ?? -1) >= threshold))
    const [a, b] = [all[1]!, all[4]!]
    const byEvents = await ok<Page>(
      s,
      'listVenuekMarkets',
      `/api/v2/venuek/markets?status=all&event_ticker=${a.event_ticker},${b.event_ticker}`,
    )
    assert.deepEqual(byEvents.markets.map((m) => m.event_ticker).sort(), [a.event_ticker, b.event_ticker].sort())
    const byMarket = await ok<Page>(
      s,
      'listVenuekMarkets',
      `/api/v2/venuek/markets?status=all&market_ticker=${b.outcomes[0]!.market_ticker}`,
    )
    assert.deepEqual(
      byMarket.markets.map((m) => m.event_ticker),
      [b.event_ticker],
    )
    const word = a.title.split(' ').find((w) => w.length > 4)!
    const found = await ok<Page>(
      s,
      'listVenuekMarkets',
      `/api/v2/venuek/markets?status=all&limit=100&search=${encodeURIComponent(word.toLowerCase())}`,
    )
    assert.deepEqual(
      found.markets.map((m) => m.event_ticker).sort(),
      all
        .filter((m) => m.title.toLowerCase().includes(word.toLowerCase()))
        .map((m) => m.event_ticker)
        .sort(),
    )
    const cat = await ok<Page>(
      s,
      'listVenuekMarkets',
      `/api/v2/venuek/markets?status=all&limit=100&category=${a.category}`,
    )
    assert.equal(cat.total, all.filter((m) => m.category === a.category).length)
    await assertPagesTile(
      s,
      'listVenuekMarkets',
      '/api/v2/venuek/markets?status=all&sort=created_at&order=asc',
      'markets',
      'event_ticker',
      6,
    )
    await invalid(s, 'listVenuekMarkets', '/api/v2/venuek/markets?min_volume=-1&limit=101', [
      ['query', 'min_volume'],
      ['query', 'limit'],
    ])
    await invalid(s, 'listVenuekMarkets', '/api/v2/venuek/markets?min_volume=lots', [['query', 'min_volume']])
  })
})

describe('GET /api/v2/venuek/events', () => {
  test('event rows, filters and paging', async () => {
    const page = await ok<{ events: Record<string, unknown>[]; total: number }>(
      s,
      'listVenuekEvents',
      '/api/v2/venuek/events?status=all&limit=100&sort=end_time&order=desc',
    )
    assert.equal(page.total, all.length)
    assertOrdered(page.events, 'end_time', 'desc', 'event_id')
    const one = await ok<{ events: { event_id: string }[] }>(
      s,
      'listVenuekEvents',
      `/api/v2/venuek/events?status=all&event_ticker=${all[2]!.event_ticker}`,
    )
    assert.deepEqual(
      one.events.map((e) => e.event_id),
      [all[2]!.event_ticker],
    )
    await assertPagesTile(s, 'listVenuekEvents', '/api/v2/venuek/events?status=all', 'events', 'event_id', 8)
    await invalid(s, 'listVenuekEvents', '/api/v2/venuek/events?offset=-1', [['query', 'offset']])
  })
})

describe('GET /api/v2/venuek/prices', () => {
  test('rows per binary market with status, offset and total', async () => {
    const outcomes = all.flatMap((m) => m.outcomes.map((o) => ({ ...o, event: m.event_ticker })))
    const active = outcomes.filter((o) => o.status === 'active')
    const page = await ok<{ prices: Record<string, unknown>[]; total: number; limit: number; offset: number }>(
      s,
      'listVenuekPrices',
      '/api/v2/venuek/prices?limit=10&offset=5',
    )
    assert.deepEqual([page.total, page.limit, page.offset, page.prices.length], [active.length, 10, 5, 10])
    const settled = await ok<{ prices: { status: string }[]; total: number }>(
      s,
      'listVenuekPrices',
      '/api/v2/venuek/prices?status=resolved&limit=100',
    )
    assert.equal(settled.total, outcomes.filter((o) => o.status === 'resolved').length)
    assert.ok(settled.prices.every((p) => p.status === 'resolved'))
    const t = all[0]!.outcomes[0]!.market_ticker
    const one = await ok<{ prices: { market_ticker: string }[] }>(
      s,
      'listVenuekPrices',
      `/api/v2/venuek/prices?status=all&market_ticker=${t}`,
    )
    assert.deepEqual(
      one.prices.map((p) => p.market_ticker),
      [t],
    )
    await invalid(s, 'listVenuekPrices', '/api/v2/venuek/prices?status=settled', [['query', 'status']])
  })
})

describe('GET /api/v2/venuek/market-price', () => {
  test('spec 2.6: YES from the book, NO derived as 1 − YES', async () => {
    const m = all.find((x) => x.status === 'active')!
    const o = m.outcomes[0]!
    const body = await ok<{
      yes: { probability: number; best_bid: number; best_ask: number }
      no: { probability: number; best_bid: number; best_ask: number }
      event_ticker: string
      event_slug: string
    }>(s, 'getVenuekMarketPrice', `/api/v2/venuek/market-price?market_ticker=${o.market_ticker}`)
    const q = s.app.venues.venuek.quote(o.market_ticker)!
    assert.deepEqual(
      [body.yes.best_bid, body.yes.best_ask, body.yes.probability],
      [q.bestBid, q.bestAsk, q.probability],
    )
    assert.equal(body.no.probability, Math.round((1 - body.yes.probability) * 1e6) / 1e6)
    assert.equal(body.no.best_bid, Math.round((1 - body.yes.best_ask) * 1e6) / 1e6)
    assert.deepEqual([body.event_ticker, body.event_slug], [m.event_ticker, m.event_slug])
  })

  test('market_ticker is required; unknown tickers are 404', async () => {
    await invalid(s, 'getVenuekMarketPrice', '/api/v2/venuek/market-price', [['query', 'market_ticker']])
    const r = await call(s, 'getVenuekMarketPrice', '/api/v2/venuek/market-price?market_ticker=NOPE-1')
    assert.deepEqual([r.status, r.body.code], [404, 'not_found'])
  })
})
