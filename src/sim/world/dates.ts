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
const MON = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']

/** "December 31, 2026" */
export function longDate(ms: number): string {
  const d = new Date(ms)
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`
}

/** "Dec 31, 2026" */
export function shortDate(ms: number): string {
  const d = new Date(ms)
  return `${(MONTHS[d.getUTCMonth()] as string).slice(0, 3)} ${d.getUTCDate()}, ${d.getUTCFullYear()}`
}

/** "December 2026" */
export function monthYear(ms: number): string {
  const d = new Date(ms)
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`
}

/** A ticker-style date code: "26DEC31" (the SERIES-DATECODE-STRIKE convention of ticker-style venues). */
export function dateCode(ms: number): string {
  const d = new Date(ms)
  return `${String(d.getUTCFullYear() % 100).padStart(2, '0')}${MON[d.getUTCMonth()]}${String(d.getUTCDate()).padStart(2, '0')}`
}

/** A ticker-style month code: "26DEC". */
export function monthCode(ms: number): string {
  const d = new Date(ms)
  return `${String(d.getUTCFullYear() % 100).padStart(2, '0')}${MON[d.getUTCMonth()]}`
}

const EASTERN_HOUR = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hour12: true })

/** The US Eastern hour of an instant as venues write it: "12pm ET" (EDT or EST, whichever is in force then). */
export function easternHour(ms: number): string {
  return `${EASTERN_HOUR.format(ms).replace(/\s/g, '').toLowerCase()} ET`
}

export function year(ms: number): number {
  return new Date(ms).getUTCFullYear()
}

export function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/[$%°]/g, (c) => (c === '%' ? 'pct' : ''))
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
