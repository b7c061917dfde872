import type { Rng } from '../random.js'

/**
 * What each venue's dates say about a question, which is not the question's own date (docs/spreads.md F1):
 *
 * - the ticker style's `close_time` is the latest time trading can stop. A recurring short-dated series closes at its
 *   observation (KXFED-27APR closes 17:55, expected 18:05), but a long-dated question stays open until the latest
 *   date its answer could be known: the real 2028 election events (sub_title "In 2028") close
 *   2029-11-07, a year after the vote; a real manufacturing-share event ("In Q4 2028") closes 2029-06-30. Such events carry no
 *   `strike_date`; the question's own date lives in `sub_title` ("In 2028", "Before 2030") or the market's
 *   `yes_sub_title`. `expected_expiration_time`, when present, is the expected date.
 * - the slug style's `endDate` is the expected resolution date, hours or days off the true deadline or vote.
 *
 * So an end-date gap is no evidence of a different question; the deadline written in the question is.
 */
const HOUR = 3_600_000
const DAY = 86_400_000

export interface TickersDates {
  /** `close_time` of the event's markets (a deadline ladder's markets close at their own deadlines instead). */
  readonly closeTime: number
  /** `expected_expiration_time`; undefined leaves the field out (many long-dated markets have none). */
  readonly expectedExpiration: number | undefined
  /** `strike_date`; undefined sends null (long-dated events carry none). */
  readonly strikeDate: number | undefined
}

/** A recurring short-dated series: closes at the observation, expected ten minutes later (the KXFED sample, §3.4). */
export function observationDates(t: number): TickersDates {
  return { closeTime: t, expectedExpiration: t + 10 * 60_000, strikeDate: t }
}

/**
 * An election: open until the latest date a result could be certified, 15:00 UTC on November 7 of the next year
 * (the real 2028 presidential, governor and Senate events all close 2029-11-07T15:00:00Z); half state an expected date weeks
 * after the vote.
 */
export function electionDates(vote: number, rng: Rng): TickersDates {
  const y = new Date(vote).getUTCFullYear()
  return {
    closeTime: Date.UTC(y + 1, 10, 7, 15),
    expectedExpiration: rng.chance(0.5) ? vote + rng.int(2, 60) * DAY : undefined,
    strikeDate: undefined,
  }
}

/**
 * A question about a period settled on data published later ("In 2026", "Calendar year 2026"): open until the
 * latest release that could settle it, months after the period (a real one closes 2029-06-30 for Q4 2028).
 */
export function releaseDates(periodEnd: number, rng: Rng): TickersDates {
  const latest = periodEnd + rng.int(90, 200) * DAY
  return {
    closeTime: Math.floor(latest / DAY) * DAY + 15 * HOUR,
    expectedExpiration: rng.chance(0.5) ? periodEnd + rng.int(20, 60) * DAY : undefined,
    strikeDate: undefined,
  }
}

/**
 * A season or ceremony: open some weeks past its expected date in case it slips (a final series that goes long, a
 * postponed ceremony); the expected date is stated.
 */
export function slackDates(expected: number, rng: Rng): TickersDates {
  return {
    closeTime: expected + rng.int(7, 45) * DAY,
    expectedExpiration: expected + 10 * 60_000,
    strikeDate: undefined,
  }
}

/**
 * The slug style's `endDate` of a question decided at `t`: the expected resolution, hours or days off (real markets end at
 * 00:00 or 12:00 UTC of the day, or a few days later when an announcement is expected).
 */
export function slugsEndDate(t: number, rng: Rng): number {
  const day = Math.floor(t / DAY) * DAY
  const r = rng.int(0, 3)
  if (r === 0) return day
  if (r === 1) return day + 12 * HOUR
  if (r === 2) return day + rng.int(1, 3) * DAY + 12 * HOUR
  return t
}
