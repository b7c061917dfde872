import assert from 'node:assert/strict'
import { constants, verify } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { Configuration, EventsApi, MarketApi } from 'kalshi-typescript'
import { SimulatedClock, systemClock } from '../../src/core/clock.js'
import { parseMicros } from '../../src/core/numbers.js'
import { FaultPlan } from '../../src/sim/faults.js'
import { startVenuekSim, type VenuekSim } from '../../src/sim/venuek/index.js'
import type { VkMarket } from '../../src/sim/venuek/types.js'
import { signRequest } from '../../src/venues/venuek/signing.js'
import {
  activeMarkets,
  expectedStatus,
  getJson,
  KEY_ID,
  price4,
  size2,
  startFixture,
  type VenuekFixture,
} from './venuek-fixture.js'
import { venuekOf } from '../../src/sim/venuek/state.js'

const DOLLARS = /^\d\.\d{4}$/
const FP = /^\d+\.\d{2}$/
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/
const LEGACY_MARKET_FIELDS = [
  'yes_bid',
  'yes_ask',
  'no_bid',
  'no_ask',
  'last_price',
  'previous_yes_bid',
  'previous_yes_ask',
  'previous_price',
  'volume',
  'volume_24h',
  'open_interest',
  'liquidity',
  'notional_value',
  'settlement_value',
  'tick_size',
  'response_price_units',
  'risk_limit_cents',
]

