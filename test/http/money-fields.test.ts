import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { AnyRoute } from '../../src/http/route.js'
import { outcomePrice } from '../../src/views/outcome-price.js'
import { assertMatchesResponseSchema } from '../helpers/contract.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { venuepOf } from '../../src/sim/venuep/state.js'

/**
 * Money and volume fields are printed in cents on every list and record endpoint (one rule: src/core/money.ts),
 * while prices and probabilities keep their tick precision. Each endpoint is read against the simulator and
 * checked twice: walking the parsed JSON, and scanning the raw text as a client's parser would see it.
 */
let s: TestService

before(async () => {
  s = await startTestService({ questions: 120, wallets: 20 })
  // Trades move outcome volumes and books off round numbers.
  s.advance(20_000, 100)
  await new Promise((r) => setTimeout(r, 200))
  // The jump left the feeds silent past their threshold: let them reconnect and resync, since /spreads/top lists
  // fresh spreads only.
  const stale = () => Object.values(s.app.venues).some((v) => [...v.quotes()].some((q) => q.stale))
  for (let i = 0; i < 100 && stale(); i++) {
    s.clock.increment(100)
    await new Promise((r) => setTimeout(r, 20))
  }
  assert.ok(!stale(), 'the feeds resynced after the jump')
})

after(async () => {
  await s?.close()
})

/** Money fields of the market-data records (markets, events, prices, collapsed rows, spreads). */
const DATA_MONEY = [
  'volume_total',
  'volume_24h',
  'liquidity',
  'open_interest',
  'volume',
  'volume_min',
  'cost_dollars',
  'profit_dollars',
]
/** Price fields: probabilities and book prices, never rounded to cents. */
const PRICE_KEYS = new Set([
  'probability',
  'best_bid',
  'best_ask',
  'spread',
  'price_a',
  'price_b',
  'buy_price',
  'sell_price',
  'edge',
  'net_edge',
])

interface Raw {
  readonly text: string
  readonly body: unknown
}

async function get(operationId: string, pathAndQuery: string): Promise<Raw> {
  const route = s.app.routes.find((r: AnyRoute) => r.operationId === operationId)
  assert.ok(route !== undefined, operationId)
  const res = await fetch(`${s.baseUrl}${pathAndQuery}`, { headers: s.authHeaders })
  const text = await res.text()
  assert.equal(res.status, 200, `${pathAndQuery}: ${text.slice(0, 300)}`)
  const body = JSON.parse(text) as unknown
  assertMatchesResponseSchema(route, res.status, body)
  return { text, body }
}

/** Decimal places of a number as JSON prints it: "1.25" 2, "3" 0, "1.5e-7" 8. */
function decimalsOf(printed: string): number {
  const m = /^-?\d+(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(printed)
  assert.ok(m !== null, `a JSON number: ${printed}`)
  return Math.max(0, (m[1]?.length ?? 0) - Number(m[2] ?? 0))
}

interface Seen {
  money: number
  prices: number[]
}

/** Walks the JSON: every number under a money key has at most 2 decimals; collects the prices. */
function walk(value: unknown, moneyKeys: ReadonlySet<string>, where: string, seen: Seen): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, moneyKeys, `${where}[${i}]`, seen))
    return
  }
  if (value === null || typeof value !== 'object') return
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'number') {
      if (moneyKeys.has(k)) {
        seen.money++
        assert.ok(decimalsOf(JSON.stringify(v)) <= 2, `${where}.${k} = ${v}`)
      } else if (PRICE_KEYS.has(k)) {
        seen.prices.push(v)
      }
    } else {
      walk(v, moneyKeys, `${where}.${k}`, seen)
    }
  }
}

/** The raw text: every `"key":number` of a money key has at most 2 decimals as sent. */
function scanText(text: string, moneyKeys: ReadonlySet<string>, where: string): number {
  let n = 0
  for (const m of text.matchAll(/"([a-z_0-9]+)":(-?\d[\d.eE+-]*)/g)) {
    if (!moneyKeys.has(m[1] as string)) continue
    n++
    assert.ok(decimalsOf(m[2] as string) <= 2, `${where}: "${m[1]}":${m[2]}`)
  }
  return n
}

/** Every page of a list endpoint (pages of 100). */
async function pages(operationId: string, base: string, key: string): Promise<Raw[]> {
  const out: Raw[] = []
  for (let offset = 0; ; offset += 100) {
    const r = await get(operationId, `${base}${base.includes('?') ? '&' : '?'}limit=100&offset=${offset}`)
    out.push(r)
    const body = r.body as Record<string, unknown>
    if (offset + (body[key] as unknown[]).length >= (body.total as number)) return out
  }
}

