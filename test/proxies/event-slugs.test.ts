import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Quote } from '../../src/model/types.js'
import { ok } from '../helpers/api.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { catalog, groupMarkets, mountProxies, pok, type ProxyHarness } from './harness.js'

/**
 * `market_slug` is a "market or event slug" (spec 4.1): an event, group or alias slug from /venuep/markets or
 * /events names the event's leading market where the answer is about one market (order book, candlesticks), every
 * market of it where the answer is a list (orders), and the event's market record for market-price. The responses
 * echo the slug asked for in `resolved_from`.
 */
type Level = { price: string; size: string }
type Book = {
  market_slug: string
  resolved_from: string | null
  token_id: string
  condition_id: string
  outcome_index: number
  source: string
  book_time: string | null
  bids: Level[]
  asks: Level[]
}
type Candles = {
  history: { t: number; p: number }[]
  market_slug: string
  resolved_from: string | null
  condition_id: string
  token_id: string
  outcome_index: number
  fidelity_minutes: number
  start_ts: number | null
  end_ts: number | null
}
type Orders = {
  market_slug: string
  resolved_from: string | null
  condition_ids: string[]
  data: { transaction_hash: string }[]
  count: number
  limit: number
  next_cursor: string | null
}
type Outcome = {
  title: string
  token_id: string
  condition_id: string
  probability: number | null
  volume: number | null
  market_slug: string
}
type MarketRow = { market_slug: string; event_slug: string; status: string; outcomes: Outcome[] }

let s: TestService
let h: ProxyHarness
/** Quotes the proxies see instead of the actor's (to move which market leads). */
const overrides = new Map<string, Quote>()

before(async () => {
  s = await startTestService({ questions: 100 })
  const actor = s.app.venues.venuep
  h = await mountProxies(s, {
    venue: {
      catalog: () => actor.catalog(),
      book: (id) => actor.book(id),
      quote: (id) => overrides.get(id) ?? actor.quote(id),
    },
  })
})

after(async () => {
  await h?.close()
  await s?.close()
})

const nowIso = () => new Date(s.clock.now()).toISOString().slice(0, -1)

/** Multi-market records of /venuep/markets (their `market_slug` is the event's slug) with the given status. */
async function groups(status: string): Promise<MarketRow[]> {
  const page = await ok<{ markets: MarketRow[] }>(
    s,
    'listVenuepMarkets',
    `/api/v2/venuep/markets?status=${status}&limit=100`,
  )
  const slugs = new Set(groupMarkets(s, status).map((m) => m.marketId))
  const rows = page.markets.filter((m) => slugs.has(m.market_slug))
  assert.ok(rows.length > 0, `the test world has ${status} multi-market events`)
  return rows
}

/** The rule, written out here: highest probability, then the higher volume, then the lower token id (every child open). */
function leaderOf(row: MarketRow): Outcome {
  const desc = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a)
  return [...row.outcomes].sort(
    (a, b) => desc(a.probability, b.probability) || desc(a.volume, b.volume) || (a.token_id < b.token_id ? -1 : 1),
  )[0]!
}

/** The venue's own book of a token, best first, as decimal strings. */
async function venueBook(tokenId: string): Promise<{ bids: Level[]; asks: Level[] }> {
  const raw = (await (await fetch(`${s.sim.venuep.urls.clob}/book?token_id=${tokenId}`)).json()) as {
    bids: Level[]
    asks: Level[]
  }
  const norm = (l: Level): Level => ({ price: String(Number(l.price)), size: String(Number(l.size)) })
  return {
    bids: raw.bids.map(norm).sort((a, b) => Number(b.price) - Number(a.price)),
    asks: raw.asks.map(norm).sort((a, b) => Number(a.price) - Number(b.price)),
  }
}

async function venueHistory(tokenId: string): Promise<{ t: number; p: number }[]> {
  return (
    (await (
      await fetch(`${s.sim.venuep.urls.clob}/prices-history?market=${tokenId}&interval=max&fidelity=60`)
    ).json()) as { history: { t: number; p: number }[] }
  ).history
}

function candlesOf(o: Outcome, resolvedFrom: string | null, history: { t: number; p: number }[]): Candles {
  return {
    history,
    market_slug: o.market_slug,
    resolved_from: resolvedFrom,
    condition_id: o.condition_id,
    token_id: o.token_id,
    outcome_index: 0,
    fidelity_minutes: 60,
    start_ts: null,
    end_ts: null,
  }
}

/** A multi-market venuep event linked to a venuek event: its venuek slug resolves as an alias. */
async function aliasedGroup(): Promise<{ row: MarketRow; alias: string }> {
  for (const row of await groups('active')) {
    const detail = await ok<{ aliases: string[] }>(s, 'getEvent', `/api/v2/events/${row.event_slug}`)
    if (detail.aliases.length > 0) return { row, alias: detail.aliases[0]! }
  }
  throw new Error('the test world links a multi-market venuep event to a venuek event')
}

