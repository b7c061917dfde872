import { dateCode, longDate, shortDate, slugify, year } from '../dates.js'
import * as N from '../names.js'
import { logit } from '../path.js'
import type { Rng } from '../random.js'
import { slugsTags } from '../shapes/labels.js'
import { drawWording, floorCap, strikeTypeOf, tickerSuffix, type Strike } from '../shapes/strikes.js'
import { releaseDates, slugsEndDate } from '../shapes/venue-dates.js'
import { binaryContract } from './helpers.js'
import type { QuestionSpec, Template } from './types.js'

// ------------------------------------------------------------------------------------------- climate

type City = (typeof N.CITIES)[number]

/**
 * Daily temperature brackets: the ticker style's `between` markets with floor and cap ("62° to 63°") and tails
 * (`less_or_equal` "61° or below" or `less` "Below 62°", `greater_or_equal` "72° or above" or `greater` "Above
 * 71°"), the slug style "62-63°F" / "62–63°F" ("Will the highest temperature in Denver be between 62-63°F on …?").
 * The decoy is the same city's daily low (docs/spreads.md F5: daily-high and daily-low series merged on (city, date)
 * made a 98-point phantom gap).
 */
const temperatureKey = (code: string, endTime: number, low: boolean) =>
  `temp:${low ? 'low' : 'high'}:${code}:${dateCode(endTime)}`

function temperatureSpec([name, code, base]: City, endTime: number, rng: Rng, low: boolean): QuestionSpec {
  const center = base - (low ? 14 : 0) + rng.int(-6, 6)
  const lo = center - 5
  const strikes: Strike[] = [{ cmp: 'le', hi: lo - 1 }]
  for (let t = lo; t < lo + 10; t += 2) strikes.push({ cmp: 'between', lo: t, hi: t + 1 })
  strikes.push({ cmp: 'ge', lo: lo + 10 })
  const words = drawWording(rng)
  const deg = (v: number) => `${v}°`
  // Whole degrees: the ticker style may word a tail one degree over ("Below 56°" is "55° or below", "Above 65°" is "66° or
  // above"), the same contract in other numbers.
  const tailLow = rng.chance(0.5)
  const tailHigh = rng.chance(0.5)
  const tickersStrike = (s: Strike): Strike =>
    s.cmp === 'le' && tailLow
      ? { cmp: 'lt', hi: (s.hi as number) + 1 }
      : s.cmp === 'ge' && tailHigh
        ? { cmp: 'gt', lo: (s.lo as number) - 1 }
        : s
  // The real short-dated weather pairs word a bracket "62° to 63°" (ticker style) and ask "between 62-63°F" (slug
  // style, whose group titles also write "62–63°F"); the tails "64° or above" and "64°F or higher".
  const slugsLabelOf = (s: Strike) =>
    s.cmp === 'le' ? `${s.hi}°F or below` : s.cmp === 'ge' ? `${s.lo}°F or higher` : `${words.slugsTitle(s, String)}°F`
  const slugsPhraseOf = (s: Strike) => (s.cmp === 'between' ? `between ${s.lo}-${s.hi}°F` : slugsLabelOf(s))
  const tickersLabelOf = (s: Strike) => (s.cmp === 'between' ? `${s.lo}° to ${s.hi}°` : words.tickers(s, deg))
  const what = low ? 'lowest' : 'highest'
  const series = `KX${low ? 'LOW' : 'HIGH'}${code}`
  return {
    templateId: 'temperature',
    key: temperatureKey(code, endTime, low),
    category: 'climate',
    kind: 'multi',
    subject: `${name} ${low ? 'low' : 'high'} temperature ${shortDate(endTime)}`,
    endTime,
    model: { kind: 'multi', bases: strikes.map((_, i) => -Math.abs(i - 3.5 + rng.normal() * 0.8) * 0.7) },
    complementary: false,
    contracts: strikes.map((s) => ({
      label: slugsLabelOf(s),
      onSlugs: true,
      onTickers: true,
      slugsLabel: slugsLabelOf(s),
      tickersLabel: tickersLabelOf(tickersStrike(s)),
      tickersSuffix: tickerSuffix(tickersStrike(s)),
      strikeType: strikeTypeOf(tickersStrike(s)),
      ...floorCap(tickersStrike(s)),
    })),
    slugs: {
      title: `${low ? 'Lowest' : 'Highest'} temperature in ${name} on ${longDate(endTime)}?`,
      slug: slugify(`${what} temperature in ${name} on ${longDate(endTime)}`),
      description: `Resolves to the bracket containing the ${what} temperature recorded in ${name} on ${longDate(endTime)}.`,
      negRisk: true,
      outcomes: undefined,
      marketQuestion: (i) =>
        `Will the ${what} temperature in ${name} be ${slugsPhraseOf(strikes[i] as Strike)} on ${longDate(endTime)}?`,
      groupItemTitle: (i) => slugsLabelOf(strikes[i] as Strike),
      tags: slugsTags(rng, 'climate', [name]),
    },
    tickers: {
      seriesTicker: series,
      seriesTitle: `${low ? 'Lowest' : 'Highest'} temperature in ${name}`,
      seriesCategory: 'Climate and Weather',
      frequency: 'daily',
      eventTicker: `${series}-${dateCode(endTime)}`,
      title: `${low ? 'Lowest' : 'Highest'} temperature in ${name} today? (${shortDate(endTime)})`,
      subTitle: shortDate(endTime),
      mutuallyExclusive: true,
      strikeType: 'between',
      marketTitle: (i) =>
        `Will the ${low ? 'low' : 'high'} temp in ${name} be ${tickersLabelOf(tickersStrike(strikes[i] as Strike)).toLowerCase()} on ${shortDate(endTime)}?`,
    },
  }
}

