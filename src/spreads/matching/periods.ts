import { instantOn, timeOfDay } from './clock-times.js'
import { fold } from './text.js'

/**
 * When a contract is decided, as its text states it. The venues' own end times do not say it: one venue's close
 * time is often the latest possible date (a year after a 2028 election), another's the expected resolution date;
 * a deadline written in the question does (docs/spreads.md F1). Two contracts about the same thing
 * with different deadlines resolve differently, so the period is a gate: it must be stated alike on both sides.
 *
 * Read from the text (folded): deadlines ("by June 30, 2026", "before 2027", "by end of 2026", "before July" with
 * the year of the market's own end), years named as the period or occasion ("in 2025", "the 2028 election"), and
 * period phrases that cannot be dated ("during Trump's term", "by 2030", whose reading varies), kept as opaque keys.
 * A day stated with a time of day and its zone ("on May 10, 2026 at 10am EDT", "May 10, 10AM ET") is an instant: an
 * hourly series' contracts differ by the hour (clock-times.ts). Whether two periods agree: period-agreement.ts.
 */
export interface PeriodFacts {
  /** Exclusive end instants (ms, UTC midnight) of the deadlines stated: "by June 30, 2026" → 2026-07-01. */
  readonly deadlines: readonly number[]
  /** Days a contract is observed on (UTC midnight, ms): "on Nov 30, 2026", "on May 10" (dated from the reference). */
  readonly days: readonly number[]
  /** Instants a contract is observed at (ms): a day with a time of day and zone, "at 12pm ET, Dec 1, 2026". */
  readonly instants: readonly number[]
  /** Months named as the period or occasion, 'YYYY-MM': "in January 2027", "after the November 2026 meeting". */
  readonly months: readonly string[]
  /** Years named as the period or occasion: "in 2025", "the 2028 US Presidential Election". */
  readonly years: readonly number[]
  /** Period phrases that cannot be dated, normalized ("term", "by-year 2030"). */
  readonly opaque: readonly string[]
}

export const NO_PERIOD: PeriodFacts = Object.freeze({
  deadlines: Object.freeze([]),
  days: Object.freeze([]),
  instants: Object.freeze([]),
  months: Object.freeze([]),
  years: Object.freeze([]),
  opaque: Object.freeze([]),
})

const DAY_MS = 86_400_000

const MONTH: Readonly<Record<string, number>> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
}
const MONTH_RE = Object.keys(MONTH)
  .sort((a, b) => b.length - a.length)
  .join('|')

/** Prefixes that make a date a deadline, and whether the named day itself is included. */
const BEFORE = String.raw`before|prior to`
const BY = String.raw`by|until|till|through|thru|no later than|on or before|by the end of|by end of|end of|at the end of|as of`

/** The date patterns of periodFacts, in the order it applies them (compiled once; global, for replace). */
const DATE_RE_1 = new RegExp(String.raw`\b(?:(${BEFORE})|(${BY}))?\s*(${MONTH_RE})\.? (\d{1,2}),? (\d{4})\b`, 'g')
const DATE_RE_2 = new RegExp(String.raw`\b(?:(${BEFORE})|(${BY}))?\s*(\d{1,2}) (${MONTH_RE}),? (\d{4})\b`, 'g')
const DATE_RE_3 = new RegExp(String.raw`\b(?:(${BEFORE})|(${BY}))?\s*(\d{4})-(\d{2})-(\d{2})\b`, 'g')
const DATE_RE_4 = new RegExp(String.raw`\b(?:(${BEFORE})|(${BY}))?\s*(${MONTH_RE})\.?,? (\d{4})\b`, 'g')
const DATE_RE_5 = new RegExp(String.raw`\b(?:(${BEFORE})|(${BY}))\s*(${MONTH_RE})\.? (\d{1,2})\b`, 'g')
const DATE_RE_6 = new RegExp(String.raw`^\s*(${MONTH_RE})\.? (\d{1,2})\s*$`, 'g')
const DATE_RE_7 = new RegExp(String.raw`\b(?:(${BEFORE})|(by|until|through|in))\s+(${MONTH_RE})\b`, 'g')
const DATE_RE_8 = /\b(?:by |at |before )?(?:the )?end of (?:the year )?(\d{4})\b/g
const DATE_RE_9 = /\b(?:by |at |before )?(?:the )?end of (?:the|this) year\b/g
const DATE_RE_10 = /\b(before|prior to)\s+(\d{4})\b/g
const DATE_RE_11 = /\b(by|until)\s+(\d{4})\b/g
const DATE_RE_12 = /\b(?:19|20)(\d{2})\b/g
const DATE_RE_13 = new RegExp(String.raw`\b(on )?(${MONTH_RE})\.? (\d{1,2})\b`, 'g')

