import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { ok } from '../helpers/api.js'
import { fixtureJson, REAL_CATALOG_DIR } from '../helpers/fixtures.js'
import type { RealLabel } from '../helpers/real-labels.js'
import { startTestService, TEST_ANCHOR_MS, type TestService } from '../helpers/service.js'

/**
 * `npm start` on the real catalogs, as a user meets it: /api/v2/spreads lists the labelled same-contract pairs
 * (both sides are quoted in the replay) with the evidence that paired them, and none of the labelled different ones.
 */
const LABELS = fixtureJson<RealLabel[]>('real-venues/labels-dev.json')
const LOOKBACK_DAYS = Math.ceil((TEST_ANCHOR_MS - Date.UTC(2020, 0, 1)) / 86_400_000)

interface SpreadRow {
  readonly event_slug: string
  readonly outcome_key: string
  readonly match_quality: string
  readonly match: {
    readonly venuek_outcome_id: string
    readonly manual: boolean
    readonly weight: number
    readonly evidence: { readonly shared_words: string[]; readonly period: string } | null
    readonly venuep_text: string[]
    readonly venuek_text: string[]
  }
}

let s: TestService

before(async () => {
  s = await startTestService({
    catalog: REAL_CATALOG_DIR,
    wallets: 5,
    config: {
      venues: {
        venuep: { catalog: { closedLookbackDays: LOOKBACK_DAYS } },
        venuek: { catalog: { closedLookbackDays: LOOKBACK_DAYS } },
      },
    },
  })
})

after(() => s?.close())

/** The spread row of a labelled pair, found by the venuep outcome the label names (its market's YES token). */
function rowOf(rows: readonly SpreadRow[], pair: RealLabel): SpreadRow | undefined {
  const catalog = s.app.venues.venuep.catalog()
  const outcome = [...(catalog?.outcomesById.values() ?? [])].find(
    (o) => o.childMarketSlug === pair.venuep.market_slug && o.outcomeIndex === 0,
  )
  if (outcome === undefined) return undefined
  return rows.find(
    (r) =>
      r.event_slug === pair.venuep.event_slug &&
      r.outcome_key === `text:${outcome.title.toLowerCase()}` &&
      r.match.venuek_outcome_id === pair.venuek.market_ticker,
  )
}

test('/api/v2/spreads lists every labelled same pair, with its evidence, and no labelled different pair', async () => {
  const body = await ok<{ data: SpreadRow[]; count: number }>(
    s,
    'listSpreads',
    '/api/v2/spreads?min_spread=0&min_volume=0&stale_cutoff_minutes=10080',
  )
  const same = LABELS.filter((l) => l.label === 'same')
  const different = LABELS.filter((l) => l.label === 'different')
  assert.deepEqual(
    same.filter((l) => rowOf(body.data, l) === undefined).map((l) => l.venuep.market_slug),
    [],
    'labelled same pairs missing from /spreads',
  )
  assert.deepEqual(
    different
      .filter((l) => rowOf(body.data, l) !== undefined)
      .map((l) => `${l.venuep.market_slug} ~ ${l.venuek.market_ticker}`),
    [],
    'labelled different pairs listed',
  )
  for (const l of same) {
    const row = rowOf(body.data, l) as SpreadRow
    assert.equal(row.match.manual, false)
    assert.ok(
      row.match.evidence !== null &&
        row.match.evidence.shared_words.length > 0 &&
        /2028/.test(row.match.evidence.period),
      JSON.stringify(row.match),
    )
    assert.ok(row.match.weight > 0 && row.match.weight <= 1)
    assert.ok(row.match.venuep_text.length > 0 && row.match.venuek_text.length > 0)
  }
})
