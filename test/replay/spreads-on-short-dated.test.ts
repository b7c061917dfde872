import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { ok } from '../helpers/api.js'
import { fixtureJson, SHORT_DATED_DIR } from '../helpers/fixtures.js'
import { startTestService, TEST_ANCHOR_MS, type TestService } from '../helpers/service.js'

/**
 * The service on a real week of short-dated series (test/fixtures/real-venues/short-dated: hourly crypto thresholds
 * and esports map winners; prices synthetic, see its SOURCES.md), replayed over both venues' protocols, as a user
 * meets it: /api/v2/spreads lists every labelled same pair and no labelled different one, each head-to-head on the
 * labelled outcome of the two-outcome market, and a pair on a market's SECOND outcome is priced from that outcome's
 * own book (the mirror of the first's), not the first's.
 */
interface ShortLabel {
  readonly label: 'same' | 'different'
  readonly family: string
  readonly venuep: { readonly event_slug: string; readonly market_slug: string; readonly outcome_index: number }
  readonly venuek: { readonly market_ticker: string }
}

interface SpreadRow {
  readonly event_slug: string
  readonly outcome_key: string
  readonly platform_a: string
  readonly price_a: number
  readonly price_b: number
  readonly match: { readonly venuep_outcome_id: string; readonly venuek_outcome_id: string }
  readonly executable: {
    readonly buy_platform: string
    readonly buy_price: number
    readonly sell_platform: string
    readonly sell_price: number
  } | null
}

/** Book levels print prices as decimal strings. */
interface Book {
  readonly bids: readonly { readonly price: string }[]
  readonly asks: readonly { readonly price: string }[]
}

const LABELS = fixtureJson<ShortLabel[]>('real-venues/short-dated/labels-dev.json')
const LOOKBACK_DAYS = Math.ceil((TEST_ANCHOR_MS - Date.UTC(2026, 0, 1)) / 86_400_000)

let s: TestService
let rows: SpreadRow[]
/** venuep token id → its market slug and outcome index. */
let tokens: Map<string, { slug: string; index: number }>

before(async () => {
  s = await startTestService({
    catalog: SHORT_DATED_DIR,
    wallets: 5,
    config: {
      venues: {
        venuep: { catalog: { closedLookbackDays: LOOKBACK_DAYS } },
        venuek: { catalog: { closedLookbackDays: LOOKBACK_DAYS } },
      },
    },
  })
  rows = (
    await ok<{ data: SpreadRow[] }>(
      s,
      'listSpreads',
      '/api/v2/spreads?min_spread=0&min_volume=0&stale_cutoff_minutes=10080',
    )
  ).data
  tokens = new Map()
  for (const o of s.app.venues.venuep.catalog()?.outcomesById.values() ?? [])
    tokens.set(o.outcomeId, { slug: o.childMarketSlug ?? '', index: o.outcomeIndex ?? 0 })
})

after(() => s?.close())

/** The rows pairing the label's venuek market with any outcome of the label's venuep market. */
function rowsOf(l: ShortLabel): { row: SpreadRow; index: number }[] {
  return rows
    .filter((r) => r.match.venuek_outcome_id === l.venuek.market_ticker)
    .map((r) => ({ row: r, token: tokens.get(r.match.venuep_outcome_id) }))
    .filter((x) => x.token?.slug === l.venuep.market_slug)
    .map((x) => ({ row: x.row, index: x.token?.index ?? 0 }))
}

test('every labelled same pair is listed on its labelled outcome, no labelled different pair is listed', () => {
  const missing = LABELS.filter((l) => l.label === 'same' && !rowsOf(l).some((x) => x.index === l.venuep.outcome_index))
  const wrongSide = LABELS.filter(
    (l) => l.label === 'same' && rowsOf(l).some((x) => x.index !== l.venuep.outcome_index),
  )
  const listed = LABELS.filter(
    (l) => l.label === 'different' && rowsOf(l).some((x) => x.index === l.venuep.outcome_index),
  )
  const show = (l: ShortLabel) => `${l.venuep.market_slug}#${l.venuep.outcome_index} ~ ${l.venuek.market_ticker}`
  assert.deepEqual(missing.map(show), [], 'same pairs missing')
  assert.deepEqual(wrongSide.map(show), [], 'head-to-heads on the other outcome')
  assert.deepEqual(listed.map(show), [], 'different pairs listed')
  assert.ok(
    LABELS.some((l) => l.label === 'same' && l.venuep.outcome_index === 1),
    'the labels hold second outcomes',
  )
})

test("a pair on a market's second outcome is priced from that outcome's own book", async () => {
  const second = rows.filter((r) => tokens.get(r.match.venuep_outcome_id)?.index === 1 && r.executable !== null)
  assert.ok(second.length > 10, `second-outcome pairs with an executable edge: ${second.length}`)
  for (const r of second.slice(0, 6)) {
    const token = r.match.venuep_outcome_id
    const book = await ok<Book>(s, 'getVenuepOrderbook', `/api/v2/venuep/orderbook-history?token_id=${token}`)
    const bid = Number(book.bids[0]?.price)
    const ask = Number(book.asks[0]?.price)
    assert.ok(bid > 0 && ask > bid, `token ${token} has a two-sided book`)
    const x = r.executable as NonNullable<SpreadRow['executable']>
    if (x.buy_platform === 'venuep') assert.equal(x.buy_price, ask, `${r.outcome_key}: buys at the second token's ask`)
    else assert.equal(x.sell_price, bid, `${r.outcome_key}: sells at the second token's bid`)
    const venuepPrice = r.platform_a === 'venuep' ? r.price_a : r.price_b
    assert.ok(Math.abs(venuepPrice - (bid + ask) / 2) < 1e-9, `${r.outcome_key}: price ${venuepPrice} is its own mid`)
  }
})