describe('money and volume fields are cents on every list endpoint; prices keep their precision', () => {
  test('the simulated catalog has sub-cent and float-noise volumes to round (the test means something)', () => {
    const noisy = [...s.app.venues.venuep.catalog()!.marketsById.values()].filter(
      (m) => m.volume24h !== undefined && decimalsOf(JSON.stringify(m.volume24h)) > 2,
    )
    assert.ok(noisy.length > 0, 'some venuep 24h volume has more than 2 decimals before serialization')
  })

  test('every market-data list and record endpoint', async () => {
    const reads: [string, Raw[]][] = [
      ['venuep/markets', await pages('listVenuepMarkets', '/api/v2/venuep/markets?status=all', 'markets')],
      ['venuep/events', await pages('listVenuepEvents', '/api/v2/venuep/events?status=all', 'events')],
      ['venuep/prices', [await get('listVenuepPrices', '/api/v2/venuep/prices?limit=100')]],
      ['venuek/markets', await pages('listVenuekMarkets', '/api/v2/venuek/markets?status=all', 'markets')],
      ['venuek/events', await pages('listVenuekEvents', '/api/v2/venuek/events?status=all', 'events')],
      ['venuek/prices', await pages('listVenuekPrices', '/api/v2/venuek/prices?status=all', 'prices')],
      ['events', await pages('listEvents', '/api/v2/events?status=all', 'events')],
      ['sitemap/events', [await get('listSitemapEvents', '/api/v2/sitemap/events')]],
      ['spreads', [await get('listSpreads', '/api/v2/spreads?min_spread=0&min_volume=0')]],
      ['spreads/top', [await get('topSpreads', '/api/v2/spreads/top?limit=200&window=720')]],
    ]
    const slugs = reads
      .find(([n]) => n === 'events')![1]
      .flatMap((r) => (r.body as { events: { event_slug: string }[] }).events)
      .map((e) => e.event_slug)
    assert.ok(slugs.length > 50)
    const details: Raw[] = []
    for (const slug of slugs) details.push(await get('getEvent', `/api/v2/events/${encodeURIComponent(slug)}`))
    reads.push(['events/{slug}', details])
    const marketSlug = (reads[0]![1][0]!.body as { markets: { market_slug: string }[] }).markets[0]!.market_slug
    reads.push([
      'venuep/market-price',
      [await get('getVenuepMarketPrice', `/api/v2/venuep/market-price?market_slug=${marketSlug}`)],
    ])

    const keys = new Set(DATA_MONEY)
    const seen: Seen = { money: 0, prices: [] }
    for (const [name, raws] of reads) {
      let inText = 0
      const before = seen.money
      for (const r of raws) {
        walk(r.body, keys, name, seen)
        inText += scanText(r.text, keys, name)
      }
      assert.equal(inText, seen.money - before, `${name}: the raw text and the parsed body show the same money fields`)
      if (name !== 'sitemap/events' && name !== 'venuep/market-price') assert.ok(inText > 0, `${name} has money fields`)
    }
    // Prices are not money: some carry the venue's 0.001 ticks or a midpoint of two cent ticks (0.025).
    assert.ok(
      seen.prices.some((p) => decimalsOf(JSON.stringify(p)) === 3),
      'prices keep sub-cent precision',
    )
  })

  test('price rows show the live quote exactly (no rounding of prices)', async () => {
    const { body } = await get('listVenuepPrices', '/api/v2/venuep/prices?limit=100')
    const rows = (
      body as {
        prices: {
          token_id: string
          probability: number | null
          best_bid: number | null
          best_ask: number | null
          spread: number | null
        }[]
      }
    ).prices
    const catalog = s.app.venues.venuep.catalog()!
    let live = 0
    for (const row of rows) {
      const quote = s.app.venues.venuep.quote(row.token_id)
      if (quote === undefined) continue
      live++
      const p = outcomePrice(catalog.outcomesById.get(row.token_id)!, quote)
      assert.deepEqual(
        [row.probability, row.best_bid, row.best_ask, row.spread],
        [p.probability ?? null, p.bestBid ?? null, p.bestAsk ?? null, p.spread ?? null],
        row.token_id,
      )
    }
    assert.ok(live > 10)
  })

  test('wallet, positions and pnl: the figures we compute are cents', async () => {
    const wallets = [...venuepOf(s.sim.world).ledger.wallets.keys()].slice(0, 6)
    assert.ok(wallets.length > 0)
    let checked = 0
    for (const w of wallets) {
      const reads: [string, Raw, readonly string[]][] = [
        ['wallet', await get('getVenuepWallet', `/api/v2/venuep/wallet/${w}`), ['volume']],
        ['pnl', await get('getVenuepWalletPnl', `/api/v2/venuep/wallet/${w}/pnl`), ['realized_pnl', 'volume']],
        // Position rows carry the venue's own figures as it sent them; the total is ours.
        ['positions', await get('getVenuepWalletPositions', `/api/v2/venuep/positions/wallet/${w}`), ['total_value']],
      ]
      for (const [name, r, moneyKeys] of reads) {
        const keys = new Set(moneyKeys)
        const seen: Seen = { money: 0, prices: [] }
        walk(
          name === 'positions' ? { total_value: (r.body as { total_value: number }).total_value } : r.body,
          keys,
          `${name} ${w}`,
          seen,
        )
        const inText =
          name === 'positions'
            ? scanText(r.text.replace(/"data":\[.*\],"count"/s, '"count"'), keys, name)
            : scanText(r.text, keys, name)
        assert.equal(inText, seen.money, `${name}: same fields in text and body`)
        checked += seen.money
      }
    }
    assert.ok(checked > wallets.length * 3)
  })
})
