import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { canonicalCategory, CATEGORY_SLUGS } from '../../src/model/categories.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { TICKERS_CATEGORIES } from '../../src/sim/world/shapes/labels.js'
import { mapGammaEvent } from '../../src/venues/venuep/map-catalog.js'
import { fixtureJson } from '../helpers/fixtures.js'
import { closeGapsDays, PLACEHOLDER, spellingVariant, subTitleDate } from './shape-readers.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { venuekOf } from '../../src/sim/venuek/state.js'

/**
 * The generated world shows the real catalogs' shapes (issue 17; src/sim/world/shapes), read from what the simulator
 * serves on the venues' wire: venuek close times long after the question's own date, candidate groups with
 * placeholder children and without `groupItemTitle`, names spelled apart, strike ladders with ≥/> near misses,
 * deadline ladders, and both venues' category vocabularies. Figures are printed as diagnostics beside the real
 * catalogs' where both can be read the same way.
 */
const ANCHOR_MS = Date.UTC(2026, 10, 21, 12)
type Json = Record<string, any>

let sim: Simulator
let vp: Json[]
let vk: Json[]
const realVk = fixtureJson<{ events: Json[] }>('real-venues/venuek.json').events
const realVp = fixtureJson<{ events: Json[] }>('real-venues/venuep.json').events

async function get(url: string): Promise<any> {
  const res = await fetch(url)
  assert.equal(res.status, 200, url)
  return res.json()
}

before(async () => {
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  sim = await startSimulator({
    config: { ...config.sim, questions: 2400, seed: 42, venuekAuth: false },
    clock: new SimulatedClock(ANCHOR_MS),
    anchorMs: ANCHOR_MS,
    startEngine: false,
  })
  vp = []
  for (let offset = 0; ; offset += 500) {
    const page = (await get(`${sim.venuep.urls.gamma}/events?limit=500&offset=${offset}`)) as Json[]
    vp.push(...page)
    if (page.length < 500) break
  }
  vk = []
  for (let cursor = ''; ;) {
    const page = await get(`${sim.venuek.urls.rest}/events?with_nested_markets=true&limit=200&cursor=${cursor}`)
    vk.push(...page.events)
    cursor = page.cursor
    if (cursor === '') break
  }
})

after(async () => {
  await sim?.close()
})

const share = (n: number, d: number) => `${n}/${d} (${((100 * n) / Math.max(1, d)).toFixed(1)}%)`
const open = (e: Json) => e.closed === false
const openVk = (e: Json) => (e.markets as Json[]).some((m) => m.status === 'active')