/** Necessary conditions of the passes (exactness: test/spreads/matching/reading-shortcuts.property.test.ts). */
const MONTH_HINT = /jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec/
const OPAQUE_HINT = /term|presiden|administration|tenure|mandate|lifetime|election/

const OPAQUE: readonly (readonly [RegExp, string])[] = [
  [
    /\b(?:during|before|by the end of|until|through|in|for)\s+(?:[a-z]+'s|his|her|their|the|this)\s+(?:(?:second|first|current|next|entire)\s+)?(?:term|presidency|administration|tenure|mandate)\b/,
    'term',
  ],
  [/\bbefore\s+(?:his|her|their|the)\s+term\s+(?:ends|is over)\b/, 'term'],
  [/\b(?:his|her|their)\s+lifetime\b/, 'lifetime'],
  [/\bbefore\s+the\s+next\s+(?:general\s+)?election\b/, 'next-election'],
]

/**
 * The period facts of a text. `referenceMs` dates what the text leaves without a year ("before July", "by June
 * 30"): the first such date not more than two months before it (a market's own end time, for a title that repeats
 * across years).
 */
export function periodFacts(text: string, referenceMs: number | undefined): PeriodFacts {
  return readPeriod(text, referenceMs, true)
}

/**
 * `periodFacts` trying every pass, without its shortcuts, which must agree with it
 * (test/spreads/matching/reading-shortcuts.property.test.ts).
 */
export function periodFactsAllPasses(text: string, referenceMs: number | undefined): PeriodFacts {
  return readPeriod(text, referenceMs, false)
}

function readPeriod(text: string, referenceMs: number | undefined, shortcuts: boolean): PeriodFacts {
  let t = fold(text)
  if (!shortcuts || /\d/.test(t)) t = t.replace(/(\d)(st|nd|rd|th)\b/g, '$1')
  // Runs of spaces and other white space made one space (most text has neither: the pass is skipped).
  if (!shortcuts || /[^\S ]| {2}/.test(t)) t = t.replace(/\s+/g, ' ')
  const deadlines: number[] = []
  const days: number[] = []
  const months: string[] = []
  const years: number[] = []
  const opaque: string[] = []
  // Cheap necessary conditions of the passes below: most catalog text names no month, and much of it has no number
  // (a team, a person), so most of the ~17 passes cannot match and are skipped.
  const digits = !shortcuts || /\d/.test(t)
  const monthNamed = !shortcuts || MONTH_HINT.test(t)
  const endOf = !shortcuts || t.includes('end of')
  const opaqueHint = !shortcuts || OPAQUE_HINT.test(t)
  if (!digits && !monthNamed && !endOf && !opaqueHint) return NO_PERIOD
  if (opaqueHint)
    for (const [re, key] of OPAQUE) {
      if (re.test(t)) {
        opaque.push(key)
        t = t.replace(re, ' ')
      }
    }
  const take = (re: RegExp, f: (m: RegExpExecArray) => void): void => {
    t = t.replace(re, (...args: unknown[]) => {
      const m = args.slice(0, -2) as unknown as RegExpExecArray
      f(m)
      return ' '
    })
  }
  // A time of day with its zone ("10am ET") turns the day the text observes into an instant (below).
  const clock = digits ? timeOfDay(t) : undefined
  const refYear = referenceMs === undefined ? undefined : new Date(referenceMs).getUTCFullYear()
  const near = (month: number, day: number): number | undefined => {
    if (refYear === undefined || referenceMs === undefined) return undefined
    for (const y of [refYear - 1, refYear, refYear + 1]) {
      const at = Date.UTC(y, month - 1, day)
      if (at >= referenceMs - 62 * DAY_MS) return at
    }
    return undefined
  }
  // Full dates: "[prefix] June 30, 2026", "[prefix] 30 June 2026", "[prefix] 2026-06-30". With "before" or "by" a
  // deadline; otherwise ("on", "at 12pm ET,", none) the day the contract is observed.
  const dated = (before: string | undefined, by: string | undefined, at: number): void => {
    if (before !== undefined || by !== undefined) deadlines.push(dayDeadline(before, at))
    else days.push(at)
  }
  if (digits && monthNamed)
    take(DATE_RE_1, (m) =>
      dated(m[1], m[2], Date.UTC(Number(m[5]), (MONTH[m[3] as string] as number) - 1, Number(m[4]))),
    )
  if (digits && monthNamed)
    take(DATE_RE_2, (m) =>
      dated(m[1], m[2], Date.UTC(Number(m[5]), (MONTH[m[4] as string] as number) - 1, Number(m[3]))),
    )
  if (digits) take(DATE_RE_3, (m) => dated(m[1], m[2], Date.UTC(Number(m[3]), Number(m[4]) - 1, Number(m[5]))))
  // Month and year: "before July 2026" (its first day), "by July 2026" (through its last day); otherwise ("in
  // January 2027", "the November 2026 meeting") the month is the period.
  if (digits && monthNamed)
    take(DATE_RE_4, (m) => {
      const month = MONTH[m[3] as string] as number
      if (m[1] !== undefined) deadlines.push(Date.UTC(Number(m[4]), month - 1, 1))
      else if (m[2] !== undefined) deadlines.push(Date.UTC(Number(m[4]), month, 1))
      else months.push(`${m[4]}-${String(month).padStart(2, '0')}`)
    })
  // Days without a year: "by June 30", "before Dec 31" (dated from the reference).
  if (digits && monthNamed)
    take(DATE_RE_5, (m) => {
      const at = near(MONTH[m[3] as string] as number, Number(m[4]))
      if (at !== undefined) deadlines.push(dayDeadline(m[1], at))
    })
  // A day alone, as a ladder's label: "June 30".
  if (digits && monthNamed)
    take(DATE_RE_6, (m) => {
      const at = near(MONTH[m[1] as string] as number, Number(m[2]))
      if (at !== undefined) deadlines.push(at + DAY_MS)
    })
  // A day without a year that the contract is observed on: "on May 10", or "May 10, 10AM ET" (with a time of day).
  if (digits && monthNamed)
    take(DATE_RE_13, (m) => {
      if (m[1] === undefined && clock === undefined) return
      const at = near(MONTH[m[2] as string] as number, Number(m[3]))
      if (at !== undefined) days.push(at)
    })
  // A month without a year after before/by: "before July" is the first of the next such July.
  if (monthNamed)
    take(DATE_RE_7, (m) => {
      const month = MONTH[m[3] as string] as number
      const first = near(month, 1)
      if (first !== undefined)
        deadlines.push(m[1] !== undefined ? first : Date.UTC(new Date(first).getUTCFullYear(), month, 1))
    })
  // End of a year: "by end of 2026", "end of the year".
  if (digits && endOf) take(DATE_RE_8, (m) => deadlines.push(Date.UTC(Number(m[1]) + 1, 0, 1)))
  if (endOf)
    take(DATE_RE_9, () => {
      if (refYear !== undefined) deadlines.push(Date.UTC(refYear + 1, 0, 1))
    })
  // Years: "before 2027" is its first day; "in 2025" names the year; "by 2030" is read both ways, so it is opaque.
  if (digits) take(DATE_RE_10, (m) => deadlines.push(Date.UTC(Number(m[2]), 0, 1)))
  if (digits) take(DATE_RE_11, (m) => opaque.push(`by-year ${m[2]}`))
  if (digits) take(DATE_RE_12, (m) => years.push(2000 + Number(m[1]) - (m[0].startsWith('19') ? 100 : 0)))
  const instants: number[] = []
  if (clock !== undefined && days.length === 1 && deadlines.length === 0) {
    const at = instantOn(days[0] as number, clock)
    if (at !== undefined) {
      days.pop()
      instants.push(at)
    }
  }
  const facts = {
    deadlines: unique(deadlines),
    days: unique(days),
    instants: instants.length === 0 ? NONE : instants,
    months: unique(months),
    years: unique(years),
    opaque: unique(opaque),
  }
  // Most texts state no period: one shared object for all of them (the matcher holds a reading per contract).
  return hasFacts(facts) ? facts : NO_PERIOD
}

/** "before D" ends at D's start; "by/through/on D" at the end of D. */
function dayDeadline(before: string | undefined, dayStartMs: number): number {
  return before !== undefined ? dayStartMs : dayStartMs + DAY_MS
}

/** The shared empty list (frozen): the readings the matcher holds keep no empty array of their own. */
const NONE: readonly never[] = Object.freeze([])

function unique<T>(xs: T[]): readonly T[] {
  return xs.length === 0 ? NONE : [...new Set(xs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

export function hasFacts(f: PeriodFacts): boolean {
  return (
    f.deadlines.length > 0 ||
    f.days.length > 0 ||
    f.instants.length > 0 ||
    f.months.length > 0 ||
    f.years.length > 0 ||
    f.opaque.length > 0
  )
}

/**
 * Keys of the days a contract's period can meet another's on ('YYYY-MM-DD', or 'opaque'), for blocking: two
 * contracts whose periods agree (periodsAgree) always share one, so the matcher compares only contracts that do, and
 * a daily price ladder splits by day. A deadline counts on its last day; a day on itself; a month on each of its days
 * (it meets a deadline at its end or an occasion on one of its days); a year on its last day (it meets only the same
 * year or the deadline at its end); an instant on its UTC day and the days either side; a contract that states no
 * period on the days around its venue end time, on its end's year, and, when it asks who is next, on 'next'.
 */
export function periodKeys(f: PeriodFacts, end: number | undefined, successor = false): string[] {
  const out = new Set<string>()
  for (const d of f.deadlines) out.add(day(d - 1))
  for (const d of f.days) out.add(day(d))
  // An instant meets the same instant, and a day whose side ends at it (within 30 hours of that day's start).
  for (const at of f.instants) for (let k = -1; k <= 1; k++) out.add(day(at + k * DAY_MS))
  for (const m of f.months) for (let at = monthEnd(m) - DAY_MS; monthOf(at) === m; at -= DAY_MS) out.add(day(at))
  for (const y of f.years) out.add(`${y}-12-31`)
  if (f.opaque.length > 0) out.add('opaque')
  if (!hasFacts(f) && end !== undefined) {
    for (let k = -2; k <= 2; k++) out.add(day(end + k * DAY_MS))
    // A year the other side names, when this side's end falls in it (period-agreement.ts silentSide).
    out.add(`${new Date(end).getUTCFullYear()}-12-31`)
  }
  // Both sides asking who is next, neither stating a period, agree whatever their end times.
  if (!hasFacts(f) && successor) out.add('next')
  return [...out]
}

/** 'YYYY-MM' of a day. */
export function monthOf(dayMs: number): string {
  const d = new Date(dayMs)
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`
}

/** The exclusive end of a 'YYYY-MM' month. */
export function monthEnd(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return Date.UTC(y, m, 1)
}

/** 'YYYY-MM-DD' of an instant (UTC); each day's string is made once (blocking asks for the same days again and again). */
export function day(ms: number): string {
  const n = Math.floor(ms / DAY_MS)
  let s = DAYS.get(n)
  if (s === undefined) {
    if (DAYS.size >= 100_000) DAYS.clear()
    DAYS.set(n, (s = new Date(n * DAY_MS).toISOString().slice(0, 10)))
  }
  return s
}

const DAYS = new Map<number, string>()

export function describe(f: PeriodFacts): string {
  const parts = [
    ...f.deadlines.map((d) => `by ${day(d - 1)}`),
    ...f.days.map((d) => `on ${day(d)}`),
    ...f.instants.map((at) => `at ${new Date(at).toISOString().slice(0, 16)}Z`),
    ...f.months,
    ...f.years.map(String),
    ...f.opaque,
  ]
  return parts.length === 0 ? 'none' : parts.join(', ')
}
