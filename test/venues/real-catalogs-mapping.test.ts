import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Catalog, CatalogEvent, Outcome } from '../../src/model/types.js'
import type { Simulator } from '../../src/sim/simulator.js'
import { readCapturedCatalogs } from '../../src/sim/world/capture-files.js'
import { eventTickerFacts, marketTickerCode } from '../../src/venues/venuek/ticker-facts.js'
import { eventSlugFacts } from '../../src/venues/venuep/slug-facts.js'
import type { VkCapturedMarket } from '../../src/sim/venuek/capture-schema.js'
import type { VpCapturedEvent, VpCapturedMarket } from '../../src/sim/venuep/capture-schema.js'
import { replayedCatalogs } from '../helpers/catalogs.js'
import { fixtureJson, REAL_CATALOG_DIR } from '../helpers/fixtures.js'

/**
 * The adapters' catalog mapping on the real captured catalogs of both venues (test/fixtures/real-venues), fetched
 * the way the service fetches the venues: from the simulator replaying them, through the real adapters.
 */
const captured = readCapturedCatalogs(REAL_CATALOG_DIR)
const expected = fixtureJson<{ venuep: Record<string, string> }>('real-venues/expected-categories.json')

/** venuek's category vocabulary in the captures, and the canonical slug of each word. */
const VENUEK_CATEGORIES: Readonly<Record<string, string>> = {
  Politics: 'politics',
  Elections: 'politics',
  World: 'world',
  Economics: 'economics',
  // venuek's Transportation markets are travel and traffic statistics.
  Transportation: 'economics',
  Financials: 'finance',
  Companies: 'finance',
  Entertainment: 'culture',
  Social: 'culture',
  'Science and Technology': 'tech',
  'Climate and Weather': 'climate',
  Health: 'health',
  Sports: 'sports',
}

/** The venuep events no category can be given to, and why: the captures hold no subject for them. */
const UNCATEGORIZABLE: Readonly<Record<string, string>> = {
  'hailey-bieber-pregnant-in-2025': 'its only tag, "2025 Predictions", groups events by year, not by subject',
  ...Object.fromEntries(
    [
      'will-trump-deport-750000-or-more-people-in-2025',
      'how-much-spending-will-elon-and-doge-cut-in-2025',
      'will-elon-cut-the-budget-by-at-least-10-in-2025',
      'will-elon-cut-the-budget-by-at-least-5-in-2025',
      'will-gta-6-cost-100',
      'rojas-guilty-in-texas-illegal-abortion-case',
      'senator-eichorn-guilty-of-soliciting-a-child',
      'negative-gdp-growth-in-2025',
      'how-much-revenue-will-the-us-raise-from-tariffs-in-2025',
      'will-tariffs-generate-250b-in-2025',
      'next-prime-minister-of-the-netherlands',
    ].map((slug) => [
      slug,
      'no tags at all: captured from a Gamma /markets page, whose parent event records carry none',
    ]),
  ),
}

let sim: Simulator
let venuep: Catalog
let venuek: Catalog

before(async () => {
  ;({ sim, venuep, venuek } = await replayedCatalogs())
})

after(async () => {
  await sim?.close()
})

const outcomesOf = (e: CatalogEvent): readonly Outcome[] => e.markets.flatMap((m) => m.outcomes)

function venuepEvent(slug: string): CatalogEvent {
  const e = venuep.events.find((x) => x.eventId === slug)
  assert.ok(e !== undefined, `venuep event ${slug} mapped`)
  return e
}

/** The YES outcome of a captured venuep market (the first token's). */
function venuepOutcome(m: VpCapturedMarket): Outcome {
  for (const e of venuep.events) for (const o of outcomesOf(e)) if (o.instrumentId === m.clobTokenIds[0]) return o
  assert.fail(`no outcome for ${m.slug}`)
}