describe('venuek dates: close_time is the latest possible date, the question date is in the titles', () => {
  test('long-dated open markets close ≥ 300 days after the date in their (yes_)sub_title as often as the real ones', (t) => {
    const gaps = closeGapsDays(vk, ANCHOR_MS)
    // The real venuek capture is of 2026-02-26.
    const real = closeGapsDays(realVk, Date.UTC(2026, 1, 26))
    const late = gaps.filter((g) => g >= 300).length / gaps.length
    const realLate = real.filter((g) => g >= 300).length / real.length
    t.diagnostic(
      `close ≥ 300 days after the stated date: generated ${share(gaps.filter((g) => g >= 300).length, gaps.length)}, real ${share(real.filter((g) => g >= 300).length, real.length)}`,
    )
    assert.ok(gaps.length > 500 && late > realLate / 2 && late < realLate * 2, 'about the real share')
    // "Before 2030" closes at the deadline itself: a gap of hours, not a year.
    assert.ok(gaps.filter((g) => g >= -1 && g < 2).length > 50, 'deadline markets close at their deadline')
  })

  test('long-dated events carry no strike_date and often no expected_expiration_time; when stated it is the expected date', (t) => {
    const long = vk.filter((e) => openVk(e) && /^In \d{4}$/.test(e.sub_title))
    assert.ok(long.length > 20, `events "In YYYY" (${long.length})`)
    assert.ok(
      long.every((e) => e.strike_date === null),
      'no strike_date on an election',
    )
    const markets = long.flatMap((e) => e.markets as Json[])
    const stated = markets.filter((m) => m.expected_expiration_time !== undefined)
    t.diagnostic(`expected_expiration_time on ${share(stated.length, markets.length)} of "In YYYY" markets`)
    assert.ok(stated.length > 0 && stated.length < markets.length, 'some state it, some do not')
    assert.ok(
      stated.every((m) => Date.parse(m.expected_expiration_time) < Date.parse(m.close_time)),
      'the expected date comes before the latest close',
    )
    const short = vk.filter((e) => openVk(e) && e.strike_date !== null)
    assert.ok(short.length > 100, 'short-dated series keep their strike_date')
  })

  test('venuep endDate is the expected resolution, hours or days off the date in the question', () => {
    const deadlines = vp.filter(
      (e) => open(e) && e.markets.length === 1 && / by [A-Z][a-z]+ \d{1,2}, \d{4}\?$/.test(e.markets[0].question),
    )
    assert.ok(deadlines.length > 10, `single "by <date>" markets (${deadlines.length})`)
    let off = 0
    for (const e of deadlines) {
      const m = e.markets[0]
      const date = subTitleDate(/ by (.+)\?$/.exec(m.question)![1]!)!
      const gapH = (Date.parse(m.endDate) - date) / 3_600_000
      assert.ok(gapH > -48 && gapH < 48, `${m.question} ends ${m.endDate}`)
      if (gapH !== 0) off++
    }
    assert.ok(off > 0)
  })
})

describe('multi-outcome events', () => {
  test('venuep groups: children without groupItemTitle or with "", single markets with ""', (t) => {
    const groups = vp.filter((e) => e.markets.length > 1)
    const absent = groups.filter((e) => e.markets.every((m: Json) => !('groupItemTitle' in m)))
    const empty = groups.filter((e) => e.markets.every((m: Json) => m.groupItemTitle === ''))
    const singlesEmpty = vp.filter((e) => e.markets.length === 1 && e.markets[0].groupItemTitle === '')
    const realGroups = realVp.filter((e) => e.markets.length > 1)
    t.diagnostic(
      `groups without titles: generated ${share(absent.length, groups.length)}, "" ${share(empty.length, groups.length)}; real without ${share(realGroups.filter((e) => e.markets.every((m: Json) => !m.groupItemTitle)).length, realGroups.length)}`,
    )
    assert.ok(absent.length / groups.length > 0.15 && empty.length > 10 && singlesEmpty.length > 50)
  })

  test('placeholder children are listed inactive with no orders, in about a third of candidate groups', (t) => {
    // Candidate groups: people, parties, teams, titles (the real grouped events), not brackets or rate decisions.
    const candidates = (e: Json) =>
      venuepOf(sim.world)
        .eventsBySlug.get(e.slug)!
        .question!.contracts.every((c) => !/\d/.test(c.label))
    const groups = vp.filter((e) => e.negRisk === true && e.markets.length > 1 && candidates(e))
    const withPh = groups.filter((e) => e.markets.some((m: Json) => m.active === false))
    const ph = groups
      .filter(open)
      .flatMap((e) => e.markets as Json[])
      .filter((m) => m.active === false)
    const realGroups = realVp.filter((e) => e.markets.length > 1)
    t.diagnostic(
      `groups with placeholders: generated ${share(withPh.length, groups.length)}, real ${share(realGroups.filter((e) => e.markets.some((m: Json) => m.active === false)).length, realGroups.length)}`,
    )
    assert.ok(withPh.length / groups.length > 0.2 && withPh.length / groups.length < 0.6)
    assert.ok(
      ph.length > 100 &&
        ph.every(
          (m) =>
            PLACEHOLDER.test(m.question) &&
            m.acceptingOrders === false &&
            m.bestBid === undefined &&
            m.outcomePrices === '[]' &&
            m.volumeNum === 0,
        ),
    )
    assert.ok(
      !sim.world.truth.outcomePairs.some((p) => venuepOf(sim.world).tokens.get(p.a.outcome)!.market.active === false),
      'a placeholder pairs with nothing',
    )
  })

  test('venuek names the same candidates differently, and the venues list different candidate sets', (t) => {
    const truth = sim.world.truth.outcomePairs
    const kinds = new Map<string, number>()
    for (const p of truth) {
      const m = venuepOf(sim.world).tokens.get(p.a.outcome)!.market
      const name = m.groupItemTitle === undefined || m.groupItemTitle === '' ? undefined : m.groupItemTitle
      if (name === undefined || m.canonical.kind !== 'multi' || /\d/.test(name)) continue
      const kind = spellingVariant(name, venuekOf(sim.world).marketsByTicker.get(p.b.outcome)!.yesSubTitle)
      if (kind !== undefined) kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
    }
    t.diagnostic(`name variants among true pairs: ${JSON.stringify(Object.fromEntries(kinds))}`)
    for (const k of ['diacritics', 'initials', 'middle initial', 'suffix', 'nickname', 'party name'])
      assert.ok((kinds.get(k) ?? 0) > 0, k)
    let onlyP = 0
    let onlyK = 0
    for (const q of sim.world.questions) {
      if (
        q.kind !== 'multi' ||
        !venuepOf(sim.world).questionEvents.has(q.id) ||
        !venuekOf(sim.world).questionEvents.has(q.id)
      )
        continue
      for (const c of q.contracts) {
        const p = venuepOf(sim.world).listing.get(c.key)
        const k = venuekOf(sim.world).listing.get(c.key)
        if (p !== undefined && k === undefined && p.market.active !== false) onlyP++
        if (p === undefined && k !== undefined) onlyK++
      }
    }
    assert.ok(onlyP > 10 && onlyK > 10, `named candidates on one venue only: venuep ${onlyP}, venuek ${onlyK}`)
  })
})

