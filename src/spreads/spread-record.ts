import type { BookReader } from '../book/order-book.js'
import { atLeast } from '../core/typed-arrays.js'
import type { VenueId } from '../model/types.js'
import { confidenceOf } from './confidence.js'
import { ExecutableEdge, executableEdge, type Executable } from './executable.js'
import { BEST_ASK, BEST_ASK_SIZE, BEST_BID, BEST_BID_SIZE, LIVE, NO_QUOTE, PROBABILITY, PUSHED_VOLUME, ROW, STALE, STATE, VENUE_TS } from './instrument-table.js'
import { feeAt, FEES_K, FEES_P, TERMS, VOLUME_K, VOLUME_P, type PairLayout } from './pair-plan.js'
import type { SpreadPairSpec, SpreadRecord } from './spread-engine.js'

/** A pair's book on one venue, for the depth walk (only needed when the top of the books can be executed). */
export type BookOf = (venue: VenueId, row: number) => BookReader | undefined

/**
 * The spread record of pair `pairId` from its instruments' rows in `layout`, or undefined while either side has
 * no probability. The one formula: the engine calls it on every recompute, and the brute-force reference
 * (`computeRecord`) calls it on rows loaded straight from the venues.
 *
 * The executable edge is read from the rows' top of book; the books themselves are walked only when the top
 * levels can be traded at a positive net edge, which is rare (nearly every pair's best ask on the cheap venue is
 * above the dear venue's best bid less fees). Either way the result is what `executableEdge` gives on the two
 * books: its walk stops at the top when the first level does not pay. An executable edge needs both quotes live:
 * a stale book is not one to trade on.
 */
export function recordFromRows(pairId: number, spec: SpreadPairSpec, layout: PairLayout, rowP: number, rowK: number, now: number, bookOf: BookOf): SpreadRecord | undefined {
  const P = layout.tables.venuep.rows
  const K = layout.tables.venuek.rows
  const atP = rowP * ROW
  const atK = rowK * ROW
  const pp = P[atP + PROBABILITY] as number
  const pk = K[atK + PROBABILITY] as number
  if (P[atP + STATE] === NO_QUOTE || K[atK + STATE] === NO_QUOTE || Number.isNaN(pp) || Number.isNaN(pk)) return undefined
  // Ties go to venuep as platform A, so the record does not flip on equal prices.
  const pIsA = pp <= pk
  const a: VenueId = pIsA ? 'venuep' : 'venuek'
  const b: VenueId = pIsA ? 'venuek' : 'venuep'
  const A = pIsA ? P : K
  const B = pIsA ? K : P
  const atA = pIsA ? atP : atK
  const atB = pIsA ? atK : atP
  const terms = layout.terms
  const at = pairId * TERMS
  const spread = Math.round(Math.abs(pk - pp) * 1e6) / 1e6

  const liveBoth = A[atA + STATE] === LIVE && B[atB + STATE] === LIVE
  const askA = A[atA + BEST_ASK] as number
  const bidB = B[atB + BEST_BID] as number
  let executable: Executable | undefined
  if (liveBoth && !Number.isNaN(askA) && !Number.isNaN(bidB)) {
    const feesA = at + (pIsA ? FEES_P : FEES_K)
    const feesB = at + (pIsA ? FEES_K : FEES_P)
    const topNet = bidB - askA - feeAt(terms, feesA, askA) - feeAt(terms, feesB, 1 - bidB)
    executable =
      topNet > 0
        ? executableEdge(bookOf(a, pIsA ? rowP : rowK), bookOf(b, pIsA ? rowK : rowP), (pIsA ? spec.venuep : spec.venuek).fees, (pIsA ? spec.venuek : spec.venuep).fees)
        : new ExecutableEdge(askA, bidB, round6(bidB - askA), round6(topNet), 0, 0, 0)
  }

  const va = withFallback(A[atA + PUSHED_VOLUME] as number, terms[at + (pIsA ? VOLUME_P : VOLUME_K)] as number)
  const vb = withFallback(B[atB + PUSHED_VOLUME] as number, terms[at + (pIsA ? VOLUME_K : VOLUME_P)] as number)
  const minVolume = Number.isNaN(va) || Number.isNaN(vb) ? undefined : Math.min(va, vb)
  const topDollars = Math.min(askA * (A[atA + BEST_ASK_SIZE] as number), bidB * (B[atB + BEST_BID_SIZE] as number))
  const liquidityDollars = executable !== undefined && executable.size > 0 ? executable.costDollars : Number.isNaN(topDollars) ? undefined : topDollars
  const tsP = P[atP + VENUE_TS] as number
  const tsK = K[atK + VENUE_TS] as number
  const olderQuoteAt = Math.min(tsP, tsK)
  const feedStale = P[atP + STATE] === STALE || K[atK + STATE] === STALE
  return new SpreadRecordValue(pairId, spec, pIsA, pp, pk, spread, confidenceOf(spec.quality, spread, minVolume, liquidityDollars, now - olderQuoteAt, feedStale), Math.max(tsP, tsK), olderQuoteAt, feedStale, minVolume, executable)
}

