import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { ok } from '../helpers/api.js'
import { startTestService, TEST_ANCHOR_MS, type TestService } from '../helpers/service.js'
import { waitFor } from '../helpers/wait.js'

/**
 * An operator connects two names no rule can (a team listed under another name on one venue) by adding them to the
 * alias file while the service runs: the service reads config/aliases.json again, matches again, and the pair
 * appears in /api/v2/spreads, no restart; removing the group removes it; an invalid edit changes nothing. The
 * catalogs are a one-game capture in the format of test/fixtures/real-venues (invented teams; prices synthetic).
 */
const dir = mkdtempSync(join(tmpdir(), 'predmkt-aliases-'))
const aliasPath = join(dir, 'aliases.json')
let s: TestService

const TOKENS = ['1001', '1002']

function writeCatalogs(): void {
  const venuep = {
    venue: 'venuep',
    note: 'test capture: invented teams, synthetic prices',
    sources: ['test'],
    events: [
      {
        id: '1',
        ticker: 'cs2-alw-ber-2026-12-01',
        slug: 'cs2-alw-ber-2026-12-01',
        title: 'Counter-Strike: Alpha Wolves vs Beta Ravens',
        active: true,
        closed: false,
        endDate: '2026-12-01T18:00:00.000Z',
        source: 'test',
        captured: '2026-11-21',
        markets: [
          {
            id: '11',
            question: 'Counter-Strike: Alpha Wolves vs Beta Ravens - Map 1 Winner',
            conditionId: '0xaa',
            slug: 'cs2-alw-ber-2026-12-01-game1',
            outcomes: ['Alpha Wolves', 'Beta Ravens'],
            outcomePrices: ['0.6', '0.4'],
            clobTokenIds: TOKENS,
            bestBid: 0.59,
            bestAsk: 0.61,
            lastTradePrice: 0.6,
            active: true,
            closed: false,
            endDate: '2026-12-01T18:00:00.000Z',
            orderPriceMinTickSize: 0.01,
            orderMinSize: 5,
            acceptingOrders: true,
            enableOrderBook: true,
          },
        ],
      },
    ],
  }
  const market = (suffix: string, name: string, bid: number) => ({
    ticker: `KXCS2MAP-26DEC011000WPBR-1-${suffix}`,
    event_ticker: 'KXCS2MAP-26DEC011000WPBR-1',
    title: 'Wolfpack Gaming vs. Beta Ravens: Map 1',
    market_type: 'binary',
    status: 'active',
    yes_sub_title: name,
    no_sub_title: name,
    yes_bid: bid,
    yes_ask: bid + 0.02,
    no_bid: 1 - bid - 0.02,
    no_ask: 1 - bid,
    last_price: bid + 0.01,
    close_time: '2026-12-01T18:00:00Z',
  })
  const venuek = {
    venue: 'venuek',
    note: 'test capture: invented teams, synthetic prices',
    sources: ['test'],
    events: [
      {
        event_ticker: 'KXCS2MAP-26DEC011000WPBR-1',
        series_ticker: 'KXCS2MAP',
        title: 'Wolfpack Gaming vs. Beta Ravens: Map 1',
        category: 'Sports',
        mutually_exclusive: true,
        source: 'test',
        captured: '2026-11-21',
        markets: [market('WP', 'Wolfpack Gaming', 0.5), market('BR', 'Beta Ravens', 0.45)],
      },
    ],
  }
  writeFileSync(join(dir, 'venuep.json'), JSON.stringify(venuep))
  writeFileSync(join(dir, 'venuek.json'), JSON.stringify(venuek))
}

interface Row {
  readonly match: { readonly venuep_outcome_id: string; readonly venuek_outcome_id: string }
}

const spreads = async () =>
  (await ok<{ data: Row[] }>(s, 'listSpreads', '/api/v2/spreads?min_spread=0&min_volume=0&stale_cutoff_minutes=10080'))
    .data

before(async () => {
  writeCatalogs()
  writeFileSync(aliasPath, JSON.stringify({ groups: [] }))
  s = await startTestService({
    catalog: dir,
    wallets: 5,
    anchorMs: TEST_ANCHOR_MS,
    config: { spreads: { aliasesPath: aliasPath } },
  })
})

after(async () => {
  await s?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('an alias group written while running pairs the two names; removing it unpairs them; a broken edit changes nothing', async () => {
  assert.deepEqual(await spreads(), [], 'no rule connects "Alpha Wolves" and "Wolfpack Gaming"')
  writeFileSync(aliasPath, JSON.stringify({ groups: [{ names: ['Alpha Wolves', 'Wolfpack Gaming'], reason: 'test' }] }))
  await waitFor(() => s.app.spreads.pairCount === 2, 10_000, 'both sides of map 1 to pair')
  const rows = await spreads()
  assert.deepEqual(rows.map((r) => [r.match.venuep_outcome_id, r.match.venuek_outcome_id]).sort(), [
    ['1001', 'KXCS2MAP-26DEC011000WPBR-1-WP'],
    ['1002', 'KXCS2MAP-26DEC011000WPBR-1-BR'],
  ])

  writeFileSync(aliasPath, '{"groups": [ broken')
  await new Promise((r) => setTimeout(r, 3_000))
  assert.equal(s.app.spreads.pairCount, 2, 'the last valid file stays in force')

  writeFileSync(aliasPath, JSON.stringify({ groups: [] }))
  await waitFor(() => s.app.spreads.pairCount === 0, 10_000, 'the pairs to leave')
})
