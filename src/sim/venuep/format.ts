import { MICROS_PER_UNIT } from '../../core/numbers.js'

/**
 * Wire formatting shared by venuep's hosts. venuep sends CLOB prices and sizes as short decimal strings
 * ("0.48", "820.5", "1500"), Gamma dates in three different shapes, and JSON arrays encoded as strings; the
 * helpers here produce exactly those forms so every endpoint agrees byte for byte.
 */

/** Integer micro-units → shortest decimal string: 470000 → "0.47", 1500000000 → "1500", 0 → "0". */
export function fmtMicros(micros: number): string {
  // Arithmetic rather than padStart + a trailing-zero regex: every book change formats both tokens' books.
  const abs = Math.abs(Math.round(micros))
  const int = Math.floor(abs / MICROS_PER_UNIT)
  let frac = abs % MICROS_PER_UNIT
  const sign = micros < 0 ? '-' : ''
  if (frac === 0) return `${sign}${int}`
  let places = 6
  while (frac % 10 === 0) {
    frac /= 10
    places--
  }
  const digits = String(frac)
  return `${sign}${int}.${digits.length === places ? digits : '0'.repeat(places - digits.length) + digits}`
}

/** A float (price or size) → decimal string with at most `digits` places and no binary noise. */
export function fmtNum(value: number, digits = 6): string {
  if (!Number.isFinite(value)) throw new Error(`cannot format ${value}`)
  const s = value.toFixed(digits)
  const trimmed = s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s
  return trimmed === '-0' ? '0' : trimmed
}

/** Rounds for JSON-number fields (Data API, Gamma numbers) so 0.1 + 0.2 never shows up on the wire. */
export function num(value: number, digits = 6): number {
  const f = 10 ** digits
  const r = Math.round(value * f) / f
  return Object.is(r, -0) ? 0 : r
}

const isoCache = new Map<number, string>()
const ISO_CACHE_MAX = 100_000

/** ISO-8601 UTC; whole seconds drop the ".000" as venuep's own timestamps do ("2026-03-24T06:40:00Z"). */
export function isoTime(ms: number): string {
  // Catalog dates repeat on every listing request; a bounded cache keeps Date formatting off the hot path.
  let s = isoCache.get(ms)
  if (s !== undefined) return s
  s = new Date(ms).toISOString()
  if (s.endsWith('.000Z')) s = s.slice(0, -5) + 'Z'
  if (isoCache.size >= ISO_CACHE_MAX) isoCache.clear()
  isoCache.set(ms, s)
  return s
}

/** Date only, "2025-12-10" (Gamma endDateIso/startDateIso, Data API endDate). */
export function dateOnly(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** Gamma's closedTime is Postgres text, not ISO: "2026-03-24 06:40:23+00" (real capture, venuep.md §1.5). */
export function pgTime(ms: number): string {
  const s = new Date(ms).toISOString()
  return `${s.slice(0, 10)} ${s.slice(11, 19)}+00`
}

/** A JSON array encoded as a string the way Gamma does it (Python-style ", " separator): "[\"Yes\", \"No\"]". */
export function jsonListString(values: readonly string[]): string {
  return '[' + values.map((v) => JSON.stringify(v)).join(', ') + ']'
}

/** Unix seconds from ms (Data API timestamps, CLOB /time, prices-history `t`). */
export function seconds(ms: number): number {
  return Math.floor(ms / 1000)
}