describe('event slugs where one market is meant: the leading market', () => {
  test("orderbook-history: an event slug answers with its leading market's book, the leading outcome of /events", async () => {
    let agreed = 0
    for (const row of (await groups('active')).slice(0, 6)) {
      const leader = leaderOf(row)
      const book = await pok<Book>(
        h,
        'getVenuepOrderbook',
        `/api/v2/venuep/orderbook-history?market_slug=${row.market_slug}`,
      )
      assert.deepEqual(book, {
        market_slug: leader.market_slug,
        resolved_from: row.market_slug,
        token_id: leader.token_id,
        condition_id: leader.condition_id,
        outcome_index: 0,
        source: 'live',
        book_time: nowIso(),
        ...(await venueBook(leader.token_id)),
      })
      const lead = (
        await ok<{ leading_outcome: { platform: string; outcome_id: string } | null }>(
          s,
          'getEvent',
          `/api/v2/events/${row.event_slug}`,
        )
      ).leading_outcome
      if (lead?.platform === 'venuep') {
        assert.equal(lead.outcome_id, leader.token_id, `${row.event_slug}: the same outcome leads on /events`)
        agreed++
      }
    }
    assert.ok(agreed > 0, 'some of these events are led by a venuep outcome on /events')
  })

  test("orderbook-history: outcome_index 1 is the leading market's second token; a child's own slug echoes nothing", async () => {
    const row = (await groups('active'))[1]!
    const leader = leaderOf(row)
    const byEvent = await pok<Book>(
      h,
      'getVenuepOrderbook',
      `/api/v2/venuep/orderbook-history?market_slug=${row.market_slug}&outcome_index=1`,
    )
    const byChild = await pok<Book>(
      h,
      'getVenuepOrderbook',
      `/api/v2/venuep/orderbook-history?market_slug=${leader.market_slug}&outcome_index=1`,
    )
    assert.equal(byChild.resolved_from, null)
    assert.equal(byChild.outcome_index, 1)
    assert.deepEqual(byEvent, { ...byChild, resolved_from: row.market_slug })
  })

  test("candlesticks: an event slug gives its leading market's series; the child's slug the same series without resolved_from", async () => {
    for (const row of (await groups('active')).slice(0, 3)) {
      const leader = leaderOf(row)
      const history = await venueHistory(leader.token_id)
      const byChild = await pok<Candles>(
        h,
        'getVenuepCandlesticks',
        `/api/v2/venuep/candlesticks?market_slug=${leader.market_slug}`,
      )
      const byEvent = await pok<Candles>(
        h,
        'getVenuepCandlesticks',
        `/api/v2/venuep/candlesticks?market_slug=${row.market_slug}`,
      )
      assert.deepEqual(byChild, candlesOf(leader, null, history))
      assert.deepEqual(
        byEvent,
        candlesOf(leader, row.market_slug, history),
        'one venue answer, rendered once per resolved_from',
      )
    }
  })

  test('a resolved event (no market open) leads with the market that won', async () => {
    // An event with one winner (in a resolved ladder several strikes or deadlines won).
    const winners = (slug: string) =>
      catalog(s)
        .marketsById.get(slug)!
        .outcomes.filter((o) => o.won === true)
    const row = (await groups('resolved')).find((r) => winners(r.market_slug).length === 1)!
    const won = winners(row.market_slug)[0]!
    const winner = row.outcomes.find((o) => o.token_id === won.instrumentId)!
    assert.equal(winner.probability, 1)
    const body = await pok<Candles>(
      h,
      'getVenuepCandlesticks',
      `/api/v2/venuep/candlesticks?market_slug=${row.market_slug}&fidelity=1440`,
    )
    const history = (
      (await (
        await fetch(`${s.sim.venuep.urls.clob}/prices-history?market=${winner.token_id}&interval=max&fidelity=1440`)
      ).json()) as { history: { t: number; p: number }[] }
    ).history
    assert.deepEqual(body, { ...candlesOf(winner, row.market_slug, history), fidelity_minutes: 1440 })
  })

  test('the leader follows prices, and a repeated candlestick query is not pinned to an earlier leader', async () => {
    // A group whose leader is below the price given to another child below (a deep ladder's leader sits at 0.985),
    // and whose children's whole history the venue serves at a 30-minute fidelity (a long one it refuses).
    const servesHalfHours = async (r: MarketRow) => {
      for (const o of r.outcomes) {
        const url = `${s.sim.venuep.urls.clob}/prices-history?market=${o.token_id}&interval=max&fidelity=30`
        if ((await fetch(url)).status !== 200) return false
      }
      return true
    }
    let row: MarketRow | undefined
    for (const r of await groups('active'))
      if (r.outcomes.length >= 2 && (leaderOf(r).probability ?? 1) < 0.95 && (await servesHalfHours(r))) {
        row = r
        break
      }
    assert.ok(row !== undefined, 'the test world has such a group')
    const leader = leaderOf(row)
    const other = row.outcomes.find((o) => o.token_id !== leader.token_id)!
    const path = `/api/v2/venuep/candlesticks?market_slug=${row.market_slug}&fidelity=30`
    assert.equal((await pok<Candles>(h, 'getVenuepCandlesticks', path)).token_id, leader.token_id)
    const real = s.app.venues.venuep.quote(other.token_id)!
    overrides.set(other.token_id, { ...real, bestBid: 0.98, bestAsk: 0.99, probability: 0.985 })
    try {
      const moved = await pok<Candles>(h, 'getVenuepCandlesticks', path)
      const history = (
        (await (
          await fetch(`${s.sim.venuep.urls.clob}/prices-history?market=${other.token_id}&interval=max&fidelity=30`)
        ).json()) as { history: { t: number; p: number }[] }
      ).history
      assert.deepEqual(moved, { ...candlesOf(other, row.market_slug, history), fidelity_minutes: 30 })
      const book = await pok<Book>(
        h,
        'getVenuepOrderbook',
        `/api/v2/venuep/orderbook-history?market_slug=${row.market_slug}`,
      )
      assert.deepEqual(
        [book.market_slug, book.token_id, book.resolved_from],
        [other.market_slug, other.token_id, row.market_slug],
      )
    } finally {
      overrides.clear()
    }
    assert.equal(
      (await pok<Candles>(h, 'getVenuepCandlesticks', path)).token_id,
      leader.token_id,
      'back to the first leader',
    )
  })
})

