/**
 * Money and volume figures as the API prints them: rounded to cents, half away from zero, so a body never shows
 * float noise (`391872.8499999999`) or sub-cent digits. Prices and probabilities are not money: they keep their
 * tick precision and never pass through here.
 *
 * The rounding follows the decimal a number stands for (its shortest round-trip form, what JSON prints), not its
 * binary value: 0.285 is stored as 0.28499999999999998, and a plain `Math.round(x * 100) / 100` gives 0.28 where
 * anyone reading "0.285" expects 0.29. The result is an integer number of cents divided by 100, which prints with
 * at most two decimals.
 */

/** Cents beyond which a double cannot hold an exact cent amount anyway (2^53 / 100 dollars ≈ 9 × 10^13). */
const EXACT_CENTS_LIMIT = 1e15

/** `x` rounded to cents; null for a missing or non-finite value (unknown stays unknown). */
export function money(x: number | null | undefined): number | null {
  if (x === undefined || x === null || !Number.isFinite(x)) return null
  const abs = x < 0 ? -x : x
  const c = abs * 100
  if (c >= EXACT_CENTS_LIMIT) return Number(x.toFixed(2))
  const whole = Math.floor(c)
  const frac = c - whole
  // Away from a half cent the binary product rounds the same way as the decimal it stands for (their difference is
  // a few ulps); only near a half does the decimal form have to decide.
  const cents = Math.abs(frac - 0.5) > 1e-12 * (c + 1) ? (frac > 0.5 ? whole + 1 : whole) : centsOfDecimal(abs)
  if (cents === 0) return 0
  const r = cents / 100
  return x < 0 ? -r : r
}

/** Cents of a non-negative number below 10^13, rounded half up on its shortest decimal form. */
function centsOfDecimal(abs: number): number {
  const s = String(abs)
  const dot = s.indexOf('.')
  if (dot < 0) return abs * 100
  const digits = s.slice(0, dot) + s.slice(dot + 1, dot + 3).padEnd(2, '0')
  const third = s.charCodeAt(dot + 3)
  return Number(digits) + (third >= 53 /* '5' */ ? 1 : 0)
}
