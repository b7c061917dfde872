import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { startTestService, type TestService } from '../helpers/service.js'
import { waitFor } from '../helpers/wait.js'
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

/** GET /api/v2/venuep/orderbook-history: live books from memory, the venue's book as fallback, identifiers. */
type Level = { price: string; size: string }
type Book = {
  market_slug: string
  token_id: string
  condition_id: string
  outcome_index: number
  source: string
  book_time: string | null
  bids: Level[]
  asks: Level[]
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

const OP = 'getVenuepOrderbook'
const num = (l: Level) => Number(l.price)

function assertSorted(book: Book): void {
  for (let i = 1; i < book.bids.length; i++)
    assert.ok(num(book.bids[i - 1]!) > num(book.bids[i]!), 'bids strictly descending')
  for (let i = 1; i < book.asks.length; i++)
    assert.ok(num(book.asks[i - 1]!) < num(book.asks[i]!), 'asks strictly ascending')
  for (const l of [...book.bids, ...book.asks]) {
    assert.match(l.price, /^\d+(\.\d+)?$/)
    assert.match(l.size, /^\d+(\.\d+)?$/)
  }
  if (book.bids.length > 0 && book.asks.length > 0) assert.ok(num(book.bids[0]!) < num(book.asks[0]!), 'not crossed')
}

/** The venue's own book (bids ascending, asks descending), re-sorted best first, as decimal strings. */
async function venueBook(tokenId: string): Promise<{ bids: Level[]; asks: Level[] }> {
  const raw = (await (await fetch(`${s.sim.venuep.urls.clob}/book?token_id=${tokenId}`)).json()) as {
    bids: Level[]
    asks: Level[]
  }
  const norm = (l: Level): Level => ({ price: String(Number(l.price)), size: String(Number(l.size)) })
  return {
    bids: raw.bids.map(norm).sort((a, b) => num(b) - num(a)),
    asks: raw.asks.map(norm).sort((a, b) => num(a) - num(b)),
  }
}

describe('GET /api/v2/venuep/orderbook-history', () => {
  test('a streamed token: the live book from memory, no venue call, same levels as the venue', async () => {
    const m = singleMarkets(s, 'active')[0]!
    const before = served(s, 'clob', '/book')
    const book = await pok<Book>(h, OP, `/api/v2/venuep/orderbook-history?market_slug=${m.marketId}`)
    assert.equal(served(s, 'clob', '/book'), before, 'no venue call for a live book')
    assert.equal(book.source, 'live')
    assert.equal(book.market_slug, m.marketId)
    assert.equal(book.token_id, m.outcomes[0]!.instrumentId)
    assert.equal(book.condition_id, m.outcomes[0]!.conditionId)
    assert.equal(book.outcome_index, 0)
    assert.equal(book.book_time, new Date(s.clock.now()).toISOString().slice(0, -1))
    assert.ok(book.bids.length > 0 && book.asks.length > 0)
    assertSorted(book)
    assert.deepEqual(
      { bids: book.bids, asks: book.asks },
      await venueBook(book.token_id),
      "the live book equals the venue's",
    )
  })

  test('outcome_index 1 is the second token; token_id overrides market_slug and outcome_index', async () => {
    const [m, other] = singleMarkets(s, 'active')
    const no = await pok<Book>(h, OP, `/api/v2/venuep/orderbook-history?market_slug=${m!.marketId}&outcome_index=1`)
    assert.equal(no.token_id, m!.outcomes[1]!.instrumentId)
    assert.equal(no.outcome_index, 1)
    assertSorted(no)
    const yes = await pok<Book>(h, OP, `/api/v2/venuep/orderbook-history?market_slug=${m!.marketId}`)
    // The second token's book mirrors the first: its best bid is 1 − the first token's best ask.
    assert.equal(Math.round((1 - num(yes.asks[0]!)) * 1e6), Math.round(num(no.bids[0]!) * 1e6))
    const byToken = await pok<Book>(
      h,
      OP,
      `/api/v2/venuep/orderbook-history?market_slug=${other!.marketId}&outcome_index=0&token_id=${m!.outcomes[1]!.instrumentId}`,
    )
    assert.equal(byToken.token_id, m!.outcomes[1]!.instrumentId)
    assert.equal(byToken.market_slug, m!.marketId)
    assert.equal(byToken.outcome_index, 1)
  })

  test("a token we do not stream (a group child's NO token): the venue's book, re-sorted, cached 1 s", async () => {
    const group = groupMarkets(s, 'active')[0]!
    const child = group.outcomes[0]!
    const before = served(s, 'clob', '/book')
    const book = await pok<Book>(
      h,
      OP,
      `/api/v2/venuep/orderbook-history?market_slug=${child.childMarketSlug}&outcome_index=1`,
    )
    assert.equal(book.source, 'venue')
    assert.equal(book.token_id, child.complementInstrumentId)
    assert.equal(book.market_slug, child.childMarketSlug)
    assert.ok(book.book_time !== null)
    assertSorted(book)
    assert.deepEqual({ bids: book.bids, asks: book.asks }, await venueBook(book.token_id))
    assert.equal(served(s, 'clob', '/book'), before + 2, 'one call for us, one for the comparison')
    await pok<Book>(h, OP, `/api/v2/venuep/orderbook-history?token_id=${book.token_id}`)
    assert.equal(served(s, 'clob', '/book'), before + 2, 'served from the cache within 1 s')
    s.clock.increment(1_001)
    await pok<Book>(h, OP, `/api/v2/venuep/orderbook-history?token_id=${book.token_id}`)
    assert.equal(served(s, 'clob', '/book'), before + 3, 'refetched after the TTL')
  })

  test('identifiers and errors: 422 for missing ids, bad outcome_index, bad token; 404 unknown or closed (event slugs: event-slugs.test.ts)', async () => {
    await pinvalid(h, OP, '/api/v2/venuep/orderbook-history', [['query', 'market_slug']])
    await pinvalid(h, OP, '/api/v2/venuep/orderbook-history?market_slug=x&outcome_index=2', [
      ['query', 'outcome_index'],
    ])
    await pinvalid(h, OP, '/api/v2/venuep/orderbook-history?token_id=0xabc', [['query', 'token_id']])
    for (const q of ['market_slug=no-such-market', 'token_id=123456789']) {
      const r = await pcall(h, OP, `/api/v2/venuep/orderbook-history?${q}`)
      assert.deepEqual([r.status, r.body.code], [404, 'not_found'], q)
    }
    const closed = singleMarkets(s).find((m) => m.status !== 'active')
    assert.ok(closed !== undefined, 'the test world has a closed market')
    const r = await pcall(h, OP, `/api/v2/venuep/orderbook-history?market_slug=${closed.marketId}`)
    assert.deepEqual([r.status, r.body.code], [404, 'not_found'], 'a closed market has no book at the venue')
  })

  test('not public: every proxied route needs an API key', async () => {
    assert.ok(h.routes.every((r) => r.public !== true))
    const w = `0x${'1'.repeat(40)}`
    for (const path of [
      '/api/v2/venuep/orderbook-history?token_id=1',
      '/api/v2/venuep/orders?market_slug=x',
      `/api/v2/venuep/activity?wallet_address=${w}`,
      '/api/v2/venuep/candlesticks?token_id=1',
      `/api/v2/venuep/positions/wallet/${w}`,
      `/api/v2/venuep/wallet/${w}`,
      `/api/v2/venuep/wallet/${w}/pnl`,
    ]) {
      const res = await fetch(`${h.baseUrl}${path}`)
      assert.equal(res.status, 401, path)
      assert.equal(((await res.json()) as { code: string }).code, 'unauthorized')
    }
  })

  test("a stale live book (feed dropped) is not served: the venue's book is, until the feed resyncs", async () => {
    const m = singleMarkets(s, 'active')[1]!
    const token = m.outcomes[0]!.instrumentId
    s.sim.venuep.faults.dropSockets()
    await waitFor(() => s.app.venues.venuep.quote(token)?.stale === true, 5_000, 'quotes marked stale')
    const book = await pok<Book>(h, OP, `/api/v2/venuep/orderbook-history?token_id=${token}`)
    assert.equal(book.source, 'venue')
    assertSorted(book)
    // Reconnect (backoff runs on the simulated clock) and resync.
    for (let i = 0; i < 200 && s.app.venues.venuep.quote(token)?.stale !== false; i++) {
      s.clock.increment(100)
      await new Promise((r) => setTimeout(r, 10))
    }
    await waitFor(() => s.app.venues.venuep.quote(token)?.stale === false, 5_000, 'feed resynced')
    assert.equal((await pok<Book>(h, OP, `/api/v2/venuep/orderbook-history?token_id=${token}`)).source, 'live')
  })
})
