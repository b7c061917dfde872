import assert from 'node:assert/strict'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { ClobClient } from '@polymarket/clob-client'
import { Configuration, EventsApi, MarketApi } from 'kalshi-typescript'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock, systemClock } from '../../src/core/clock.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { readCapturedCatalogs } from '../../src/sim/world/capture-files.js'
import type { VkCapturedEvent, VkCapturedMarket } from '../../src/sim/venuek/capture-schema.js'
import type { VpCapturedEvent, VpCapturedMarket } from '../../src/sim/venuep/capture-schema.js'
import { REAL_CATALOG_DIR } from '../helpers/fixtures.js'
import { venuepOf } from '../../src/sim/venuep/state.js'

/**
 * The simulator replaying the real captured catalogs, at the protocol level: Gamma and venuek REST bodies are the
 * captures themselves in the venues' wire formats (nothing added, nothing lost), books start at the captured top of
 * book, and nothing before the replay's start is invented. The expected bodies are built here from the capture
 * files, independently of the simulator's serializers.
 */
const ANCHOR_MS = Date.UTC(2026, 10, 21, 12)
const captured = readCapturedCatalogs(REAL_CATALOG_DIR)
type Json = Record<string, any>

let sim: Simulator
let clock: SimulatedClock

before(async () => {
  clock = new SimulatedClock(ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  sim = await startSimulator({
    config: { ...config.sim, catalog: REAL_CATALOG_DIR, wallets: 10, venuekAuth: false },
    clock,
    anchorMs: ANCHOR_MS,
    startEngine: false,
  })
})

after(async () => {
  await sim?.close()
})

async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url)
  return { status: res.status, body: await res.json() }
}

const gamma = (path: string) => get(`${sim.venuep.urls.gamma}${path}`)
const clob = (path: string) => get(`${sim.venuep.urls.clob}${path}`)
const rest = (path: string) => get(`${sim.venuek.urls.rest}${path}`)

/** Gamma's wire form of a captured market: the three list fields as JSON strings ("[\"Yes\", \"No\"]"). */
function gammaMarket(m: VpCapturedMarket): Json {
  const out: Json = {}
  for (const [k, v] of Object.entries(m))
    out[k] =
      k === 'outcomes' || k === 'outcomePrices' || k === 'clobTokenIds'
        ? `[${(v as string[]).map((x) => JSON.stringify(x)).join(', ')}]`
        : v
  return out
}

/** Gamma's `/events` form of a captured event: provenance dropped, markets in wire form. */
function gammaEvent(e: VpCapturedEvent): Json {
  const { source: _source, captured: _captured, markets, ...rest } = e
  return { ...rest, markets: markets.map(gammaMarket) }
}

const DOLLARS = ['yes_bid', 'yes_ask', 'no_bid', 'no_ask', 'last_price']
const COUNTS = ['volume', 'volume_24h', 'open_interest']

/** venuek's current wire form of a captured market: `_dollars` 4-dp strings and `_fp` 2-dp strings. */
function venuekMarket(m: VkCapturedMarket): Json {
  const out: Json = {}
  for (const [k, v] of Object.entries(m)) {
    if (DOLLARS.includes(k)) out[`${k}_dollars`] = (v as number).toFixed(4)
    else if (COUNTS.includes(k)) out[`${k}_fp`] = (v as number).toFixed(2)
    else out[k] = v
  }
  return out
}

function venuekEvent(e: VkCapturedEvent): Json {
  const { source: _source, captured: _captured, markets, ...rest } = e
  return { ...rest, markets: markets.map(venuekMarket) }
}

