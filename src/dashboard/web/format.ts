/**
 * How the dashboard writes numbers and times. Pure (no DOM), so the rules are unit-tested
 * (test/dashboard/format.test.ts). Missing values are an em dash, never a zero that looks like data.
 */
export const NONE = '—'

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** A probability (0 to 1) as cents of a $1 contract: 0.4235 → "42.4¢". */
export function cents(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return NONE
  return `${(p * 100).toFixed(1)}¢`
}

/** A per-contract amount with its sign: 0.012 → "+1.2¢", -0.004 → "−0.4¢". */
export function signedCents(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return NONE
  const text = `${Math.abs(x * 100).toFixed(1)}¢`
  if (text === '0.0¢') return text
  return x > 0 ? `+${text}` : `−${text}`
}

/** Basis points, rounded, grouped: 1234.4 → "1,234". */
export function bps(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return NONE
  return grouped.format(Math.round(n))
}

/** A share (0 to 1) as a whole percent: 0.873 → "87%". */
export function percent(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return NONE
  return `${Math.round(x * 100)}%`
}

/** A contract count: whole numbers grouped, fractions to two places (venues trade fractional sizes). */
export function contracts(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return NONE
  if (Number.isInteger(n)) return grouped.format(n)
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)
}

/** A duration as a short age: 420 → "0.4 s", 12_300 → "12 s", 185_000 → "3 min", 7_300_000 → "2 h", 2 days → "2 d". */
export function age(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return NONE
  const t = Math.max(0, ms)
  if (t < 1_000) return `${(t / 1000).toFixed(1)} s`
  if (t < 60_000) return `${Math.floor(t / 1000)} s`
  if (t < 3_600_000) return `${Math.floor(t / 60_000)} min`
  if (t < 86_400_000) return `${Math.floor(t / 3_600_000)} h`
  return `${Math.floor(t / 86_400_000)} d`
}

/** The API's times (ISO 8601, UTC, no zone suffix) as epoch milliseconds; NaN when unreadable. */
export function parseUtc(iso: string): number {
  const zoned = /(?:Z|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`
  return Date.parse(zoned)
}

/** A book level's decimal string as cents ("0.4700" → "47.0¢"), or as given when it is not a number. */
export function levelPrice(price: string): string {
  const p = Number(price)
  return Number.isFinite(p) ? cents(p) : price
}

/** A book level's size string, grouped ("1234.00" → "1,234"). */
export function levelSize(size: string): string {
  const n = Number(size)
  return Number.isFinite(n) ? contracts(n) : size
}