/**
 * A record made by a constructor, not an object literal. V8 pretenures a literal's allocation site once most of its
 * objects survive, which every record of a pair install does; from then on every record would be allocated in old
 * space and die there. In the engine bench at 100,000 pairs that promoted ~700 bytes per quote change (records,
 * their executable edges and the change objects), and the major collections cleaning up after it landed in the
 * calls. Constructed objects have no allocation site, so short-lived records die young.
 *
 * Only what the quotes decide is stored per record; what the pair's spec decides (key, titles, URLs, strategy,
 * quality) and what follows from the stored fields (sides, bps) are getters. Records are the largest share of what
 * survives a young-generation collection in the service (the current record of every pair that changed since the
 * last one: 46% of the bytes surviving under a 6,000 quote changes/s feed, sampling heap profiler), and a
 * scavenge's pause grows with those bytes; the getters cut a record from 22 fields to 12.
 */
class SpreadRecordValue implements SpreadRecord {
  readonly #spec: SpreadPairSpec
  readonly #pIsA: boolean
  readonly priceA: number
  readonly priceB: number

  constructor(
    readonly pairId: number,
    spec: SpreadPairSpec,
    pIsA: boolean,
    pp: number,
    pk: number,
    readonly spread: number,
    readonly confidence: number,
    readonly updatedAt: number,
    readonly olderQuoteAt: number,
    readonly feedStale: boolean,
    readonly minVolume: number | undefined,
    readonly executable: Executable | undefined,
  ) {
    this.#spec = spec
    this.#pIsA = pIsA
    this.priceA = pIsA ? pp : pk
    this.priceB = pIsA ? pk : pp
  }

  get key(): string {
    return this.#spec.key
  }
  get eventSlug(): string {
    return this.#spec.eventSlug
  }
  get eventTitle(): string {
    return this.#spec.eventTitle
  }
  get outcomeTitle(): string {
    return this.#spec.outcomeTitle
  }
  get outcomeKey(): string {
    return this.#spec.outcomeKey
  }
  get platformA(): VenueId {
    return this.#pIsA ? 'venuep' : 'venuek'
  }
  get platformB(): VenueId {
    return this.#pIsA ? 'venuek' : 'venuep'
  }
  get spreadBps(): number {
    return Math.round(this.spread * 10_000 * 1e4) / 1e4
  }
  get platformAUrl(): string {
    return this.#pIsA ? this.#spec.venuepUrl : this.#spec.venuekUrl
  }
  get platformBUrl(): string {
    return this.#pIsA ? this.#spec.venuekUrl : this.#spec.venuepUrl
  }
  get strategy(): SpreadPairSpec['strategy'] {
    return this.#spec.strategy
  }
  get quality(): SpreadPairSpec['quality'] {
    return this.#spec.quality
  }
}

/**
 * Per pair id, what subscribers act on of its current record (prices, side, confidence, state, time, executable
 * size and net edge) in one 64-byte row: a recompute compares its new record with the row instead of reading the
 * previous record object, which at 100,000 pairs is two or three more cache misses.
 */
export class RecordDigests {
  static readonly ROW = 8
  #rows = new Float64Array(1_024 * RecordDigests.ROW)

  /** Whether `record` says the same as the pair's digest (both absent counts as the same). */
  same(id: number, record: SpreadRecord | undefined): boolean {
    const at = id * RecordDigests.ROW
    const rows = this.#rows
    if (at >= rows.length) return record === undefined
    if (record === undefined) return rows[at] === 0
    const x = record.executable
    return (
      rows[at] === flagsOf(record) &&
      rows[at + 1] === record.priceA &&
      rows[at + 2] === record.priceB &&
      rows[at + 3] === record.confidence &&
      rows[at + 4] === record.updatedAt &&
      (x === undefined || (rows[at + 5] === x.size && rows[at + 6] === x.netEdge))
    )
  }

  set(id: number, record: SpreadRecord | undefined): void {
    const at = id * RecordDigests.ROW
    if (at >= this.#rows.length && record === undefined) return
    const rows = (this.#rows = atLeast(this.#rows, at + RecordDigests.ROW))
    if (record === undefined) {
      rows[at] = 0
      return
    }
    rows[at] = flagsOf(record)
    rows[at + 1] = record.priceA
    rows[at + 2] = record.priceB
    rows[at + 3] = record.confidence
    rows[at + 4] = record.updatedAt
    rows[at + 5] = record.executable?.size ?? 0
    rows[at + 6] = record.executable?.netEdge ?? 0
  }
}

/** Present, platform A, feed state and whether an executable edge exists, as bits (0: no record). */
function flagsOf(r: SpreadRecord): number {
  return 1 | (r.platformA === 'venuep' ? 2 : 0) | (r.feedStale ? 4 : 0) | (r.executable !== undefined ? 8 : 0)
}

/** `value`, or `fallback` when it is NaN (the rows' and terms' "none"). */
function withFallback(value: number, fallback: number): number {
  return Number.isNaN(value) ? fallback : value
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6
}