describe('replayed Gamma (venuep)', () => {
  test('/events pages, in id order, are the captured events verbatim (Gamma encoding, no provenance, nothing added)', async () => {
    const served: Json[] = []
    for (let offset = 0; ; offset += 100) {
      const { status, body } = await gamma(`/events?limit=100&offset=${offset}&order=id&ascending=true`)
      assert.equal(status, 200)
      served.push(...body)
      if (body.length < 100) break
    }
    const expected = [...captured.venuep].sort((a, b) => Number(a.id) - Number(b.id)).map(gammaEvent)
    assert.equal(served.length, 210)
    assert.deepEqual(served, expected)
  })

  test('/markets for a closed, resolved market: the capture, its parent event and (include_tag) the event tags', async () => {
    const e = captured.venuep.find(
      (x) => x.markets.some((m) => m.umaResolutionStatus === 'resolved') && x.tags !== undefined,
    ) as VpCapturedEvent
    const m = e.markets.find((x) => x.umaResolutionStatus === 'resolved') as VpCapturedMarket
    assert.deepEqual((await gamma(`/markets?slug=${m.slug}`)).body, [], 'closed markets need closed=true, as on Gamma')
    const { status, body } = await gamma(`/markets?slug=${m.slug}&closed=true&include_tag=true`)
    assert.equal(status, 200)
    const { markets: _markets, tags, ...parent } = gammaEvent(e)
    assert.deepEqual(body, [{ ...gammaMarket(m), events: [parent], tags }])
  })

  test("CLOB books: an open market's book starts at the captured best bid and ask; a closed market has none", async () => {
    const m = captured.venuep
      .flatMap((e) => e.markets)
      .find((x) => !x.closed && x.active && (x.bestBid ?? 0) > 0 && (x.bestAsk ?? 1) < 1) as VpCapturedMarket
    const { status, body } = await clob(`/book?token_id=${m.clobTokenIds[0]}`)
    assert.equal(status, 200)
    assert.equal(Number(body.bids.at(-1).price), m.bestBid)
    assert.equal(Number(body.asks.at(-1).price), m.bestAsk)
    assert.equal(body.market, m.conditionId)
    const closed = captured.venuep.flatMap((e) => e.markets).find((x) => x.closed) as VpCapturedMarket
    assert.deepEqual(await clob(`/book?token_id=${closed.clobTokenIds[0]}`), {
      status: 404,
      body: { error: 'No orderbook exists for the requested token id' },
    })
  })

  test('prices-history starts with the replay at the captured price; markets that do not trade have no history', async () => {
    const m = captured.venuep
      .flatMap((e) => e.markets)
      .find(
        (x) => !x.closed && x.active && (x.bestBid ?? 0) > 0 && (x.bestAsk ?? 1) < 1 && x.bestAsk! - x.bestBid! < 0.05,
      ) as VpCapturedMarket
    // Time only moves forward: this and the next test run after the verbatim checks above.
    clock.set(ANCHOR_MS + 3_600_000)
    const start = ANCHOR_MS / 1000
    const { body } = await clob(
      `/prices-history?market=${m.clobTokenIds[0]}&startTs=${start - 86_400}&endTs=${start + 3600}&fidelity=60`,
    )
    // Nothing before the start: the capture holds one price, not a series.
    assert.deepEqual(
      body.history.map((p: Json) => p.t),
      [start, start + 3600],
    )
    assert.equal(body.history[0].p, Math.round(((m.bestBid! + m.bestAsk!) / 2) * 10_000) / 10_000)
    const closed = captured.venuep.flatMap((e) => e.markets).find((x) => x.closed) as VpCapturedMarket
    assert.deepEqual((await clob(`/prices-history?market=${closed.clobTokenIds[0]}&interval=max`)).body, {
      history: [],
    })
  })

  test('once the engine moves a book, Gamma serves its live top in the captured fields, and adds none', async () => {
    const e = captured.venuep.find(
      (x) =>
        x.markets.length === 1 && !x.markets[0]!.closed && x.markets[0]!.active && (x.markets[0]!.bestBid ?? 0) > 0,
    ) as VpCapturedEvent
    const m = e.markets[0] as VpCapturedMarket
    const market = venuepOf(sim.world).marketsByCondition.get(m.conditionId)!
    clock.increment(1_000)
    sim.engine.moveBook('venuep', market, clock.now())
    const book = venuepOf(sim.world).books.get(m.conditionId)!
    const { body } = await gamma(`/events?slug=${e.slug}`)
    const served = body[0].markets[0] as Json
    assert.deepEqual(Object.keys(served), Object.keys(gammaMarket(m)), 'the captured fields, in their order')
    assert.equal(served.bestBid, book.bestBid()! / 1e6)
    assert.equal(served.bestAsk, book.bestAsk()! / 1e6)
  })
})

test("which markets are the same on both venues is unknown: the replay's ground truth is empty", () => {
  assert.deepEqual(sim.world.truth, { sharedQuestions: [], eventPairs: [], outcomePairs: [], decoys: [] })
})