describe("categories from the venues' real vocabularies", () => {
  test("every venuek event: its one venue category, mapped by the table of the venue's words", () => {
    assert.equal(venuek.events.length, captured.venuek.length)
    for (const c of captured.venuek) {
      const slug = VENUEK_CATEGORIES[c.category]
      assert.ok(slug !== undefined, `the venue word "${c.category}" is in the table`)
      assert.equal(venuek.events.find((e) => e.eventId === c.event_ticker)?.category, slug, c.event_ticker)
    }
  })

  test('every venuep event: the category its tags vote for (reviewed list); `other` only for the uncategorizable', () => {
    assert.equal(venuep.events.length, captured.venuep.length)
    const got = Object.fromEntries(captured.venuep.map((c) => [c.slug, venuepEvent(c.slug).category]))
    assert.deepEqual(got, expected.venuep)
    const others = Object.keys(got)
      .filter((slug) => got[slug] === 'other')
      .sort()
    assert.deepEqual(
      others,
      Object.keys(UNCATEGORIZABLE).sort(),
      'the `other` events are exactly the uncategorizable ones',
    )
    for (const slug of others) {
      const tags = (captured.venuep.find((c) => c.slug === slug) as VpCapturedEvent).tags ?? []
      assert.ok(
        tags.length === 0 || tags.every((t) => /^\d{4} Predictions$/.test(t.label)),
        `${slug}: ${UNCATEGORIZABLE[slug]}`,
      )
    }
  })
})

describe('outcome titles', () => {
  test("a grouped venuep child without groupItemTitle is named by what its question says apart from its siblings'", () => {
    const title = (question: string) => {
      const m = captured.venuep.flatMap((e) => e.markets).find((x) => x.question === question)
      assert.ok(m !== undefined, question)
      return venuepOutcome(m).title
    }
    assert.equal(title('Will JD Vance win the 2028 US Presidential Election?'), 'JD Vance')
    assert.equal(title('Will Trump nominate Kevin Warsh as the next Fed chair?'), 'Kevin Warsh')
    assert.equal(title('Will Trump nominate no one before 2027?'), 'no one before 2027')
    assert.equal(title('Will Ken Paxton win the 2026 Texas Republican Primary?'), 'Ken Paxton')
    assert.equal(title('MicroStrategy sells any Bitcoin by June 30, 2026?'), 'by June 30, 2026')
    assert.equal(title('Will the Oklahoma City Thunder win the 2026 NBA Finals?'), 'Oklahoma City Thunder')
  })

  test('every outcome has a trimmed, non-empty title; a child titled from its question keeps a piece of it', () => {
    for (const c of captured.venuep) {
      if (c.markets.length < 2) continue
      for (const m of c.markets) {
        const o = venuepOutcome(m)
        assert.ok(o.title.length > 0 && o.title === o.title.trim(), `${m.slug}: "${o.title}"`)
        if ((m.groupItemTitle ?? '').trim() === '')
          assert.ok(m.question.includes(o.title), `${m.slug}: "${o.title}" is part of "${m.question}"`)
        else assert.equal(o.title, m.groupItemTitle?.trim())
      }
    }
    for (const e of venuek.events)
      for (const o of outcomesOf(e)) assert.ok(o.title.length > 0 && o.title === o.title.trim(), o.outcomeId)
  })

  test('the trading children of a grouped venuep event are told apart by their titles', () => {
    for (const c of captured.venuep) {
      const trading = c.markets.filter((m) => m.active && !m.closed)
      if (trading.length < 2) continue
      const byTitle = new Map<string, Set<string>>()
      for (const m of trading) {
        const t = venuepOutcome(m).title
        byTitle.set(t, (byTitle.get(t) ?? new Set()).add(m.question))
      }
      for (const [t, questions] of byTitle)
        assert.equal(questions.size, 1, `${c.slug}: "${t}" names ${[...questions].join(' | ')}`)
    }
  })
})

