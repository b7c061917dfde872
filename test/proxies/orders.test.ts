import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { VpActivity } from '../../src/sim/venuep/ledger.js'
import type { VpMarket } from '../../src/sim/venuep/types.js'
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
import { venuepOf } from '../../src/sim/venuep/state.js'

/** GET /api/v2/venuep/orders: a market's trades, keyset cursors stable under new and late trades, to the end. */
type Row = {
  transaction_hash: string
  timestamp: number
  side: string
  price: number
  size: number
  usdc_size: number
  condition_id: string
  token_id: string
  market_slug: string
  wallet_address: string
}
type Page = {
  market_slug: string
  condition_ids: string[]
  data: Row[]
  count: number
  limit: number
  next_cursor: string | null
}

let s: TestService
let h: ProxyHarness

before(async () => {
  s = await startTestService({ questions: 100, wallets: 60 })
  h = await mountProxies(s)
  // Live trades in one market, several of them within one second (same millisecond), so pages cut through
  // seconds with more than one row.
  const m = busiestMarket().market
  for (let i = 0; i < 60; i++) {
    if (i % 3 === 0) s.clock.increment(1_000)
    s.sim.engine.trade('venuep', m, s.clock.now())
  }
})

after(async () => {
  await h?.close()
  await s?.close()
})

const OP = 'listVenuepOrders'

/** The venue's complete list for these condition ids, newest first (straight from the simulator). */
async function venueTrades(conditionIds: readonly string[]): Promise<string[]> {
  const rows = (await (
    await fetch(`${s.sim.venuep.urls.data}/trades?market=${conditionIds.join(',')}&limit=10000`)
  ).json()) as { transactionHash: string }[]
  return rows.map((r) => r.transactionHash)
}

