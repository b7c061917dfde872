import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { isoNoZone } from '../../src/core/time.js'
import type { VkCapturedEvent } from '../../src/sim/venuek/capture-schema.js'
import type { VpCapturedEvent, VpCapturedMarket } from '../../src/sim/venuep/capture-schema.js'
import { readCapturedCatalogs } from '../../src/sim/world/capture-files.js'
import { ok } from '../helpers/api.js'
import { REAL_CATALOG_DIR } from '../helpers/fixtures.js'
import { settle, waitFor } from '../helpers/wait.js'
import { booksOutOfSync, startTestService, TEST_ANCHOR_MS, type TestService } from '../helpers/service.js'
import { venuepOf } from '../../src/sim/venuep/state.js'

/**
 * The whole service against the simulator replaying the real captured catalogs of both venues
 * (test/fixtures/real-venues): every real event reaches the API under its real id and title, the streamed books
 * sync, and the prices at the start are the captured ones.
 */
const captured = readCapturedCatalogs(REAL_CATALOG_DIR)
// Long enough that the oldest captured close (2021) is inside both adapters' closed-event lookback, so the closed
// and settled events are listed too.
const LOOKBACK_DAYS = Math.ceil((TEST_ANCHOR_MS - Date.UTC(2020, 0, 1)) / 86_400_000)

let s: TestService

before(async () => {
  s = await startTestService({
    catalog: REAL_CATALOG_DIR,
    wallets: 20,
    config: {
      venues: {
        venuep: { catalog: { closedLookbackDays: LOOKBACK_DAYS } },
        venuek: { catalog: { closedLookbackDays: LOOKBACK_DAYS } },
      },
    },
  })
})

after(async () => {
  await s?.close()
})

interface EventRow {
  readonly event_id: string
  readonly title: string
}