describe('statuses, prices and dates as the captures give them', () => {
  test('venuep: open while not closed; resolved by the UMA status or, when the capture dropped it, by 1/0 prices', () => {
    for (const m of captured.venuep.flatMap((e) => e.markets)) {
      const o = venuepOutcome(m)
      const prices = (m.outcomePrices ?? []).map(Number)
      const settled =
        prices.length === 2 && ((prices[0] === 1 && prices[1] === 0) || (prices[0] === 0 && prices[1] === 1))
      const want = !m.closed
        ? 'active'
        : m.umaResolutionStatus === 'resolved' || (m.umaResolutionStatus === undefined && settled)
          ? 'resolved'
          : 'closed'
      assert.equal(o.status, want, m.slug)
      assert.equal(o.won, want === 'resolved' ? prices[0]! >= 0.5 : undefined, m.slug)
    }
  })

  test('venuek: each market keeps its captured status (finalized without a captured result: who won is unknown)', () => {
    const service: Record<string, string> = {
      initialized: 'active',
      active: 'active',
      closed: 'closed',
      determined: 'resolved',
      finalized: 'resolved',
    }
    for (const e of venuek.events) {
      for (const o of outcomesOf(e)) {
        const m = captured.venuek.flatMap((x) => x.markets).find((x) => x.ticker === o.outcomeId) as VkCapturedMarket
        assert.equal(o.rawStatus, m.status)
        assert.equal(o.status, service[m.status])
        assert.equal(o.won, undefined)
      }
    }
  })

  test('catalog prices: a bid of 0, an ask of 1 and a last trade of 0 are "none", on both venues', () => {
    for (const e of [...venuep.events, ...venuek.events]) {
      for (const o of outcomesOf(e)) {
        for (const p of [o.catalogBestBid, o.catalogBestAsk])
          assert.ok(p === undefined || (p > 0 && p < 1), `${o.outcomeId}: ${p}`)
      }
    }
    const placeholder = captured.venuep
      .flatMap((e) => e.markets)
      .find((m) => !m.closed && m.bestAsk === 1 && m.bestBid === undefined) as VpCapturedMarket
    assert.equal(venuepOutcome(placeholder).catalogBestAsk, undefined)
    const quoted = captured.venuep
      .flatMap((e) => e.markets)
      .find((m) => !m.closed && (m.bestBid ?? 0) > 0) as VpCapturedMarket
    assert.deepEqual(
      [venuepOutcome(quoted).catalogBestBid, venuepOutcome(quoted).catalogBestAsk],
      [quoted.bestBid, quoted.bestAsk],
    )
  })

  test('a venuep event captured without dates ends with its latest market', () => {
    const c = captured.venuep.find(
      (e) => e.endDate === undefined && e.markets.some((m) => m.endDate !== undefined),
    ) as VpCapturedEvent
    const latest = Math.max(...c.markets.flatMap((m) => (m.endDate === undefined ? [] : [Date.parse(m.endDate)])))
    const e = venuepEvent(c.slug)
    assert.equal(e.endTime, latest)
    assert.equal(e.markets[0]!.endTime, latest)
  })
})

describe('what a matcher needs, carried into the model', () => {
  test('venuek: series ticker, strike period, raw sub-titles and close time, as captured', () => {
    for (const c of captured.venuek) {
      const e = venuek.events.find((x) => x.eventId === c.event_ticker) as CatalogEvent
      assert.deepEqual(e.details, {
        seriesTicker: c.series_ticker,
        strikeDate: undefined,
        strikePeriod: c.strike_period,
        tags: [c.category],
        negRisk: undefined,
        description: undefined,
        ...optional('identifier', eventTickerFacts(c.event_ticker, c.series_ticker)),
      })
      assert.equal(e.subtitle, c.sub_title)
      for (const m of c.markets) {
        const o = outcomesOf(e).find((x) => x.outcomeId === m.ticker) as Outcome
        assert.deepEqual(o.details, {
          question: m.title,
          groupItemTitle: undefined,
          groupItemThreshold: undefined,
          yesSubTitle: m.yes_sub_title,
          noSubTitle: m.no_sub_title,
          negRisk: undefined,
          rules: undefined,
          expectedExpiration: undefined,
          ...optional('code', marketTickerCode(m.ticker, c.event_ticker)),
        })
        assert.equal(o.closeTime, m.close_time === undefined ? undefined : Date.parse(m.close_time))
      }
    }
  })

  test('venuep: question, raw groupItemTitle and threshold, neg-risk flags, tags and per-market end, as captured', () => {
    for (const c of captured.venuep) {
      const e = venuepEvent(c.slug)
      assert.deepEqual(e.details, {
        seriesTicker: undefined,
        strikeDate: undefined,
        strikePeriod: undefined,
        tags: c.tags?.map((t) => t.label),
        negRisk: c.negRisk ?? c.enableNegRisk,
        description: c.description?.trim() || undefined,
        ...optional('identifier', eventSlugFacts(c.slug)),
      })
      for (const m of c.markets) {
        const o = venuepOutcome(m)
        assert.deepEqual(o.details, {
          question: m.question,
          groupItemTitle: m.groupItemTitle,
          groupItemThreshold: m.groupItemThreshold,
          yesSubTitle: undefined,
          noSubTitle: undefined,
          negRisk: m.negRisk,
          rules: undefined,
          expectedExpiration: undefined,
          sides: m.outcomes,
        })
        assert.equal(o.closeTime, m.endDate === undefined ? undefined : Date.parse(m.endDate))
      }
    }
  })
})

/** `{ [key]: value }` when the value is known: the adapters leave optional fields out rather than undefined. */
function optional<V>(key: string, value: V | undefined): Record<string, V> {
  return value === undefined ? {} : { [key]: value }
}
