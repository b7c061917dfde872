import { dateCode, longDate, shortDate } from '../dates.js'
import type { Rng } from '../random.js'

/**
 * Deadlines as the venues write them. A deadline is the instant D (00:00 UTC of a day) before which something must
 * happen; the last day that counts is the day before D. The two venues name the same D differently:
 *
 * - the ticker style names D itself: `yes_sub_title` "Before Jul 1, 2026", "Before 2027", "Before Jan 20, 2029", "Before Sep
 *   2026" (the real deadline ladders in test/fixtures/real-venues), ticker suffixes `-26JUL01`, `-27`.
 * - the slug style names the last day: "by June 30, 2026?", "by December 31, 2026?", "before 2027?", "in 2026?", "by end of
 *   2026?" (real single-market events), or in a grouped "X by...?" event just "June 30" / "December 31" as the
 *   `groupItemTitle`, with the year only in the question or in `endDate` ("Will GPT-5 be released by June 30?").
 *
 * Only equal deadlines are the same contract; a ticker-style "Before Jun 30, 2026" is one day earlier than a slug-style
 * "by June 30, 2026" (the near-miss decoy `oneDayEarlier` makes).
 */
const DAY = 86_400_000
const HOUR = 3_600_000
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** 00:00 UTC of the first day of `month0` (0-based; 12 rolls into the next year). */
export function monthStart(year: number, month0: number): number {
  return Date.UTC(year, month0, 1)
}

export function isYearStart(d: number): boolean {
  const t = new Date(d)
  return t.getUTCMonth() === 0 && t.getUTCDate() === 1
}

function isMonthStart(d: number): boolean {
  return new Date(d).getUTCDate() === 1
}

function yearOf(d: number): number {
  return new Date(d).getUTCFullYear()
}

/** The ticker style's `yes_sub_title` for deadline D; `style` picks between the forms the venue uses. */
export function tickersDeadline(d: number, style: number): string {
  const t = new Date(d)
  if (isYearStart(d)) return style % 2 === 0 ? `Before ${yearOf(d)}` : `Before Jan 1, ${yearOf(d)}`
  if (isMonthStart(d) && style % 3 === 2) return `Before ${MONTHS[t.getUTCMonth()]!.slice(0, 3)} ${yearOf(d)}`
  return `Before ${shortDate(d)}`
}

/** The ticker style's ticker suffix for deadline D: `27` for Jan 1, 2027 (sometimes), else `26JUL01`. */
export function tickersDeadlineCode(d: number, style: number): string {
  return isYearStart(d) && style % 2 === 0 ? String(yearOf(d) % 100).padStart(2, '0') : dateCode(d)
}

/**
 * The ticker style's `close_time` of a market that stops at deadline D: midnight Eastern (04:59 UTC in winter, 03:59 UTC in
 * summer, as a real travel-advisory ladder's July market closes 2026-07-01T03:59:00Z) or 15:00 UTC on D (a real 'next Speaker' event).
 */
export function tickersDeadlineClose(d: number, rng: Rng): number {
  if (rng.chance(0.3)) return d + 15 * HOUR
  const m = new Date(d).getUTCMonth()
  return d + (m >= 3 && m <= 10 ? 3 : 4) * HOUR + 59 * 60_000
}

/** The slug style's words for "before D" in a question: the last day counts ("by June 30, 2026"). */
export function slugsDeadline(d: number, style: number, createdAt: number): string {
  const last = d - DAY
  if (isYearStart(d)) {
    const y = yearOf(last)
    const forms = [`by December 31, ${y}`, `before ${y + 1}`, `by end of ${y}`]
    // "in 2026" means the same as "before 2027" only for a question opened in 2026.
    if (yearOf(createdAt) === y) forms.push(`in ${y}`)
    return forms[style % forms.length] as string
  }
  return `by ${longDate(last)}`
}

/** A grouped slug-style child's label for deadline D: the last day without its year ("June 30"). */
export function slugsDeadlineGroupTitle(d: number): string {
  const last = new Date(d - DAY)
  return `${MONTHS[last.getUTCMonth()]} ${last.getUTCDate()}`
}

/** A grouped slug-style child's question may drop the year when it is the group's first year ("by June 30?"). */
export function slugsDeadlineShort(d: number): string {
  return `by ${slugsDeadlineGroupTitle(d)}`
}

/**
 * The slug style's `endDate` for deadline D: the expected resolution, hours off the deadline: noon or midnight UTC of the
 * last day (real "by end of 2026" markets end 2026-12-31T00:00:00Z or 12:00:00Z) or midnight Eastern of D.
 */
export function slugsDeadlineEnd(d: number, rng: Rng): number {
  const r = rng.int(0, 3)
  if (r === 0) return d - DAY
  if (r === 1) return d - DAY + 12 * HOUR
  return d + (r === 2 ? 4 : 5) * HOUR
}

/** The deadline one day earlier: "Before Jun 30, 2026" against "by June 30, 2026" (a different contract). */
export function oneDayEarlier(d: number): number {
  return d - DAY
}

/**
 * The deadlines of a question about year `y`: month starts in (Jan 1 y, Jan 1 y+1], every `stepMonths` back from
 * Jan 1 y+1 (quarter or half-year ends), within (after, upTo], at most `count` (the latest). Two questions of one
 * subject about different years share no deadline. None in the window (an ended question): the day `upTo` is on.
 */
export function yearDeadlines(y: number, stepMonths: number, count: number, after: number, upTo: number): number[] {
  const out: number[] = []
  for (let m = 12; m >= 1 && out.length < count; m -= stepMonths) {
    const d = Date.UTC(y, m, 1)
    if (d > after && d <= upTo) out.unshift(d)
  }
  return out.length > 0 ? out : [Math.floor(upTo / DAY) * DAY]
}

/** The first month start after `t`. */
export function nextMonthStart(t: number): number {
  const d = new Date(t)
  return monthStart(d.getUTCFullYear(), d.getUTCMonth() + 1)
}