describe('threshold and range ladders', () => {
  test('venuek states strikes with every strike type, floor/cap and -T/-B tickers', () => {
    const markets = vk.flatMap((e) => e.markets as Json[])
    for (const type of ['greater', 'greater_or_equal', 'less', 'less_or_equal', 'between']) {
      const of = markets.filter((m) => m.strike_type === type)
      assert.ok(of.length > 5, type)
      if (type === 'between')
        assert.ok(
          of.every(
            (m) => typeof m.floor_strike === 'number' && typeof m.cap_strike === 'number' && /-B[\d.]+$/.test(m.ticker),
          ),
        )
      if (type.startsWith('greater'))
        assert.ok(of.every((m) => typeof m.floor_strike === 'number' && m.cap_strike === undefined))
      if (type.startsWith('less'))
        assert.ok(of.every((m) => typeof m.cap_strike === 'number' && m.floor_strike === undefined))
    }
    assert.ok(markets.some((m) => /-T[\d.]+$/.test(m.ticker)))
  })

  test('venuep words strikes as the real labels do', () => {
    const titles = vp.flatMap((e) => e.markets as Json[]).map((m) => `${m.groupItemTitle ?? ''} | ${m.question}`)
    for (const re of [
      /↑ \$[\d,]+/,
      /\$[\d,.]+\+/,
      /^>[\d$]/,
      /^<[\d$]/,
      /\d–\d/,
      /above \$?[\d.]+/,
      / or more/,
      /at least /,
    ])
      assert.ok(
        titles.some((s) => re.test(s)),
        String(re),
      )
  })

  test('"at least X" against "more than X" (one step apart) are hard negatives, never true pairs', () => {
    // Counts and rates (economics); a coin's near miss is one tick up instead (a continuous price's ≥ X and > X are
    // one contract), with a reason of its own.
    const near = (sim.world.truth.hardNegatives ?? []).filter((h) => h.reason === 'at least vs more than')
    assert.ok(near.length >= 5, `near misses (${near.length})`)
    const truth = new Set(sim.world.truth.outcomePairs.map((p) => `${p.a.outcome}|${p.b.outcome}`))
    for (const h of near) {
      assert.ok(!truth.has(`${h.a.outcome}|${h.b.outcome}`))
      const k = venuekOf(sim.world).marketsByTicker.get(h.b.outcome)!
      const p = venuepOf(sim.world).tokens.get(h.a.outcome)!.market
      // The same number on both sides, other comparators.
      assert.ok(
        k.floorStrike !== undefined &&
          new RegExp(`(^|[^\\d.])${String(k.floorStrike).replace('.', '\\.')}([^\\d]|$)`).test(
            p.question.replace(/,/g, ''),
          ),
        `${p.question} / ${k.yesSubTitle}`,
      )
      const vpAtLeast = /or more|at least|\+/.test(`${p.question} ${p.groupItemTitle ?? ''}`)
      assert.equal(
        vpAtLeast,
        k.strikeType === 'greater',
        `venuep "≥" against venuek "greater": ${p.question} / ${k.yesSubTitle}`,
      )
    }
  })
})

