import type { FeeModel } from '../../model/types.js'
import type { SpreadPairSpec } from './types.js'

/**
 * Per pair id, what a recompute needs of the pair's two catalog outcomes, packed in one Float64Array beside the
 * instrument rows so a recompute does not follow the spec to its outcome objects: each leg's market volume (NaN
 * when the catalog has none) and its taker fee model as three numbers. The offsets are this module's alone;
 * the pair plan writes terms with `writeTerms` and the record formula reads them with `volumeOf` and `feeOf`.
 */

/** A pair's leg: `a` or `b` of its spec (see PairLeg). */
export type Leg = 0 | 1
export const LEG_A: Leg = 0
export const LEG_B: Leg = 1

/** Numbers per pair: two volumes, two fee models of three numbers each. */
const TERMS = 8
/** Leg a's volume; leg b's follows. */
const VOLUME = 0
/** Leg a's fee model (taker bps, curve rate, curve exponent); leg b's follows. */
const FEES = 2
const FEE_NUMBERS = 3

/** Terms for pair ids below `pairIds`, NaN until written. */
export function newTerms(pairIds: number): Float64Array {
  return new Float64Array(pairIds * TERMS).fill(Number.NaN)
}

export function writeTerms(terms: Float64Array, id: number, spec: SpreadPairSpec): void {
  const at = id * TERMS
  terms[at + VOLUME + LEG_A] = spec.a.outcome.marketVolume ?? Number.NaN
  terms[at + VOLUME + LEG_B] = spec.b.outcome.marketVolume ?? Number.NaN
  writeFees(terms, at + FEES + LEG_A * FEE_NUMBERS, spec.a.outcome.fees)
  writeFees(terms, at + FEES + LEG_B * FEE_NUMBERS, spec.b.outcome.fees)
}

/** The catalog volume of the pair's outcome on `leg`, NaN when the catalog has none. */
export function volumeOf(terms: Float64Array, id: number, leg: Leg): number {
  return terms[id * TERMS + VOLUME + leg] as number
}

/** Taker fee per contract at `price` on `leg`: the same value as feePerContract on the leg's fee model. */
export function feeOf(terms: Float64Array, id: number, leg: Leg, price: number): number {
  const at = id * TERMS + FEES + leg * FEE_NUMBERS
  const bps = terms[at] as number
  if (bps !== 0) return (bps / 10_000) * price
  const rate = terms[at + 1] as number
  return rate !== 0 ? rate * (price * (1 - price)) ** (terms[at + 2] as number) : 0
}

/** A fee model as three numbers: taker bps, curve rate, curve exponent (zeros for no fee). */
function writeFees(terms: Float64Array, at: number, fees: FeeModel | undefined): void {
  terms[at] = fees?.kind === 'bps' ? fees.takerBps : 0
  terms[at + 1] = fees?.kind === 'curve' ? fees.rate : 0
  terms[at + 2] = fees?.kind === 'curve' ? fees.exponent : 1
}

/** `terms` when it holds pair ids below `pairIds`, else a copy with room for twice as many (NaN until written). */
export function termsFor(terms: Float64Array, pairIds: number): Float64Array {
  if (terms.length >= pairIds * TERMS) return terms
  const grown = newTerms(Math.max(pairIds, (terms.length / TERMS) * 2))
  grown.set(terms)
  return grown
}
