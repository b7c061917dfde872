import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { money } from '../../src/core/money.js'
import { MICROS_PER_UNIT } from '../../src/core/numbers.js'
import { volumeOf } from '../../src/sim/venuep/market-stats.js'
import { assertOrdered, assertPagesTile, call, invalid, ok } from '../helpers/api.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { settle, waitFor } from '../helpers/wait.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { tokenTop } from '../../src/sim/venuep/book-view.js'

/** venuep endpoints (spec 4.1) against the simulator: shapes (contract), filters, sorts, paging, validation. */
type Market = {
  market_slug: string
  event_slug: string
  title: string
  status: string
  category: string
  volume_total: number | null
  outcomes: Outcome[]
} & Record<string, unknown>
type Outcome = {
  title: string
  token_id: string
  condition_id: string | null
  best_bid: number | null
  best_ask: number | null
  probability: number | null
  market_slug: string
  volume: number | null
}
type Page = { markets: Market[]; total: number; limit: number; offset: number }

let s: TestService
let all: Market[]

before(async () => {
  s = await startTestService({ questions: 100 })
  await waitFor(() => s.app.models.view('venuep') !== undefined && s.app.models.view('venuek') !== undefined)
  const first = await ok<Page>(s, 'listVenuepMarkets', '/api/v2/venuep/markets?status=all&limit=100')
  assert.ok(first.total <= 100, 'the test world fits one page')
  all = first.markets
})

after(async () => {
  await s?.close()
})

