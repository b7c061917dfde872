import type { Strike } from '../../model/types.js'
import { fold } from './text.js'

/**
 * The threshold or range a contract resolves on, as an interval with open or closed ends and a unit. Ladders
 * differ only here ("above 4.25%" / "above 4.50%"), and so do near misses: "$100+" (≥ 100) is not "more than $100"
 * (> 100), a one-tick difference that fabricates phantom gaps (docs/spreads.md F3). The outcome's strike fields
 * (`Outcome.strike`: type, floor, cap) are authoritative when the venue gives them; otherwise the label or question
 * is read: comparators ("above", "at least", "or more", "+", "<", "between … and …", "2–3", "↑"), magnitudes
 * (k, m, b, t, thousand, million, billion, trillion) and units ($, %, bps).
 */
export interface Interval {
  readonly lo: number | undefined
  readonly loClosed: boolean
  readonly hi: number | undefined
  readonly hiClosed: boolean
  /** '$', '%', 'bps' or '' (a count or an unspecified unit). */
  readonly unit: string
}

const MAGNITUDE: Readonly<Record<string, number>> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  mm: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  tn: 1e12,
  trillion: 1e12,
}

const NUM = String.raw`(\$)?\s?(\d+(?:\.\d+)?)\s?(k|mn|mm|m|bn|b|tn|t|thousand|million|billion|trillion)?\b\s?(%|percent|bps|°\s?[fc]?\b|degrees?)?`

interface Amount {
  readonly value: number
  readonly unit: string
}

function amount(m: readonly (string | undefined)[], at: number): Amount {
  const dollars = m[at] !== undefined
  const magnitude = m[at + 2] === undefined ? 1 : (MAGNITUDE[m[at + 2] as string] ?? 1)
  const value = Number(m[at + 1]) * magnitude
  const u = m[at + 3]
  const unit =
    u === '%' || u === 'percent'
      ? '%'
      : u === 'bps'
        ? 'bps'
        : u !== undefined && (u.startsWith('°') || u.startsWith('degree'))
          ? '°'
          : dollars
            ? '$'
            : ''
  return { value: Math.round(value * 1e9) / 1e9, unit }
}

/** The interval of an outcome's strike fields, or undefined when the market has none (or an unreadable type). */
export function intervalOfStrike(s: Strike | undefined): Interval | undefined {
  if (s === undefined) return undefined
  const { floor, cap } = s
  switch (s.type) {
    case 'greater':
      return floor === undefined ? undefined : { lo: floor, loClosed: false, hi: undefined, hiClosed: false, unit: '' }
    case 'greater_or_equal':
      return floor === undefined ? undefined : { lo: floor, loClosed: true, hi: undefined, hiClosed: false, unit: '' }
    case 'less':
      return cap === undefined ? undefined : { lo: undefined, loClosed: false, hi: cap, hiClosed: false, unit: '' }
    case 'less_or_equal':
      return cap === undefined ? undefined : { lo: undefined, loClosed: false, hi: cap, hiClosed: true, unit: '' }
    case 'between':
      return floor === undefined || cap === undefined
        ? undefined
        : { lo: floor, loClosed: true, hi: cap, hiClosed: true, unit: '' }
    default:
      return undefined
  }
}

/** The interval a text states, or undefined when it states none. */
/** The comparator patterns of intervalIn, in the order it tries them (compiled once). */
const STRIKE_RE_1 = new RegExp(String.raw`(?:between\s+)?${NUM}\s?(?:-|to|and)\s?${NUM}`)
const STRIKE_RE_2 = new RegExp(String.raw`(?:>=|at least|at or above|no less than|minimum of|↑)\s?${NUM}`)
const STRIKE_RE_3 = new RegExp(String.raw`${NUM}\s?(?:\+|or more|or above|or higher|or greater|and above|and up)`)
const STRIKE_RE_4 = new RegExp(
  String.raw`(?:>|above|over|more than|greater than|higher than|exceeds?|exceeding|surpass(?:es)?|tops)\s?${NUM}`,
)
const STRIKE_RE_5 = new RegExp(String.raw`(?:hits?|reach(?:es)?|touch(?:es)?)\s?${NUM}`)
const STRIKE_RE_6 = new RegExp(String.raw`(?:<=|at most|at or below|no more than|maximum of|↓)\s?${NUM}`)
const STRIKE_RE_7 = new RegExp(String.raw`${NUM}\s?(?:or less|or fewer|or below|or lower|and below|and under)`)
const STRIKE_RE_8 = new RegExp(String.raw`(?:<|below|under|less than|fewer than|lower than)\s?${NUM}`)
const STRIKE_RE_9 = new RegExp(String.raw`^\s*${NUM}\s*(?:\(.*\))?\s*$`)