describe('event slugs where a list is meant, and aliases', () => {
  test('orders: an event slug lists the trades of every market of the event, merged by time', async () => {
    const row = (await groups('active'))[0]!
    const cids = [...new Set(row.outcomes.map((o) => o.condition_id))].sort()
    const page = await pok<Orders>(
      h,
      'listVenuepOrders',
      `/api/v2/venuep/orders?market_slug=${row.market_slug}&limit=500`,
    )
    const venue = (await (
      await fetch(`${s.sim.venuep.urls.data}/trades?market=${cids.join(',')}&limit=500`)
    ).json()) as { transactionHash: string }[]
    assert.deepEqual(
      { ...page, data: page.data.map((r) => r.transaction_hash) },
      {
        market_slug: row.market_slug,
        resolved_from: row.market_slug,
        condition_ids: cids,
        data: venue.map((r) => r.transactionHash),
        count: venue.length,
        limit: 500,
        next_cursor: null,
      },
    )
    const child = await pok<Orders>(
      h,
      'listVenuepOrders',
      `/api/v2/venuep/orders?market_slug=${row.outcomes[0]!.market_slug}&limit=5`,
    )
    assert.deepEqual(
      [child.market_slug, child.resolved_from, child.condition_ids],
      [row.outcomes[0]!.market_slug, null, [row.outcomes[0]!.condition_id]],
    )
  })

  test("an alias (the linked venuek event's slug) resolves like the venuep slug on every endpoint that takes market_slug", async () => {
    const { row, alias } = await aliasedGroup()
    const same = async <T extends Record<string, unknown>>(
      op: string,
      path: string,
      call: (h: ProxyHarness, op: string, p: string) => Promise<T>,
      resolvedFromSlug: string | null,
    ) => {
      const byAlias = await call(h, op, path.replace('SLUG', alias))
      const bySlug = await call(h, op, path.replace('SLUG', row.market_slug))
      assert.equal(bySlug.resolved_from, resolvedFromSlug, `${op} by the venuep slug`)
      assert.deepEqual(byAlias, { ...bySlug, resolved_from: alias }, op)
    }
    await same('getVenuepOrderbook', '/api/v2/venuep/orderbook-history?market_slug=SLUG', pok<Book>, row.market_slug)
    await same(
      'getVenuepCandlesticks',
      '/api/v2/venuep/candlesticks?market_slug=SLUG&fidelity=1440',
      pok<Candles>,
      row.market_slug,
    )
    await same('listVenuepOrders', '/api/v2/venuep/orders?market_slug=SLUG&limit=20', pok<Orders>, row.market_slug)
    // market-price is about the market record, which for this event lists every child's YES outcome.
    const viaApp = (_h: ProxyHarness, op: string, p: string) => ok<Record<string, unknown>>(s, op, p)
    await same('getVenuepMarketPrice', '/api/v2/venuep/market-price?market_slug=SLUG', viaApp, null)
    const price = await ok<{ market_slug: string; outcomes: { token_id: string }[] }>(
      s,
      'getVenuepMarketPrice',
      `/api/v2/venuep/market-price?market_slug=${alias}`,
    )
    assert.deepEqual(
      [price.market_slug, price.outcomes.map((o) => o.token_id)],
      [row.market_slug, row.outcomes.map((o) => o.token_id)],
    )
  })
})
