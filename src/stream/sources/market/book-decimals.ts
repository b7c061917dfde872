import { MICROS_PER_UNIT } from '../../../core/numbers.js'

/**
 * How book levels are printed on the stream: decimal strings with a fixed minimum of decimals, so every frame of
 * every venue writes a price the same way and the `crc` (computed over these strings) is reproducible by a client.
 *
 * Prices have 4 decimals ("0.4700"): both venues tick in cents, sub-cent ticks go to 0.001, and 4 covers them
 * with one digit to spare. Sizes have 2 decimals ("12.00"): venuep sizes are shares to the cent, venuek's are
 * whole contracts (or `_fp` cents). A value finer than that (books hold micro-units, 6 decimals) is printed with
 * the digits it needs, never rounded: two distinct levels must never print alike. A removal is the literal "0".
 */
export const PRICE_DECIMALS = 4
export const SIZE_DECIMALS = 2
export const REMOVED = '0'

export function formatPrice(micros: number): string {
  return fixedMicros(micros, PRICE_DECIMALS)
}

export function formatSize(micros: number): string {
  return fixedMicros(micros, SIZE_DECIMALS)
}

/** `micros` as a decimal with at least `minDecimals` and at most 6 decimals (trailing zeros beyond the minimum cut). */
function fixedMicros(micros: number, minDecimals: number): string {
  const negative = micros < 0
  const m = Math.abs(Math.round(micros))
  const whole = Math.floor(m / MICROS_PER_UNIT)
  const frac = String(m % MICROS_PER_UNIT).padStart(6, '0')
  let end = 6
  while (end > minDecimals && frac.charCodeAt(end - 1) === 48 /* 0 */) end--
  return `${negative ? '-' : ''}${whole}${end > 0 ? `.${frac.slice(0, end)}` : ''}`
}
