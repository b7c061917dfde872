import { dateCode } from '../dates.js'

/**
 * US Eastern wall-clock time, in which both venues word their short-dated series: the ticker style codes the ET date
 * and hour in the event ticker (`-26NOV2215` is 3pm on November 22, 2026) and names the zone in the title ("at 3pm
 * EST", EDT in summer); the slug style writes "November 22, 3PM ET". A match's ticker codes its ET start
 * (`-26NOV221500`) and its slug the ET date. Daylight time runs from 2am on the second Sunday of March to 2am on the first Sunday of November
 * (the US rule since 2007), so a world laid out in November has both.
 */
const HOUR = 3_600_000
const DAY = 86_400_000

export interface EasternTime {
  readonly year: number
  /** 0-based, as `Date` counts months. */
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  /** EDT (UTC-4) rather than EST (UTC-5). */
  readonly daylight: boolean
}

/** 00:00 UTC of the n-th Sunday of a month. */
function nthSunday(year: number, month: number, n: number): number {
  const first = Date.UTC(year, month, 1)
  const weekday = new Date(first).getUTCDay()
  return first + (((7 - weekday) % 7) + 7 * (n - 1)) * DAY
}

/** Whether the instant falls in Eastern daylight time: 2am EST (07:00 UTC) in March to 2am EDT (06:00 UTC) in November. */
export function isEasternDaylight(ms: number): boolean {
  const year = new Date(ms).getUTCFullYear()
  return ms >= nthSunday(year, 2, 2) + 7 * HOUR && ms < nthSunday(year, 10, 1) + 6 * HOUR
}

/** The Eastern wall clock at an instant. */
export function easternOf(ms: number): EasternTime {
  const daylight = isEasternDaylight(ms)
  const d = new Date(ms - (daylight ? 4 : 5) * HOUR)
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    daylight,
  }
}

/**
 * The instant an Eastern wall-clock time names. The hour repeated when clocks fall back is its first (daylight)
 * occurrence; the hour skipped in March reads as the hour after it.
 */
export function easternInstant(year: number, month: number, day: number, hour: number, minute = 0): number {
  const wall = Date.UTC(year, month, day, hour, minute)
  return isEasternDaylight(wall + 4 * HOUR) ? wall + 4 * HOUR : wall + 5 * HOUR
}

/** The instant of `hour`:`minute` ET on the UTC calendar date of `dayMs` (a planned end: 16:00 UTC of its date). */
export function easternOnDateOf(dayMs: number, hour: number, minute = 0): number {
  const d = new Date(dayMs)
  return easternInstant(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour, minute)
}

/** The ET date as a ticker date code: "26MAY10". */
export function easternDateCode(et: EasternTime): string {
  return dateCode(Date.UTC(et.year, et.month, et.day))
}

/** The ET date as a slug's date: "2026-05-10". */
export function easternIsoDate(et: EasternTime): string {
  return new Date(Date.UTC(et.year, et.month, et.day)).toISOString().slice(0, 10)
}

/** The hour on a 12-hour clock, lower case: "10am", "12pm", "12am". */
export function hour12(hour: number): string {
  return `${hour % 12 === 0 ? 12 : hour % 12}${hour < 12 ? 'am' : 'pm'}`
}

/** "EDT" or "EST", as the ticker style's titles name the zone. */
export function zoneOf(et: EasternTime): string {
  return et.daylight ? 'EDT' : 'EST'
}
