import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ClobClient } from '@polymarket/clob-client'
import { SimulatedClock } from '../../src/core/clock.js'
import { MICROS_PER_UNIT } from '../../src/core/numbers.js'
import { FaultPlan } from '../../src/sim/faults.js'
import { startVenuepSim, type VenuepSim } from '../../src/sim/venuep/index.js'
import { SimEngine } from '../../src/sim/world/engine.js'
import { generateWorld, type World } from '../../src/sim/world/generate.js'
import type { VpMarket } from '../../src/sim/venuep/types.js'
import { ReplayBook, WsClient, type BookJson } from './venuep-test-kit.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { SIM_PEERS } from '../../src/sim/peers.js'

/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are checked field by field below */
type Json = any

const ANCHOR = Date.UTC(2026, 10, 21, 12)
const CLOB_PAGE = 100

let world: World
let clock: SimulatedClock
let engine: SimEngine
let faults: FaultPlan
let sim: VenuepSim
const sockets: WsClient[] = []

before(async () => {
  world = generateWorld({ anchorMs: ANCHOR, questions: 150, wallets: 40 })
  clock = new SimulatedClock(ANCHOR)
  engine = new SimEngine(world, {
    peers: SIM_PEERS,
    clock,
    quoteChangesPerSec: 2000,
    tradesPerSec: 40,
    stepMs: 100,
    dislocationsPerMin: 6,
  })
  faults = new FaultPlan()
  sim = await startVenuepSim({ world, engine, clock, faults, clobMarketsPageSize: CLOB_PAGE })
})

after(async () => {
  for (const s of sockets) s.close()
  await sim.close()
})

async function get(base: string, path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(base + path)
  const text = await res.text()
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text }
}

const gamma = (path: string) => get(sim.urls.gamma, path)
const clob = (path: string) => get(sim.urls.clob, path)
const data = (path: string) => get(sim.urls.data, path)

/** Open markets: each has a book (an inactive placeholder's stays empty). */
function openMarkets(): VpMarket[] {
  return venuepOf(world).markets.filter((m) => venuepOf(world).books.has(m.conditionId))
}

/** Open markets that trade: quoted books that the engine moves (placeholders excluded). */
function activeMarkets(): VpMarket[] {
  return openMarkets().filter((m) => m.contract.walks)
}

function marketWhere(pred: (m: VpMarket) => boolean): VpMarket {
  const m = venuepOf(world).markets.find(pred)
  assert.ok(m, 'the test world has such a market')
  return m
}

async function connect(): Promise<WsClient> {
  const c = await WsClient.connect(sim.urls.clobWs)
  sockets.push(c)
  return c
}

