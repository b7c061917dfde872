import { day, describe, hasFacts, monthEnd, monthOf, type PeriodFacts } from './periods.js'

/**
 * Whether two contracts' periods are the same (periods.ts reads them). Stated facts decide when both state any: the
 * same deadline, day, instant, month or year, a year or month window against the deadline at its end, or the same
 * undatable phrase. The venues' end times are evidence only where a side states nothing (docs/spreads.md F1).
 */
/**
 * Deadlines are read as UTC midnights ("by Dec 31, 2026" and "before Jan 1, 2027" both end at 2027-01-01T00:00Z), so
 * the same deadline compares equal; a day apart ("by June 30" / "before June 30") is another deadline.
 */
const DEADLINE_SLACK_MS = 6 * 3_600_000
/** Two stated instants are the same within a minute; a silent side's end time falls on one within ten. */
const INSTANT_SLACK_MS = 60_000
const END_AT_INSTANT_SLACK_MS = 10 * 60_000
const DAY_MS = 86_400_000
/** A venue end time "on" a day: within the day, give or take a US time zone (18 h from its noon). */
const ON_DAY_SLACK_MS = 18 * 3_600_000
/** Without a stated period, venue end times this close are taken as the same period (weak evidence). */
export const END_SLACK_MS = 48 * 3_600_000

export type PeriodAgreement =
  | { readonly agree: true; readonly evidence: string; readonly strength: 'stated' | 'end-times' }
  | { readonly agree: false; readonly reason: string }

/**
 * Whether two contracts' periods are the same. Stated facts decide when both state any; a year window agrees with a
 * deadline at that year's end ("in 2025" / "before 2026"). Without a stated period on either side the venues' end
 * times must agree closely (weak); a period stated on one side only, or one that cannot be dated, never agrees.
 */