async function walk(
  base: string,
  limit: number,
  between?: (page: Page, i: number) => void,
): Promise<{ rows: Row[]; pages: number }> {
  const rows: Row[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const page: Page = await pok<Page>(
      h,
      OP,
      `${base}&limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    )
    assert.equal(page.count, page.data.length)
    assert.ok(page.data.length <= limit)
    rows.push(...page.data)
    cursor = page.next_cursor
    between?.(page, pages)
    pages++
    assert.ok(pages < 1_000, 'the walk ends')
  } while (cursor !== null)
  return { rows, pages }
}

/** The single market with the most trades in the simulated world. */
function busiestMarket(): { slug: string; conditionId: string; market: VpMarket } {
  const candidates = singleMarkets(s, 'active').map((m) => ({
    slug: m.marketId,
    conditionId: m.outcomes[0]!.conditionId!,
  }))
  const count = (cid: string) => venuepOf(s.sim.world).activity.tradesOf(cid).length
  const best = candidates.sort((a, b) => count(b.conditionId) - count(a.conditionId))[0]!
  return { ...best, market: venuepOf(s.sim.world).marketsByCondition.get(best.conditionId)! }
}

function syntheticTrade(market: VpMarket, tsMs: number, tag: string): VpActivity {
  return {
    ts: tsMs,
    wallet: `0x${'ab'.repeat(19)}${tag}`,
    type: 'TRADE',
    market,
    size: 3,
    usdcSize: 1.5,
    price: 0.5,
    side: 'BUY',
    tokenIndex: 0,
    txHash: `0x${tag.repeat(32)}`,
  }
}

describe('GET /api/v2/venuep/orders', () => {
  test("pages walk the whole history in the venue's order: no gaps, no duplicates, a defined end", async () => {
    const m = busiestMarket()
    const expected = await venueTrades([m.conditionId])
    assert.ok(expected.length >= 20, `enough trades to page (${expected.length})`)
    const { rows, pages } = await walk(`/api/v2/venuep/orders?market_slug=${m.slug}`, 7)
    assert.deepEqual(
      rows.map((r) => r.transaction_hash),
      expected,
    )
    assert.equal(pages, Math.ceil(expected.length / 7) + (expected.length % 7 === 0 ? 1 : 0))
    const r = rows[0]!
    assert.equal(r.condition_id, m.conditionId)
    assert.equal(r.market_slug, m.slug)
    assert.ok(r.token_id === m.market.tokenIds[0] || r.token_id === m.market.tokenIds[1])
    assert.equal(r.usdc_size, Math.round(r.size * r.price * 1e6) / 1e6)
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1]!.timestamp >= rows[i]!.timestamp, 'newest first')
    const one = await pok<Page>(h, OP, `/api/v2/venuep/orders?market_slug=${m.slug}&limit=500`)
    assert.equal(one.next_cursor, null, 'a page holding the rest ends the data')
    assert.equal(one.data.length, expected.length)
  })

  test('stable while trades arrive: new trades at the head and a late trade inside the walked range', async () => {
    const m = busiestMarket()
    const before = await venueTrades([m.conditionId])
    let late: VpActivity | undefined
    const { rows } = await walk(`/api/v2/venuep/orders?condition_id=${m.conditionId}`, 5, (page, i) => {
      if (i === 0) {
        // Trades at the head: later than anything walked, they belong to the next read of the head.
        for (let k = 0; k < 4; k++) {
          s.clock.increment(1_000)
          s.sim.engine.trade('venuep', m.market, s.clock.now())
        }
      }
      if (i === 1) {
        // A row the venue indexes late, in the very second the next page is anchored on.
        const anchorSec = page.data.at(-1)!.timestamp
        late = syntheticTrade(m.market, anchorSec * 1000 + 999, 'c1')
        venuepOf(s.sim.world).activity.add(late, false)
      }
    })
    const hashes = rows.map((r) => r.transaction_hash)
    assert.equal(new Set(hashes).size, hashes.length, 'no duplicates')
    assert.ok(late !== undefined)
    assert.deepEqual(
      hashes.filter((x) => x !== late!.txHash),
      before,
      'exactly the history as of the first page, plus the late row',
    )
    assert.equal(hashes.filter((x) => x === late!.txHash).length, 1, 'the late row is served once')
    const head = await venueTrades([m.conditionId])
    assert.ok(head.length >= before.length + 1, 'the venue did get new trades meanwhile')
  })

  test('an event slug with several markets lists all their trades; condition_id overrides market_slug', async () => {
    const group = groupMarkets(s).sort((a, b) => b.outcomes.length - a.outcomes.length)[0]!
    const cids = [...new Set(group.outcomes.map((o) => o.conditionId!))].sort()
    const page = await pok<Page>(h, OP, `/api/v2/venuep/orders?market_slug=${group.marketId}&limit=500`)
    assert.equal(page.market_slug, group.marketId)
    assert.deepEqual(page.condition_ids, cids)
    assert.deepEqual(
      page.data.map((r) => r.transaction_hash),
      await venueTrades(cids),
    )
    const child = group.outcomes[0]!
    const one = await pok<Page>(
      h,
      OP,
      `/api/v2/venuep/orders?market_slug=${group.marketId}&condition_id=${child.conditionId}&limit=500`,
    )
    assert.deepEqual(one.condition_ids, [child.conditionId])
    assert.equal(one.market_slug, child.childMarketSlug)
    assert.ok(one.data.every((r) => r.condition_id === child.conditionId))
  })

  test('cursors are opaque and bound to their filters; unknown markets are 404', async () => {
    const [a, b] = singleMarkets(s, 'active')
    const first = await pok<Page>(h, OP, `/api/v2/venuep/orders?market_slug=${a!.marketId}&limit=1`)
    assert.ok(first.next_cursor !== null)
    const cursor = encodeURIComponent(first.next_cursor)
    await pinvalid(h, OP, `/api/v2/venuep/orders?market_slug=${b!.marketId}&cursor=${cursor}`, [['query', 'cursor']])
    await pinvalid(h, OP, `/api/v2/venuep/orders?market_slug=${a!.marketId}&cursor=not-a-cursor`, [['query', 'cursor']])
    // The same market named by its condition id is the same filter: the cursor stays valid.
    await pok<Page>(h, OP, `/api/v2/venuep/orders?condition_id=${a!.outcomes[0]!.conditionId}&limit=3&cursor=${cursor}`)
    await pinvalid(h, OP, '/api/v2/venuep/orders', [['query', 'market_slug']])
    await pinvalid(h, OP, '/api/v2/venuep/orders?market_slug=x&limit=501', [['query', 'limit']])
    await pinvalid(h, OP, '/api/v2/venuep/orders?market_slug=x&limit=0', [['query', 'limit']])
    for (const q of ['market_slug=no-such-market', `condition_id=0x${'0'.repeat(64)}`]) {
      const r = await pcall(h, OP, `/api/v2/venuep/orders?${q}`)
      assert.deepEqual([r.status, r.body.code], [404, 'not_found'], q)
    }
  })

  test('defaults: 50 rows; the newest page is cached for 2 s', async () => {
    const m = busiestMarket()
    const c0 = served(s, 'data', '/trades')
    const page = await pok<Page>(h, OP, `/api/v2/venuep/orders?market_slug=${m.slug}`)
    assert.equal(page.limit, 50)
    assert.ok(page.data.length <= 50)
    await pok<Page>(h, OP, `/api/v2/venuep/orders?market_slug=${m.slug}`)
    assert.equal(served(s, 'data', '/trades'), c0 + 1)
    s.clock.increment(2_001)
    await pok<Page>(h, OP, `/api/v2/venuep/orders?market_slug=${m.slug}`)
    assert.equal(served(s, 'data', '/trades'), c0 + 2)
  })
})
