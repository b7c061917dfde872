import { dateCode, shortDate, slugify } from '../world/dates.js'
import type { World } from '../world/world.js'
import { listVenuek } from './listing.js'
import { hashInts, hashString, Rng } from '../world/random.js'
import type { TickersCategory } from '../world/shapes/labels.js'
import { boundsOf, drawWording, floorCap, strikeTypeOf, tickerSuffix, type Strike } from '../world/shapes/strikes.js'
import { fmtMoney } from '../world/templates/helpers.js'
import type { ContractSpec, QuestionSpec } from '../world/templates/types.js'
import type { Category, Contract, Question } from '../world/types.js'

/**
 * venuek-only ladder events (config `sim.venuekOnlyLadders`, env `SIM_VENUEK_ONLY_LADDERS`): the real venuek catalog
 * lists far more markets than venuep because of recurring series venuep does not list, each event a ladder of many
 * binary markets: an index's daily close in 10-20 ranges with a tail at each end, a coin's hourly price in ranges
 * or above a row of strikes, a yield's or a commodity's daily settle. This adds that many such events, in the shapes
 * shapes/strikes.ts gives venuek (`between` with floor and cap, `less_or_equal` / `greater_or_equal` tails, a
 * `greater` or `greater_or_equal` threshold row), so a simulated catalog can reach the real venuek's size at a
 * modest number of questions.
 *
 * Each event is a question of its own listed on venuek alone: it pairs with nothing and is not in the ground truth
 * (no pairs, no decoys, no hard negatives). All are open (they are the open catalog's bulk), short-dated (closing at
 * the observation) and thin: a far bracket trades rarely, so each market carries a few history trades, which keeps
 * the simulator's memory per market small.
 *
 * The events go round the series below, the n-th event of a series one slot (an hour, or a day) after the previous,
 * so their keys never collide and a larger count only reaches further ahead. Unlike the questions, laid out around
 * the world's calendar (calendar.ts), they are recurring series listed from the start on: the next observations
 * after the anchor, as the real venue lists them every hour or day. Each event is drawn from a seed of its own (the
 * world's seed, its series and its observation time), so an observation's event has the same tickers, strikes and
 * identifiers at every start that lists it. They are added after the planned questions: at 0 (the default) the world
 * is exactly the one without them.
 */
export interface LadderSeries {
  /** Ticker stem (after `KXSIM`): synthetic, no real series uses it. */
  readonly code: string
  readonly name: string
  readonly category: Category
  readonly tickersCategory: TickersCategory
  /** What is observed ("price", "close", "yield", "settle"). */
  readonly what: string
  readonly level: number
  /** Bracket width and threshold step. */
  readonly width: number
  /** The quantity's own tick: a range ends one tick below the next one's start. */
  readonly tick: number
  readonly fmt: (v: number) => string
  readonly hourly: boolean
  /** `range`: exclusive brackets with two tails; `above`: a row of thresholds. */
  readonly shape: 'range' | 'above'
}

const pct = (v: number) => `${v.toFixed(2)}%`
const rate = (v: number) => v.toFixed(4)

/**
 * The series, in the order events are dealt to them. Coins are the world's own (names.ts); the indices are
 * invented; hourly series come first and are most of the list, as on the real venue.
 */