/** Waits (in tiny steps, for socket I/O only) until `cond` holds. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 5))
  assert.ok(cond(), 'condition reached')
}

function step(ms: number): void {
  clock.increment(ms)
  engine.step(clock.now())
}

// ------------------------------------------------------------------------------------------------ Gamma

describe('gamma', () => {
  test('/markets hides closed markets by default and pages by limit/offset in id order', async () => {
    const seen: Json[] = []
    for (let offset = 0; ; offset += 50) {
      const { status, body } = await gamma(`/markets?limit=50&offset=${offset}`)
      assert.equal(status, 200)
      assert.ok(Array.isArray(body))
      seen.push(...body)
      if (body.length < 50) break
    }
    assert.equal(seen.length, openMarkets().length)
    // Open markets are active, but for placeholder children, which the venue lists inactive.
    assert.ok(
      seen.every((m) => m.closed === false && m.active === (venuepOf(world).marketsById.get(m.id)?.active !== false)),
    )
    assert.ok(seen.some((m) => m.active === false) && seen.some((m) => m.active === true))
    const ids = seen.map((m) => Number(m.id))
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    )
    assert.equal(new Set(ids).size, ids.length)
    const { body: defaultPage } = await gamma('/markets')
    assert.equal(defaultPage.length, 20, 'default page size is 20')
  })

  test('market wire types: JSON-string arrays aligned with tokens, numbers from the live book', async () => {
    const m = marketWhere((x) => venuepOf(world).books.has(x.conditionId) && x.takerBaseFeeBps > 0)
    const { status, body } = await gamma(`/markets/${m.id}`)
    assert.equal(status, 200)
    assert.equal(body.id, m.id)
    assert.equal(typeof body.id, 'string')
    for (const f of ['outcomes', 'outcomePrices', 'clobTokenIds', 'volume', 'liquidity', 'umaResolutionStatuses']) {
      assert.equal(typeof body[f], 'string', f)
    }
    for (const f of [
      'volumeNum',
      'liquidityNum',
      'volume24hr',
      'bestBid',
      'bestAsk',
      'spread',
      'orderPriceMinTickSize',
      'orderMinSize',
    ]) {
      assert.equal(typeof body[f], 'number', f)
    }
    assert.match(body.outcomes, /^\["[^"]+", "[^"]+"\]$/)
    assert.deepEqual(JSON.parse(body.outcomes), [...m.outcomes])
    assert.deepEqual(JSON.parse(body.clobTokenIds), [...m.tokenIds])
    const prices = JSON.parse(body.outcomePrices).map(Number)
    assert.ok(Math.abs(prices[0] + prices[1] - 1) < 1e-9)
    assert.equal(Number(body.volume), body.volumeNum)
    assert.equal(body.events[0].slug, m.event.slug)
    assert.equal(body.events[0].markets, undefined, 'the parent event is abbreviated')
    assert.deepEqual(body.feeSchedule, { exponent: 2, rate: 0.25, takerOnly: true, rebateRate: 0.2 })
    assert.equal(body.feesEnabled, true)
    assert.equal(body.takerBaseFee, m.takerBaseFeeBps)
    assert.match(body.description, /simulat/i)
    assert.equal(body.tags, undefined)
    const book0 = (await clob(`/book?token_id=${m.tokenIds[0]}`)).body as BookJson
    assert.equal(body.bestBid, Number(book0.bids.at(-1)?.price))
    assert.equal(body.bestAsk, Number(book0.asks.at(-1)?.price))
    assert.equal(body.orderPriceMinTickSize, Number(book0.tick_size))
    const tagged = (await gamma(`/markets/${m.id}?include_tag=true`)).body
    assert.deepEqual(
      tagged.tags,
      m.event.tags.map((t) => ({ id: t.id, label: t.label, slug: t.slug })),
    )
  })

  test('closed and resolved markets: closed=true, resolution status, odd closedTime, 1/0 prices, no book numbers', async () => {
    const resolved = marketWhere((x) => x.canonical.lifecycle === 'resolved')
    const { body: hidden } = await gamma(`/markets?slug=${resolved.slug}`)
    assert.deepEqual(hidden, [], 'implicit closed=false drops it')
    const { body } = await gamma(`/markets?slug=${resolved.slug}&closed=true`)
    assert.equal(body.length, 1)
    const m = body[0]
    assert.equal(m.closed, true)
    assert.equal(m.umaResolutionStatus, 'resolved')
    assert.match(m.closedTime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00$/)
    assert.equal(m.outcomePrices, resolved.contract.won ? '["1", "0"]' : '["0", "1"]')
    assert.equal(m.bestBid, undefined)
    assert.equal(m.bestAsk, undefined)
    assert.equal(m.acceptingOrders, false)
    const { body: closedList } = await gamma('/markets?closed=true&limit=500')
    assert.equal(closedList.length, venuepOf(world).markets.length - openMarkets().length)
  })

  test('slug and id lookups, repeated-key and CSV list filters', async () => {
    const [a, b] = activeMarkets()
    assert.ok(a && b)
    assert.equal((await gamma(`/markets/slug/${a.slug}`)).body.conditionId, a.conditionId)
    const csv = (await gamma(`/markets?id=${a.id},${b.id}`)).body.map((m: Json) => m.id)
    const repeated = (await gamma(`/markets?id=${a.id}&id=${b.id}`)).body.map((m: Json) => m.id)
    assert.deepEqual(csv, [a.id, b.id])
    assert.deepEqual(repeated, csv)
    const byToken = (await gamma(`/markets?clob_token_ids=${a.tokenIds[1]}&clob_token_ids=${b.tokenIds[0]}`)).body.map(
      (m: Json) => m.id,
    )
    assert.deepEqual(byToken, [a.id, b.id])
    const byCondition = (await gamma(`/markets?condition_ids=${b.conditionId}`)).body
    assert.equal(byCondition[0].slug, b.slug)
    assert.deepEqual((await gamma('/markets?slug=no-such-market')).body, [])
    assert.deepEqual((await gamma('/markets?volume_num_min=1e15')).body, [])
  })

  test('order and range filters', async () => {
    const { body } = await gamma('/markets?order=volumeNum&ascending=false&limit=100')
    const vols = body.map((m: Json) => m.volumeNum)
    assert.deepEqual(
      vols,
      [...vols].sort((x: number, y: number) => y - x),
    )
    const { body: ends } = await gamma(
      '/markets?order=endDate&ascending=true&end_date_min=2027-01-01T00:00:00Z&limit=100',
    )
    assert.ok(ends.length > 0)
    assert.ok(ends.every((m: Json) => Date.parse(m.endDate) >= Date.UTC(2027, 0, 1)))
    const times = ends.map((m: Json) => Date.parse(m.endDate))
    assert.deepEqual(
      times,
      [...times].sort((x, y) => x - y),
    )
    const { body: liquid } = await gamma('/markets?liquidity_num_min=10000&limit=500')
    assert.ok(liquid.every((m: Json) => m.liquidityNum >= 10000))
    assert.equal((await gamma('/markets?order=nonsense')).status, 422)
  })

  test('404 and 422 bodies', async () => {
    assert.deepEqual(await gamma('/markets/slug/no-such-slug'), {
      status: 404,
      body: { type: 'not found error', error: 'slug not found' },
    })
    assert.deepEqual(await gamma('/events/slug/no-such-slug'), {
      status: 404,
      body: { type: 'not found error', error: 'slug not found' },
    })
    assert.deepEqual(await gamma('/markets/99999999'), {
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    })
    assert.deepEqual(await gamma('/events/99999999'), {
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    })
    assert.deepEqual(await gamma('/markets/abc'), {
      status: 422,
      body: { type: 'validation error', error: 'id is invalid' },
    })
    assert.deepEqual(await gamma('/events/abc'), {
      status: 422,
      body: { type: 'validation error', error: 'id is invalid' },
    })
    assert.deepEqual(await gamma('/markets?limit=ten'), {
      status: 422,
      body: { type: 'validation error', error: 'limit is invalid' },
    })
  })

  test('events: nested markets, numeric aggregates, tags, neg-risk ids, closed only when asked', async () => {
    const e = venuepOf(world).events.find(
      (x) => x.negRisk && x.markets.length > 2 && x.question?.lifecycle === 'active' && x.tags.length > 0,
    )
    assert.ok(e)
    const { status, body } = await gamma(`/events/slug/${e.slug}`)
    assert.equal(status, 200)
    assert.equal(body.id, e.id)
    for (const f of ['volume', 'liquidity', 'openInterest', 'volume24hr']) assert.equal(typeof body[f], 'number', f)
    assert.equal(body.markets.length, e.markets.length)
    const sum = body.markets.reduce((s: number, m: Json) => s + m.volumeNum, 0)
    assert.ok(Math.abs(sum - body.volume) < 1e-3)
    assert.equal(body.negRisk, true)
    assert.ok(body.markets.every((m: Json) => m.negRisk === true && m.negRiskMarketID === body.negRiskMarketID))
    assert.deepEqual(
      body.markets.map((m: Json) => m.groupItemTitle),
      e.markets.map((m) => m.groupItemTitle),
    )
    const tag = e.tags[0]!
    assert.deepEqual(
      body.tags,
      e.tags.map((t) => ({ id: t.id, label: t.label, slug: t.slug })),
    )
    assert.equal((await gamma(`/events/${e.id}`)).body.slug, e.slug)

    const all = (await gamma('/events?limit=500')).body
    assert.equal(all.length, venuepOf(world).events.length, '/events applies closed only when given')
    const open = (await gamma('/events?closed=false&limit=500')).body
    assert.equal(open.length, venuepOf(world).events.filter((x) => x.question?.lifecycle === 'active').length)
    const tagged = (await gamma(`/events?tag_slug=${tag.slug}&limit=500`)).body
    assert.ok(tagged.length > 0 && tagged.every((x: Json) => x.tags.some((t: Json) => t.slug === tag.slug)))
    const byTagId = (await gamma(`/events?tag_id=${tag.id}&limit=500`)).body
    assert.equal(byTagId.length, tagged.length)
    assert.deepEqual((await gamma('/events?volume_min=1e15')).body, [])
  })

  test('public profile: found case-insensitively, 404 body for unknown', async () => {
    const w = venuepOf(world).wallets[0]
    assert.ok(w)
    const { status, body } = await gamma(`/public-profile?address=${w.address.toUpperCase().replace('0X', '0x')}`)
    assert.equal(status, 200)
    assert.equal(body.proxyWallet, w.address)
    assert.equal(body.pseudonym, w.pseudonym)
    assert.match(body.bio, /simulat/i)
    assert.deepEqual(body.users, [{ id: w.userId, creator: false, mod: false }])
    assert.deepEqual(await gamma(`/public-profile?address=0x${'0'.repeat(40)}`), {
      status: 404,
      body: { type: 'not found error', error: 'profile not found' },
    })
  })
})

// ------------------------------------------------------------------------------------------- CLOB REST

describe('clob rest', () => {
  test('book order (best = last) and token 1 is the exact mirror of token 0', async () => {
    for (const m of activeMarkets().slice(0, 15)) {
      const b0 = (await clob(`/book?token_id=${m.tokenIds[0]}`)).body as BookJson
      const b1 = (await clob(`/book?token_id=${m.tokenIds[1]}`)).body as BookJson
      const px = (l: { price: string }) => Number(l.price)
      const bids0 = b0.bids.map(px)
      const asks0 = b0.asks.map(px)
      assert.deepEqual(
        bids0,
        [...bids0].sort((a, b) => a - b),
        'bids ascending',
      )
      assert.deepEqual(
        asks0,
        [...asks0].sort((a, b) => b - a),
        'asks descending',
      )
      assert.ok((bids0.at(-1) as number) < (asks0.at(-1) as number))
      // Mirror: token-1 bids are 1 − token-0 asks (same order, same sizes), token-1 asks 1 − token-0 bids.
      const flip = (l: { price: string; size: string }) => ({
        price: String(Math.round((1 - Number(l.price)) * 1e6) / 1e6),
        size: l.size,
      })
      assert.deepEqual(b1.bids, b0.asks.map(flip))
      assert.deepEqual(b1.asks, b0.bids.map(flip))
      assert.equal(Number(b1.bids.at(-1)?.price), Math.round((1 - Number(b0.asks.at(-1)?.price)) * 1e6) / 1e6)
      assert.equal(b0.market, m.conditionId)
      assert.equal(b1.asset_id, m.tokenIds[1])
      assert.equal(b0.tick_size, b1.tick_size)
      assert.equal(b0.neg_risk, m.event.negRisk)
      assert.equal(b0.min_order_size, '5')
      assert.match(b0.timestamp, /^\d{13}$/)
      assert.match(b0.hash, /^[0-9a-f]{40}$/)
      for (const l of [...b0.bids, ...b0.asks]) assert.ok(typeof l.price === 'string' && typeof l.size === 'string')
    }
  })

  test('/price BUY is the best bid and SELL the best ask; midpoint and spread agree', async () => {
    const m = activeMarkets()[3] as VpMarket
    for (const token of m.tokenIds) {
      const book = (await clob(`/book?token_id=${token}`)).body as BookJson
      const bid = book.bids.at(-1)?.price as string
      const ask = book.asks.at(-1)?.price as string
      assert.deepEqual((await clob(`/price?token_id=${token}&side=BUY`)).body, { price: bid })
      assert.deepEqual((await clob(`/price?token_id=${token}&side=SELL`)).body, { price: ask })
      const mid = Number((await clob(`/midpoint?token_id=${token}`)).body.mid)
      assert.ok(Math.abs(mid - (Number(bid) + Number(ask)) / 2) < 1e-9)
      const spread = Number((await clob(`/spread?token_id=${token}`)).body.spread)
      assert.ok(Math.abs(spread - (Number(ask) - Number(bid))) < 1e-9)
    }
    assert.equal((await clob(`/price?token_id=${m.tokenIds[0]}&side=UP`)).status, 400)
  })

  test('errors: unknown and closed tokens have no book; /books payload rules', async () => {
    const noBook = { status: 404, body: { error: 'No orderbook exists for the requested token id' } }
    assert.deepEqual(await clob('/book?token_id=123'), noBook)
    const closed = marketWhere((x) => x.canonical.lifecycle !== 'active')
    assert.deepEqual(await clob(`/book?token_id=${closed.tokenIds[0]}`), noBook)
    assert.deepEqual(await clob(`/tick-size?token_id=${closed.tokenIds[0]}`), {
      status: 200,
      body: { minimum_tick_size: closed.tickSize },
    })
    const [a, b] = activeMarkets()
    assert.ok(a && b)
    const post = async (body: unknown) => {
      const headers = { 'content-type': 'application/json' }
      const res = await fetch(`${sim.urls.clob}/books`, { method: 'POST', body: JSON.stringify(body), headers })
      return { status: res.status, body: (await res.json()) as Json }
    }
    const books = await post([{ token_id: a.tokenIds[0] }, { token_id: b.tokenIds[1] }])
    assert.equal(books.status, 200)
    const single = [
      (await clob(`/book?token_id=${a.tokenIds[0]}`)).body,
      (await clob(`/book?token_id=${b.tokenIds[1]}`)).body,
    ]
    assert.deepEqual(books.body, single)
    const tooMany = Array.from({ length: 501 }, () => ({ token_id: a.tokenIds[0] }))
    assert.deepEqual(await post(tooMany), { status: 400, body: { error: 'Invalid payload' } })
    assert.deepEqual(await post({ token_id: a.tokenIds[0] }), { status: 400, body: { error: 'Invalid payload' } })
    assert.deepEqual(await post([{ id: a.tokenIds[0] }]), { status: 400, body: { error: 'Invalid payload' } })
  })

  test('small endpoints: /, /time, /tick-size, /neg-risk, /last-trade-price, /markets/{cid}', async () => {
    assert.deepEqual(await clob('/'), { status: 200, body: 'OK' })
    assert.deepEqual(await clob('/time'), { status: 200, body: Math.floor(clock.now() / 1000) })
    const m = marketWhere(
      (x) =>
        venuepOf(world).books.has(x.conditionId) &&
        x.event.negRisk &&
        venuepOf(world).activity.tradesOf(x.conditionId).length > 0,
    )
    const book = venuepOf(world).books.get(m.conditionId)
    assert.ok(book)
    assert.deepEqual((await clob(`/tick-size?token_id=${m.tokenIds[1]}`)).body, {
      minimum_tick_size: book.tickMicros / MICROS_PER_UNIT,
    })
    assert.deepEqual((await clob(`/neg-risk?token_id=${m.tokenIds[1]}`)).body, { neg_risk: true })
    const last = venuepOf(world).activity.tradesOf(m.conditionId).at(-1)
    assert.ok(last?.price !== undefined)
    const ltp0 = (await clob(`/last-trade-price?token_id=${m.tokenIds[0]}`)).body
    const ltp1 = (await clob(`/last-trade-price?token_id=${m.tokenIds[1]}`)).body
    assert.ok(Math.abs(Number(ltp0.price) + Number(ltp1.price) - 1) < 1e-9)
    assert.notEqual(ltp0.side, ltp1.side)
    assert.equal(ltp0.price, (await clob(`/book?token_id=${m.tokenIds[0]}`)).body.last_trade_price)
    const { status, body } = await clob(`/markets/${m.conditionId}`)
    assert.equal(status, 200)
    assert.equal(body.condition_id, m.conditionId)
    assert.equal(body.neg_risk, true)
    assert.equal(body.neg_risk_market_id, m.event.negRiskMarketId)
    assert.deepEqual(
      body.tokens.map((t: Json) => [t.token_id, t.outcome]),
      m.tokenIds.map((t, i) => [t, m.outcomes[i]]),
    )
    assert.equal(typeof body.minimum_tick_size, 'number')
    assert.equal(typeof body.tokens[0].price, 'number')
    assert.deepEqual(await clob(`/markets/0x${'ab'.repeat(32)}`), { status: 404, body: { error: 'market not found' } })
    const won = marketWhere((x) => x.canonical.lifecycle === 'resolved')
    const resolved = (await clob(`/markets/${won.conditionId}`)).body
    assert.deepEqual(
      resolved.tokens.map((t: Json) => [t.winner, t.price]),
      won.contract.won
        ? [
            [true, 1],
            [false, 0],
          ]
        : [
            [false, 0],
            [true, 1],
          ],
    )
  })

  test('/markets cursor pagination runs from MA== to LTE=', async () => {
    let cursor = 'MA=='
    const seen: string[] = []
    let pages = 0
    while (cursor !== 'LTE=') {
      const { status, body } = await clob(`/markets?next_cursor=${encodeURIComponent(cursor)}`)
      assert.equal(status, 200)
      assert.equal(body.limit, CLOB_PAGE)
      assert.equal(body.count, body.data.length)
      seen.push(...body.data.map((m: Json) => m.condition_id))
      cursor = body.next_cursor
      if (cursor !== 'LTE=') assert.equal(Buffer.from(cursor, 'base64').toString(), String(seen.length))
      pages++
    }
    assert.equal(pages, Math.ceil(venuepOf(world).markets.length / CLOB_PAGE))
    assert.deepEqual(
      seen,
      venuepOf(world).markets.map((m) => m.conditionId),
    )
    assert.equal((await clob('/markets?next_cursor=!!')).status, 400)
  })

  test('/prices-history: window bounds, fidelity spacing, mirror, resolution, bad params', async () => {
    const m = activeMarkets()[5] as VpMarket
    const endTs = Math.floor(clock.now() / 1000) - 3600
    const startTs = endTs - 2 * 86_400
    const h0 = (await clob(`/prices-history?market=${m.tokenIds[0]}&startTs=${startTs}&endTs=${endTs}&fidelity=30`))
      .body.history
    const h1 = (await clob(`/prices-history?market=${m.tokenIds[1]}&startTs=${startTs}&endTs=${endTs}&fidelity=30`))
      .body.history
    assert.equal(h0.length, 97)
    for (let i = 0; i < h0.length; i++) {
      const p = h0[i]
      assert.ok(p.t >= startTs && p.t <= endTs && Number.isInteger(p.t))
      if (i > 0) assert.equal(p.t - h0[i - 1].t, 1800)
      assert.equal(typeof p.p, 'number')
      assert.ok(p.p > 0 && p.p < 1)
      assert.ok(Math.abs(p.p + h1[i].p - 1) <= 1.01e-4)
      assert.equal(p.p, Math.round(world.venueFair(m.contract, 'venuep', p.t * 1000) * 1e4) / 1e4)
    }
    const day = (await clob(`/prices-history?market=${m.tokenIds[0]}&interval=1d`)).body.history
    assert.ok(day.length > 100 && day.length <= 1441)
    assert.ok(day.at(-1).t <= clock.now() / 1000)

    const r = marketWhere((x) => x.canonical.lifecycle === 'resolved')
    const q = r.canonical
    const all = (await clob(`/prices-history?market=${r.tokenIds[0]}&interval=max&fidelity=60`)).body.history
    assert.ok(all.length > 0)
    assert.ok(all[0].t * 1000 >= r.event.createdAt)
    assert.ok(all.at(-1).t * 1000 <= (q.resolvedAt as number))
    assert.ok(Math.abs(all.at(-1).p - (r.contract.won ? 1 : 0)) < 0.1, 'converges to the outcome')

    const bad = async (query: string) => {
      const res = await clob(`/prices-history?${query}`)
      assert.equal(res.status, 400, query)
      assert.match(res.body.error, /^invalid filters: /)
    }
    await bad(`interval=1d`)
    await bad(`market=${m.tokenIds[0]}`)
    await bad(`market=${m.tokenIds[0]}&interval=2d`)
    await bad(`market=${m.tokenIds[0]}&interval=1d&startTs=${startTs}`)
    await bad(`market=${m.tokenIds[0]}&interval=1w&fidelity=1`)
    await bad(`market=${m.tokenIds[0]}&startTs=abc&endTs=${endTs}`)
    await bad(`market=${m.tokenIds[0]}&startTs=${endTs}&endTs=${startTs}`)
    await bad(`market=${m.tokenIds[0]}&interval=1d&fidelity=0`)
    assert.deepEqual((await clob(`/prices-history?market=123&interval=1d`)).body, { history: [] })
  })

  test('injected HTTP failures and malformed bodies come from the fault plan', async () => {
    const token = activeMarkets()[0]?.tokenIds[0] as string
    faults.failHttp({ status: 503, host: 'clob', pathPrefix: '/book' })
    assert.deepEqual(await clob(`/book?token_id=${token}`), { status: 503, body: { error: 'simulated failure' } })
    assert.equal((await clob(`/book?token_id=${token}`)).status, 200)
    faults.malformHttpBodies(1)
    const res = await fetch(`${sim.urls.gamma}/markets?limit=1`)
    assert.equal(res.status, 200)
    const text = await res.text()
    assert.throws(() => JSON.parse(text) as unknown, SyntaxError)
    assert.equal(faults.counters.malformedBodies, 1)
    faults.clearHttpFaults()
  })
})

// ---------------------------------------------------------------------------------------- official client

describe('official @polymarket/clob-client', () => {
  test('getOrderBook, getOrderBookHash, getPricesHistory, getMarket, getMarkets read the simulator', async () => {
    const client = new ClobClient(sim.urls.clob, 137)
    const m = activeMarkets()[7] as VpMarket
    const book = await client.getOrderBook(m.tokenIds[1])
    assert.deepEqual(book, (await clob(`/book?token_id=${m.tokenIds[1]}`)).body)
    assert.equal(book.asset_id, m.tokenIds[1])
    const ours = book.hash
    assert.equal(await client.getOrderBookHash({ ...book }), ours, 'the hash recipe matches the client SDK')

    const endTs = Math.floor(clock.now() / 1000)
    const startTs = endTs - 6 * 3600
    // The SDK types this as MarketPrice[], but the wire body (and so its return value) is {history: [...]}.
    const raw: unknown = await client.getPricesHistory({ market: m.tokenIds[0], startTs, endTs, fidelity: 60 })
    const history = raw as { history: { t: number; p: number }[] }
    assert.deepEqual(
      history,
      (await clob(`/prices-history?market=${m.tokenIds[0]}&startTs=${startTs}&endTs=${endTs}&fidelity=60`)).body,
    )
    assert.equal(history.history.length, 7)

    const market = await client.getMarket(m.conditionId)
    assert.equal(market.condition_id, m.conditionId)
    assert.equal(market.tokens[0].token_id, m.tokenIds[0])
    const page = await client.getMarkets()
    assert.equal(page.data.length, CLOB_PAGE)
    assert.equal(page.next_cursor, Buffer.from(String(CLOB_PAGE)).toString('base64'))
    assert.equal(await client.getTickSize(m.tokenIds[0]), book.tick_size)
    const missing = (await client.getOrderBook('123')) as unknown as { error: string; status: number }
    assert.deepEqual(missing, { error: 'No orderbook exists for the requested token id', status: 404 })
  })
})

// ------------------------------------------------------------------------------------------ WebSocket

describe('clob market websocket', () => {
  test('tick_size_change when a book nears an extreme, for both tokens, and REST follows', async () => {
    const coarse = 0.01 * MICROS_PER_UNIT
    const m = marketWhere((x) => {
      const fair = world.venueFair(x.contract, 'venuep', clock.now())
      return venuepOf(world).books.get(x.conditionId)?.tickMicros === coarse && (fair < 0.04 || fair > 0.96)
    })
    const ws = await connect()
    ws.send({ type: 'market', assets_ids: [...m.tokenIds] })
    await ws.next()
    engine.moveBook('venuep', m, clock.now())
    for (const token of m.tokenIds) {
      const frame = JSON.parse(await ws.next((t) => t.includes('tick_size_change') && t.includes(token))) as Json
      assert.deepEqual(frame, {
        event_type: 'tick_size_change',
        asset_id: token,
        market: m.conditionId,
        old_tick_size: '0.01',
        new_tick_size: '0.001',
        timestamp: String(clock.now()),
      })
    }
    assert.deepEqual((await clob(`/tick-size?token_id=${m.tokenIds[1]}`)).body, { minimum_tick_size: 0.001 })
    assert.equal((await clob(`/book?token_id=${m.tokenIds[0]}`)).body.tick_size, '0.001')
    assert.equal((await gamma(`/markets/${m.id}`)).body.orderPriceMinTickSize, 0.001)
  })

  test('dump equals REST, and replaying price_change/last_trade_price/tick_size_change reproduces REST /book', async () => {
    const markets = activeMarkets().slice(0, 40)
    const assets = markets.flatMap((m) => [...m.tokenIds])
    const ws = await connect()
    // The official SDKs also send `markets: []` and `operation`; unknown ids are tolerated.
    const ids = [...assets, '123']
    ws.send({
      type: 'market',
      assets_ids: ids,
      initial_dump: true,
      custom_feature_enabled: true,
      markets: [],
      operation: 'subscribe',
    })
    const dump = JSON.parse(await ws.next()) as BookJson[]
    assert.ok(Array.isArray(dump))
    assert.equal(dump.length, assets.length, 'unknown ids are ignored')
    const replay = new Map<string, ReplayBook>()
    for (const b of dump) {
      assert.equal(b.event_type, 'book')
      const { event_type: _e, ...rest } = b
      assert.deepEqual(rest, (await clob(`/book?token_id=${b.asset_id}`)).body)
      replay.set(b.asset_id, new ReplayBook(b))
    }
    const start = ws.frames.length

    for (let i = 0; i < 30; i++) step(100)
    for (const m of markets.slice(0, 5)) {
      engine.moveBook('venuep', m, clock.now())
      engine.trade('venuep', m, clock.now())
      engine.churnTop('venuep', m, clock.now())
    }
    await ws.barrier()

    const kinds = new Map<string, number>()
    let priceChanges = 0
    for (const text of ws.frames.slice(start)) {
      if (text === 'PONG') continue
      const msg = JSON.parse(text) as Json
      kinds.set(msg.event_type, (kinds.get(msg.event_type) ?? 0) + 1)
      assert.match(msg.timestamp, /^\d{13}$/)
      if (msg.event_type === 'price_change') {
        priceChanges++
        const m = venuepOf(world).marketsByCondition.get(msg.market) as VpMarket
        const e0 = msg.price_changes.filter((c: Json) => c.asset_id === m.tokenIds[0])
        const e1 = msg.price_changes.filter((c: Json) => c.asset_id === m.tokenIds[1])
        assert.equal(e0.length, e1.length, 'every token-0 change has its token-1 mirror')
        e0.forEach((c: Json, i: number) => {
          assert.equal(Math.round((1 - Number(c.price)) * 1e6) / 1e6, Number(e1[i].price))
          assert.equal(c.size, e1[i].size)
          assert.notEqual(c.side, e1[i].side)
        })
        for (const c of msg.price_changes) {
          for (const f of ['price', 'size', 'side', 'hash', 'best_bid', 'best_ask'])
            assert.equal(typeof c[f], 'string', f)
          replay.get(c.asset_id)?.apply(c, msg.timestamp)
        }
      } else if (msg.event_type === 'last_trade_price') {
        for (const f of ['price', 'size', 'side', 'fee_rate_bps']) assert.equal(typeof msg[f], 'string', f)
        const r = replay.get(msg.asset_id)
        if (r !== undefined) r.base.last_trade_price = msg.price
      } else if (msg.event_type === 'tick_size_change') {
        const r = replay.get(msg.asset_id)
        if (r !== undefined) r.base.tick_size = msg.new_tick_size
      } else {
        assert.equal(msg.event_type, 'best_bid_ask')
        assert.equal(msg.spread, String(Math.round((Number(msg.best_ask) - Number(msg.best_bid)) * 1e6) / 1e6))
      }
    }
    assert.ok(priceChanges > 10, `saw ${priceChanges} price_change frames`)
    assert.ok((kinds.get('last_trade_price') ?? 0) >= 10)
    assert.ok((kinds.get('best_bid_ask') ?? 0) > 0)
    for (const [asset, r] of replay) assert.deepEqual(r.toJson(), (await clob(`/book?token_id=${asset}`)).body, asset)
  })

  test('subscribe/unsubscribe operations, initial_dump=false, PING/PONG', async () => {
    // Two markets of different questions: moving one market of a ladder requotes its whole ladder.
    const a = activeMarkets()[50]
    const b = activeMarkets()
      .slice(51)
      .find((m) => m.contract.questionId !== a?.contract.questionId)
    assert.ok(a && b)
    const ws = await connect()
    ws.send({ type: 'market', assets_ids: [a.tokenIds[0]] })
    assert.equal((JSON.parse(await ws.next()) as BookJson[])[0]?.asset_id, a.tokenIds[0])
    ws.send({ operation: 'subscribe', assets_ids: [b.tokenIds[1]], initial_dump: false })
    ws.send({ operation: 'unsubscribe', assets_ids: [a.tokenIds[0]] })
    await ws.barrier()
    engine.moveBook('venuep', a, clock.now())
    engine.moveBook('venuep', b, clock.now())
    const frame = JSON.parse(await ws.next((t) => t !== 'PONG')) as Json
    assert.equal(frame.event_type, 'price_change')
    assert.equal(frame.market, b.conditionId, 'the unsubscribed market sent nothing')
    assert.ok(
      frame.price_changes.every((c: Json) => c.asset_id === b.tokenIds[1]),
      'only the subscribed token',
    )
    ws.send('PING')
    assert.equal(await ws.next(), 'PONG')
  })

  test('stall: sockets stay open but nothing is sent, not even PONG', async () => {
    const m = activeMarkets()[60] as VpMarket
    const ws = await connect()
    ws.send({ type: 'market', assets_ids: [m.tokenIds[0]] })
    await ws.next()
    faults.stall()
    const received = sim.ws.counters.framesReceived
    ws.send('PING')
    await until(() => sim.ws.counters.framesReceived > received)
    engine.moveBook('venuep', m, clock.now())
    const before = ws.frames.length
    faults.resume()
    await ws.barrier()
    assert.equal(ws.frames.length, before + 1, 'only the PONG sent after resume arrived')
    assert.equal(ws.frames.filter((f) => f === 'PONG').length, 1)
    assert.equal(ws.socket.readyState, ws.socket.OPEN)
  })

  test('malformed frame and drop', async () => {
    const ws = await connect()
    ws.send({ type: 'market', assets_ids: [] })
    await ws.barrier()
    faults.sendMalformedFrame()
    const bad = await ws.next()
    assert.throws(() => JSON.parse(bad), SyntaxError)
    const open = sim.connections()
    assert.ok(open >= 1)
    faults.dropSockets()
    assert.equal(await ws.closed, 1006, 'a drop is abrupt: no close frame')
    await until(() => sim.connections() === 0)
  })

  test('the 501st asset of a connection gets its book but no updates', async () => {
    const markets = activeMarkets()
    const target = markets.at(-1) as VpMarket
    const witness = markets[0] as VpMarket
    const others = markets.slice(0, -1).flatMap((m) => [...m.tokenIds])
    assert.ok(others.length >= 500, 'the test world has enough assets')
    const ws = await connect()
    ws.send({ type: 'market', assets_ids: others.slice(0, 500) })
    assert.equal((JSON.parse(await ws.next()) as BookJson[]).length, 500)
    ws.send({ operation: 'subscribe', assets_ids: [target.tokenIds[0]] })
    const dump = JSON.parse(await ws.next()) as BookJson[]
    assert.deepEqual(
      dump.map((b) => b.asset_id),
      [target.tokenIds[0]],
    )
    engine.moveBook('venuep', target, clock.now())
    engine.moveBook('venuep', witness, clock.now())
    const frame = JSON.parse(await ws.next()) as Json
    assert.equal(frame.market, witness.conditionId, 'nothing arrived for the asset past the limit')
  })

  test('a frame with more than 500 ids closes the socket with 1009', async () => {
    const ws = await connect()
    const ids = Array.from({ length: 501 }, (_, i) => String(10n ** 76n + BigInt(i)))
    ws.send({ type: 'market', assets_ids: ids })
    assert.equal(await ws.closed, 1009)
  })

  test('a consumer that stops reading is terminated once its backlog passes the bound', async () => {
    const slow = await startVenuepSim({ world, engine, clock, faults: new FaultPlan(), maxBufferedBytes: 256 * 1024 })
    try {
      const ws = await WsClient.connect(slow.urls.clobWs)
      sockets.push(ws)
      const raw = (ws.socket as unknown as { _socket: { pause(): void } })._socket
      raw.pause()
      const assets = activeMarkets()
        .flatMap((m) => [...m.tokenIds])
        .slice(0, 500)
      for (let i = 0; i < 200 && slow.ws.counters.slowConsumersTerminated === 0; i++) {
        ws.send({ type: 'market', assets_ids: assets })
        await new Promise((r) => setTimeout(r, 2))
      }
      assert.equal(slow.ws.counters.slowConsumersTerminated, 1)
      await until(() => slow.connections() === 0)
    } finally {
      await slow.close()
    }
  })

  test('unknown paths are refused', async () => {
    await assert.rejects(WsClient.connect(sim.urls.clobWs.replace('/ws/market', '/ws/other')))
  })
})

// ------------------------------------------------------------------------------------------- Data API

describe('data api', () => {
  const walletsWithActivity = () => [...venuepOf(world).ledger.wallets.keys()]

  test('positions match the ledger, and open + closed realized PnL add up to it', async () => {
    for (const wallet of walletsWithActivity()) {
      const ledger = venuepOf(world).ledger.wallets.get(wallet)
      assert.ok(ledger)
      const { status, body } = await data(`/positions?user=${wallet}&sizeThreshold=0&limit=500`)
      assert.equal(status, 200)
      const held = [...ledger.tokens.entries()].filter(([, p]) => p.shares > 0)
      assert.equal(body.length, held.length)
      let realized = 0
      for (const row of body) {
        const pos = ledger.tokens.get(row.asset)
        assert.ok(pos)
        const ref = venuepOf(world).tokens.get(row.asset)
        assert.ok(ref)
        assert.ok(Math.abs(row.size - pos.shares) < 1e-6)
        assert.ok(Math.abs(row.initialValue - pos.cost) < 1e-6)
        assert.ok(Math.abs(row.avgPrice - pos.cost / pos.shares) < 1e-6)
        assert.ok(Math.abs(row.realizedPnl - pos.realized) < 1e-6)
        assert.ok(Math.abs(row.totalBought - pos.totalBought) < 1e-6)
        assert.ok(Math.abs(row.currentValue - row.size * row.curPrice) < 1e-4)
        assert.ok(Math.abs(row.cashPnl - (row.currentValue - row.initialValue)) < 1e-4)
        assert.equal(row.conditionId, ref.market.conditionId)
        assert.equal(row.outcomeIndex, ref.index)
        assert.equal(row.outcome, ref.market.outcomes[ref.index])
        assert.equal(row.oppositeAsset, ref.market.tokenIds[1 - ref.index])
        assert.equal(row.eventSlug, ref.market.event.slug)
        assert.match(row.endDate, /^\d{4}-\d{2}-\d{2}$/)
        const lifecycle = ref.market.canonical.lifecycle
        assert.equal(row.redeemable, lifecycle === 'resolved')
        if (lifecycle === 'resolved') assert.equal(row.curPrice, (ref.index === 0) === ref.market.contract.won ? 1 : 0)
        realized += pos.realized
      }
      const closed: Json[] = []
      for (let offset = 0; ; offset += 50) {
        const page = (await data(`/closed-positions?user=${wallet}&limit=50&offset=${offset}`)).body
        closed.push(...page)
        if (page.length < 50) break
      }
      for (const c of closed) {
        assert.equal(ledger.tokens.get(c.asset)?.shares, 0)
        assert.equal(typeof c.timestamp, 'number')
        realized += c.realizedPnl
      }
      assert.ok(Math.abs(realized - ledger.realized) < 1e-3, `${wallet}: ${realized} vs ledger ${ledger.realized}`)
      const value = (await data(`/value?user=${wallet}`)).body
      const all = (await data(`/positions?user=${wallet}&sizeThreshold=0&limit=500`)).body
      assert.equal(value[0].user, wallet)
      assert.ok(Math.abs(value[0].value - all.reduce((s: number, p: Json) => s + p.currentValue, 0)) < 1e-3)
    }
  })

  test('positions sorting, thresholds and filters', async () => {
    const held = (w: string) =>
      [...(venuepOf(world).ledger.wallets.get(w)?.tokens.values() ?? [])].filter((p) => p.shares > 0).length
    const wallet = walletsWithActivity().find((w) => held(w) >= 3)
    assert.ok(wallet)
    const rows = (await data(`/positions?user=${wallet}&sizeThreshold=0&sortBy=CURRENT&sortDirection=ASC`)).body
    const values = rows.map((r: Json) => r.currentValue)
    assert.deepEqual(
      values,
      [...values].sort((a: number, b: number) => a - b),
    )
    const big = (await data(`/positions?user=${wallet}&sizeThreshold=50`)).body
    assert.ok(big.every((r: Json) => r.size >= 50))
    const one = rows[0]
    const scoped = (await data(`/positions?user=${wallet}&sizeThreshold=0&market=${one.conditionId}`)).body
    assert.ok(scoped.length >= 1 && scoped.every((r: Json) => r.conditionId === one.conditionId))
  })

  test('activity: pagination, sorting, type filter, non-trade rows', async () => {
    const rowsOf = (w: string) => venuepOf(world).activity.activityOf(w).length
    const wallet = walletsWithActivity().sort((a, b) => rowsOf(b) - rowsOf(a))[0] as string
    const expected = venuepOf(world).activity.activityOf(wallet)
    const full = (await data(`/activity?user=${wallet}&limit=500`)).body
    assert.equal(full.length, expected.length)
    const ts = full.map((r: Json) => r.timestamp)
    assert.deepEqual(
      ts,
      [...ts].sort((a: number, b: number) => b - a),
      'newest first by default',
    )
    const paged: Json[] = []
    for (let offset = 0; offset < full.length; offset += 3) {
      paged.push(...(await data(`/activity?user=${wallet}&limit=3&offset=${offset}`)).body)
    }
    assert.deepEqual(paged, full)
    const cash = (await data(`/activity?user=${wallet}&sortBy=CASH&sortDirection=ASC&limit=500`)).body.map(
      (r: Json) => r.usdcSize,
    )
    assert.deepEqual(
      cash,
      [...cash].sort((a: number, b: number) => a - b),
    )
    const trades = (await data(`/activity?user=${wallet}&type=TRADE&limit=500`)).body
    for (const r of trades) {
      assert.ok(r.type === 'TRADE' && typeof r.price === 'number' && typeof r.asset === 'string' && r.outcomeIndex >= 0)
    }
    const other = (await data(`/activity?user=${wallet}&type=SPLIT,MERGE,REDEEM&limit=500`)).body
    assert.equal(trades.length + other.length, full.length)
    for (const r of other) for (const f of ['price', 'asset', 'side', 'outcomeIndex']) assert.equal(r[f], undefined, f)
    const anyNonTrade = venuepOf(world).activity.rows.find((a) => a.type !== 'TRADE')
    assert.ok(anyNonTrade, 'the world has non-trade activity')
  })

  test('trades: newest first, market filter, paging limits', async () => {
    const m = marketWhere((x) => venuepOf(world).activity.tradesOf(x.conditionId).length >= 3)
    const rows = (await data(`/trades?market=${m.conditionId}`)).body
    assert.equal(rows.length, venuepOf(world).activity.tradesOf(m.conditionId).length)
    const ts = rows.map((r: Json) => r.timestamp)
    assert.deepEqual(
      ts,
      [...ts].sort((a: number, b: number) => b - a),
    )
    const t = rows[0]
    assert.equal(t.conditionId, m.conditionId)
    assert.ok(m.tokenIds.includes(t.asset))
    for (const f of ['size', 'price', 'timestamp', 'outcomeIndex']) assert.equal(typeof t[f], 'number', f)
    for (const f of ['proxyWallet', 'side', 'title', 'slug', 'eventSlug', 'outcome', 'transactionHash', 'pseudonym']) {
      assert.equal(typeof t[f], 'string', f)
    }
    assert.equal((await data('/trades?limit=10001')).status, 400)
    assert.equal((await data('/trades?offset=10001')).status, 400)
    assert.equal((await data('/trades?filterType=CASH')).status, 400)
    const sells = (await data('/trades?side=SELL&limit=50')).body
    assert.ok(sells.length > 0 && sells.every((r: Json) => r.side === 'SELL'))
  })

  test('bad addresses are 400, unknown well-formed ones are empty', async () => {
    for (const path of ['/positions', '/activity', '/closed-positions', '/value', '/trades']) {
      const res = await data(`${path}?user=0x123`)
      assert.equal(res.status, 400, path)
      assert.equal(typeof res.body.error, 'string')
      assert.deepEqual(await data(`${path}?user=0x${'1'.repeat(40)}`), { status: 200, body: [] }, path)
    }
    assert.equal((await data('/positions')).status, 400, 'user is required')
  })
})