async function allEvents(operationId: string, path: string): Promise<EventRow[]> {
  const rows: EventRow[] = []
  for (let offset = 0; ; offset += 100) {
    const body = await ok<{ events: EventRow[]; total: number }>(
      s,
      operationId,
      `${path}?status=all&limit=100&offset=${offset}`,
    )
    rows.push(...body.events)
    if (offset + 100 >= body.total) return rows
  }
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

describe('the service on the replayed real catalogs', () => {
  test('/readyz: 200, ready, and the data is labelled a simulated replay of the captured catalogs', async () => {
    const res = await fetch(`${s.baseUrl}/readyz`)
    const body = (await res.json()) as Record<string, unknown>
    assert.equal(res.status, 200)
    assert.equal(body.status, 'ready')
    assert.equal(body.data_source, 'simulated')
    assert.equal(body.simulated, true)
    assert.equal(
      body.description,
      `replay of real venue catalogs from ${REAL_CATALOG_DIR} (210 venuep events, 219 venuek events; simulated books and trades)`,
    )
  })

  test('every captured venuep event is listed under its real slug and title', async () => {
    const rows = await allEvents('listVenuepEvents', '/api/v2/venuep/events')
    const got = rows.map((r) => ({ id: r.event_id, title: r.title })).sort(byId)
    // The service trims the stray spaces some real titles carry ("NBA MVP ").
    const want = captured.venuep.map((e: VpCapturedEvent) => ({ id: e.slug, title: e.title.trim() })).sort(byId)
    assert.equal(want.length, 210)
    assert.deepEqual(got, want)
  })

  test('every captured venuek event is listed under its real ticker and title (closed and settled ones too)', async () => {
    const rows = await allEvents('listVenuekEvents', '/api/v2/venuek/events')
    const got = rows.map((r) => ({ id: r.event_id, title: r.title })).sort(byId)
    const want = captured.venuek.map((e: VkCapturedEvent) => ({ id: e.event_ticker, title: e.title.trim() })).sort(byId)
    assert.equal(want.length, 219)
    assert.deepEqual(got, want)
  })

  test("every streamed book is in sync with the simulator's", () => {
    assert.deepEqual(booksOutOfSync(s, 'venuep'), [])
    assert.deepEqual(booksOutOfSync(s, 'venuek'), [])
    const vp = s.app.venues.venuep.catalog()
    const vk = s.app.venues.venuek.catalog()
    assert.ok(vp !== undefined && vk !== undefined)
  })

  test('at the start every quote is the captured top of book (venuep bestBid/bestAsk, venuek yes_bid/yes_ask; 0 is no quote)', () => {
    let compared = 0
    for (const e of captured.venuep) {
      for (const m of e.markets) {
        if (m.closed) continue
        const quote = s.app.venues.venuep.quote(m.clobTokenIds[0] as string)
        assert.ok(quote !== undefined, `${m.slug}: a streamed quote`)
        assert.deepEqual(
          { bid: quote.bestBid, ask: quote.bestAsk },
          { bid: quoted(m.bestBid) ?? derivedBid(m), ask: quoted(m.bestAsk) },
          m.slug,
        )
        compared++
      }
    }
    for (const e of captured.venuek) {
      for (const m of e.markets) {
        if (m.status !== 'active') continue
        const quote = s.app.venues.venuek.quote(m.ticker)
        assert.ok(quote !== undefined, `${m.ticker}: a streamed quote`)
        const bid = quoted(m.yes_bid)
        const ask = quoted(m.yes_ask)
        // A one-sided capture with a last price gets its other side mirrored around that price (replay-book.ts).
        if (bid !== undefined && ask !== undefined)
          assert.deepEqual({ bid: quote.bestBid, ask: quote.bestAsk }, { bid, ask }, m.ticker)
        else if (bid !== undefined) assert.equal(quote.bestBid, bid, m.ticker)
        else if (ask !== undefined) assert.equal(quote.bestAsk, ask, m.ticker)
        compared++
      }
    }
    assert.ok(compared > 2_000, `${compared} open markets compared`)
  })

  test("a venuep market's order book through /api/v2/venuep/orderbook-history is the simulator's, from the live stream", async () => {
    const m = captured.venuep
      .flatMap((e) => (e.markets.length === 1 ? e.markets : []))
      .find((x) => !x.closed && x.active && x.bestBid !== undefined && x.bestBid > 0)
    assert.ok(m !== undefined)
    const token = m.clobTokenIds[0] as string
    const venue = (await (await fetch(`${s.sim.venuep.urls.clob}/book?token_id=${token}`)).json()) as {
      bids: { price: string; size: string }[]
      asks: { price: string; size: string }[]
    }
    const body = await ok(s, 'getVenuepOrderbook', `/api/v2/venuep/orderbook-history?market_slug=${m.slug}`)
    assert.deepEqual(body, {
      market_slug: m.slug,
      resolved_from: null,
      token_id: token,
      condition_id: m.conditionId,
      outcome_index: 0,
      source: 'live',
      book_time: isoNoZone(s.clock.now()),
      // The venue sends bids ascending and asks descending (best last); the API sends best first.
      bids: [...venue.bids].reverse(),
      asks: [...venue.asks].reverse(),
    })
    assert.equal(Number(body.bids[0].price), m.bestBid)
    assert.equal(Number(body.asks[0].price), m.bestAsk)
  })

  test('after the engine runs, books and quotes move and stay in sync; closed markets keep their captured state', async () => {
    for (let t = 0; t < 5_000; t += 250) {
      s.advance(250)
      await settle(5)
    }
    await waitFor(
      () => booksOutOfSync(s, 'venuep').length === 0 && booksOutOfSync(s, 'venuek').length === 0,
      10_000,
      'books in sync',
    ).catch(() => {
      assert.deepEqual(
        [...booksOutOfSync(s, 'venuep'), ...booksOutOfSync(s, 'venuek')].slice(0, 5),
        [],
        "books differ from the simulator's",
      )
    })
    assert.ok(s.sim.engine.counters.bookChanges > 0)
    const closed = captured.venuep.flatMap((e) => e.markets).filter((m) => m.closed)
    assert.ok(closed.length > 0)
    for (const m of closed) assert.equal(venuepOf(s.sim.world).books.has(m.conditionId), false, `${m.slug} has no book`)
    // Open markets that were not trading when captured (listed inactive, or without a price) keep their seeded book.
    const still = captured.venuep.flatMap((e) => e.markets).filter((m) => !m.closed && !m.active)
    assert.ok(still.length > 0)
    for (const m of still)
      assert.equal(venuepOf(s.sim.world).books.get(m.conditionId)?.updatedAt, TEST_ANCHOR_MS, `${m.slug} did not move`)
    const moved = captured.venuep
      .flatMap((e) => e.markets)
      .filter((m) => (venuepOf(s.sim.world).books.get(m.conditionId)?.updatedAt ?? 0) > TEST_ANCHOR_MS)
    assert.ok(moved.length > 0 && moved.every((m) => m.active && !m.closed), 'only trading markets move')
  })
})

function quoted(p: number | undefined): number | undefined {
  return p !== undefined && p > 0 && p < 1 ? p : undefined
}

/** The bid a capture without one gets: the ask mirrored around the captured price, when that is inside (0, 1). */
function derivedBid(m: VpCapturedMarket): number | undefined {
  const ask = quoted(m.bestAsk)
  const yes = m.outcomePrices?.[0] === undefined ? undefined : quoted(Number(m.outcomePrices[0]))
  const price = yes ?? quoted(m.lastTradePrice)
  if (ask === undefined || price === undefined) return undefined
  const bid = Math.round((2 * price - ask) * 1e6) / 1e6
  return bid > 0 && bid < ask ? bid : undefined
}
