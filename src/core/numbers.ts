/**
 * Lenient number parsing for venue payloads. Venues send decimals as strings (".48", "0.5600", "10.00"),
 * sometimes as JSON numbers, and omit unknown values. A missing or malformed value is `undefined`, never 0:
 * a made-up zero price looks like a real quote and produces phantom spreads.
 */
export function parseDecimal(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value !== 'string') return undefined
  if (value.length === 0) return undefined
  const n = Number(value)
  return Number.isFinite(n) ? n : undefined
}

/** Like `parseDecimal`, but only for values that are integers (ids, Unix timestamps). */
export function parseInteger(value: unknown): number | undefined {
  const n = parseDecimal(value)
  return n !== undefined && Number.isInteger(n) ? n : undefined
}

/** Fixed-point scale used for prices and sizes inside order books: 1e-6 units keep venue decimals exact. */
export const MICROS_PER_UNIT = 1_000_000

/** Decimal (as number) → integer micro-units, rounding away the binary floating-point noise. */
export function toMicros(value: number): number {
  return Math.round(value * MICROS_PER_UNIT)
}

/**
 * Parses a decimal string straight into micro-units without going through a float when it has at most six
 * fractional digits, so "0.4700" + "-3.00" arithmetic on sizes stays exact. Returns undefined when malformed.
 */
export function parseMicros(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? toMicros(value) : undefined
  if (typeof value !== 'string' || value.length === 0) return undefined
  let i = 0
  let negative = false
  if (value.charCodeAt(0) === 45 /* - */) {
    negative = true
    i = 1
  } else if (value.charCodeAt(0) === 43 /* + */) {
    i = 1
  }
  let intPart = 0
  let fracPart = 0
  let fracDigits = 0
  let sawDigit = false
  let sawDot = false
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      sawDigit = true
      if (sawDot) {
        if (fracDigits < 6) {
          fracPart = fracPart * 10 + (c - 48)
          fracDigits++
        } else if (fracDigits === 6) {
          // Round half up on the 7th digit; further digits cannot change the result by more than rounding.
          if (c - 48 >= 5) fracPart += 1
          fracDigits++
        }
      } else {
        intPart = intPart * 10 + (c - 48)
      }
    } else if (c === 46 /* . */ && !sawDot) {
      sawDot = true
    } else {
      // Exponents and anything unusual: fall back to the general parser.
      const n = parseDecimal(value)
      return n === undefined ? undefined : toMicros(n)
    }
  }
  if (!sawDigit) return undefined
  let scale = 1
  for (let d = Math.min(fracDigits, 6); d < 6; d++) scale *= 10
  const micros = intPart * MICROS_PER_UNIT + fracPart * scale
  if (!Number.isSafeInteger(micros)) return undefined
  return negative ? -micros : micros
}