export function intervalIn(text: string): Interval | undefined {
  const folded = fold(text)
  // Every pattern below needs a number; most labels (names, teams) have none.
  if (!/\d/.test(folded)) return undefined
  const t = withoutRanks(
    withoutDates(
      folded
        .replace(/(\d),(\d{3})/g, '$1$2')
        .replace(/(\d),(\d{3})/g, '$1$2')
        .replace(/≥/g, '>=')
        .replace(/≤/g, '<='),
    ),
  )
  let m: RegExpExecArray | null
  // Ranges: "between 2 and 3", "$500-750b", "2–3 cuts", "$1-3b" (a magnitude after the upper bound applies to both).
  if ((m = STRIKE_RE_1.exec(t)) !== null && (/between/.test(m[0]) || /\d\s?(?:-|to)\s?\$?\d/.test(m[0]))) {
    const hi = amount(m, 5)
    let lo = amount(m, 1)
    if (m[3] === undefined && m[7] !== undefined)
      lo = { value: Math.round(lo.value * (MAGNITUDE[m[7]] ?? 1) * 1e9) / 1e9, unit: lo.unit }
    return { lo: lo.value, loClosed: true, hi: hi.value, hiClosed: true, unit: lo.unit || hi.unit }
  }
  if ((m = STRIKE_RE_2.exec(t)) !== null) return lower(amount(m, 1), true)
  if ((m = STRIKE_RE_3.exec(t)) !== null) return lower(amount(m, 1), true)
  if ((m = STRIKE_RE_4.exec(t)) !== null) return lower(amount(m, 1), false)
  // Touch thresholds: "hit $200B", "reach $150k" resolve once the value gets there.
  if ((m = STRIKE_RE_5.exec(t)) !== null) return lower(amount(m, 1), true)
  if ((m = STRIKE_RE_6.exec(t)) !== null) return upper(amount(m, 1), true)
  if ((m = STRIKE_RE_7.exec(t)) !== null) return upper(amount(m, 1), true)
  if ((m = STRIKE_RE_8.exec(t)) !== null) return upper(amount(m, 1), false)
  // A label that is only a number ("0", "7 (175 bps)", "$1,000,000"): exactly that.
  if ((m = STRIKE_RE_9.exec(t)) !== null) {
    const a = amount(m, 1)
    return { lo: a.value, loClosed: true, hi: a.value, hiClosed: true, unit: a.unit }
  }
  return undefined
}

/** A finishing position ("top 10", "Top-5") is a rank (contract.ts reads it), not a threshold. */
function withoutRanks(t: string): string {
  return t.replace(/\btop[\s-]?\d{1,3}\b(?!\s?(?:%|k\b|m\b|bn?\b|thousand|million|billion))/g, ' ')
}

const MONTHS = 'jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec'

/**
 * The text without what periods.ts reads: dates, seasons ("2025-26") and years, which are not thresholds ("the
 * 2025–26 season", "between 2025 and 2035").
 */
const MONTH_DAY = new RegExp(String.raw`\b(?:${MONTHS})[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?\b`, 'g')
const DAY_MONTH = new RegExp(String.raw`\b\d{1,2} (?:${MONTHS})[a-z]*\b`, 'g')

function withoutDates(t: string): string {
  return t
    .replace(MONTH_DAY, ' ')
    .replace(DAY_MONTH, ' ')
    .replace(/\b(?:19|20)\d{2}\s?[-/]\s?(?:\d{2}|(?:19|20)\d{2})\b/g, ' ')
    .replace(/(?<![$\d.])\b(?:19|20)\d{2}\b(?!\s?(?:%|k|m|b|t|bps|thousand|million|billion|trillion)\b)/g, ' ')
}

function lower(a: Amount, closed: boolean): Interval {
  return { lo: a.value, loClosed: closed, hi: undefined, hiClosed: false, unit: a.unit }
}

function upper(a: Amount, closed: boolean): Interval {
  return { lo: undefined, loClosed: false, hi: a.value, hiClosed: closed, unit: a.unit }
}

/**
 * Same interval: equal bounds and ends; a unit given on one side only is taken as the other's (strike fields carry
 * none). Temperatures are observed in whole degrees, so there "> 76°" is "≥ 77°" (and "< 56°" is "≤ 55°").
 */
export function sameInterval(a0: Interval, b0: Interval): boolean {
  return intervalsAgree(a0, b0) !== undefined
}

