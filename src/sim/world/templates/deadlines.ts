import { shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import type { Rng } from '../random.js'
import {
  oneDayEarlier,
  venuekDeadline,
  venuekDeadlineClose,
  venuekDeadlineCode,
  venuepDeadline,
  venuepDeadlineEnd,
  venuepDeadlineGroupTitle,
  venuepDeadlineShort,
  yearDeadlines,
} from '../shapes/deadlines.js'
import { venuekCategory, vpTags, type VenuekCategory } from '../shapes/labels.js'
import { company, person } from '../shapes/spellings.js'
import type { Category } from '../types.js'
import { DAY_MS, distinct, groupTitles } from './helpers.js'
import type { ContractSpec, Template } from './types.js'

// ------------------------------------------------------------------------------------------- deadline ladders
//
// "Will X happen before D?" for several D (shapes/deadlines.ts): venuek lists one event with a market per deadline
// (a real ladder: "Before May 1, 2026", "Before Jul 1, 2026", "Before January 20, 2029"), each closing at its own
// deadline; venuep lists either one single-market event per deadline ("Will Trump resign by December 31, 2026?")
// or one "X by...?" group whose children are titled "June 30", "December 31". The venues list overlapping sets of
// deadlines; only equal deadlines are the same contract. Look-alikes: a venuek deadline one day before a venuep one,
// and "before the term ends" against venuep's last date for an office holder.

interface Subject {
  readonly key: string
  readonly category: Category
  readonly venuekCategories: readonly VenuekCategory[]
  readonly seriesCode: string
  /** venuep's question for "happens by `when`" ("… by June 30, 2026"). */
  readonly vpQuestion: (when: string) => string
  /** venuep's grouped event title ("X out by...?"). */
  readonly vpGroupTitle: string
  readonly vkTitle: string
  /** venuek's market title for "before …" ("Will X leave office before Jul 1, 2026?"). */
  readonly vkMarket: (before: string) => string
  readonly topics: readonly string[]
  /** An office holder: venuek may add "Before the term ends". */
  readonly termEnd: boolean
}

const PATHOGENS = ['H7N3 avian flu', 'Marlow virus', 'Kestrel fever', 'Tarn respiratory syndrome']

function pickSubject(rng: Rng): Subject {
  const r = rng.int(0, 6)
  if (r <= 1) {
    const [country, code] = rng.pick(N.COUNTRIES)
    const office = rng.pick([`Prime Minister of ${country}`, `President of ${country}`, `Finance Minister of ${country}`])
    const who = person(rng)
    const oc = office.split(' ')[0]!.slice(0, 2).toUpperCase()
    return {
      key: `out:${who.key}:${office}`,
      category: 'politics',
      venuekCategories: ['Politics', 'World'],
      seriesCode: `OUT${code}${oc}`,
      vpQuestion: (when) => `${who.venuep} out as ${office} ${when}?`,
      vpGroupTitle: `${who.venuep} out as ${office} by...?`,
      vkTitle: `Will ${who.venuek} leave office as ${office}?`,
      vkMarket: (before) => `Will ${who.venuek} leave office ${before}?`,
      topics: [country, who.venuep],
      termEnd: true,
    }
  }
  if (r === 2) {
    const pair = distinct(rng, 2, () => rng.pick(N.COUNTRIES), (c) => c[1])
    const [x, xc] = pair[0] as readonly [string, string]
    const [y, yc] = pair[1] ?? (xc === 'NRL' ? ['Castavia', 'CSV'] : ['Norland', 'NRL'])
    return {
      key: `ceasefire:${xc}:${yc}`,
      category: 'world',
      venuekCategories: ['World', 'Politics'],
      seriesCode: `CEASE${xc}${yc}`,
      vpQuestion: (when) => `${x} x ${y} ceasefire ${when}?`,
      vpGroupTitle: `${x} x ${y} ceasefire by...?`,
      vkTitle: `Will ${x} and ${y} agree to a ceasefire?`,
      vkMarket: (before) => `Will ${x} and ${y} agree to a ceasefire ${before}?`,
      topics: [x, y],
      termEnd: false,
    }
  }
  if (r === 3) {
    const c = company(rng, rng.pick(N.COMPANIES))
    return {
      key: `ipo:${c.label}`,
      category: 'finance',
      venuekCategories: ['Companies', 'Financials', 'Economics'],
      seriesCode: `IPO${c.label.split(' ')[0]!.toUpperCase().slice(0, 6)}`,
      vpQuestion: (when) => `Will ${c.venuep} announce an IPO ${when}?`,
      vpGroupTitle: `${c.venuep} IPO by...?`,
      vkTitle: `When will ${c.venuek} officially announce an IPO?`,
      vkMarket: (before) => `Will ${c.venuek} announce an IPO ${before}?`,
      topics: [c.venuep],
      termEnd: false,
    }
  }
  if (r === 4) {
    const [coin, sym] = rng.pick(N.COINS)
    return {
      key: `etf:${sym}`,
      category: 'crypto',
      venuekCategories: ['Crypto', 'Financials'],
      seriesCode: `ETF${sym}`,
      vpQuestion: (when) => `${coin} ETF approved ${when}?`,
      vpGroupTitle: `${coin} ETF approved by...?`,
      vkTitle: `When will a spot ${coin} ETF be approved?`,
      vkMarket: (before) => `Will a spot ${sym} ETF be approved ${before}?`,
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
      venuekCategories: ['Entertainment'],
      seriesCode: `SEASON${work.replace(/[^A-Za-z]/g, '').toUpperCase().slice(0, 8)}`,
      vpQuestion: (when) => `"${work}" Season ${season} released ${when}?`,
      vpGroupTitle: `"${work}" Season ${season} released by...?`,
      vkTitle: `When will "${work}" Season ${season} be released?`,
      vkMarket: (before) => `Will "${work}" Season ${season} be released ${before}?`,
      topics: [work],
      termEnd: false,
    }
  }
  const pathogen = rng.pick(PATHOGENS)
  return {
    key: `pandemic:${pathogen}`,
    category: 'health',
    venuekCategories: ['Health', 'World'],
    seriesCode: `PANDEMIC${pathogen.replace(/[^A-Za-z0-9]/g, '').toUpperCase().slice(0, 6)}`,
    vpQuestion: (when) => `${pathogen} pandemic declared ${when}?`,
    vpGroupTitle: `${pathogen} pandemic declared by...?`,
    vkTitle: `Will the WHO declare a ${pathogen} pandemic?`,
    vkMarket: (before) => `Will the WHO declare a ${pathogen} pandemic ${before}?`,
    topics: [pathogen],
    termEnd: false,
  }
}

/** Which venue lists each deadline: both (65%), venuep only (15%), venuek only (20%); at least one shared. */
function deadlineSides(rng: Rng, n: number): { onVenuep: boolean; onVenuek: boolean }[] {
  const sides = Array.from({ length: n }, () => {
    const r = rng.next()
    return r < 0.65 ? { onVenuep: true, onVenuek: true } : r < 0.8 ? { onVenuep: true, onVenuek: false } : { onVenuep: false, onVenuek: true }
  })
  if (!sides.some((s) => s.onVenuep && s.onVenuek)) sides[n - 1] = { onVenuep: true, onVenuek: true }
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
    const deadlines = yearDeadlines(y, rng.pick([3, 3, 6]), rng.int(2, 4), after, active ? Date.UTC(y + 1, 0, 1) : endTime)
    const last = deadlines[deadlines.length - 1] as number
    const style = rng.int(0, 5)
    const sides = deadlineSides(rng, deadlines.length)
    const contracts: ContractSpec[] = deadlines.map((d, i) => ({
      label: `Before ${shortDate(d)}`,
      ...(sides[i] as { onVenuep: boolean; onVenuek: boolean }),
      venuepLabel: venuepDeadlineGroupTitle(d),
      venuekLabel: venuekDeadline(d, style),
      venuekSuffix: venuekDeadlineCode(d, style),
      venuekCloseTime: venuekDeadlineClose(d, rng),
      venuepEndDate: venuepDeadlineEnd(d, rng),
    }))
    const all = [...deadlines]
    // A venuek deadline one day before a venuep one ("Before Jun 30, 2026" / "by June 30, 2026"): another contract.
    const shared = contracts.filter((c) => c.onVenuep && c.onVenuek).length
    const j = contracts.findIndex((c) => c.onVenuep)
    // (Kept inside the question's year, so no other question of the subject lists it.)
    if (rng.chance(0.25) && j >= 0 && (shared > 1 || !(contracts[j] as ContractSpec).onVenuek) && oneDayEarlier(deadlines[j] as number) > Date.UTC(y, 0, 1)) {
      contracts[j] = { ...(contracts[j] as ContractSpec), onVenuek: false }
      const d = oneDayEarlier(deadlines[j] as number)
      all.push(d)
      contracts.push({ label: `Before ${shortDate(d)}`, onVenuep: false, onVenuek: true, venuepLabel: venuepDeadlineGroupTitle(d), venuekLabel: `Before ${shortDate(d)}`, venuekSuffix: venuekDeadlineCode(d, 1), venuekCloseTime: venuekDeadlineClose(d, rng), lookalikeOf: j, lookalikeReason: 'deadline one day apart' })
    }
    // An office holder's "Before the term ends" (venuek only): not venuep's "by December 31, 2026".
    const lastOnP = contracts.map((c, i) => (c.onVenuep ? i : -1)).filter((i) => i >= 0).pop()
    if (s.termEnd && active && lastOnP !== undefined && rng.chance(0.5)) {
      const d = Date.UTC(year(last) + rng.int(1, 3), 0, 20)
      all.push(d)
      contracts.push({ label: 'Before the term ends', onVenuep: false, onVenuek: true, venuepLabel: 'Term end', venuekLabel: 'Before the term ends', venuekSuffix: 'TERM', venuekCloseTime: venuekDeadlineClose(d, rng), lookalikeOf: lastOnP, lookalikeReason: 'another deadline (before the term ends)' })
    }
    const firstYear = year(Math.min(...deadlines) - DAY_MS)
    const dropYear = rng.chance(0.5)
    const layout = rng.chance(0.5) ? 'split' : 'grouped'
    const maxDeadline = Math.max(...deadlines)
    const series = `KX${s.seriesCode}`
    return {
      templateId: 'deadline',
      key: `deadline:${s.key}:${y}`,
      category: s.category,
      kind: 'deadline',
      subject: s.vkTitle,
      endTime,
      model: { kind: 'deadline', logHazard: Math.log(0.05 + rng.next() * 1.2), deadlines: all },
      complementary: false,
      contracts,
      venuep: {
        title: s.vpGroupTitle,
        slug: slugify(s.vpGroupTitle.replace('...?', '')),
        description: `Resolves Yes if it happens before the end of the date in the market's question (ET).`,
        negRisk: false,
        outcomes: undefined,
        marketQuestion: (i) => {
          const d = all[i] as number
          // In a group the first year's dates often go without their year ("by June 30?"): it is in endDate.
          const short = layout === 'grouped' && dropYear && year(d - DAY_MS) === firstYear
          return s.vpQuestion(short ? venuepDeadlineShort(d) : venuepDeadline(d, style, ctx.createdAt))
        },
        groupItemTitle: (i) => venuepDeadlineGroupTitle(all[i] as number),
        layout,
        groupTitles: groupTitles(rng),
        endDate: venuepDeadlineEnd(rng.chance(0.5) ? maxDeadline : Math.min(...deadlines), rng),
        tags: vpTags(rng, s.category, s.topics),
      },
      venuek: {
        seriesTicker: series,
        seriesTitle: s.vkTitle,
        seriesCategory: venuekCategory(series, s.venuekCategories),
        frequency: 'custom',
        eventTicker: `${series}-${String(year(maxDeadline) % 100).padStart(2, '0')}`,
        title: s.vkTitle,
        subTitle: s.termEnd && rng.chance(0.4) ? 'During the term' : venuekDeadline(maxDeadline, style),
        mutuallyExclusive: false,
        strikeType: 'structured',
        marketTitle: (i) => s.vkMarket(lower((contracts[i] as ContractSpec).venuekLabel)),
        dates: { closeTime: venuekDeadlineClose(maxDeadline, rng), expectedExpiration: undefined, strikeDate: undefined },
      },
    }
  },
}