describe('deadline ladders', () => {
  test('venuek lists one event with several "Before …" markets closing at their own deadlines', () => {
    const ladders = vk.filter(
      (e) => e.markets.length >= 2 && e.markets.every((m: Json) => /^Before /.test(m.yes_sub_title)),
    )
    assert.ok(ladders.length > 30, `ladders (${ladders.length})`)
    const open = ladders.filter((e) => openVk(e))
    assert.ok(
      open.every((e) => new Set(e.markets.map((m: Json) => m.close_time)).size === e.markets.length),
      'each market closes at its deadline',
    )
  })

  test('venuep lists them as single-market events or one group titled "June 30", "December 31"', () => {
    const spans = new Map<string, Set<string>>()
    for (const p of sim.world.truth.eventPairs) spans.set(p.b.event, (spans.get(p.b.event) ?? new Set()).add(p.a.event))
    assert.ok(
      [...spans.values()].filter((s) => s.size >= 2).length > 10,
      'one venuek event paired with several venuep events',
    )
    const dayTitles = vp
      .flatMap((e) => e.markets as Json[])
      .filter((m) =>
        /^(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}$/.test(
          m.groupItemTitle ?? '',
        ),
      )
    assert.ok(dayTitles.length > 10)
  })

  test('a deadline one day apart and "before the term ends" are hard negatives', () => {
    const reasons = new Set((sim.world.truth.hardNegatives ?? []).map((h) => h.reason))
    for (const r of ['deadline one day apart', 'another deadline (before the term ends)']) assert.ok(reasons.has(r), r)
  })
})

describe('categories as the venues label them', () => {
  test("venuek uses its real category vocabulary; venuep tags vote for the question's category", (t) => {
    const vkCats = new Set(vk.map((e) => e.category))
    assert.ok(
      [...vkCats].every((c) => (TICKERS_CATEGORIES as readonly string[]).includes(c)),
      [...vkCats].join(),
    )
    assert.ok(vkCats.size >= 10, `${vkCats.size} venuek categories`)
    const tagged = vp.filter((e) => e.tags.length > 0)
    const counts = vp.map((e) => e.tags.length).sort((a, b) => a - b)
    t.diagnostic(
      `venuep tags per event: median ${counts[counts.length >> 1]}, untagged ${share(vp.length - tagged.length, vp.length)}`,
    )
    assert.ok((counts[counts.length >> 1] as number) >= 3 && tagged.length < vp.length)
    const seen = new Set<string>()
    for (const e of tagged) {
      const q = venuepOf(sim.world).eventsBySlug.get(e.slug)!.question!
      const mapped = mapGammaEvent(e, { eventUrl: (s) => s })!
      assert.equal(mapped.category, q.category, `${e.slug}: ${e.tags.map((x: Json) => x.label).join(', ')}`)
      assert.equal(canonicalCategory(e.tags.map((x: Json) => [x.label, x.slug])), q.category)
      seen.add(mapped.category)
    }
    assert.deepEqual([...seen].sort(), CATEGORY_SLUGS.filter((c) => c !== 'other').sort())
  })
})
