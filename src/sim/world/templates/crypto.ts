import { dateCode, easternHour, longDate, shortDate, slugify } from '../dates.js'
import * as N from '../names.js'
import {
  nextMonthStart,
  tickersDeadline,
  tickersDeadlineClose,
  slugsDeadline,
  slugsDeadlineEnd,
} from '../shapes/deadlines.js'
import { slugsTags } from '../shapes/labels.js'
import { boundsOf, drawWording, floorCap, strikeTypeOf, tickerSuffix, type Strike } from '../shapes/strikes.js'
import { DAY_MS, fmtMoney, groupTitles, ladder } from './helpers.js'
import type { ContractSpec, Template } from './types.js'

// ------------------------------------------------------------------------------------------- crypto
//
// Price ladders in each venue's words (shapes/strikes.ts): the ticker style "$98,000 or above" (greater_or_equal) or "Above
// $98,000" (greater), the slug style "$98,000+", "above $98,000", "↑ $120,000". A coin's price is continuous, so "≥ X" and
// "> X" are one contract on real venues (only the point X itself differs: docs/spreads.md F3); the near-miss strike is
// the other comparator one tick up ("> $98,000" against "≥ $98,001"), a different contract.

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1)

/**
 * A coin's ticker-style price series. The real series lists the daily ladder (coin-ladder) and the hourly one
 * (crypto-hourly.ts) side by side, so both templates name it alike, whichever lists first.
 */
export function coinSeries(name: string, sym: string) {
  return { seriesTicker: `KX${sym}D`, seriesTitle: `${name} daily price`, frequency: 'daily' } as const
}

/** A coin's price tick for the ≥/> step: a cent below $10, a dollar above. */
function priceStep(level: number): number {
  return level < 10 ? 0.001 : 1
}

export const coinLadder: Template<{ coin: (typeof N.COINS)[number] }> = {
  id: 'coin-ladder',
  category: 'crypto',
  weight: 4,
  horizonDays: [1, 60],
  decoyShiftDays: 7,
  pick: (rng) => ({ coin: rng.pick(N.COINS) }),
  key: ({ coin }, endTime) => `coin:${coin[1]}:${dateCode(endTime)}`,
  build: ({ coin: [name, sym, level] }, endTime, rng) => {
    const drifted = level * Math.exp(rng.normal() * 0.08)
    const { values, onP, onK } = ladder(drifted, 0.04, rng)
    // One comparator per event, as each real series has: the ticker style's strike type says which.
    const cmp = rng.chance(0.5) ? 'ge' : 'gt'
    const words = drawWording(rng)
    const strikes: Strike[] = values.map((v) => ({ cmp, lo: v }))
    const sides = values.map((_, i) => ({ onSlugs: onP[i] as boolean, onTickers: onK[i] as boolean }))
    const shared = sides.map((s, i) => (s.onSlugs && s.onTickers ? i : -1)).filter((i) => i >= 0)
    const near = shared.length > 1 && rng.chance(0.3) ? (shared[rng.int(0, shared.length - 1)] as number) : -1
    if (near >= 0) {
      // The slug style words this strike with the other comparator one tick up: a second contract, each listed on one
      // venue.
      sides[near] = { onSlugs: false, onTickers: true }
      strikes.push({ cmp: cmp === 'ge' ? 'gt' : 'ge', lo: (values[near] as number) + priceStep(level) })
      sides.push({ onSlugs: true, onTickers: false })
    }
    const n = values.length
    const contracts: ContractSpec[] = strikes.map((s, i) => ({
      label: `${s.cmp === 'gt' ? 'Above' : 'At least'} ${fmtMoney(s.lo as number)}`,
      threshold: s.lo as number,
      ...(sides[i] as { onSlugs: boolean; onTickers: boolean }),
      slugsLabel: words.slugsTitle(s, fmtMoney),
      tickersLabel: words.tickers(s, fmtMoney),
      tickersSuffix: tickerSuffix(s),
      strikeType: strikeTypeOf(s),
      ...floorCap(s),
      ...(i === n ? { lookalikeOf: near, lookalikeReason: 'at least vs more than, one tick apart' } : {}),
    }))
    return {
      templateId: 'coin-ladder',
      key: `coin:${sym}:${dateCode(endTime)}`,
      category: 'crypto',
      kind: 'ladder',
      subject: `${name} price ${shortDate(endTime)}`,
      endTime,
      model: {
        kind: 'ladder',
        logLevel: Math.log(drifted),
        sigma: 0.06,
        bounds: strikes.map((s) => boundsOf(s, priceStep(level))),
      },
      complementary: false,
      contracts,
      slugs: {
        title: `${name} above ___ on ${longDate(endTime)}?`,
        slug: slugify(`${name} above on ${longDate(endTime)}`),
        description: `Each market resolves Yes if the ${sym}/USD price at 12:00 ET on ${longDate(endTime)} is within its strike.`,
        negRisk: false,
        outcomes: undefined,
        marketQuestion: (i) =>
          `Will the price of ${name} be ${words.slugsPhrase(strikes[i] as Strike, fmtMoney)} on ${longDate(endTime)}?`,
        groupItemTitle: (i) => (contracts[i] as ContractSpec).slugsLabel,
        groupTitles: groupTitles(rng),
        tags: slugsTags(rng, 'crypto', [name]),
      },
      tickers: {
        ...coinSeries(name, sym),
        seriesCategory: 'Crypto',
        eventTicker: `KX${sym}D-${dateCode(endTime)}`,
        title: `${name} price on ${shortDate(endTime)}?`,
        subTitle: `At ${easternHour(endTime)}, ${shortDate(endTime)}`,
        mutuallyExclusive: false,
        strikeType: strikeTypeOf({ cmp }),
        marketTitle: (i) =>
          `Will ${sym} be ${(contracts[i] as ContractSpec).tickersLabel.toLowerCase()} at ${easternHour(endTime)} on ${shortDate(endTime)}?`,
      },
    }
  },
}

