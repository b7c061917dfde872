import type { Rng } from '../random.js'
import type { StrikeType } from '../types.js'

/**
 * Numeric contracts as the venues write them. One comparator and strike per contract; each venue words it its own
 * way, and the words carry the comparator:
 *
 * - the ticker style states it in `strike_type` (greater, greater_or_equal, less, less_or_equal, between) with `floor_strike`
 *   / `cap_strike` and a ticker suffix (`-T120000`, `-B4.25`), and in `yes_sub_title` ("Above 4.25%",
 *   "At least $500", "$10 billion to $99 billion": the real price and amount ladders in test/fixtures/real-venues).
 * - the slug style only in words, in `groupItemTitle` or the question: "↑ $120,000", "above 4.25%", "<1%", "2–3", ">$250B",
 *   "$100+" (the real "What price will Bitcoin hit", "How many Fed rate cuts", DOGE-cut and GTA events).
 *
 * "$100+", "or more", "at least" are ≥ while "more than", "above" are >: on a quantity that moves in steps (prices
 * in dollars, counts, rates in basis points) the two are one step apart and are different contracts, the mismatch
 * that fabricated phantom gaps on real macro pairs (docs/spreads.md F3). `bounds` keeps that step.
 */
export type Comparator = 'gt' | 'ge' | 'lt' | 'le' | 'between'

export interface Strike {
  readonly cmp: Comparator
  /** The strike of gt/ge, the low end of a range (inclusive). */
  readonly lo?: number
  /** The strike of lt/le, the high end of a range (inclusive). */
  readonly hi?: number
}

const STRIKE_TYPE: Record<Comparator, StrikeType> = {
  gt: 'greater',
  ge: 'greater_or_equal',
  lt: 'less',
  le: 'less_or_equal',
  between: 'between',
}

export function strikeTypeOf(s: Strike): StrikeType {
  return STRIKE_TYPE[s.cmp]
}

/** The ticker style's `floor_strike` / `cap_strike`: the floor of gt/ge/between, the cap of lt/le/between. */
export function floorCap(s: Strike): { floor?: number; cap?: number } {
  if (s.cmp === 'gt' || s.cmp === 'ge') return { floor: s.lo as number }
  if (s.cmp === 'lt' || s.cmp === 'le') return { cap: s.hi as number }
  return { floor: s.lo as number, cap: s.hi as number }
}

/**
 * The open interval (lo, hi) of the underlying that makes the contract true, on a quantity that moves in steps of
 * `step`: "≥ 100" is "> 99.5" when prices move by 1, "> 100" is "> 100.5". 0 and Infinity are open ends.
 */
export function boundsOf(s: Strike, step: number): readonly [number, number] {
  const half = step / 2
  switch (s.cmp) {
    case 'gt':
      return [(s.lo as number) + half, Number.POSITIVE_INFINITY]
    case 'ge':
      return [(s.lo as number) - half, Number.POSITIVE_INFINITY]
    case 'lt':
      return [0, (s.hi as number) - half]
    case 'le':
      return [0, (s.hi as number) + half]
    case 'between':
      return [(s.lo as number) - half, (s.hi as number) + half]
  }
}

/** The ticker-style ticker suffix: `T<strike>` for a threshold, `B<midpoint>` for a range (a real ticker-style venue's convention). */
export function tickerSuffix(s: Strike): string {
  if (s.cmp === 'between') return `B${Number((((s.lo as number) + (s.hi as number)) / 2).toPrecision(8))}`
  return `T${s.cmp === 'gt' || s.cmp === 'ge' ? s.lo : s.hi}`
}

/**
 * One venue's words for every comparator: an event words all its contracts alike, so a wording is drawn once per
 * event and venue. `fmt` writes a number with its unit ("$120,000", "4.25%").
 */
export interface StrikeWording {
  readonly tickers: (s: Strike, fmt: (v: number) => string) => string
  readonly slugsTitle: (s: Strike, fmt: (v: number) => string) => string
  readonly slugsPhrase: (s: Strike, fmt: (v: number) => string) => string
}

const TICKERS_WORDS: Record<Comparator, readonly ((a: string, b: string) => string)[]> = {
  gt: [(a) => `Above ${a}`, (a) => `More than ${a}`],
  ge: [(a) => `${a} or above`, (a) => `At least ${a}`],
  lt: [(a) => `Below ${a}`, (a) => `Less than ${a}`],
  le: [(a) => `${a} or below`, (a) => `At most ${a}`],
  between: [(a, b) => `Between ${a} and ${b}`, (a, b) => `${a} to ${b}`],
}

/** The slug style's group labels: terse, with symbols ("↑" only where the question is about reaching a price). */
const SLUGS_TITLES: Record<Comparator, readonly ((a: string, b: string) => string)[]> = {
  gt: [(a) => `>${a}`, (a) => `above ${a}`, (a) => `more than ${a}`],
  ge: [(a) => `${a}+`, (a) => `${a} or more`, (a) => `at least ${a}`],
  lt: [(a) => `<${a}`, (a) => `below ${a}`, (a) => `less than ${a}`],
  le: [(a) => `${a} or less`, (a) => `≤${a}`],
  between: [(a, b) => `${a}–${b}`, (a, b) => `${a}-${b}`],
}

const SLUGS_PHRASES: Record<Comparator, readonly ((a: string, b: string) => string)[]> = {
  gt: [(a) => `more than ${a}`, (a) => `above ${a}`],
  ge: [(a) => `${a} or more`, (a) => `at least ${a}`],
  lt: [(a) => `less than ${a}`, (a) => `below ${a}`],
  le: [(a) => `${a} or less`, (a) => `at most ${a}`],
  between: [(a, b) => `between ${a} and ${b}`, (a, b) => `${a}-${b}`],
}

function args(s: Strike, fmt: (v: number) => string): [string, string] {
  if (s.cmp === 'gt' || s.cmp === 'ge') return [fmt(s.lo as number), '']
  if (s.cmp === 'lt' || s.cmp === 'le') return [fmt(s.hi as number), '']
  return [fmt(s.lo as number), fmt(s.hi as number)]
}

/** Draws one wording per venue; `touch` adds the slug style's "↑ $120,000" for ≥ (a price to reach). */
export function drawWording(rng: Rng, touch = false): StrikeWording {
  const k = rng.int(0, 1)
  const t = rng.int(0, 2)
  const p = rng.int(0, 1)
  const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T
  return {
    tickers: (s, fmt) => pick(TICKERS_WORDS[s.cmp], k)(...args(s, fmt)),
    slugsTitle: (s, fmt) =>
      touch && s.cmp === 'ge' ? `↑ ${args(s, fmt)[0]}` : pick(SLUGS_TITLES[s.cmp], t)(...args(s, fmt)),
    slugsPhrase: (s, fmt) => pick(SLUGS_PHRASES[s.cmp], p)(...args(s, fmt)),
  }
}

/** The comparator that reads alike but is one step off: ≥ ↔ >, ≤ ↔ < (the near-miss decoy of F3). */
export function nearMiss(cmp: Comparator): Comparator | undefined {
  return cmp === 'ge' ? 'gt' : cmp === 'gt' ? 'ge' : cmp === 'le' ? 'lt' : cmp === 'lt' ? 'le' : undefined
}