describe('GET /api/v2/venuep/markets', () => {
  test('defaults: active markets, 25 per page, by volume descending', async () => {
    const page = await ok<Page>(s, 'listVenuepMarkets', '/api/v2/venuep/markets')
    assert.equal(page.limit, 25)
    assert.equal(page.offset, 0)
    assert.equal(page.total, all.filter((m) => m.status === 'active').length)
    assert.ok(page.markets.every((m) => m.status === 'active'))
    assertOrdered(page.markets, 'volume_total', 'desc', 'market_slug')
    const m = page.markets[0]!
    assert.equal(m.event_slug.length > 0, true)
    assert.ok(m.outcomes.length >= 2)
    for (const o of m.outcomes) {
      assert.ok(o.best_bid === null || o.best_ask === null || o.best_bid < o.best_ask, 'live books are not crossed')
      assert.ok(o.probability === null || (o.probability >= 0 && o.probability <= 1))
    }
  })

  test('status filter: each value, and `all` is the union', async () => {
    let sum = 0
    for (const status of ['active', 'closed', 'resolved']) {
      const page = await ok<Page>(s, 'listVenuepMarkets', `/api/v2/venuep/markets?status=${status}&limit=100`)
      assert.ok(
        page.markets.every((m) => m.status === status),
        status,
      )
      sum += page.total
    }
    assert.equal(sum, all.length)
    assert.ok(
      all.some((m) => m.status === 'resolved') && all.some((m) => m.status === 'closed'),
      'the world has closed and resolved markets',
    )
  })

  test('every sort key in both orders', async () => {
    const fields: Record<string, string> = {
      volume: 'volume_total',
      volume_24h: 'volume_24h',
      liquidity: 'liquidity',
      updated_at: 'updated_at',
      end_time: 'end_time',
      created_at: 'created_at',
    }
    for (const [sort, field] of Object.entries(fields)) {
      for (const order of ['asc', 'desc'] as const) {
        const page = await ok<Page>(
          s,
          'listVenuepMarkets',
          `/api/v2/venuep/markets?status=all&limit=100&sort=${sort}&order=${order}`,
        )
        assert.equal(page.total, all.length)
        assertOrdered(page.markets, field, order, 'market_slug')
      }
    }
  })

  test('pagination tiles the list with no gaps or duplicates', async () => {
    await assertPagesTile(
      s,
      'listVenuepMarkets',
      '/api/v2/venuep/markets?status=all&sort=end_time&order=asc',
      'markets',
      'market_slug',
      7,
    )
  })

  test('category filter, and an unknown category matches nothing', async () => {
    const category = all[0]!.category
    const page = await ok<Page>(
      s,
      'listVenuepMarkets',
      `/api/v2/venuep/markets?status=all&limit=100&category=${category}`,
    )
    assert.equal(page.total, all.filter((m) => m.category === category).length)
    assert.ok(page.markets.every((m) => m.category === category))
    assert.equal((await ok<Page>(s, 'listVenuepMarkets', '/api/v2/venuep/markets?category=no-such-category')).total, 0)
  })

  test('search is case-insensitive on the event title or the market slug', async () => {
    const word = all
      .find((m) => m.title.split(' ').some((w) => w.length > 5))!
      .title.split(' ')
      .find((w) => w.length > 5)!
    const page = await ok<Page>(
      s,
      'listVenuepMarkets',
      `/api/v2/venuep/markets?status=all&limit=100&search=${encodeURIComponent(word.toUpperCase())}`,
    )
    const expected = all.filter(
      (m) => m.title.toLowerCase().includes(word.toLowerCase()) || m.market_slug.includes(word.toLowerCase()),
    )
    assert.deepEqual(page.markets.map((m) => m.market_slug).sort(), expected.map((m) => m.market_slug).sort())
    const bySlug = await ok<Page>(
      s,
      'listVenuepMarkets',
      `/api/v2/venuep/markets?status=all&search=${all[3]!.market_slug.slice(0, 12)}`,
    )
    assert.ok(bySlug.markets.some((m) => m.market_slug === all[3]!.market_slug))
  })

  test('id filters: market_slug, event_slug, condition_id (condition or token id), CSV, combined with AND', async () => {
    const [a, b] = [all[0]!, all[5]!]
    const bySlugs = await ok<Page>(
      s,
      'listVenuepMarkets',
      `/api/v2/venuep/markets?status=all&market_slug=${a.market_slug},${b.market_slug},nope`,
    )
    assert.deepEqual(bySlugs.markets.map((m) => m.market_slug).sort(), [a.market_slug, b.market_slug].sort())
    assert.equal(bySlugs.total, 2)
    const byEvent = await ok<Page>(
      s,
      'listVenuepMarkets',
      `/api/v2/venuep/markets?status=all&event_slug=${b.event_slug}`,
    )
    assert.deepEqual(
      byEvent.markets.map((m) => m.market_slug),
      [b.market_slug],
    )
    const cond = a.outcomes[0]!.condition_id!
    const byCondition = await ok<Page>(s, 'listVenuepMarkets', `/api/v2/venuep/markets?status=all&condition_id=${cond}`)
    assert.deepEqual(
      byCondition.markets.map((m) => m.market_slug),
      [a.market_slug],
    )
    const byToken = await ok<Page>(
      s,
      'listVenuepMarkets',
      `/api/v2/venuep/markets?status=all&condition_id=${a.outcomes[1]!.token_id}`,
    )
    assert.deepEqual(
      byToken.markets.map((m) => m.market_slug),
      [a.market_slug],
    )
    const conflicting = await ok<Page>(
      s,
      'listVenuepMarkets',
      `/api/v2/venuep/markets?status=all&market_slug=${a.market_slug}&event_slug=${b.event_slug}`,
    )
    assert.equal(conflicting.total, 0)
  })

  test("outcome volume: a group child's is its own market's; the two sides of one binary market have none (null), its volume is volume_total", async () => {
    // The venue's volume of a binary market, as Gamma reported it when the catalog was read (the clock has not moved).
    const marketVolume = (conditionId: string) =>
      money(volumeOf(s.sim.world, venuepOf(s.sim.world).marketsByCondition.get(conditionId)!, s.clock.now()))
    const twoSided = (m: Market) =>
      m.outcomes.length === 2 && m.outcomes[0]!.condition_id === m.outcomes[1]!.condition_id
    const expected = all.map((m) => [
      m.market_slug,
      twoSided(m) ? [null, null] : m.outcomes.map((o) => marketVolume(o.condition_id!)),
      twoSided(m) ? marketVolume(m.outcomes[0]!.condition_id!) : m.volume_total,
    ])
    assert.deepEqual(
      all.map((m) => [m.market_slug, m.outcomes.map((o) => o.volume), m.volume_total]),
      expected,
    )
    assert.ok(all.some(twoSided) && all.some((m) => !twoSided(m)), 'the world lists both kinds')
    assert.ok(
      all.filter((m) => !twoSided(m)).some((m) => new Set(m.outcomes.map((o) => o.volume)).size > 1),
      'group children have volumes of their own',
    )
    // The price rows say the same.
    for (const m of [all.find(twoSided)!, all.find((x) => !twoSided(x))!]) {
      const rows = await ok<{ prices: { token_id: string; volume: number | null }[] }>(
        s,
        'listVenuepPrices',
        `/api/v2/venuep/prices?market_slug=${m.market_slug}`,
      )
      const byToken = (a: [string, number | null], b: [string, number | null]) => (a[0] < b[0] ? -1 : 1)
      assert.deepEqual(
        rows.prices.map((r): [string, number | null] => [r.token_id, r.volume]).sort(byToken),
        m.outcomes.map((o): [string, number | null] => [o.token_id, o.volume]).sort(byToken),
      )
    }
  })

  test('a quote change at the venue shows up in the next response (no stale cached page)', async () => {
    const page = await ok<Page>(s, 'listVenuepMarkets', '/api/v2/venuep/markets?limit=5')
    const target = page.markets[0]!
    const token = target.outcomes[0]!.token_id
    const { market: sim, index } = venuepOf(s.sim.world).tokens.get(token)!
    const simTop = (): [number | null, number | null] => {
      const top = tokenTop(venuepOf(s.sim.world).books.get(sim.conditionId)!, index)
      return [unitsOrNull(top.bid), unitsOrNull(top.ask)]
    }
    const before = s.app.venues.venuep.quote(token)?.seq ?? 0
    for (let i = 0; i < 50 && (s.app.venues.venuep.quote(token)?.seq ?? 0) === before; i++) {
      s.clock.increment(60_000)
      s.sim.engine.moveBook('venuep', sim, s.clock.now())
      await settle(10)
    }
    assert.notEqual(s.app.venues.venuep.quote(token)?.seq ?? 0, before, 'the book moved')
    // One move can reach the service in more than one frame: compare once the service holds the venue's whole move
    // (simulated time stands still, so the venue's book does not move again meanwhile).
    const held = (): [number | null, number | null] => {
      const q = s.app.venues.venuep.quote(token)
      return [q?.bestBid ?? null, q?.bestAsk ?? null]
    }
    await waitFor(() => JSON.stringify(held()) === JSON.stringify(simTop()), 5_000, "the venue's whole move")
    const quote = s.app.venues.venuep.quote(token)!
    const again = await ok<Page>(s, 'listVenuepMarkets', '/api/v2/venuep/markets?limit=5')
    const o = again.markets.find((m) => m.market_slug === target.market_slug)!.outcomes[0]!
    assert.deepEqual([o.best_bid, o.best_ask], [quote.bestBid ?? null, quote.bestAsk ?? null])
  })

  test('validation: 422 with one entry per problem, for every bound', async () => {
    const op = 'listVenuepMarkets'
    await invalid(s, op, '/api/v2/venuep/markets?limit=0', [['query', 'limit']])
    await invalid(s, op, '/api/v2/venuep/markets?limit=101', [['query', 'limit']])
    await invalid(s, op, '/api/v2/venuep/markets?limit=abc', [['query', 'limit']])
    await invalid(s, op, '/api/v2/venuep/markets?offset=-1', [['query', 'offset']])
    await invalid(s, op, '/api/v2/venuep/markets?sort=price', [['query', 'sort']])
    await invalid(s, op, '/api/v2/venuep/markets?order=up', [['query', 'order']])
    await invalid(s, op, '/api/v2/venuep/markets?status=open', [['query', 'status']])
    await invalid(s, op, '/api/v2/venuep/markets?limit=0&status=x&offset=-5', [
      ['query', 'status'],
      ['query', 'limit'],
      ['query', 'offset'],
    ])
    const r = await call<{ detail: unknown[] }>(s, op, '/api/v2/venuep/markets?limit=101')
    assert.deepEqual(r.body, {
      detail: [
        {
          type: 'less_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be less than or equal to 100',
          input: '101',
          ctx: { le: 100 },
        },
      ],
    })
  })
})