export const temperature: Template<{ city: City }> = {
  id: 'temperature',
  category: 'climate',
  weight: 3,
  horizonDays: [1, 10],
  decoyShiftDays: 1,
  pick: (rng) => ({ city: rng.pick(N.CITIES) }),
  key: ({ city }, endTime) => temperatureKey(city[1], endTime, false),
  build: ({ city }, endTime, rng) => temperatureSpec(city, endTime, rng, false),
  decoy: ({ city }, endTime, rng) => ({
    reason: 'daily low vs daily high',
    spec: temperatureSpec(city, endTime, rng, true),
  }),
}

export const hottestYear: Template<Record<string, never>> = {
  id: 'hottest-year',
  category: 'climate',
  weight: 0.3,
  horizonDays: [30, 700],
  decoyShiftDays: 365,
  pick: () => ({}),
  key: (_, endTime) => `hottest:${year(endTime)}`,
  build: (_, endTime, rng) => {
    const y = year(endTime)
    return {
      templateId: 'hottest-year',
      key: `hottest:${y}`,
      category: 'climate',
      kind: 'binary',
      subject: `${y} hottest year`,
      endTime,
      model: { kind: 'binary', base: logit(0.3 + rng.next() * 0.4) },
      complementary: false,
      contracts: [binaryContract()],
      slugs: {
        title: `Will ${y} be the hottest year on record?`,
        slug: slugify(`will ${y} be the hottest year on record`),
        description: `Resolves Yes if ${y} is reported as the warmest calendar year in the global surface temperature record.`,
        negRisk: false,
        outcomes: ['Yes', 'No'],
        marketQuestion: () => `Will ${y} be the hottest year on record?`,
        groupItemTitle: undefined,
        endDate: slugsEndDate(Date.UTC(y, 11, 31), rng),
        tags: slugsTags(rng, 'climate', []),
      },
      tickers: {
        seriesTicker: 'KXHOTYEAR',
        seriesTitle: 'Hottest year on record',
        seriesCategory: 'Climate and Weather',
        frequency: 'annual',
        eventTicker: `KXHOTYEAR-${String(y % 100)}`,
        title: `${y} warmest year ever recorded?`,
        subTitle: `Calendar year ${y}`,
        mutuallyExclusive: false,
        strikeType: 'structured',
        marketTitle: () => `Will ${y} be the warmest year on record?`,
        dates: releaseDates(Date.UTC(y + 1, 0, 1), rng),
      },
    }
  },
}
