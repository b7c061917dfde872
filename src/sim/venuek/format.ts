import { MICROS_PER_UNIT } from '../../core/numbers.js'

/**
 * venuek's current wire number formats (venuek.md §2): prices are `_dollars` strings with 4 decimals, counts
 * are `_fp` strings with 2 decimals. Everything is formatted from integers (micro-units or hundredths of a
 * contract) so no binary floating-point noise ever reaches a body.
 */
const MICROS_PER_DOLLAR_DIGIT4 = MICROS_PER_UNIT / 10_000
const MICROS_PER_HUNDREDTH = MICROS_PER_UNIT / 100

/** The venue's `"1.0000"`: a YES and a NO contract together always pay one dollar. */
export const ONE_DOLLAR = MICROS_PER_UNIT

function fixed(units: number, digits: number, scale: number): string {
  const negative = units < 0
  const abs = Math.abs(units)
  const int = Math.floor(abs / scale)
  const frac = String(abs - int * scale).padStart(digits, '0')
  return `${negative ? '-' : ''}${int}.${frac}`
}

/** Micro-dollars → `"0.4700"`. */
export function dollars(micros: number): string {
  return fixed(Math.round(micros / MICROS_PER_DOLLAR_DIGIT4), 4, 10_000)
}

/** A dollar amount held as a float (e.g. a trade's YES price) → `"0.4700"`. */
export function dollarsOf(value: number): string {
  return dollars(Math.round(value * MICROS_PER_UNIT))
}

/** Micro-contracts (the SimBook's size unit) → `"3.00"`; signed values keep their sign (`"-3.00"`). */
export function fpMicros(micros: number): string {
  return fixed(Math.round(micros / MICROS_PER_HUNDREDTH), 2, 100)
}

/** Hundredths of a contract (the unit trade aggregates are kept in) → `"31.54"`. */
export function fpHundredths(hundredths: number): string {
  return fixed(Math.round(hundredths), 2, 100)
}

/** A contract count held as a float with at most 2 decimals → hundredths, exactly. */
export function hundredthsOf(count: number): number {
  return Math.round(count * 100)
}

/**
 * RFC 3339 in UTC as the venue prints it: whole-second times without a fraction (`"2027-04-28T17:55:00Z"`),
 * others with milliseconds.
 */
export function rfc3339(ms: number): string {
  const iso = new Date(ms).toISOString()
  return ms % 1000 === 0 ? `${iso.slice(0, 19)}Z` : iso
}

/** Unix seconds, the unit of every REST query filter and of WS `ts` on ticker/trade frames. */
export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000)
}