export const LADDER_SERIES: readonly LadderSeries[] = [
  {
    code: 'BTCH',
    name: 'Bitcoin',
    category: 'crypto',
    tickersCategory: 'Crypto',
    what: 'price',
    level: 98_000,
    width: 250,
    tick: 0.01,
    fmt: fmtMoney,
    hourly: true,
    shape: 'range',
  },
  {
    code: 'BTCHU',
    name: 'Bitcoin',
    category: 'crypto',
    tickersCategory: 'Crypto',
    what: 'price',
    level: 98_000,
    width: 500,
    tick: 0.01,
    fmt: fmtMoney,
    hourly: true,
    shape: 'above',
  },
  {
    code: 'ETHH',
    name: 'Ethereum',
    category: 'crypto',
    tickersCategory: 'Crypto',
    what: 'price',
    level: 3_600,
    width: 20,
    tick: 0.01,
    fmt: fmtMoney,
    hourly: true,
    shape: 'range',
  },
  {
    code: 'ETHHU',
    name: 'Ethereum',
    category: 'crypto',
    tickersCategory: 'Crypto',
    what: 'price',
    level: 3_600,
    width: 40,
    tick: 0.01,
    fmt: fmtMoney,
    hourly: true,
    shape: 'above',
  },
  {
    code: 'SOLH',
    name: 'Solana',
    category: 'crypto',
    tickersCategory: 'Crypto',
    what: 'price',
    level: 180,
    width: 1,
    tick: 0.01,
    fmt: fmtMoney,
    hourly: true,
    shape: 'range',
  },
  {
    code: 'DOGEHU',
    name: 'Dogecoin',
    category: 'crypto',
    tickersCategory: 'Crypto',
    what: 'price',
    level: 0.32,
    width: 0.005,
    tick: 0.0001,
    fmt: (v) => `$${v.toFixed(4)}`,
    hourly: true,
    shape: 'above',
  },
  {
    code: 'MER500',
    name: 'Meridian 500',
    category: 'finance',
    tickersCategory: 'Financials',
    what: 'close',
    level: 6_200,
    width: 25,
    tick: 0.01,
    fmt: (v) => v.toFixed(2),
    hourly: false,
    shape: 'range',
  },
  {
    code: 'MER500U',
    name: 'Meridian 500',
    category: 'finance',
    tickersCategory: 'Financials',
    what: 'close',
    level: 6_200,
    width: 25,
    tick: 0.01,
    fmt: (v) => v.toFixed(2),
    hourly: false,
    shape: 'above',
  },
  {
    code: 'APX100',
    name: 'Apex Tech 100',
    category: 'finance',
    tickersCategory: 'Financials',
    what: 'close',
    level: 21_500,
    width: 100,
    tick: 0.01,
    fmt: (v) => v.toFixed(2),
    hourly: false,
    shape: 'range',
  },
  {
    code: 'GOLDD',
    name: 'Gold',
    category: 'finance',
    tickersCategory: 'Financials',
    what: 'settle',
    level: 2_650,
    width: 10,
    tick: 0.1,
    fmt: fmtMoney,
    hourly: false,
    shape: 'range',
  },
  {
    code: 'WTID',
    name: 'WTI crude oil',
    category: 'finance',
    tickersCategory: 'Financials',
    what: 'settle',
    level: 72,
    width: 0.5,
    tick: 0.01,
    fmt: fmtMoney,
    hourly: false,
    shape: 'range',
  },
  {
    code: 'TY10D',
    name: '10-year Treasury',
    category: 'economics',
    tickersCategory: 'Economics',
    what: 'yield',
    level: 4.25,
    width: 0.02,
    tick: 0.001,
    fmt: pct,
    hourly: false,
    shape: 'range',
  },
  {
    code: 'EURUSDH',
    name: 'EUR/USD',
    category: 'finance',
    tickersCategory: 'Financials',
    what: 'rate',
    level: 1.08,
    width: 0.0025,
    tick: 0.0001,
    fmt: rate,
    hourly: true,
    shape: 'range',
  },
]

const HOUR = 3_600_000
const DAY = 86_400_000
/** A daily series observes at 21:00 UTC (a close). */
const DAILY_AT = 21 * HOUR

/** Markets per event: 10-20 brackets plus two tails for a range, 10-20 strikes for a threshold row. */
const MIN_RUNGS = 10
const MAX_RUNGS = 20

/** Adds `count` venuek-only ladder events to `world` (after its planned questions): the next observations after its anchor. */
export function addVenuekOnlyLadders(world: World, count: number): void {
  const anchor = world.anchorMs
  const firstHour = Math.floor(anchor / HOUR) * HOUR + HOUR
  const firstDay = Math.floor(anchor / DAY) * DAY + DAILY_AT + (anchor % DAY >= DAILY_AT ? DAY : 0)
  for (let n = 0; n < count; n++) {
    const series = LADDER_SERIES[n % LADDER_SERIES.length] as LadderSeries
    const slot = Math.floor(n / LADDER_SERIES.length)
    const endTime = series.hourly ? firstHour + slot * HOUR : firstDay + slot * DAY
    const seed = eventSeed(world.options.seed, series, endTime)
    const qr = new Rng(seed)
    const spec = ladderSpec(series, endTime, qr)
    // Hourly events open a day ahead, daily ones a week or two; always before the anchor.
    const createdAt = Math.min(anchor - HOUR, endTime - (series.hourly ? 1 : qr.int(7, 14)) * DAY)
    const q = ladderQuestion(`k${series.code}-${endTime / HOUR}`, seed, spec, createdAt, qr)
    world.questions.push(q)
    world.questionsById.set(q.id, q)
    listVenuek(world, q, spec, qr.fork(1))
  }
}

/** The seed of one observation's event: the same at every start that lists it. */
function eventSeed(worldSeed: number, series: LadderSeries, endTime: number): number {
  return (hashInts(worldSeed, hashString(series.code), Math.floor(endTime / HOUR)) % (2 ** 31 - 2)) + 1
}