describe('replayed venuek', () => {
  test('/events with nested markets, through its cursors, is the captured events in the current wire format', async () => {
    const served: Json[] = []
    let cursor = ''
    do {
      const { status, body } = await rest(
        `/events?limit=50&with_nested_markets=true${cursor === '' ? '' : `&cursor=${cursor}`}`,
      )
      assert.equal(status, 200)
      served.push(...body.events)
      cursor = body.cursor
    } while (cursor !== '')
    assert.deepEqual(served, captured.venuek.map(venuekEvent))
  })

  test("/series: a replayed series is its ticker and its events' category, nothing more", async () => {
    const { body } = await rest('/series')
    const expected = new Map<string, Json>()
    for (const e of captured.venuek)
      if (!expected.has(e.series_ticker))
        expected.set(e.series_ticker, { ticker: e.series_ticker, category: e.category })
    assert.deepEqual(body, { series: [...expected.values()] })
  })

  test('/markets status filters follow the captured statuses', async () => {
    const settled: string[] = []
    let cursor = ''
    do {
      const { body } = await rest(`/markets?status=settled&limit=1000${cursor === '' ? '' : `&cursor=${cursor}`}`)
      settled.push(...body.markets.map((m: Json) => m.ticker))
      cursor = body.cursor
    } while (cursor !== '')
    assert.deepEqual(
      settled,
      captured.venuek
        .flatMap((e) => e.markets)
        .filter((m) => m.status === 'finalized')
        .map((m) => m.ticker),
    )
  })

  test("an active market's order book starts at the captured quotes (bids on both legs: NO bid = 1 − YES ask)", async () => {
    const m = captured.venuek
      .flatMap((e) => e.markets)
      .find((x) => x.status === 'active' && (x.yes_bid ?? 0) > 0 && (x.yes_ask ?? 1) < 1) as VkCapturedMarket
    const { status, body } = await rest(`/markets/${m.ticker}/orderbook`)
    assert.equal(status, 200)
    assert.equal(body.orderbook_fp.yes_dollars.at(-1)[0], m.yes_bid!.toFixed(4))
    assert.equal(body.orderbook_fp.no_dollars.at(-1)[0], (1 - m.yes_ask!).toFixed(4))
  })
})

describe('official clients read the replay', () => {
  let live: Simulator

  before(async () => {
    // The official venuek client stamps its signatures with Date.now(): this replay runs on the system clock.
    const config = loadConfig({ env: { NODE_ENV: 'test' } })
    live = await startSimulator({
      config: { ...config.sim, catalog: REAL_CATALOG_DIR, wallets: 5, venuekAuth: true },
      clock: systemClock,
      startEngine: false,
    })
  })

  after(async () => {
    await live?.close()
  })

  test('@polymarket/clob-client reads a replayed book and market', async () => {
    const client = new ClobClient(live.venuep.urls.clob, 137)
    const m = captured.venuep
      .flatMap((e) => e.markets)
      .find((x) => !x.closed && (x.bestBid ?? 0) > 0) as VpCapturedMarket
    const book = await client.getOrderBook(m.clobTokenIds[0] as string)
    assert.deepEqual(book, (await get(`${live.venuep.urls.clob}/book?token_id=${m.clobTokenIds[0]}`)).body)
    assert.equal(await client.getOrderBookHash({ ...book }), book.hash)
    const market = await client.getMarket(m.conditionId)
    assert.equal(market.question, m.question)
    assert.deepEqual(
      market.tokens.map((t: Json) => t.token_id),
      m.clobTokenIds,
    )
  })

  test('kalshi-typescript reads replayed events, a market and its order book with signed requests', async () => {
    const creds = live.venuekCredentials!
    const config = new Configuration({
      basePath: live.venuek.urls.rest,
      apiKey: creds.keyId,
      privateKeyPem: creds.privateKeyPem,
    })
    const events = await new EventsApi(config).getEvents(5, undefined, true)
    assert.deepEqual(events.data.events, captured.venuek.slice(0, 5).map(venuekEvent))
    const ticker = captured.venuek[0]!.markets[0]!.ticker
    const market = await new MarketApi(config).getMarket(ticker)
    assert.deepEqual(market.data.market, venuekMarket(captured.venuek[0]!.markets[0]!))
    const book = await new MarketApi(config).getMarketOrderbook(ticker, 0)
    assert.deepEqual(
      book.data.orderbook_fp,
      (await get(`${live.venuek.urls.rest}/markets/${ticker}/orderbook`)).body.orderbook_fp,
    )
  })
})

describe('reading a capture directory', () => {
  test('relative to the working directory; a malformed capture fails with the file, the path and the problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capture-'))
    copyFileSync(join(REAL_CATALOG_DIR, 'venuek.json'), join(dir, 'venuek.json'))
    writeFileSync(
      join(dir, 'venuep.json'),
      JSON.stringify({ venue: 'venuep', events: [{ id: '1', slug: 's', title: 't', markets: [] }] }),
    )
    assert.throws(
      () => readCapturedCatalogs(relative(process.cwd(), dir)),
      (err: Error) => {
        assert.equal(err.name, 'CaptureFormatError')
        assert.ok(
          err.message.startsWith(`${join(dir, 'venuep.json')} does not follow the captured-catalog format:`),
          err.message,
        )
        assert.match(err.message, /\/events\/0\/ticker/)
        return true
      },
    )
    assert.equal(readCapturedCatalogs(relative(process.cwd(), REAL_CATALOG_DIR)).dir, REAL_CATALOG_DIR)
    rmSync(dir, { recursive: true, force: true })
  })
})