describe('GET /api/v2/venuep/events', () => {
  test('event rows carry their market records; filters, sorts and paging', async () => {
    const page = await ok<{ events: Record<string, unknown>[]; total: number }>(
      s,
      'listVenuepEvents',
      '/api/v2/venuep/events?status=all&limit=100&sort=created_at&order=asc',
    )
    assert.equal(page.total, new Set(all.map((m) => m.event_slug)).size)
    assertOrdered(page.events, 'created_at', 'asc', 'event_id')
    const e = page.events[0]!
    assert.equal((e.markets as Market[])[0]!.event_slug, e.event_slug)
    const one = await ok<{ events: { event_slug: string }[] }>(
      s,
      'listVenuepEvents',
      `/api/v2/venuep/events?status=all&event_slug=${e.event_slug}`,
    )
    assert.deepEqual(
      one.events.map((x) => x.event_slug),
      [e.event_slug],
    )
    await assertPagesTile(
      s,
      'listVenuepEvents',
      '/api/v2/venuep/events?status=all&sort=volume',
      'events',
      'event_id',
      9,
    )
    await invalid(s, 'listVenuepEvents', '/api/v2/venuep/events?limit=101&sort=nope', [
      ['query', 'limit'],
      ['query', 'sort'],
    ])
  })
})