function ladderSpec(s: LadderSeries, endTime: number, rng: Rng): QuestionSpec {
  const drifted = s.level * Math.exp(rng.normal() * 0.05)
  const rungs = rng.int(MIN_RUNGS, MAX_RUNGS)
  const decimals = Math.max(0, -Math.floor(Math.log10(s.tick)))
  const round = (v: number) => Number(v.toFixed(decimals))
  const start = round(Math.round(drifted / s.width) * s.width - Math.floor(rungs / 2) * s.width)
  const strikes: Strike[] = []
  if (s.shape === 'range') {
    strikes.push({ cmp: 'le', hi: round(start - s.tick) })
    for (let i = 0; i < rungs; i++)
      strikes.push({ cmp: 'between', lo: round(start + i * s.width), hi: round(start + (i + 1) * s.width - s.tick) })
    strikes.push({ cmp: 'ge', lo: round(start + rungs * s.width) })
  } else {
    const cmp = rng.chance(0.5) ? 'gt' : 'ge'
    for (let i = 0; i < rungs; i++) strikes.push({ cmp, lo: round(start + i * s.width) })
  }
  const words = drawWording(rng)
  const contracts: ContractSpec[] = strikes.map((st) => {
    const label = words.tickers(st, s.fmt)
    return {
      label,
      threshold: st.lo ?? st.hi,
      onSlugs: false,
      onTickers: true,
      slugsLabel: label,
      tickersLabel: label,
      tickersSuffix: tickerSuffix(st),
      strikeType: strikeTypeOf(st),
      ...floorCap(st),
    }
  })
  const hh = String(new Date(endTime).getUTCHours()).padStart(2, '0')
  const when = s.hourly ? `${shortDate(endTime)} at ${hh}:00 UTC` : shortDate(endTime)
  const range = s.shape === 'range'
  const title = range ? `${s.name} ${s.what} range on ${when}?` : `${s.name} ${s.what} on ${when}?`
  const series = `KXSIM${s.code}`
  // The span of the ladder is about four standard deviations of the underlying at the observation.
  const sigma = (rungs * s.width) / (4 * drifted)
  return {
    templateId: 'venuek-ladder',
    key: `vkladder:${s.code}:${endTime}`,
    category: s.category,
    kind: 'ladder',
    subject: title,
    endTime,
    model: { kind: 'ladder', logLevel: Math.log(drifted), sigma, bounds: strikes.map((st) => boundsOf(st, s.tick)) },
    complementary: false,
    contracts,
    // Never listed in the slug style (every contract is venuek's alone); that side only satisfies the spec's shape.
    slugs: {
      title,
      slug: slugify(title),
      description: title,
      negRisk: false,
      outcomes: undefined,
      marketQuestion: () => title,
      groupItemTitle: undefined,
    },
    tickers: {
      seriesTicker: series,
      seriesTitle: range ? `${s.name} ${s.what} range` : `${s.name} ${s.what} above or below`,
      seriesCategory: s.tickersCategory,
      frequency: s.hourly ? 'hourly' : 'daily',
      eventTicker: `${series}-${dateCode(endTime)}${s.hourly ? hh : ''}`,
      title,
      subTitle: s.hourly ? `At ${hh}:00 UTC, ${shortDate(endTime)}` : `${shortDate(endTime)} ${s.what}`,
      mutuallyExclusive: range,
      strikeType: range ? 'between' : strikeTypeOf(strikes[0] as Strike),
      marketTitle: (i) =>
        `Will the ${s.name} ${s.what} be ${(contracts[i] as ContractSpec).tickersLabel.toLowerCase()} on ${when}?`,
    },
  }
}

/** The question of a ladder event: open, priced by its ladder model, thin (a trade every few hours per market). */
function ladderQuestion(id: string, seed: number, spec: QuestionSpec, createdAt: number, rng: Rng): Question {
  const contracts: Contract[] = spec.contracts.map((c, index) => ({
    key: `${id}:${index}`,
    questionId: id,
    index,
    label: c.label,
    threshold: c.threshold,
    won: undefined,
    halfSpread: Number((0.006 + rng.next() * 0.02).toFixed(4)),
    depthSize: Math.round(rng.logNormal(200, 0.8)),
    tradeIntervalSec: Math.round(rng.logNormal(6 * 3600, 0.8)),
    walks: true,
  }))
  return {
    id,
    seed,
    category: spec.category,
    kind: spec.kind,
    lifecycle: 'active',
    subject: spec.subject,
    createdAt,
    endTime: spec.endTime,
    resolvedAt: undefined,
    volatility: 0.5 + rng.next() * 0.8,
    contracts,
    model: spec.model,
    decoyOf: undefined,
  }
}
