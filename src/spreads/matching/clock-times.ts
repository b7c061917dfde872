/**
 * Times of day as contracts state them ("at 10am EDT", "10AM ET", "5:30 pm ET", "noon ET", "17:00 UTC"), read into
 * instants. An hourly series' contract is observed at one hour: the hour is part of what it resolves on, so two
 * contracts agree only on the same instant (periods.ts). Venues name US zones loosely: "ET" is whichever of EDT and
 * EST is in force on that date (US daylight time runs from the second Sunday of March to the first Sunday of
 * November, changing at 2 am local time), and "EDT"/"EST" are taken as written.
 */
const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000

export interface TimeOfDay {
  /** Minutes after midnight, local. */
  readonly minutes: number
  /** The zone as written, lower case ("et", "edt", "utc"). */
  readonly zone: string
}

const ZONE = String.raw`(et|edt|est|eastern|ct|cdt|cst|central|mt|mdt|mst|pt|pdt|pst|pacific|utc|gmt|z)`
const CLOCK_RE = new RegExp(String.raw`\b(\d{1,2})(?::(\d{2}))?\s?(am|pm|a\.m\.|p\.m\.)\s?${ZONE}\b`)
const H24_RE = new RegExp(String.raw`\b([01]?\d|2[0-3]):(\d{2})\s?${ZONE}\b`)
const NAMED_RE = new RegExp(String.raw`\b(noon|midnight)\s?${ZONE}\b`)

/** The time of day a folded text states with its zone, or undefined (a time without a zone is not read). */
export function timeOfDay(folded: string): TimeOfDay | undefined {
  let m = CLOCK_RE.exec(folded)
  if (m !== null) {
    const h = Number(m[1])
    const min = m[2] === undefined ? 0 : Number(m[2])
    if (h < 1 || h > 12 || min > 59) return undefined
    const pm = (m[3] as string).startsWith('p')
    return { minutes: ((h % 12) + (pm ? 12 : 0)) * 60 + min, zone: m[4] as string }
  }
  m = H24_RE.exec(folded)
  if (m !== null) return { minutes: Number(m[1]) * 60 + Number(m[2]), zone: m[3] as string }
  m = NAMED_RE.exec(folded)
  if (m !== null) return { minutes: m[1] === 'noon' ? 720 : 0, zone: m[2] as string }
  return undefined
}

/** The instant of a local time of day on a day (UTC midnight of that calendar date, ms); undefined for an unknown zone. */
export function instantOn(dayMs: number, t: TimeOfDay): number | undefined {
  const offset = zoneOffsetHours(t.zone, dayMs, t.minutes)
  return offset === undefined ? undefined : dayMs + t.minutes * 60_000 - offset * HOUR_MS
}

/** Hours the zone is ahead of UTC at that local date and time. */
export function zoneOffsetHours(zone: string, dayMs: number, minutes = 720): number | undefined {
  const dst = usDaylightTime(dayMs, minutes)
  switch (zone) {
    case 'utc':
    case 'gmt':
    case 'z':
      return 0
    case 'edt':
      return -4
    case 'est':
      return -5
    case 'et':
    case 'eastern':
      return dst ? -4 : -5
    case 'cdt':
      return -5
    case 'cst':
      return -6
    case 'ct':
    case 'central':
      return dst ? -5 : -6
    case 'mdt':
      return -6
    case 'mst':
      return -7
    case 'mt':
      return dst ? -6 : -7
    case 'pdt':
      return -7
    case 'pst':
      return -8
    case 'pt':
    case 'pacific':
      return dst ? -7 : -8
    default:
      return undefined
  }
}

/** Whether US daylight time is in force at a local date (UTC midnight of it) and time of day. */
export function usDaylightTime(dayMs: number, minutes: number): boolean {
  const d = new Date(dayMs)
  const year = d.getUTCFullYear()
  const start = nthSunday(year, 2, 2)
  const end = nthSunday(year, 10, 1)
  const at = dayMs + minutes * 60_000
  return at >= start + 2 * HOUR_MS && at < end + 2 * HOUR_MS
}

/** UTC midnight of the n-th Sunday of a month (0-based month). */
function nthSunday(year: number, month: number, n: number): number {
  const first = Date.UTC(year, month, 1)
  const weekday = new Date(first).getUTCDay()
  return first + (((7 - weekday) % 7) + (n - 1) * 7) * DAY_MS
}

/** The US Eastern calendar day ('YYYY-MM-DD') of an instant. */
export function easternDay(ms: number): string {
  for (const offset of [-4, -5]) {
    const local = ms + offset * HOUR_MS
    const day = Math.floor(local / DAY_MS) * DAY_MS
    if (usDaylightTime(day, (local - day) / 60_000) === (offset === -4)) return isoDay(day)
  }
  // The hour the clocks go back is read twice; either reading names the same day.
  return isoDay(Math.floor((ms - 5 * HOUR_MS) / DAY_MS) * DAY_MS)
}

function isoDay(dayMs: number): string {
  return new Date(dayMs).toISOString().slice(0, 10)
}