describe('GET /api/v2/venuep/prices', () => {
  test('rows per outcome with quote ages; outcome substring; filters select markets of any status', async () => {
    const page = await ok<{ prices: Record<string, unknown>[]; count: number }>(
      s,
      'listVenuepPrices',
      '/api/v2/venuep/prices?limit=10',
    )
    assert.equal(page.count, page.prices.length)
    assert.equal(page.count, 10)
    assert.ok(page.prices.every((p) => typeof p.quote_age_seconds === 'number' && (p.quote_age_seconds as number) >= 0))
    const resolved = all.find((m) => m.status === 'resolved')!
    const rows = await ok<{ prices: { market_slug: string; probability: number; title: string }[] }>(
      s,
      'listVenuepPrices',
      `/api/v2/venuep/prices?market_slug=${resolved.market_slug}`,
    )
    assert.equal(rows.prices.length, resolved.outcomes.length)
    assert.ok(
      rows.prices.every((p) => p.probability === 0 || p.probability === 1),
      'resolved outcomes are worth 1 or 0',
    )
    const title = resolved.outcomes[0]!.title
    const one = await ok<{ prices: { title: string }[] }>(
      s,
      'listVenuepPrices',
      `/api/v2/venuep/prices?market_slug=${resolved.market_slug}&outcome=${encodeURIComponent(title.toUpperCase())}`,
    )
    assert.ok(one.prices.length >= 1 && one.prices.every((p) => p.title.toLowerCase().includes(title.toLowerCase())))
    await invalid(s, 'listVenuepPrices', '/api/v2/venuep/prices?limit=101', [['query', 'limit']])
  })
})

