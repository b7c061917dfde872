import { shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import type { Rng } from '../random.js'
import {
  oneDayEarlier,
  tickersDeadline,
  tickersDeadlineClose,
  tickersDeadlineCode,
  slugsDeadline,
  slugsDeadlineEnd,
  slugsDeadlineGroupTitle,
  slugsDeadlineShort,
  yearDeadlines,
} from '../shapes/deadlines.js'
import { tickersCategory, slugsTags, type TickersCategory } from '../shapes/labels.js'
import { company, person } from '../shapes/spellings.js'
import type { Category } from '../types.js'
import { DAY_MS, distinct, groupTitles } from './helpers.js'
import type { ContractSpec, Template } from './types.js'
import { maxOf, minOf } from '../../../core/arrays.js'

// ------------------------------------------------------------------------------------------- deadline ladders
//
// "Will X happen before D?" for several D (shapes/deadlines.ts): the ticker style lists one event with a market per deadline
// (a real ladder: "Before May 1, 2026", "Before Jul 1, 2026", "Before January 20, 2029"), each closing at its own
// deadline; the slug style lists either one single-market event per deadline ("Will Trump resign by December 31, 2026?")
// or one "X by...?" group whose children are titled "June 30", "December 31". The venues list overlapping sets of
// deadlines; only equal deadlines are the same contract. Look-alikes: a ticker-style deadline one day before a slug-style one,
// and "before the term ends" against the slug style's last date for an office holder.

interface Subject {
  readonly key: string
  readonly category: Category
  readonly tickersCategories: readonly TickersCategory[]
  readonly seriesCode: string
  /** The slug style's question for "happens by `when`" ("… by June 30, 2026"). */
  readonly slugsQuestion: (when: string) => string
  /** The slug style's grouped event title ("X out by...?"). */
  readonly slugsGroupTitle: string
  readonly tickersTitle: string
  /** The ticker style's market title for "before …" ("Will X leave office before Jul 1, 2026?"). */
  readonly tickersMarket: (before: string) => string
  readonly topics: readonly string[]
  /** An office holder: the ticker style may add "Before the term ends". */
  readonly termEnd: boolean
}

const PATHOGENS = ['H7N3 avian flu', 'Marlow virus', 'Kestrel fever', 'Tarn respiratory syndrome']

function pickSubject(rng: Rng): Subject {
  const r = rng.int(0, 6)
  if (r <= 1) {
    const [country, code] = rng.pick(N.COUNTRIES)
    const office = rng.pick([
      `Prime Minister of ${country}`,
      `President of ${country}`,
      `Finance Minister of ${country}`,
    ])
    const who = person(rng)
    const oc = office.split(' ')[0]!.slice(0, 2).toUpperCase()
    return {
      key: `out:${who.key}:${office}`,
      category: 'politics',
      tickersCategories: ['Politics', 'World'],
      seriesCode: `OUT${code}${oc}`,
      slugsQuestion: (when) => `${who.slugs} out as ${office} ${when}?`,
      slugsGroupTitle: `${who.slugs} out as ${office} by...?`,
      tickersTitle: `Will ${who.tickers} leave office as ${office}?`,
      tickersMarket: (before) => `Will ${who.tickers} leave office ${before}?`,
      topics: [country, who.slugs],
      termEnd: true,
    }
  }
  if (r === 2) {
    const pair = distinct(
      rng,
      2,
      () => rng.pick(N.COUNTRIES),
      (c) => c[1],
    )
    const [x, xc] = pair[0] as readonly [string, string]
    const [y, yc] = pair[1] ?? (xc === 'NRL' ? ['Castavia', 'CSV'] : ['Norland', 'NRL'])
    return {
      key: `ceasefire:${xc}:${yc}`,
      category: 'world',
      tickersCategories: ['World', 'Politics'],
      seriesCode: `CEASE${xc}${yc}`,
      slugsQuestion: (when) => `${x} x ${y} ceasefire ${when}?`,
      slugsGroupTitle: `${x} x ${y} ceasefire by...?`,
      tickersTitle: `Will ${x} and ${y} agree to a ceasefire?`,
      tickersMarket: (before) => `Will ${x} and ${y} agree to a ceasefire ${before}?`,
      topics: [x, y],
      termEnd: false,
    }
  }
  if (r === 3) {
    const c = company(rng, rng.pick(N.COMPANIES))
    return {
      key: `ipo:${c.label}`,
      category: 'finance',
      tickersCategories: ['Companies', 'Financials', 'Economics'],
      seriesCode: `IPO${c.label.split(' ')[0]!.toUpperCase().slice(0, 6)}`,
      slugsQuestion: (when) => `Will ${c.slugs} announce an IPO ${when}?`,
      slugsGroupTitle: `${c.slugs} IPO by...?`,
      tickersTitle: `When will ${c.tickers} officially announce an IPO?`,
      tickersMarket: (before) => `Will ${c.tickers} announce an IPO ${before}?`,
      topics: [c.slugs],
      termEnd: false,
    }
  }
  if (r === 4) {
    const [coin, sym] = rng.pick(N.COINS)
    return {
      key: `etf:${sym}`,
      category: 'crypto',
      tickersCategories: ['Crypto', 'Financials'],
      seriesCode: `ETF${sym}`,
      slugsQuestion: (when) => `${coin} ETF approved ${when}?`,
      slugsGroupTitle: `${coin} ETF approved by...?`,
      tickersTitle: `When will a spot ${coin} ETF be approved?`,
      tickersMarket: (before) => `Will a spot ${sym} ETF be approved ${before}?`,
      topics: [coin],
      termEnd: false,
    }
  }
  if (r === 5) {
    const work = rng.pick(N.WORKS)
    const season = rng.int(2, 4)
    return {
      key: `season:${work}:${season}`,
      category: 'culture',
      tickersCategories: ['Entertainment'],
      seriesCode: `SEASON${work
        .replace(/[^A-Za-z]/g, '')
        .toUpperCase()
        .slice(0, 8)}`,
      slugsQuestion: (when) => `"${work}" Season ${season} released ${when}?`,
      slugsGroupTitle: `"${work}" Season ${season} released by...?`,
      tickersTitle: `When will "${work}" Season ${season} be released?`,
      tickersMarket: (before) => `Will "${work}" Season ${season} be released ${before}?`,
      topics: [work],
      termEnd: false,
    }
  }
  const pathogen = rng.pick(PATHOGENS)
  return {
    key: `pandemic:${pathogen}`,
    category: 'health',
    tickersCategories: ['Health', 'World'],
    seriesCode: `PANDEMIC${pathogen
      .replace(/[^A-Za-z0-9]/g, '')
      .toUpperCase()
      .slice(0, 6)}`,
    slugsQuestion: (when) => `${pathogen} pandemic declared ${when}?`,
    slugsGroupTitle: `${pathogen} pandemic declared by...?`,
    tickersTitle: `Will the WHO declare a ${pathogen} pandemic?`,
    tickersMarket: (before) => `Will the WHO declare a ${pathogen} pandemic ${before}?`,
    topics: [pathogen],
    termEnd: false,
  }
}

/** Which venue lists each deadline: both (65%), the slug style only (15%), the ticker style only (20%); at least one shared. */
function deadlineSides(rng: Rng, n: number): { onSlugs: boolean; onTickers: boolean }[] {
  const sides = Array.from({ length: n }, () => {
    const r = rng.next()
    return r < 0.65
      ? { onSlugs: true, onTickers: true }
      : r < 0.8
        ? { onSlugs: true, onTickers: false }
        : { onSlugs: false, onTickers: true }
  })
  if (!sides.some((s) => s.onSlugs && s.onTickers)) sides[n - 1] = { onSlugs: true, onTickers: true }
  return sides
}

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1)

