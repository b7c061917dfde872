import type { BookReader } from '../../book/order-book.js'
import { atLeast } from '../../core/typed-arrays.js'
import type { VenueId } from '../../model/types.js'
import { confidenceOf } from './confidence.js'
import { ExecutableEdge, walkExecutable, type Executable } from './executable.js'
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
 * `into` is the pair's record object when it has one: it is rewritten in place and returned (see
 * SpreadRecordValue), and left as it was when the result is undefined. Without it a new record is made.
 *
 * The executable edge is read from the rows' top of book; the books themselves are walked only when the top
 * levels can be traded at a positive net edge, which is rare (nearly every pair's best ask on the cheap venue is
 * above the dear venue's best bid less fees). Either way the result is what `executableEdge` gives on the two
 * books: its walk stops at the top when the first level does not pay. An executable edge needs both quotes live:
 * a stale book is not one to trade on.
 */
export function recordFromRows(
  pairId: number,
  spec: SpreadPairSpec,
  layout: PairLayout,
  rowP: number,
  rowK: number,
  now: number,
  bookOf: BookOf,
  into?: SpreadRecordValue,
): SpreadRecordValue | undefined {
  const P = layout.tables.venuep.rows
  const K = layout.tables.venuek.rows
  const atP = rowP * ROW
  const atK = rowK * ROW
  const pp = P[atP + PROBABILITY] as number
  const pk = K[atK + PROBABILITY] as number
  if (P[atP + STATE] === NO_QUOTE || K[atK + STATE] === NO_QUOTE || Number.isNaN(pp) || Number.isNaN(pk)) return undefined
  const record = into ?? new SpreadRecordValue(pairId, spec)
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
  const edge = record.edge
  let hasEdge = false
  if (liveBoth && !Number.isNaN(askA) && !Number.isNaN(bidB)) {
    const feesA = at + (pIsA ? FEES_P : FEES_K)
    const feesB = at + (pIsA ? FEES_K : FEES_P)
    const topNet = bidB - askA - feeAt(terms, feesA, askA) - feeAt(terms, feesB, 1 - bidB)
    if (topNet > 0) {
      hasEdge = walkExecutable(bookOf(a, pIsA ? rowP : rowK), bookOf(b, pIsA ? rowK : rowP), (pIsA ? spec.venuep : spec.venuek).fees, (pIsA ? spec.venuek : spec.venuep).fees, edge)
    } else {
      edge.set(askA, bidB, round6(bidB - askA), round6(topNet), 0, 0, 0)
      hasEdge = true
    }
  }

  const va = withFallback(A[atA + PUSHED_VOLUME] as number, terms[at + (pIsA ? VOLUME_P : VOLUME_K)] as number)
  const vb = withFallback(B[atB + PUSHED_VOLUME] as number, terms[at + (pIsA ? VOLUME_K : VOLUME_P)] as number)
  const minVolume = Number.isNaN(va) || Number.isNaN(vb) ? Number.NaN : Math.min(va, vb)
  const topDollars = Math.min(askA * (A[atA + BEST_ASK_SIZE] as number), bidB * (B[atB + BEST_BID_SIZE] as number))
  const liquidityDollars = hasEdge && edge.size > 0 ? edge.costDollars : Number.isNaN(topDollars) ? undefined : topDollars
  const tsP = P[atP + VENUE_TS] as number
  const tsK = K[atK + VENUE_TS] as number
  const olderQuoteAt = Math.min(tsP, tsK)
  const feedStale = P[atP + STATE] === STALE || K[atK + STATE] === STALE
  const confidence = confidenceOf(spec.match.weight, spread, Number.isNaN(minVolume) ? undefined : minVolume, liquidityDollars, now - olderQuoteAt, feedStale)
  record.assign(spec, pIsA, pp, pk, spread, confidence, Math.max(tsP, tsK), olderQuoteAt, feedStale, minVolume, hasEdge)
  return record
}

/**
 * A pair's record, rewritten in place by every recompute of the pair (`assign`, which bumps `version`). The engine
 * keeps one per pair for the pair's life, with its executable edge inside. Records used to be immutable, one new
 * object per quote change; each lived until its pair's next change, seconds later, so V8 copied it through the
 * young generation into the old one, where it died: at ~6,000 quote changes/s that was about half of everything
 * promoted, and the old generation filled up, and had to be marked, every ~30 s. A record rewritten in place
 * allocates nothing. Numbers that may be absent are kept as NaN inside (`minVolume`), so each field only ever
 * holds doubles and V8 updates its box in place rather than allocating a new one.
 *
 * Readers read it synchronously (a route rendering it, a listener of the engine's changes), as they do a book;
 * one that keeps a record past the current turn keeps `snapshotRecord(record)`. `version` lets caches of what
 * a record says (its JSON, a page of records) notice that it changed.
 *
 * Only what the quotes decide is stored; what the pair's spec decides (key, titles, URLs, strategy, quality) and
 * what follows from the stored fields (sides, bps) are getters.
 */
export class SpreadRecordValue implements SpreadRecord {
  #spec: SpreadPairSpec
  #pIsA = true
  #minVolume = Number.NaN
  #hasEdge = false
  /** Rewritten with the record; `executable` hands it out while the record has an edge. */
  readonly edge = new ExecutableEdge()
  version = 0
  priceA = Number.NaN
  priceB = Number.NaN
  spread = Number.NaN
  confidence = Number.NaN
  updatedAt = Number.NaN
  olderQuoteAt = Number.NaN
  feedStale = false

  constructor(
    readonly pairId: number,
    spec: SpreadPairSpec,
  ) {
    this.#spec = spec
  }

  assign(spec: SpreadPairSpec, pIsA: boolean, pp: number, pk: number, spread: number, confidence: number, updatedAt: number, olderQuoteAt: number, feedStale: boolean, minVolume: number, hasEdge: boolean): void {
    this.version++
    this.#spec = spec
    this.#pIsA = pIsA
    this.priceA = pIsA ? pp : pk
    this.priceB = pIsA ? pk : pp
    this.spread = spread
    this.confidence = confidence
    this.updatedAt = updatedAt
    this.olderQuoteAt = olderQuoteAt
    this.feedStale = feedStale
    this.#minVolume = minVolume
    this.#hasEdge = hasEdge
  }

  get minVolume(): number | undefined {
    return Number.isNaN(this.#minVolume) ? undefined : this.#minVolume
  }
  get executable(): Executable | undefined {
    return this.#hasEdge ? this.edge : undefined
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
  get match(): SpreadPairSpec['match'] {
    return this.#spec.match
  }
}

/** What `record` says now, in an object no recompute touches (for readers that keep a record past the turn). */
export function snapshotRecord(record: SpreadRecord): SpreadRecord {
  const x = record.executable
  return Object.freeze({
    pairId: record.pairId,
    version: record.version,
    key: record.key,
    eventSlug: record.eventSlug,
    eventTitle: record.eventTitle,
    outcomeTitle: record.outcomeTitle,
    outcomeKey: record.outcomeKey,
    platformA: record.platformA,
    platformB: record.platformB,
    priceA: record.priceA,
    priceB: record.priceB,
    spread: record.spread,
    spreadBps: record.spreadBps,
    confidence: record.confidence,
    updatedAt: record.updatedAt,
    olderQuoteAt: record.olderQuoteAt,
    feedStale: record.feedStale,
    platformAUrl: record.platformAUrl,
    platformBUrl: record.platformBUrl,
    strategy: record.strategy,
    quality: record.quality,
    match: record.match,
    minVolume: record.minVolume,
    executable: x === undefined ? undefined : Object.freeze({ ...x }),
  })
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
