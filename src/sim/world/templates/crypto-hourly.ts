import { longDate, shortDate } from '../dates.js'
import * as N from '../names.js'
import type { Rng } from '../random.js'
import {
  easternDateCode,
  easternOf,
  easternOnDateOf,
  hour12,
  zoneOf,
  type EasternTime,
} from '../shapes/eastern-time.js'
import { tagOf } from '../shapes/labels.js'
import { coinSeries } from './crypto.js'
import { fmtMoney } from './helpers.js'
import type { ContractSpec, QuestionSpec, Template } from './types.js'

// ------------------------------------------------------------------------------------------- hourly crypto
//
// A coin's price at one ET hour, above a row of strikes, worded as both real venues word their hourly series (the
// short-dated captures; the examples here are generated, not captured): the ticker style an event `KXBTCD-26NOV2215`
// titled "Bitcoin price on Nov 22, 2026 at 3pm EST?" (EDT in summer), one market per strike `-T96999.99` whose
// `yes_sub_title` is "$97,000 or above" (`greater`, floor 96999.99), closing at that hour; the slug style an event
// "Bitcoin above ___ on November 22, 3PM ET?" (slug `bitcoin-above-on-november-22-2026-3pm-et`), one Yes/No market
// per strike, "Bitcoin above 97,000 on November 22, 3PM ET?" titled "97,000". "$X or above" and "above X" are the
// same contract (the real labels' rule: the ticker strike is X − 0.01). Each venue lists its own window of the
// strike row, overlapping the other's, with gaps.
//
// Near misses: the neighbouring strike (within the question) and the same strike an hour later (the next hours are
// sibling questions, listed alike: the real venues list every hour).

/** The coins with an hourly series on both venues (names.ts), by symbol. */
const HOURLY = ['BTC', 'ETH', 'SOL']
const HOURLY_COINS = N.COINS.filter(([, sym]) => HOURLY.includes(sym))
const HOUR_MS = 3_600_000

interface HourlyParams {
  readonly coin: (typeof N.COINS)[number]
  /** The first hour's ET hour of day. */
  readonly hour: number
  /** How far the coin's level sits from names.ts's (log units), shared by its hours. */
  readonly drift: number
  /** How many later hours are listed as siblings. */
  readonly more: number
}

/** A strike step of 1, 2, 2.5 or 5 times a power of ten, about half a percent of the level (BTC 500, ETH 20). */
function strikeStep(level: number): number {
  const raw = level * 0.005
  const mag = 10 ** Math.floor(Math.log10(raw))
  const steps = [1, 2, 2.5, 5, 10].map((f) => f * mag)
  return steps.reduce((best, s) => (Math.abs(Math.log(s / raw)) < Math.abs(Math.log(best / raw)) ? s : best))
}

/** "97,000": the slug style's strike, without the dollar sign. */
const plain = (x: number) => fmtMoney(x).slice(1)

/** The ET hour the question asks about: `hour` on the ET date of the planned end's UTC date. */
function firstHour(p: HourlyParams, endTime: number): number {
  return easternOnDateOf(endTime, p.hour)
}

const keyOf = (sym: string, et: EasternTime) =>
  `hourly:${sym}:${easternDateCode(et)}${String(et.hour).padStart(2, '0')}`

/** The ET hour as the slug style writes it in titles ("10AM") and slugs ("10am"). */
const upperHour = (h: number) => hour12(h).toUpperCase()

/** "May 10": the slug style's date, without the year. */
function monthDay(et: EasternTime): string {
  return longDate(Date.UTC(et.year, et.month, et.day)).replace(/, \d+$/, '')
}