export function periodsAgree(
  a: PeriodFacts,
  b: PeriodFacts,
  endA: number | undefined,
  endB: number | undefined,
  explain = true,
  successors = false,
): PeriodAgreement {
  const disagree = explain ? disagreeing : () => DISAGREE
  if (!hasFacts(a) && !hasFacts(b)) {
    if (endA !== undefined && endB !== undefined && Math.abs(endA - endB) <= END_SLACK_MS)
      return {
        agree: true,
        evidence: `no stated period; end times ${day(endA)} and ${day(endB)}`,
        strength: 'end-times',
      }
    // Both ask who is NEXT ("Next Prime Minister of Hungary" / "Who will be the next PM of Hungary?"): the question
    // is the next holder, whenever that is; the venues' end times are their own conventions (F1). Weak evidence.
    if (successors) return { agree: true, evidence: 'no stated period; both ask who is next', strength: 'end-times' }
    return disagree(
      () =>
        `no stated period and end times ${endA === undefined ? '?' : day(endA)} vs ${endB === undefined ? '?' : day(endB)}`,
    )
  }
  if (!hasFacts(a) || !hasFacts(b)) return silentSide(hasFacts(a) ? a : b, hasFacts(a) ? endB : endA, a, b, disagree)
  // An instant agrees only with the same instant: an hourly series' next hour is another contract, and a day without
  // its hour does not say which hour's contract it is.
  if (a.instants.length > 0 || b.instants.length > 0) {
    const ia = a.instants
    const ib = b.instants
    const dayAndInstant = onTheDayAt(a, b, endA, endB)
    if (dayAndInstant !== undefined) return dayAndInstant
    if (
      ia.length === ib.length &&
      ia.every((t, i) => Math.abs(t - (ib[i] as number)) < INSTANT_SLACK_MS) &&
      a.deadlines.length + a.days.length + b.deadlines.length + b.days.length === 0 &&
      a.opaque.join() === b.opaque.join()
    )
      return { agree: true, evidence: `at ${ia.map(minute).join(', ')}`, strength: 'stated' }
    return disagree(() => `period ${describe(a)} vs ${describe(b)}`)
  }
  if (a.opaque.length > 0 || b.opaque.length > 0) {
    if (
      a.opaque.join() === b.opaque.join() &&
      a.deadlines.length === 0 &&
      b.deadlines.length === 0 &&
      a.days.length === 0 &&
      b.days.length === 0 &&
      a.years.join() === b.years.join()
    ) {
      return { agree: true, evidence: `same period phrase (${a.opaque.join(', ')})`, strength: 'stated' }
    }
    return disagree(() => `period not datable: ${describe(a)} vs ${describe(b)}`)
  }
  const da = a.deadlines
  const db = b.deadlines
  if (da.length > 0 && db.length > 0) {
    if (
      da.length === db.length &&
      da.every((d, i) => near(d, db[i] as number)) &&
      a.days.length === 0 &&
      b.days.length === 0
    )
      return { agree: true, evidence: `deadline ${da.map(last).join(', ')}`, strength: 'stated' }
    return disagree(() => `period ${describe(a)} vs ${describe(b)}`)
  }
  if (da.length > 0 || db.length > 0) {
    // A window and the deadline at its end: "in 2025" / "before 2026", "in January 2027" / "by January 31, 2027".
    const [deadlines, other] = da.length > 0 ? [da, b] : [db, a]
    const d = deadlines[0] as number
    const windowEnd =
      other.days.length > 0
        ? undefined
        : other.months.length === 1
          ? monthEnd(other.months[0] as string)
          : other.months.length === 0 && other.years.length === 1
            ? Date.UTC((other.years[0] as number) + 1, 0, 1)
            : undefined
    if (deadlines.length === 1 && windowEnd !== undefined && near(d, windowEnd))
      return { agree: true, evidence: `${describe(other)} and deadline ${last(d)}`, strength: 'stated' }
    return disagree(() => `period ${describe(a)} vs ${describe(b)}`)
  }
  if (a.days.length > 0 || b.days.length > 0) {
    if (a.days.join() === b.days.join())
      return { agree: true, evidence: `on ${a.days.map(day).join(', ')}`, strength: 'stated' }
    // An occasion named by its month on one side and by its day on the other ("after the November 2026 meeting" /
    // "on Nov 20, 2026"): the same when the day falls in the month; weaker than both naming the day.
    // A month can hold several such occasions (two meetings), so the month side's own end time must fall on the day.
    const [withDay, other, otherEnd] = a.days.length > 0 ? [a, b, endB] : [b, a, endA]
    const d = withDay.days[0] as number
    const onThatDay = otherEnd !== undefined && Math.abs(otherEnd - (d + DAY_MS / 2)) <= ON_DAY_SLACK_MS
    if (
      withDay.days.length === 1 &&
      other.days.length === 0 &&
      other.months.length === 1 &&
      onThatDay &&
      monthOf(d) === other.months[0]
    ) {
      return {
        agree: true,
        evidence: `on ${day(d)}; in ${other.months[0]}, ending ${day(otherEnd)}`,
        strength: 'end-times',
      }
    }
    return disagree(() => `period ${describe(a)} vs ${describe(b)}`)
  }
  if (a.months.length > 0 || b.months.length > 0) {
    if (a.months.join() === b.months.join())
      return { agree: true, evidence: `month ${a.months.join(', ')}`, strength: 'stated' }
    return disagree(() => `period ${describe(a)} vs ${describe(b)}`)
  }
  if (a.years.join() === b.years.join())
    return { agree: true, evidence: `year ${a.years.join(', ')}`, strength: 'stated' }
  return disagree(() => `year ${describe(a)} vs ${describe(b)}`)
}

/**
 * One side states a day, the other an instant on that day ("on December 30" / "at 12pm ET on Dec 30"): the same
 * contract when the day side's own end time is that instant (a daily market resolving at noon). Weak evidence: the
 * day side's text leaves its hour to its rules.
 */