describe('venuek simulator REST', () => {
  let fx: VenuekFixture
  const get = (path: string, headers: Record<string, string> = {}) => getJson(fx.sim.urls.rest, path, headers)

  before(async () => {
    fx = await startFixture()
  })
  after(async () => {
    await fx.sim.close()
  })

  async function walk(
    path: string,
    key: 'markets' | 'events',
    limit: number,
  ): Promise<{ items: any[]; pages: number }> {
    const items: any[] = []
    let cursor = ''
    let pages = 0
    do {
      const sep = path.includes('?') ? '&' : '?'
      const { status, body } = await get(
        `${path}${sep}limit=${limit}${cursor === '' ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      )
      assert.equal(status, 200)
      assert.equal(typeof body.cursor, 'string')
      items.push(...body[key])
      cursor = body.cursor
      pages++
    } while (cursor !== '' && pages < 1000)
    return { items, pages }
  }

  it("a listing's later pages read its first page's selection; the next listing sees what changed", async () => {
    const events = venuekOf(fx.world).events
    const first = await get('/events?limit=2')
    const listed = events.map((e) => e.eventTicker)
    // The third event leaves the listing between the first page and the second (a venue's event closing).
    const [gone] = events.splice(2, 1)
    try {
      const second = await get(`/events?limit=2&cursor=${encodeURIComponent(first.body.cursor)}`)
      assert.deepEqual(
        second.body.events.map((e: any) => e.event_ticker),
        listed.slice(2, 4),
        'the page after continues the listing as it was selected',
      )
      const again = await get('/events?limit=4')
      assert.deepEqual(
        again.body.events.map((e: any) => e.event_ticker),
        [...listed.slice(0, 2), ...listed.slice(3, 5)],
        'a new listing selects afresh',
      )
    } finally {
      events.splice(2, 0, gone as (typeof events)[number])
    }
  })

  it('pages /markets and /events to "cursor":"" with every record exactly once', async () => {
    const markets = await walk('/markets', 'markets', 37)
    assert.deepEqual(
      markets.items.map((m) => m.ticker),
      venuekOf(fx.world).markets.map((m) => m.ticker),
    )
    assert.equal(markets.pages, Math.ceil(venuekOf(fx.world).markets.length / 37))
    const events = await walk('/events', 'events', 17)
    assert.deepEqual(
      events.items.map((e) => e.event_ticker),
      venuekOf(fx.world).events.map((e) => e.eventTicker),
    )
    // Defaults: 100 markets, 200 events.
    assert.equal((await get('/markets')).body.markets.length, Math.min(100, venuekOf(fx.world).markets.length))
    const allEvents = await get('/events')
    assert.equal(allEvents.body.events.length, Math.min(200, venuekOf(fx.world).events.length))
    // A garbage cursor is a 200 from the start, like the venue.
    const garbage = await get('/markets?limit=3&cursor=not-a-real-cursor')
    assert.equal(garbage.status, 200)
    assert.deepEqual(
      garbage.body.markets.map((m: any) => m.ticker),
      venuekOf(fx.world)
        .markets.slice(0, 3)
        .map((m) => m.ticker),
    )
  })

  it('maps status filters to the venue response statuses', async () => {
    const now = fx.clock.now()
    const filters: Record<string, string[]> = {
      unopened: ['initialized'],
      open: ['active'],
      paused: ['inactive'],
      closed: ['closed', 'determined', 'disputed', 'amended'],
      settled: ['finalized'],
    }
    const seen = new Set<string>()
    for (const [filter, statuses] of Object.entries(filters)) {
      const { status, body } = await get(`/markets?status=${filter}&limit=1000`)
      assert.equal(status, 200)
      const want = venuekOf(fx.world)
        .markets.filter((m) => statuses.includes(expectedStatus(m, now)))
        .map((m) => m.ticker)
      assert.deepEqual(
        body.markets.map((m: any) => m.ticker),
        want,
        `status=${filter}`,
      )
      for (const m of body.markets) {
        assert.ok(statuses.includes(m.status), `${m.ticker} has ${m.status} under status=${filter}`)
        seen.add(m.status)
      }
    }
    for (const s of ['active', 'closed', 'finalized']) assert.ok(seen.has(s), `the test world should hold ${s} markets`)
    for (const filter of ['open', 'closed', 'settled']) {
      const { body } = await get(`/events?status=${filter}`)
      const want = venuekOf(fx.world).events.filter((e) =>
        e.markets.some((m) => (filters[filter] as string[]).includes(expectedStatus(m, now))),
      )
      assert.deepEqual(
        body.events.map((e: any) => e.event_ticker),
        want.map((e) => e.eventTicker),
        `events status=${filter}`,
      )
    }
    const bad = await get('/events?status=paused')
    assert.equal(bad.status, 400)
    assert.deepEqual(bad.body, {
      msg:
        "Parameter validation failed for GetEvents: Key: 'GetEventsParams.Status' " +
        "Error:Field validation for 'Status' failed on the 'oneof' tag",
    })
  })

  it('rejects limits over the maximum with the bare msg body and misses with nested 404s', async () => {
    assert.deepEqual(await get('/markets?limit=1001'), {
      status: 400,
      body: {
        msg:
          "Parameter validation failed for GetMarkets: Key: 'GetMarketsParams.Limit' " +
          "Error:Field validation for 'Limit' failed on the 'lte' tag",
      },
    })
    assert.equal((await get('/events?limit=201')).status, 400)
    assert.equal((await get('/markets/trades?limit=1001')).status, 400)
    const marketMissing = { error: { code: 'market_not_found', message: 'market not found', service: 'exchange' } }
    const notFound = { error: { code: 'not_found', message: 'not found', service: 'exchange' } }
    assert.deepEqual(await get('/markets/KXNOPE-00'), { status: 404, body: marketMissing })
    assert.deepEqual(await get('/markets/KXNOPE-00/orderbook'), { status: 404, body: marketMissing })
    assert.deepEqual(await get('/events/KXNOPE-00'), { status: 404, body: notFound })
    assert.deepEqual(await get('/series/KXNOPE'), { status: 404, body: notFound })
    assert.deepEqual(await get('/no/such/route'), { status: 404, body: notFound })
  })

  it('serves markets with the current field set and types', async () => {
    const now = fx.clock.now()
    const active = activeMarkets(fx.world)[0]!
    const { body } = await get(`/markets/${active.ticker}`)
    const m = body.market
    for (const k of LEGACY_MARKET_FIELDS) assert.equal(k in m, false, `legacy field ${k}`)
    const dollarFields = [
      'yes_bid_dollars',
      'yes_ask_dollars',
      'no_bid_dollars',
      'no_ask_dollars',
      'last_price_dollars',
      'previous_yes_bid_dollars',
      'previous_yes_ask_dollars',
      'previous_price_dollars',
      'notional_value_dollars',
      'liquidity_dollars',
    ]
    for (const k of dollarFields) assert.match(m[k], DOLLARS, k)
    for (const k of ['yes_bid_size_fp', 'yes_ask_size_fp', 'volume_fp', 'volume_24h_fp', 'open_interest_fp'])
      assert.match(m[k], FP, k)
    const timeFields = ['created_time', 'updated_time', 'open_time', 'close_time', 'latest_expiration_time']
    for (const k of timeFields) assert.match(m[k], RFC3339, k)
    // Optional: a long-dated market may state no expected date.
    if (active.expectedExpiration === undefined) assert.equal('expected_expiration_time' in m, false)
    else assert.equal(Date.parse(m.expected_expiration_time), active.expectedExpiration)
    assert.equal(m.market_type, 'binary')
    assert.equal(m.status, 'active')
    assert.equal(m.result, '')
    assert.equal(m.expiration_value, '')
    assert.equal(m.notional_value_dollars, '1.0000')
    assert.equal(typeof m.settlement_timer_seconds, 'number')
    assert.equal(typeof m.can_close_early, 'boolean')
    assert.equal('settlement_value_dollars' in m, false)
    assert.match(m.rules_primary, /Simulated market/)
    const step = m.price_level_structure === 'deci_cent' ? '0.0010' : '0.0100'
    assert.deepEqual(m.price_ranges, [{ start: '0.0000', end: '1.0000', step }])

    const finalized = venuekOf(fx.world).markets.find((x) => expectedStatus(x, now) === 'finalized')!
    const f = (await get(`/markets/${finalized.ticker}`)).body.market
    assert.equal(f.status, 'finalized')
    assert.equal(f.result, finalized.contract.won ? 'yes' : 'no')
    assert.equal(f.settlement_value_dollars, finalized.contract.won ? '1.0000' : '0.0000')
    assert.match(f.settlement_ts, RFC3339)
    // No resting orders after close: the empty-book quote.
    const quote = [
      f.yes_bid_dollars,
      f.yes_ask_dollars,
      f.no_bid_dollars,
      f.no_ask_dollars,
      f.yes_bid_size_fp,
      f.yes_ask_size_fp,
    ]
    assert.deepEqual(quote, ['0.0000', '1.0000', '0.0000', '1.0000', '0.00', '0.00'])
    const closed = venuekOf(fx.world).markets.find((x) => expectedStatus(x, now) === 'closed')!
    const c = (await get(`/markets/${closed.ticker}`)).body.market
    assert.deepEqual([c.status, c.result, 'settlement_value_dollars' in c], ['closed', '', false])
  })

  it('serves bids-only ascending order books consistent with the market top of book and the simulated book', async () => {
    for (const market of activeMarkets(fx.world).slice(0, 12)) {
      const book = (await get(`/markets/${market.ticker}/orderbook`)).body.orderbook_fp
      const m = (await get(`/markets/${market.ticker}`)).body.market
      const sim = venuekOf(fx.world).books.get(market.ticker)!
      // YES bids are the book's bids; NO bids mirror its asks at 1 − a.
      assert.deepEqual(
        book.yes_dollars,
        sim.sorted('bid').map(([p, s]) => [price4(p), size2(s)]),
      )
      assert.deepEqual(
        book.no_dollars,
        sim
          .sorted('ask')
          .map(([a, s]) => [price4(1e6 - a), size2(s)])
          .reverse(),
      )
      for (const side of [book.yes_dollars, book.no_dollars]) {
        for (let i = 1; i < side.length; i++)
          assert.ok(parseMicros(side[i - 1][0])! < parseMicros(side[i][0])!, 'ascending')
      }
      const bestYes = book.yes_dollars.at(-1)
      const bestNo = book.no_dollars.at(-1)
      assert.equal(m.yes_bid_dollars, bestYes[0])
      assert.equal(m.yes_bid_size_fp, bestYes[1])
      assert.equal(m.no_bid_dollars, bestNo[0])
      assert.equal(m.yes_ask_dollars, price4(1e6 - parseMicros(bestNo[0])!))
      assert.equal(m.yes_ask_size_fp, bestNo[1])
      assert.equal(m.no_ask_dollars, price4(1e6 - parseMicros(bestYes[0])!))
      const top3 = (await get(`/markets/${market.ticker}/orderbook?depth=3`)).body.orderbook_fp
      assert.deepEqual(top3, { yes_dollars: book.yes_dollars.slice(-3), no_dollars: book.no_dollars.slice(-3) })
    }
    const closed = venuekOf(fx.world).markets.find((m) => !venuekOf(fx.world).books.has(m.ticker))!
    assert.deepEqual((await get(`/markets/${closed.ticker}/orderbook`)).body, {
      orderbook_fp: { yes_dollars: [], no_dollars: [] },
    })
    assert.equal((await get(`/markets/${closed.ticker}/orderbook?depth=101`)).status, 400)
  })

  it('lists trades newest first and pages them without gaps while new trades print', async () => {
    const tradeCount = (m: VkMarket) => venuekOf(fx.world).trades.tradesOf(m.ticker).length
    const market = activeMarkets(fx.world).reduce((a, b) => (tradeCount(a) >= tradeCount(b) ? a : b))
    const expected = [...venuekOf(fx.world).trades.tradesOf(market.ticker)].reverse().map((t) => t.tradeId)
    assert.ok(expected.length > 10)
    const first = await get(`/markets/trades?ticker=${market.ticker}&limit=7`)
    assert.equal(first.status, 200)
    const t0 = first.body.trades[0]
    assert.deepEqual(Object.keys(t0).sort(), [
      'count_fp',
      'created_time',
      'is_block_trade',
      'no_price_dollars',
      'taker_book_side',
      'taker_outcome_side',
      'taker_side',
      'ticker',
      'trade_id',
      'yes_price_dollars',
    ])
    assert.match(t0.count_fp, FP)
    assert.equal(price4(parseMicros(t0.yes_price_dollars)! + parseMicros(t0.no_price_dollars)!), '1.0000')
    // A trade printed between pages must not shift the next page.
    fx.clock.increment(1000)
    fx.engine.trade('venuek', market, fx.clock.now())
    const ids: string[] = first.body.trades.map((t: any) => t.trade_id)
    const times: string[] = first.body.trades.map((t: any) => t.created_time)
    let cursor: string = first.body.cursor
    while (cursor !== '') {
      const page = (await get(`/markets/trades?ticker=${market.ticker}&limit=7&cursor=${cursor}`)).body
      ids.push(...page.trades.map((t: any) => t.trade_id))
      times.push(...page.trades.map((t: any) => t.created_time))
      cursor = page.cursor
    }
    assert.deepEqual(ids, expected)
    assert.deepEqual(times, [...times].sort().reverse())
    const fresh = (await get(`/markets/trades?ticker=${market.ticker}&limit=1`)).body.trades[0]
    assert.equal(Date.parse(fresh.created_time), fx.clock.now())
    // min_ts / max_ts are Unix seconds, inclusive.
    const mid = venuekOf(fx.world).trades.tradesOf(market.ticker)[5]!
    const sec = Math.floor(mid.ts / 1000)
    const windowed = (await get(`/markets/trades?ticker=${market.ticker}&min_ts=${sec}&max_ts=${sec}`)).body.trades
    assert.ok(windowed.some((t: any) => t.trade_id === mid.tradeId))
    for (const t of windowed) assert.equal(Math.floor(Date.parse(t.created_time) / 1000), sec)
  })

  it('computes candlesticks from the price path and the trades', async () => {
    const end = Math.floor(fx.clock.now() / 1000)
    const start = end - 86_400
    // A market open the whole day (a short-dated one opened hours ago has fewer hours to show).
    const market = activeMarkets(fx.world).filter((m) => m.openTime <= start * 1000)[1]!
    const path = `/series/${market.event.series.ticker}/markets/${market.ticker}/candlesticks`
    const { status, body } = await get(`${path}?start_ts=${start}&end_ts=${end}&period_interval=60`)
    assert.equal(status, 200)
    assert.equal(body.ticker, market.ticker)
    assert.equal(body.candlesticks.length, 24)
    let volume = 0
    for (const c of body.candlesticks) {
      assert.equal(c.end_period_ts % 3600, 0)
      assert.ok(c.end_period_ts >= start && c.end_period_ts <= end)
      for (const block of [c.yes_bid, c.yes_ask]) {
        assert.deepEqual(Object.keys(block).sort(), ['close_dollars', 'high_dollars', 'low_dollars', 'open_dollars'])
        for (const v of Object.values(block)) assert.match(v as string, DOLLARS)
        const [low, open, high] = [block.low_dollars, block.open_dollars, block.high_dollars].map((v) =>
          parseMicros(v)!,
        )
        assert.ok(low! <= open! && open! <= high!)
      }
      assert.ok(parseMicros(c.yes_bid.close_dollars)! < parseMicros(c.yes_ask.close_dollars)!)
      assert.deepEqual(Object.keys(c.price).sort(), [
        'close_dollars',
        'high_dollars',
        'low_dollars',
        'max_dollars',
        'mean_dollars',
        'min_dollars',
        'open_dollars',
        'previous_dollars',
      ])
      assert.match(c.volume_fp, FP)
      assert.match(c.open_interest_fp, FP)
      volume += parseMicros(c.volume_fp)!
    }
    const traded = venuekOf(fx.world)
      .trades.tradesOf(market.ticker)
      .filter((t) => t.ts > start * 1000 && t.ts <= end * 1000)
    assert.equal(size2(volume), size2(traded.reduce((s, t) => s + Math.round(t.count * 100) * 10_000, 0)))
    assert.deepEqual((await get(`${path}?start_ts=${start}&end_ts=${end}&period_interval=5`)).status, 400)
    assert.deepEqual((await get(`${path}?end_ts=${end}&period_interval=60`)).body, {
      msg:
        "Parameter validation failed for GetMarketCandlesticks: Key: 'GetMarketCandlesticksParams.StartTs' " +
        "Error:Field validation for 'StartTs' failed on the 'required' tag",
    })
    const otherSeries = `/series/KXOTHER/markets/${market.ticker}/candlesticks?start_ts=${start}&end_ts=${end}&period_interval=60`
    assert.equal((await get(otherSeries)).status, 404)
  })

  it('serves series, single events with markets, and exchange status', async () => {
    const event = venuekOf(fx.world).events[0]!
    const one = (await get(`/events/${event.eventTicker}`)).body
    assert.deepEqual(Object.keys(one).sort(), ['event', 'markets'])
    assert.equal('markets' in one.event, false)
    assert.deepEqual(
      one.markets.map((m: any) => m.ticker),
      event.markets.map((m) => m.ticker),
    )
    assert.equal(one.event.category, event.series.category)
    assert.equal(one.event.mutually_exclusive, event.mutuallyExclusive)
    // A long-dated event states no strike date (its date is in its sub_title).
    if (event.strikeDate === undefined) assert.equal(one.event.strike_date, null)
    else assert.equal(Date.parse(one.event.strike_date), event.strikeDate)
    assert.deepEqual(one.event.settlement_sources, [
      { name: 'Venue simulator', url: 'https://venue-simulator.invalid' },
    ])
    const nested = (await get(`/events/${event.eventTicker}?with_nested_markets=true`)).body
    assert.deepEqual(nested.event.markets, nested.markets)
    const series = (await get('/series')).body.series
    assert.equal(series.length, venuekOf(fx.world).series.size)
    const s = (await get(`/series/${event.series.ticker}?include_volume=true`)).body.series
    assert.equal(s.ticker, event.series.ticker)
    assert.match(s.volume_fp, FP)
    const inCategory = (await get(`/series?category=${encodeURIComponent(event.series.category)}`)).body.series
    assert.ok(inCategory.length > 0 && inCategory.every((x: any) => x.category === event.series.category))
    assert.deepEqual(await get('/exchange/status'), {
      status: 200,
      body: { exchange_active: true, trading_active: true },
    })
  })

  it('answers injected 429s with the venue string error', async () => {
    fx.faults.failHttp({ status: 429, pathPrefix: '/trade-api/v2/markets' })
    assert.deepEqual(await get('/markets?limit=1'), { status: 429, body: { error: 'too many requests' } })
    assert.equal((await get('/markets?limit=1')).status, 200)
  })
})

describe('venuek request signing', () => {
  let fx: VenuekFixture
  const get = (path: string, headers: Record<string, string> = {}) => getJson(fx.sim.urls.rest, path, headers)
  const marketsPath = '/trade-api/v2/markets'

  before(async () => {
    fx = await startFixture()
  })
  after(async () => {
    await fx.sim.close()
  })

  it('signs timestamp + METHOD + path with RSA-PSS SHA-256, salt 32', () => {
    const headers = signRequest(fx.creds, 'get', '/trade-api/v2/portfolio/orders?limit=5', 1703123456789)
    assert.deepEqual(Object.keys(headers).sort(), [
      'KALSHI-ACCESS-KEY',
      'KALSHI-ACCESS-SIGNATURE',
      'KALSHI-ACCESS-TIMESTAMP',
    ])
    assert.equal(headers['KALSHI-ACCESS-KEY'], KEY_ID)
    assert.equal(headers['KALSHI-ACCESS-TIMESTAMP'], '1703123456789')
    const ok = verify(
      'sha256',
      Buffer.from('1703123456789GET/trade-api/v2/portfolio/orders'),
      { key: fx.publicKeyPem, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
      Buffer.from(headers['KALSHI-ACCESS-SIGNATURE']!, 'base64'),
    )
    assert.equal(ok, true)
  })

  it('verifies signed REST requests and answers failures with the venue 401 bodies', async () => {
    const now = () => fx.clock.now()
    assert.equal((await get('/markets?limit=1', signRequest(fx.creds, 'GET', marketsPath, now()))).status, 200)
    // The query string is not part of the signed path.
    assert.equal(
      (await get('/markets?limit=1', signRequest(fx.creds, 'GET', `${marketsPath}?limit=1`, now()))).status,
      200,
    )
    const good = signRequest(fx.creds, 'GET', marketsPath, now())
    const sig = good['KALSHI-ACCESS-SIGNATURE']!
    const tampered = { ...good, 'KALSHI-ACCESS-SIGNATURE': (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1) }
    const incorrect = {
      error: { code: 'authentication_error', message: 'authentication_error', details: 'INCORRECT_API_KEY_SIGNATURE' },
    }
    assert.deepEqual(await get('/markets?limit=1', tampered), { status: 401, body: incorrect })
    assert.deepEqual(await get('/markets?limit=1', signRequest(fx.creds, 'POST', marketsPath, now())), {
      status: 401,
      body: incorrect,
    })
    assert.deepEqual(
      await get('/markets?limit=1', signRequest({ ...fx.creds, keyId: 'unknown-key' }, 'GET', marketsPath, now())),
      {
        status: 401,
        body: { error: { code: 'authentication_error', message: 'authentication_error', details: 'NOT_FOUND' } },
      },
    )
    assert.deepEqual(await get('/markets?limit=1', signRequest(fx.creds, 'GET', marketsPath, now() - 60_000)), {
      status: 401,
      body: { error: { code: 'header_timestamp_expired', message: 'header timestamp expired' } },
    })
    const { 'KALSHI-ACCESS-SIGNATURE': _dropped, ...unsigned } = good
    assert.deepEqual(await get('/markets?limit=1', unsigned), {
      status: 401,
      body: { error: { code: 'signature_is_missing_from_headers', message: 'signature is missing from headers' } },
    })
    // Within the 5 s window is fine.
    assert.equal((await get('/markets?limit=1', signRequest(fx.creds, 'GET', marketsPath, now() - 4_000))).status, 200)
  })
})

describe('venuek official client (kalshi-typescript) against the simulator', () => {
  let fx: VenuekFixture
  let live: VenuekSim
  let skewed: VenuekSim

  before(async () => {
    fx = await startFixture()
    const publicKeys = new Map([[KEY_ID, fx.publicKeyPem]])
    // The official client stamps requests with Date.now(), so this simulator runs on the system clock.
    const base = { world: fx.world, engine: fx.engine, auth: { required: true, publicKeys } }
    live = await startVenuekSim({ ...base, clock: systemClock, faults: new FaultPlan() })
    // And this one a minute ahead of it, to prove the client's signatures are checked.
    skewed = await startVenuekSim({ ...base, clock: new SimulatedClock(Date.now() + 60_000), faults: new FaultPlan() })
  })
  after(async () => {
    await Promise.all([fx.sim.close(), live.close(), skewed.close()])
  })

  it('reads events, markets, a market and its order book with signed requests', async () => {
    const config = new Configuration({
      basePath: live.urls.rest,
      apiKey: KEY_ID,
      privateKeyPem: fx.creds.privateKeyPem,
    })
    const events = await new EventsApi(config).getEvents(5, undefined, true)
    assert.equal(events.status, 200)
    assert.deepEqual(
      events.data.events.map((e) => e.event_ticker),
      venuekOf(fx.world)
        .events.slice(0, 5)
        .map((e) => e.eventTicker),
    )
    assert.deepEqual(
      events.data.events[0]!.markets!.map((m) => m.ticker),
      venuekOf(fx.world).events[0]!.markets.map((m) => m.ticker),
    )
    const marketApi = new MarketApi(config)
    const none = undefined
    const markets = await marketApi.getMarkets(10, none, none, none, none, none, none, none, none, none, none, 'open')
    assert.equal(markets.data.markets.length, 10)
    assert.ok(markets.data.markets.every((m) => m.status === 'active'))
    const ticker = activeMarkets(fx.world)[2]!.ticker
    const market = await marketApi.getMarket(ticker)
    assert.equal(market.data.market.ticker, ticker)
    assert.equal(
      market.data.market.yes_bid_dollars,
      (await getJson(fx.sim.urls.rest, `/markets/${ticker}`)).body.market.yes_bid_dollars,
    )
    const book = await marketApi.getMarketOrderbook(ticker, 0)
    assert.deepEqual(
      book.data.orderbook_fp,
      (await getJson(fx.sim.urls.rest, `/markets/${ticker}/orderbook`)).body.orderbook_fp,
    )
    assert.ok(book.data.orderbook_fp.yes_dollars.length > 0)

    const stale = new MarketApi(
      new Configuration({ basePath: skewed.urls.rest, apiKey: KEY_ID, privateKeyPem: fx.creds.privateKeyPem }),
    )
    await assert.rejects(stale.getMarket(ticker), (err: any) => {
      assert.equal(err.response.status, 401)
      assert.deepEqual(err.response.data, {
        error: { code: 'header_timestamp_expired', message: 'header timestamp expired' },
      })
      return true
    })
  })
})