/**
 * "What price will Solana hit by December 31, 2026?": the slug style "↑ $250" (reach, ≥) and "↓ $100" children in a group
 * or one single-market event per target; the ticker style a "How high will it get" event whose markets are "$250 or above"
 * (the "↓" targets have no ticker-style side). Deadline wording as in shapes/deadlines.ts.
 */
/** An open question's deadline is the next month start; an ended one's the day it ended. */
function touchDeadline(endTime: number, active: boolean): number {
  return active ? nextMonthStart(endTime) : Math.floor(endTime / DAY_MS) * DAY_MS
}

export const coinTouch: Template<{ coin: (typeof N.COINS)[number] }> = {
  id: 'coin-touch',
  category: 'crypto',
  weight: 2,
  horizonDays: [20, 365],
  decoyShiftDays: 90,
  pick: (rng) => ({ coin: rng.pick(N.COINS) }),
  key: ({ coin }, endTime, ctx) => `touch:${coin[1]}:${dateCode(touchDeadline(endTime, ctx.lifecycle === 'active'))}`,
  build: ({ coin: [name, sym, level] }, endTime, rng, ctx) => {
    const d = touchDeadline(endTime, ctx.lifecycle === 'active')
    const ups = [1.25, 1.5, 2].map((f) => Number((level * f).toPrecision(2)))
    const downs = [0.75, 0.5].map((f) => Number((level * f).toPrecision(2)))
    const strikes: Strike[] = [
      ...ups.map((v): Strike => ({ cmp: 'ge', lo: v })),
      ...downs.map((v): Strike => ({ cmp: 'le', hi: v })),
    ]
    const words = drawWording(rng, true)
    const style = rng.int(0, 5)
    const when = slugsDeadline(d, style, ctx.createdAt)
    const contracts: ContractSpec[] = strikes.map((s) => {
      const up = s.cmp === 'ge'
      const v = (up ? s.lo : s.hi) as number
      return {
        label: `${up ? 'Reach' : 'Dip to'} ${fmtMoney(v)}`,
        onSlugs: true,
        onTickers: up && rng.chance(0.85),
        slugsLabel: up ? words.slugsTitle(s, fmtMoney) : `↓ ${fmtMoney(v)}`,
        tickersLabel: words.tickers(s, fmtMoney),
        tickersSuffix: tickerSuffix(s),
        strikeType: strikeTypeOf(s),
        ...floorCap(s),
        tickersCloseTime: tickersDeadlineClose(d, rng),
      }
    })
    if (!contracts.some((c) => c.onTickers)) contracts[0] = { ...(contracts[0] as ContractSpec), onTickers: true }
    const ask = (i: number) => {
      const s = strikes[i] as Strike
      return s.cmp === 'ge'
        ? `Will ${name} reach ${fmtMoney(s.lo as number)} ${when}?`
        : `Will ${name} dip to ${fmtMoney(s.hi as number)} ${when}?`
    }
    const bounds = strikes.map((s) => boundsOf(s, priceStep(level)))
    return {
      templateId: 'coin-touch',
      key: `touch:${sym}:${dateCode(d)}`,
      category: 'crypto',
      kind: 'ladder',
      subject: `What price will ${name} hit ${when}`,
      endTime,
      // A path's running maximum (or minimum) moves more than its close: a wide ladder.
      model: { kind: 'ladder', logLevel: Math.log(level), sigma: 0.35, bounds },
      complementary: false,
      contracts,
      slugs: {
        title: `What price will ${name} hit ${when}?`,
        slug: slugify(`what price will ${name} hit ${when}`),
        description: `Each market resolves Yes if any 1-minute ${sym}/USD candle trades at or beyond its price ${when}.`,
        negRisk: false,
        outcomes: undefined,
        marketQuestion: ask,
        groupItemTitle: (i) => (contracts[i] as ContractSpec).slugsLabel,
        layout: rng.chance(0.3) ? 'split' : 'grouped',
        groupTitles: groupTitles(rng),
        endDate: slugsDeadlineEnd(d, rng),
        tags: slugsTags(rng, 'crypto', [name, 'Hit Price']),
      },
      tickers: {
        seriesTicker: `KX${sym}MAX`,
        seriesTitle: `How high will ${name} get`,
        seriesCategory: 'Crypto',
        frequency: 'custom',
        eventTicker: `KX${sym}MAX-${dateCode(d)}`,
        title: `How high will ${name} get ${lower(tickersDeadline(d, style))}?`,
        subTitle: tickersDeadline(d, style),
        mutuallyExclusive: false,
        strikeType: 'greater_or_equal',
        marketTitle: (i) =>
          `Will ${sym} trade ${(contracts[i] as ContractSpec).tickersLabel.toLowerCase()} ${lower(tickersDeadline(d, style))}?`,
        dates: { closeTime: tickersDeadlineClose(d, rng), expectedExpiration: undefined, strikeDate: undefined },
      },
    }
  },
}
