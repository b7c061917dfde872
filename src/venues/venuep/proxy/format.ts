import { MICROS_PER_UNIT } from '../../../core/numbers.js'
import { isoNoZone } from '../../../core/time.js'

/** Output formatting shared by the proxies: book decimals as strings (spec 2.10) and ISO times without zone. */

/** Integer micro-units → shortest decimal string: 470000 → "0.47", 1500000000 → "1500", 0 → "0". */
export function decimalOfMicros(micros: number): string {
  const negative = micros < 0
  const abs = Math.abs(Math.round(micros))
  const int = Math.floor(abs / MICROS_PER_UNIT)
  const frac = abs % MICROS_PER_UNIT
  let s = String(int)
  if (frac !== 0) s += '.' + String(frac).padStart(6, '0').replace(/0+$/, '')
  return negative ? '-' + s : s
}

/** Unix seconds → ISO 8601 UTC without zone suffix (docs/DESIGN.md), or null. */
export function isoOfSeconds(sec: number | undefined): string | null {
  return sec === undefined ? null : isoNoZone(sec * 1000)
}

/** Rounds money and share figures computed here (sums, PnL) so float noise never reaches a client. */
export function round6(x: number): number {
  const r = Math.round(x * 1e6) / 1e6
  return Object.is(r, -0) ? 0 : r
}