/** The year a question is about: the one its end falls in, counting the first of January with the year before. */
const questionYear = (endTime: number) => year(endTime - DAY_MS)

export const deadline: Template<{ subject: Subject }> = {
  id: 'deadline',
  category: 'politics',
  weight: 2.5,
  horizonDays: [200, 900],
  decoyShiftDays: 365,
  pick: (rng) => ({ subject: pickSubject(rng) }),
  key: ({ subject }, endTime) => `deadline:${subject.key}:${questionYear(endTime)}`,
  build: ({ subject: s }, endTime, rng, ctx) => {
    const active = ctx.lifecycle === 'active'
    // The question is about one year (its key): an open one's deadlines all ahead (endTime is at least 200 days
    // out), an ended one's all passed.
    const y = questionYear(endTime)
    const after = active ? endTime - 190 * DAY_MS : Math.max(ctx.createdAt + 5 * DAY_MS, Date.UTC(y, 0, 1))
    const deadlines = yearDeadlines(
      y,
      rng.pick([3, 3, 6]),
      rng.int(2, 4),
      after,
      active ? Date.UTC(y + 1, 0, 1) : endTime,
    )
    const last = deadlines[deadlines.length - 1] as number
    const style = rng.int(0, 5)
    const sides = deadlineSides(rng, deadlines.length)
    const contracts: ContractSpec[] = deadlines.map((d, i) => ({
      label: `Before ${shortDate(d)}`,
      ...(sides[i] as { onSlugs: boolean; onTickers: boolean }),
      slugsLabel: slugsDeadlineGroupTitle(d),
      tickersLabel: tickersDeadline(d, style),
      tickersSuffix: tickersDeadlineCode(d, style),
      tickersCloseTime: tickersDeadlineClose(d, rng),
      slugsEndDate: slugsDeadlineEnd(d, rng),
    }))
    const all = [...deadlines]
    // A ticker-style deadline one day before a slug-style one ("Before Jun 30, 2026" / "by June 30, 2026"): another contract.
    const shared = contracts.filter((c) => c.onSlugs && c.onTickers).length
    const j = contracts.findIndex((c) => c.onSlugs)
    // (Kept inside the question's year, so no other question of the subject lists it.)
    if (
      rng.chance(0.25) &&
      j >= 0 &&
      (shared > 1 || !(contracts[j] as ContractSpec).onTickers) &&
      oneDayEarlier(deadlines[j] as number) > Date.UTC(y, 0, 1)
    ) {
      contracts[j] = { ...(contracts[j] as ContractSpec), onTickers: false }
      const d = oneDayEarlier(deadlines[j] as number)
      all.push(d)
      contracts.push({
        label: `Before ${shortDate(d)}`,
        onSlugs: false,
        onTickers: true,
        slugsLabel: slugsDeadlineGroupTitle(d),
        tickersLabel: `Before ${shortDate(d)}`,
        tickersSuffix: tickersDeadlineCode(d, 1),
        tickersCloseTime: tickersDeadlineClose(d, rng),
        lookalikeOf: j,
        lookalikeReason: 'deadline one day apart',
      })
    }
    // An office holder's "Before the term ends" (the ticker style only): not the slug style's "by December 31, 2026".
    const lastOnP = contracts
      .map((c, i) => (c.onSlugs ? i : -1))
      .filter((i) => i >= 0)
      .pop()
    if (s.termEnd && active && lastOnP !== undefined && rng.chance(0.5)) {
      const d = Date.UTC(year(last) + rng.int(1, 3), 0, 20)
      all.push(d)
      contracts.push({
        label: 'Before the term ends',
        onSlugs: false,
        onTickers: true,
        slugsLabel: 'Term end',
        tickersLabel: 'Before the term ends',
        tickersSuffix: 'TERM',
        tickersCloseTime: tickersDeadlineClose(d, rng),
        lookalikeOf: lastOnP,
        lookalikeReason: 'another deadline (before the term ends)',
      })
    }
    const firstYear = year(minOf(deadlines)! - DAY_MS)
    const dropYear = rng.chance(0.5)
    const layout = rng.chance(0.5) ? 'split' : 'grouped'
    const maxDeadline = maxOf(deadlines)!
    const series = `KX${s.seriesCode}`
    return {
      templateId: 'deadline',
      key: `deadline:${s.key}:${y}`,
      category: s.category,
      kind: 'deadline',
      subject: s.tickersTitle,
      endTime,
      model: { kind: 'deadline', logHazard: Math.log(0.05 + rng.next() * 1.2), deadlines: all },
      complementary: false,
      contracts,
      slugs: {
        title: s.slugsGroupTitle,
        slug: slugify(s.slugsGroupTitle.replace('...?', '')),
        description: `Resolves Yes if it happens before the end of the date in the market's question (ET).`,
        negRisk: false,
        outcomes: undefined,
        marketQuestion: (i) => {
          const d = all[i] as number
          // In a group the first year's dates often go without their year ("by June 30?"): it is in endDate.
          const short = layout === 'grouped' && dropYear && year(d - DAY_MS) === firstYear
          return s.slugsQuestion(short ? slugsDeadlineShort(d) : slugsDeadline(d, style, ctx.createdAt))
        },
        groupItemTitle: (i) => slugsDeadlineGroupTitle(all[i] as number),
        layout,
        groupTitles: groupTitles(rng),
        endDate: slugsDeadlineEnd(rng.chance(0.5) ? maxDeadline : minOf(deadlines)!, rng),
        tags: slugsTags(rng, s.category, s.topics),
      },
      tickers: {
        seriesTicker: series,
        seriesTitle: s.tickersTitle,
        seriesCategory: tickersCategory(series, s.tickersCategories),
        frequency: 'custom',
        eventTicker: `${series}-${String(year(maxDeadline) % 100).padStart(2, '0')}`,
        title: s.tickersTitle,
        subTitle: s.termEnd && rng.chance(0.4) ? 'During the term' : tickersDeadline(maxDeadline, style),
        mutuallyExclusive: false,
        strikeType: 'structured',
        marketTitle: (i) => s.tickersMarket(lower((contracts[i] as ContractSpec).tickersLabel)),
        dates: {
          closeTime: tickersDeadlineClose(maxDeadline, rng),
          expectedExpiration: undefined,
          strikeDate: undefined,
        },
      },
    }
  },
}