function onTheDayAt(
  a: PeriodFacts,
  b: PeriodFacts,
  endA: number | undefined,
  endB: number | undefined,
): PeriodAgreement | undefined {
  const [withDay, withInstant, dayEnd] =
    a.days.length === 1 && b.instants.length === 1
      ? [a, b, endA]
      : b.days.length === 1 && a.instants.length === 1
        ? [b, a, endB]
        : []
  if (withDay === undefined || withInstant === undefined || dayEnd === undefined) return undefined
  if (withDay.instants.length + withDay.deadlines.length + withInstant.days.length + withInstant.deadlines.length > 0)
    return undefined
  const at = withInstant.instants[0] as number
  const d = withDay.days[0] as number
  if (Math.abs(dayEnd - at) > END_AT_INSTANT_SLACK_MS || Math.abs(at - (d + DAY_MS / 2)) > ON_DAY_SLACK_MS)
    return undefined
  return { agree: true, evidence: `on ${day(d)}, ending at ${minute(at)}, and at ${minute(at)}`, strength: 'end-times' }
}

/**
 * One side states its period, the other nothing: the silent venue's own end time must fall on the stated deadline or
 * day (a "Lakers vs. Celtics" market ending the day its game is played). Weak evidence.
 */
function silentSide(
  stated: PeriodFacts,
  end: number | undefined,
  a: PeriodFacts,
  b: PeriodFacts,
  disagree: (reason: () => string) => PeriodAgreement,
): PeriodAgreement {
  const single =
    stated.years.length === 0 &&
    stated.opaque.length === 0 &&
    stated.months.length === 0 &&
    stated.deadlines.length + stated.days.length + stated.instants.length === 1
  if (single && end !== undefined) {
    const at = stated.instants[0]
    if (at !== undefined && Math.abs(end - at) <= END_AT_INSTANT_SLACK_MS)
      return {
        agree: true,
        evidence: `at ${minute(at)} on one side, end time ${minute(end)} on the other`,
        strength: 'end-times',
      }
    const d = stated.deadlines[0]
    if (d !== undefined && end <= d && d - end <= END_SLACK_MS)
      return {
        agree: true,
        evidence: `deadline ${last(d)} on one side, end time ${day(end)} on the other`,
        strength: 'end-times',
      }
    const on = stated.days[0]
    if (on !== undefined && Math.abs(end - (on + DAY_MS / 2)) <= ON_DAY_SLACK_MS)
      return {
        agree: true,
        evidence: `on ${day(on)} on one side, end time ${day(end)} on the other`,
        strength: 'end-times',
      }
  }
  // A year named on one side only ("the 2026 PGA Championship" / "the PGA Championship"): the silent side's own end
  // falls in that year.
  const onlyYear =
    stated.years.length === 1 &&
    stated.opaque.length + stated.months.length + stated.deadlines.length + stated.days.length === 0 &&
    stated.instants.length === 0
  if (onlyYear && end !== undefined && new Date(end).getUTCFullYear() === stated.years[0])
    return {
      agree: true,
      evidence: `${stated.years[0]} on one side, end time ${day(end)} on the other`,
      strength: 'end-times',
    }
  return disagree(() => `period ${describe(a)} vs ${describe(b)}`)
}

/** The disagreement of a caller that does not read reasons (the matcher: far more rejections than anyone reads). */
const DISAGREE: PeriodAgreement = Object.freeze({ agree: false, reason: 'period differs' })

/** A disagreement whose reason is written only when read. */
function disagreeing(reason: () => string): PeriodAgreement {
  return {
    agree: false,
    get reason() {
      return reason()
    },
  }
}

function near(x: number, y: number): boolean {
  return Math.abs(x - y) <= DEADLINE_SLACK_MS
}

/** The last day a deadline includes. */
function last(deadline: number): string {
  return day(deadline - 1)
}

/** An instant to the minute, UTC ('2026-05-10T14:00Z'). */
function minute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}Z`
}