describe('GET /api/v2/venuep/market-price', () => {
  test('live price by market slug, by condition id, by token id, with an outcome filter', async () => {
    const m = all.find((x) => x.status === 'active' && x.outcomes.length === 2)!
    const bySlug = await ok<{
      outcomes: { title: string; token_id: string; source: string; best_bid: number | null }[]
      timestamp: null
    }>(s, 'getVenuepMarketPrice', `/api/v2/venuep/market-price?market_slug=${m.market_slug}`)
    assert.equal(bySlug.timestamp, null)
    assert.deepEqual(
      bySlug.outcomes.map((o) => o.token_id),
      m.outcomes.map((o) => o.token_id),
    )
    assert.ok(bySlug.outcomes.every((o) => o.source === 'live'))
    const byToken = await ok<{ outcomes: { token_id: string }[] }>(
      s,
      'getVenuepMarketPrice',
      `/api/v2/venuep/market-price?condition_id=${m.outcomes[1]!.token_id}`,
    )
    assert.deepEqual(
      byToken.outcomes.map((o) => o.token_id),
      [m.outcomes[1]!.token_id],
    )
    const byCondition = await ok<{ outcomes: unknown[] }>(
      s,
      'getVenuepMarketPrice',
      `/api/v2/venuep/market-price?condition_id=${m.outcomes[0]!.condition_id}`,
    )
    assert.equal(
      byCondition.outcomes.length,
      m.outcomes.filter((o) => o.condition_id === m.outcomes[0]!.condition_id).length,
    )
    const filtered = await ok<{ outcomes: { title: string }[] }>(
      s,
      'getVenuepMarketPrice',
      `/api/v2/venuep/market-price?market_slug=${m.market_slug}&outcome=${encodeURIComponent(m.outcomes[1]!.title)}`,
    )
    assert.deepEqual(
      filtered.outcomes.map((o) => o.title),
      [m.outcomes[1]!.title],
    )
  })

  test('with timestamp: the venue price-history point nearest that time, cached', async () => {
    const ts = Math.floor(s.clock.now() / 1000) - 36 * 3600 + 17
    // A market that was already trading then (the world also lists short-dated markets opened since).
    const m = all.find((x) => x.status === 'active' && Date.parse(`${String(x.created_at)}Z`) < (ts - 3600) * 1000)!
    const token = m.outcomes[0]!.token_id
    const body = await ok<{
      timestamp: number
      outcomes: { source: string; probability: number; price_time: string }[]
    }>(s, 'getVenuepMarketPrice', `/api/v2/venuep/market-price?market_slug=${m.market_slug}&timestamp=${ts}`)
    assert.equal(body.timestamp, ts)
    const o = body.outcomes[0]!
    assert.equal(o.source, 'history')
    const hist = (await (
      await fetch(
        `${s.sim.venuep.urls.clob}/prices-history?market=${token}&startTs=${ts - 3600}&endTs=${ts + 3600}&fidelity=1`,
      )
    ).json()) as { history: { t: number; p: number }[] }
    const nearest = hist.history.reduce((b, p) => (Math.abs(p.t - ts) < Math.abs(b.t - ts) ? p : b))
    assert.equal(o.probability, nearest.p)
    assert.equal(o.price_time, new Date(nearest.t * 1000).toISOString().slice(0, -1))
    const calls = s.sim.venuep.routers.clob.requestCounts.get('/prices-history') ?? 0
    await ok(s, 'getVenuepMarketPrice', `/api/v2/venuep/market-price?market_slug=${m.market_slug}&timestamp=${ts + 60}`)
    assert.equal(
      s.sim.venuep.routers.clob.requestCounts.get('/prices-history') ?? 0,
      calls,
      'a nearby instant is served from the cache',
    )
  })

  test('errors: neither id (422), unknown ids (404), venue failure (502)', async () => {
    await invalid(s, 'getVenuepMarketPrice', '/api/v2/venuep/market-price', [['query', 'market_slug']])
    await invalid(s, 'getVenuepMarketPrice', '/api/v2/venuep/market-price?market_slug=x&timestamp=-1', [
      ['query', 'timestamp'],
    ])
    const nf = await call(s, 'getVenuepMarketPrice', '/api/v2/venuep/market-price?market_slug=no-such-market')
    assert.equal(nf.status, 404)
    assert.equal(nf.body.code, 'not_found')
    const m = all.find((x) => x.status === 'active')!
    s.sim.venuep.faults.failHttp({ status: 503, host: 'clob', pathPrefix: '/prices-history', count: 1 })
    const ts = Math.floor(s.clock.now() / 1000) - 9 * 86400
    const failed = await call(
      s,
      'getVenuepMarketPrice',
      `/api/v2/venuep/market-price?market_slug=${m.market_slug}&timestamp=${ts}`,
    )
    assert.deepEqual([failed.status, failed.body.code, failed.body.upstream_status], [502, 'upstream_error', 503])
  })
})

function unitsOrNull(micros: number | undefined): number | null {
  return micros === undefined ? null : micros / MICROS_PER_UNIT
}