function hourSpec(p: HourlyParams, at: number, rng: Rng): QuestionSpec {
  const [name, sym, baseLevel] = p.coin
  const et = easternOf(at)
  const level = baseLevel * Math.exp(p.drift + rng.normal() * 0.004)
  const step = strikeStep(baseLevel)
  const centre = Math.round(level / step) * step
  // Each venue's window of the row: the ticker style's shifted down by 0-2 steps, the slug style's up by 0-2, each
  // strike in it listed nine times in ten (the real ladders skip some).
  const [down, up] = [rng.int(0, 2), rng.int(0, 2)]
  const contracts: ContractSpec[] = []
  for (let j = -4 - down; j <= 4 + up; j++) {
    const onTickers = j <= 4 - down && rng.chance(0.9)
    const onSlugs = j >= -4 + up && rng.chance(0.9)
    if (!onTickers && !onSlugs) continue
    const x = Number((centre + j * step).toPrecision(10))
    const floor = Number((x - 0.01).toFixed(2))
    contracts.push({
      label: `${fmtMoney(x)} or above`,
      threshold: x,
      onSlugs,
      onTickers,
      slugsLabel: plain(x),
      tickersLabel: `${fmtMoney(x)} or above`,
      tickersSuffix: `T${floor.toFixed(2)}`,
      strikeType: 'greater',
      floor,
    })
  }
  // The neighbouring strike is the nearest miss: each strike imitates the next one up.
  const ladder = contracts.map((c, i) =>
    i + 1 < contracts.length ? { ...c, lookalikeOf: i + 1, lookalikeReason: 'neighbouring strike' } : c,
  )
  const day = monthDay(et)
  const slugTail = `on-${day.toLowerCase().replace(' ', '-')}-${et.year}-${hour12(et.hour)}-et`
  const lowerName = name.toLowerCase()
  const title = `${name} price on ${shortDate(Date.UTC(et.year, et.month, et.day))} at ${hour12(et.hour)} ${zoneOf(et)}?`
  return {
    templateId: 'crypto-hourly',
    key: keyOf(sym, et),
    category: 'crypto',
    kind: 'ladder',
    subject: `${name} price at ${hour12(et.hour)} ET ${day}, ${et.year}`,
    facet: `${hour12(et.hour)} ET`,
    endTime: at,
    // An hour's move is small: the strikes half a percent apart span the likely range.
    model: {
      kind: 'ladder',
      logLevel: Math.log(level),
      sigma: 0.012,
      bounds: ladder.map((c) => [(c.threshold as number) - 0.005, Number.POSITIVE_INFINITY] as const),
    },
    complementary: false,
    contracts: ladder,
    slugs: {
      title: `${name} above ___ on ${day}, ${upperHour(et.hour)} ET?`,
      slug: `${lowerName}-above-${slugTail}`,
      description: `Each market resolves Yes if the ${sym}/USD price at ${upperHour(et.hour)} ET on ${day}, ${et.year} is above its strike.`,
      negRisk: false,
      outcomes: undefined,
      marketQuestion: (i) =>
        `${name} above ${plain(ladder[i]?.threshold as number)} on ${day}, ${upperHour(et.hour)} ET?`,
      groupItemTitle: (i) => (ladder[i] as ContractSpec).slugsLabel,
      groupTitles: 'title',
      marketSlug: (i) => `${lowerName}-above-${String(ladder[i]?.threshold)}-${slugTail}`,
      endDate: at,
      tags: [tagOf('Crypto'), tagOf(name), tagOf('Hourly')],
    },
    tickers: {
      ...coinSeries(name, sym),
      seriesCategory: 'Crypto',
      eventTicker: `KX${sym}D-${easternDateCode(et)}${String(et.hour).padStart(2, '0')}`,
      title,
      subTitle: `At ${hour12(et.hour)} ${zoneOf(et)}, ${shortDate(Date.UTC(et.year, et.month, et.day))}`,
      mutuallyExclusive: false,
      strikeType: 'greater',
      // The real markets repeat the event's title.
      marketTitle: () => title,
    },
  }
}

export const cryptoHourly: Template<HourlyParams> = {
  id: 'crypto-hourly',
  category: 'crypto',
  weight: 1.6,
  horizonDays: [0, 2],
  decoyShiftDays: 1,
  pick: (rng) => ({
    coin: rng.pick(HOURLY_COINS),
    hour: rng.int(0, 23),
    drift: rng.normal() * 0.04,
    more: rng.int(1, 3),
  }),
  key: (p, endTime) => keyOf(p.coin[1], easternOf(firstHour(p, endTime))),
  build: (p, endTime, rng) => hourSpec(p, firstHour(p, endTime), rng),
  // The next hours, each its own event on both venues: the same strikes an hour apart are different contracts.
  siblings: (p, endTime, rng) => {
    const start = firstHour(p, endTime)
    return Array.from({ length: p.more }, (_, k) => hourSpec(p, start + (k + 1) * HOUR_MS, rng.fork(k + 1)))
  },
}
