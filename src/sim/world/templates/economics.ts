import { dateCode, monthCode, monthYear, shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import { logit } from '../path.js'
import type { Rng } from '../random.js'
import { tickersCategory, slugsTags } from '../shapes/labels.js'
import { boundsOf, drawWording, floorCap, strikeTypeOf, tickerSuffix, type Strike } from '../shapes/strikes.js'
import { releaseDates, slugsEndDate } from '../shapes/venue-dates.js'
import { binaryContract, groupTitles } from './helpers.js'
import type { ContractSpec, QuestionSpec, Template } from './types.js'

// ------------------------------------------------------------------------------------------- economics

const FED_LABELS = ['50+ bps decrease', '25 bps decrease', 'No change', '25+ bps increase']
const FED_LABELS_K = ['Decrease of 50+ bps', 'Decrease of 25 bps', 'No change', 'Increase of 25+ bps']

export const fedDecision: Template<{ bank: string; code: string }> = {
  id: 'fed-decision',
  category: 'economics',
  weight: 2,
  horizonDays: [10, 400],
  decoyShiftDays: 42,
  pick: (rng) =>
    rng.pick([
      { bank: 'Fed', code: 'FED' },
      { bank: 'ECB', code: 'ECB' },
      { bank: 'BoE', code: 'BOE' },
    ]),
  key: ({ code }, endTime) => `fed:${code}:${dateCode(endTime)}`,
  build: ({ bank, code }, endTime, rng) => ({
    templateId: 'fed-decision',
    key: `fed:${code}:${dateCode(endTime)}`,
    category: 'economics',
    kind: 'multi',
    subject: `${bank} decision ${monthYear(endTime)}`,
    endTime,
    model: { kind: 'multi', bases: [rng.normal() - 1.5, rng.normal() + 0.6, rng.normal() + 0.9, rng.normal() - 1.8] },
    complementary: false,
    contracts: FED_LABELS.map((label, i) => ({
      label,
      onSlugs: true,
      onTickers: true,
      slugsLabel: label,
      tickersLabel: FED_LABELS_K[i] as string,
      tickersSuffix: ['C50', 'C25', 'H0', 'H25'][i] as string,
    })),
    slugs: {
      title: `${bank} decision in ${monthYear(endTime)}?`,
      slug: slugify(`${bank} decision in ${monthYear(endTime)}`),
      description: `Resolves according to the ${bank}'s announced change to its policy rate at the ${monthYear(endTime)} meeting.`,
      negRisk: true,
      outcomes: undefined,
      marketQuestion: (i) => `${bank} ${FED_LABELS[i]} after ${monthYear(endTime)} meeting?`,
      groupItemTitle: (i) => FED_LABELS[i] as string,
      tags: slugsTags(rng, 'economics', [bank]),
    },
    tickers: {
      seriesTicker: `KX${code}DECISION`,
      seriesTitle: `${bank} rate decision`,
      seriesCategory: 'Economics',
      frequency: 'custom',
      eventTicker: `KX${code}DECISION-${dateCode(endTime)}`,
      title: `${bank} rate decision on ${shortDate(endTime)}`,
      subTitle: `Meeting of ${shortDate(endTime)}`,
      mutuallyExclusive: true,
      strikeType: 'custom',
      marketTitle: (i) => `Will the ${bank} announce a ${FED_LABELS_K[i]!.toLowerCase()} on ${shortDate(endTime)}?`,
    },
  }),
}

type EconParams = { series: (typeof N.ECON_SERIES)[number]; country: readonly [string, string] }
/** The figures are reported to a tenth of a point: "above 2.9%" and "2.9% or more" differ by that tenth. */
const REPORTED_STEP = 0.1

const econKey = ({ series, country }: EconParams, endTime: number) =>
  `econ:${series[1]}:${country[1]}:${monthCode(endTime)}`

/**
 * A macro ladder: the ticker style states each threshold as `greater` ("Above 2.9%"), the slug style in its own words ("above 2.9%",
 * ">2.9%"); the venues list overlapping strikes. In 30% of ladders the slug style lists one strike as "2.9% or more": not
 * the ticker style's "Above 2.9%" (docs/spreads.md F3, a one-tick offset).
 */
function econSpec(
  { series: [name, code, unit, level, step], country: [cname, ccode] }: EconParams,
  endTime: number,
  rng: Rng,
): QuestionSpec {
  const count = rng.int(5, 7)
  const start = Number((level - step * Math.floor(count / 2) + step * rng.int(-2, 2)).toFixed(2))
  const values = Array.from({ length: count }, (_, i) => Number((start + i * step).toFixed(2)))
  const offsetP = rng.int(0, 1)
  const m = monthYear(endTime)
  const fmt = (v: number) => `${v}${unit}`
  const words = drawWording(rng)
  const strikes: Strike[] = values.map((v) => ({ cmp: 'gt', lo: v }))
  const sides = values.map((_, i) => ({ onSlugs: i >= offsetP && i < count - (1 - offsetP), onTickers: true }))
  const nearMiss = rng.chance(0.3) ? rng.int(1, count - 2) : -1
  if (nearMiss >= 0) {
    // The slug style's "≥ v" beside the ticker style's "> v": two contracts, each listed once.
    sides[nearMiss] = { onSlugs: false, onTickers: true }
    strikes.push({ cmp: 'ge', lo: values[nearMiss] as number })
    sides.push({ onSlugs: true, onTickers: false })
  }
  // A low tail ("<2.5%", the ticker style's `less` "Below 2.5%") on some ladders.
  if (rng.chance(0.35)) {
    strikes.push({ cmp: 'lt', hi: values[0] as number })
    sides.push({ onSlugs: true, onTickers: rng.chance(0.7) })
  }
  const contracts: ContractSpec[] = strikes.map((s, i) => ({
    label:
      s.cmp === 'lt'
        ? `Below ${fmt(s.hi as number)}`
        : `${s.cmp === 'gt' ? 'Above' : 'At least'} ${fmt(s.lo as number)}`,
    threshold: (s.lo ?? s.hi) as number,
    ...(sides[i] as { onSlugs: boolean; onTickers: boolean }),
    slugsLabel: words.slugsTitle(s, fmt),
    tickersLabel: words.tickers(s, fmt),
    tickersSuffix: tickerSuffix(s),
    strikeType: strikeTypeOf(s),
    ...floorCap(s),
    ...(i === count && nearMiss >= 0 ? { lookalikeOf: nearMiss, lookalikeReason: 'at least vs more than' } : {}),
  }))
  return {
    templateId: 'econ-ladder',
    key: econKey({ series: [name, code, unit, level, step], country: [cname, ccode] }, endTime),
    category: 'economics',
    kind: 'ladder',
    subject: `${cname} ${name} ${m}`,
    endTime,
    model: {
      kind: 'ladder',
      logLevel: Math.log(level + (rng.next() - 0.5) * step * 2),
      sigma: (step * 2.2) / level,
      bounds: strikes.map((s) => boundsOf(s, REPORTED_STEP)),
    },
    complementary: false,
    contracts,
    slugs: {
      title: `${cname} ${name} in ${m}?`,
      slug: slugify(`${cname} ${name} in ${m}`),
      description: `Each market resolves Yes if the reported ${cname} ${name} for ${m} is within its strike.`,
      negRisk: false,
      outcomes: undefined,
      marketQuestion: (i) => `Will ${cname} ${name} be ${words.slugsPhrase(strikes[i] as Strike, fmt)} in ${m}?`,
      groupItemTitle: (i) => (contracts[i] as ContractSpec).slugsLabel,
      groupTitles: groupTitles(rng),
      endDate: slugsEndDate(endTime, rng),
      tags: slugsTags(rng, 'economics', [cname]),
    },
    tickers: {
      seriesTicker: `KX${code}${ccode}`,
      seriesTitle: `${cname} ${name}`,
      seriesCategory: 'Economics',
      frequency: 'monthly',
      eventTicker: `KX${code}${ccode}-${monthCode(endTime)}`,
      title: `${cname} ${name} in ${m}`,
      subTitle: `${m} release`,
      mutuallyExclusive: false,
      strikeType: 'greater',
      marketTitle: (i) =>
        `Will ${cname} ${name} be ${(contracts[i] as ContractSpec).tickersLabel.toLowerCase()} for ${m}?`,
    },
  }
}

export const econLadder: Template<EconParams> = {
  id: 'econ-ladder',
  category: 'economics',
  weight: 2,
  horizonDays: [15, 120],
  decoyShiftDays: 31,
  pick: (rng) => ({ series: rng.pick(N.ECON_SERIES), country: rng.pick(N.COUNTRIES) }),
  key: (p, endTime) => econKey(p, endTime),
  build: (p, endTime, rng) => econSpec(p, endTime, rng),
  // The same figure for another country (docs/spreads.md F6: US, Italy, Germany and France GDP merged on real data).
  decoy: (p, endTime, rng) => ({
    reason: 'another country',
    spec: econSpec({ ...p, country: rng.pick(N.COUNTRIES.filter((c) => c[1] !== p.country[1])) }, endTime, rng),
  }),
}

/** A calendar-year question settled on data published months later (the ticker style stays open until then). */
function recessionSpec([name, code]: readonly [string, string], endTime: number, rng: Rng): QuestionSpec {
  const y = year(endTime)
  return {
    templateId: 'recession',
    key: `recession:${code}:${y}`,
    category: 'economics',
    kind: 'binary',
    subject: `${name} recession ${y}`,
    endTime,
    model: { kind: 'binary', base: logit(0.15 + rng.next() * 0.4) },
    complementary: false,
    contracts: [binaryContract()],
    slugs: {
      title: `${name} recession in ${y}?`,
      slug: slugify(`${name} recession in ${y}`),
      description: `Resolves Yes if ${name} records two consecutive quarters of negative GDP growth in ${y}.`,
      negRisk: false,
      outcomes: ['Yes', 'No'],
      marketQuestion: () => `${name} recession in ${y}?`,
      groupItemTitle: undefined,
      endDate: slugsEndDate(endTime, rng),
      tags: slugsTags(rng, 'economics', [name]),
    },
    tickers: {
      seriesTicker: `KXREC${code}`,
      seriesTitle: `${name} recession`,
      seriesCategory: 'Economics',
      frequency: 'annual',
      eventTicker: `KXREC${code}-${String(y % 100)}`,
      title: `Will ${name} enter a recession during ${y}?`,
      subTitle: rng.chance(0.5) ? `In ${y}` : `Calendar year ${y}`,
      mutuallyExclusive: false,
      strikeType: 'structured',
      marketTitle: () => `Will ${name} be in a recession in ${y}?`,
      dates: releaseDates(Date.UTC(y + 1, 0, 1), rng),
    },
  }
}

export const recession: Template<{ country: readonly [string, string] }> = {
  id: 'recession',
  category: 'economics',
  weight: 1,
  horizonDays: [60, 500],
  decoyShiftDays: 365,
  pick: (rng) => ({ country: rng.pick(N.COUNTRIES) }),
  key: ({ country }, endTime) => `recession:${country[1]}:${year(endTime)}`,
  build: ({ country }, endTime, rng) => recessionSpec(country, endTime, rng),
  decoy: ({ country }, endTime, rng) => ({
    reason: 'another country',
    spec: recessionSpec(rng.pick(N.COUNTRIES.filter((c) => c[1] !== country[1])), endTime, rng),
  }),
}

/**
 * "How many Fed rate cuts in 2026?": the slug style lists exclusive counts ("0", "1 (25 bps)", "2 (50 bps)", "4+"), the ticker style
 * "Exactly 2" (between) and the top bucket as "4 or more" (greater_or_equal 4) or "More than 3" (greater 3): on a
 * count those two are the same contract. In 30% of events the ticker style lists "More than 4" instead: not the slug style's "4+".
 */
export const rateCuts: Template<{ bank: string; code: string }> = {
  id: 'rate-cuts',
  category: 'economics',
  weight: 1,
  horizonDays: [60, 500],
  decoyShiftDays: 365,
  pick: (rng) =>
    rng.pick([
      { bank: 'Fed', code: 'FED' },
      { bank: 'ECB', code: 'ECB' },
      { bank: 'BoE', code: 'BOE' },
    ]),
  key: ({ code }, endTime) => `cuts:${code}:${year(endTime)}`,
  build: ({ bank, code }, endTime, rng) => {
    const y = year(endTime)
    const top = rng.int(3, 5)
    const strikes: Strike[] = Array.from({ length: top }, (_, k): Strike => ({ cmp: 'between', lo: k, hi: k }))
    strikes.push({ cmp: 'ge', lo: top })
    const topAsMoreThan = rng.chance(0.5)
    const nearMiss = rng.chance(0.3)
    const contracts: ContractSpec[] = strikes.map((s, k) => {
      const isTop = k === top
      const slugsLabelOf = isTop ? `${top}+` : k === 0 ? '0' : `${k} (${k * 25} bps)`
      const tickersStrike: Strike = isTop && topAsMoreThan ? { cmp: 'gt', lo: top - 1 } : s
      return {
        label: isTop ? `${top} or more cuts` : `Exactly ${k} cuts`,
        onSlugs: true,
        onTickers: isTop ? !nearMiss : rng.chance(0.8),
        slugsLabel: slugsLabelOf,
        tickersLabel: isTop ? (topAsMoreThan ? `More than ${top - 1}` : `${top} or more`) : `Exactly ${k}`,
        tickersSuffix: isTop ? `T${top}` : `B${k}`,
        strikeType: strikeTypeOf(tickersStrike),
        ...floorCap(tickersStrike),
      }
    })
    if (nearMiss) {
      strikes.push({ cmp: 'gt', lo: top })
      contracts.push({
        label: `More than ${top} cuts`,
        onSlugs: false,
        onTickers: true,
        slugsLabel: `>${top}`,
        tickersLabel: `More than ${top}`,
        tickersSuffix: `T${top + 1}`,
        strikeType: 'greater',
        floor: top,
        lookalikeOf: top,
        lookalikeReason: 'at least vs more than',
      })
    }
    // The count plus one is log-normal (a count can be 0).
    const bounds = strikes.map((s) => boundsOf(s, 1)).map(([lo, hi]) => [lo + 1, hi + 1] as const)
    return {
      templateId: 'rate-cuts',
      key: `cuts:${code}:${y}`,
      category: 'economics',
      kind: 'ladder',
      subject: `${bank} rate cuts in ${y}`,
      endTime,
      model: { kind: 'ladder', logLevel: Math.log(1 + rng.next() * 3), sigma: 0.45, bounds },
      complementary: false,
      contracts,
      slugs: {
        title: `How many ${bank} rate cuts in ${y}?`,
        slug: slugify(`how many ${bank} rate cuts in ${y}`),
        description: `Resolves to the number of 25 bps cuts the ${bank} announces in ${y}.`,
        negRisk: true,
        outcomes: undefined,
        marketQuestion: (k) =>
          k === 0
            ? `Will no ${bank} rate cuts happen in ${y}?`
            : k === top
              ? `Will ${top} or more ${bank} rate cuts happen in ${y}?`
              : `Will ${k} ${bank} rate cut${k === 1 ? '' : 's'} happen in ${y}?`,
        groupItemTitle: (k) => (contracts[k] as ContractSpec).slugsLabel,
        endDate: slugsEndDate(Date.UTC(y, 11, 31), rng),
        tags: slugsTags(rng, 'economics', [bank]),
      },
      tickers: {
        seriesTicker: `KX${code}CUTS`,
        seriesTitle: `Number of ${bank} rate cuts`,
        seriesCategory: tickersCategory(`KX${code}CUTS`, ['Economics', 'Financials']),
        frequency: 'annual',
        eventTicker: `KX${code}CUTS-${String(y % 100)}`,
        title: `Number of ${bank} rate cuts in ${y}?`,
        subTitle: `In ${y}`,
        mutuallyExclusive: false,
        strikeType: 'between',
        marketTitle: (k) =>
          `Will the ${bank} cut rates ${(contracts[k] as ContractSpec).tickersLabel.toLowerCase()} times in ${y}?`,
        dates: releaseDates(Date.UTC(y + 1, 0, 1), rng),
      },
    }
  },
}