/**
 * How two intervals agree: `exact` (the same set of values), `tick` (the same but for one price tick at an end, see
 * below), or undefined (different contracts).
 *
 * A dollar price is quoted in cents: "> $78,999.99" is "≥ $79,000" exactly, and "above $79,000" (> 79,000) differs
 * from "$79,000 or above" (≥ 79,000) only when the price settles on exactly $79,000.00, one cent of a continuous
 * price. Where that cent is a negligible share of the value (≤ 1e-4: a coin priced in thousands, not one priced in
 * cents), the two are one contract; the venues word the same hourly thresholds so (docs/spreads.md F3). Counts,
 * rates and whole degrees are not continuous: there "≥ X" and "> X" stay different.
 */
export function intervalsAgree(a0: Interval, b0: Interval): 'exact' | 'tick' | undefined {
  const a = wholeDegrees(a0, b0.unit)
  const b = wholeDegrees(b0, a0.unit)
  if (a.unit !== '' && b.unit !== '' && a.unit !== b.unit) return undefined
  if (
    sameBound(a.lo, b.lo) &&
    sameBound(a.hi, b.hi) &&
    (a.lo === undefined || a.loClosed === b.loClosed) &&
    (a.hi === undefined || a.hiClosed === b.hiClosed)
  )
    return 'exact'
  if (!inCents(a, b)) return undefined
  const [ca, cb] = [closedInCents(a), closedInCents(b)]
  if (ca.lo === undefined ? cb.lo !== undefined : cb.lo === undefined) return undefined
  if (ca.hi === undefined ? cb.hi !== undefined : cb.hi === undefined) return undefined
  const gap = Math.max(Math.abs((ca.lo ?? 0) - (cb.lo ?? 0)), Math.abs((ca.hi ?? 0) - (cb.hi ?? 0)))
  if (gap < CENT / 2) return 'exact'
  const value = Math.min(Math.abs(ca.lo ?? Infinity), Math.abs(ca.hi ?? Infinity))
  return gap <= CENT + 1e-9 && CENT / value <= 1e-4 ? 'tick' : undefined
}

const CENT = 0.01

/** A dollar amount on either side, or a bound written to the cent (a strike field such as 78999.99). */
function inCents(a: Interval, b: Interval): boolean {
  if (a.unit === '°' || a.unit === '%' || a.unit === 'bps' || b.unit === '°' || b.unit === '%' || b.unit === 'bps')
    return false
  if (a.unit === '$' || b.unit === '$') return true
  return [a.lo, a.hi, b.lo, b.hi].some(
    (v) => v !== undefined && !Number.isInteger(v) && Number.isInteger(Math.round(v * 100 * 1e6) / 1e6),
  )
}

/** The interval with closed ends on whole cents ("> 78999.99" → "≥ 79000"). */
function closedInCents(i: Interval): { lo: number | undefined; hi: number | undefined } {
  const cents = (v: number) => Math.round(v * 100)
  return {
    lo: i.lo === undefined ? undefined : (cents(i.lo) + (i.loClosed ? 0 : 1)) / 100,
    hi: i.hi === undefined ? undefined : (cents(i.hi) - (i.hiClosed ? 0 : 1)) / 100,
  }
}

/** An interval on whole degrees with closed ends (integer open bounds moved in by one). */
function wholeDegrees(i: Interval, otherUnit: string): Interval {
  if (i.unit !== '°' && !(i.unit === '' && otherUnit === '°')) return i
  const lo = i.lo !== undefined && !i.loClosed && Number.isInteger(i.lo) ? i.lo + 1 : i.lo
  const hi = i.hi !== undefined && !i.hiClosed && Number.isInteger(i.hi) ? i.hi - 1 : i.hi
  return {
    lo,
    loClosed: i.lo === undefined ? i.loClosed : true,
    hi,
    hiClosed: i.hi === undefined ? i.hiClosed : true,
    unit: '°',
  }
}

function sameBound(a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a))
}

export function describeInterval(i: Interval): string {
  const u = (v: number) =>
    i.unit === '$' ? `$${v}` : i.unit === '' ? String(v) : `${v}${i.unit === '%' ? '%' : ` ${i.unit}`}`
  if (i.lo !== undefined && i.hi !== undefined)
    return i.lo === i.hi ? `= ${u(i.lo)}` : `${i.loClosed ? '[' : '('}${u(i.lo)}, ${u(i.hi)}${i.hiClosed ? ']' : ')'}`
  if (i.lo !== undefined) return `${i.loClosed ? '≥' : '>'} ${u(i.lo)}`
  if (i.hi !== undefined) return `${i.hiClosed ? '≤' : '<'} ${u(i.hi)}`
  return 'any'
}
