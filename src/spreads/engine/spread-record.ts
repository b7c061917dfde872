import type { BookReader } from '../../book/order-book.js'
import { atLeast } from '../../core/typed-arrays.js'
import type { VenueId } from '../../model/types.js'
import { confidenceOf } from './confidence.js'
import { ExecutableEdge, walkExecutable, type Executable } from './executable.js'
import type { InstrumentTable } from './instrument-table.js'
import { pairIdOf } from './pair-id.js'
import { feeOf, LEG_A, LEG_B, volumeOf } from './pair-terms.js'
import type { SpreadPairSpec, SpreadRecord } from './types.js'

/** An instrument's book on its venue (the table's), for the depth walk (only when the top of the books can be executed). */
export type BookOf = (table: InstrumentTable<unknown>, row: number) => BookReader | undefined

/** What the record formula reads of a pair: its spec, and its legs' instrument rows (PairState has them). */
export interface PairRows {
  readonly id: number
  readonly spec: SpreadPairSpec
  readonly tableA: number
  readonly rowA: number
  readonly tableB: number
  readonly rowB: number
}

/** The rows the pairs point into (PairLayout has them): instrument tables per venue and per-pair terms. */
export interface RowsLayout {
  readonly tables: readonly InstrumentTable<unknown>[]
  readonly terms: Float64Array
}

/**
 * The spread record of pair `p` from its instruments' rows in `layout`, or undefined while either leg has no
 * probability. The one formula: the engine calls it on every recompute (the tests check it against a reference
 * computed from the venues' quotes and books).
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
  p: PairRows,
  layout: RowsLayout,
  now: number,
  bookOf: BookOf,
  into?: SpreadRecordValue,
): SpreadRecordValue | undefined {
  const TA = layout.tables[p.tableA] as InstrumentTable<unknown>
  const TB = layout.tables[p.tableB] as InstrumentTable<unknown>
  const rowA = p.rowA
  const rowB = p.rowB
  const pa = TA.probability(rowA)
  const pb = TB.probability(rowB)
  if (!TA.hasQuote(rowA) || !TB.hasQuote(rowB) || Number.isNaN(pa) || Number.isNaN(pb)) return undefined
  const spec = p.spec
  const record = into ?? new SpreadRecordValue(p.id, spec)
  // Platform A is the cheaper leg; ties go to leg a, so the record does not flip on equal prices.
  const aIsA = pa <= pb
  const cheap = aIsA ? TA : TB
  const dear = aIsA ? TB : TA
  const cheapRow = aIsA ? rowA : rowB
  const dearRow = aIsA ? rowB : rowA
  const cheapLeg = aIsA ? LEG_A : LEG_B
  const dearLeg = aIsA ? LEG_B : LEG_A
  const terms = layout.terms
  const spread = Math.round(Math.abs(pb - pa) * 1e6) / 1e6

  const liveBoth = cheap.isLive(cheapRow) && dear.isLive(dearRow)
  const askA = cheap.bestAsk(cheapRow)
  const bidB = dear.bestBid(dearRow)
  const edge = record.edge
  let hasEdge = false
  if (liveBoth && !Number.isNaN(askA) && !Number.isNaN(bidB)) {
    const topNet = bidB - askA - feeOf(terms, p.id, cheapLeg, askA) - feeOf(terms, p.id, dearLeg, 1 - bidB)
    if (topNet > 0) {
      hasEdge = walkExecutable(
        bookOf(cheap, cheapRow),
        bookOf(dear, dearRow),
        (aIsA ? spec.a : spec.b).outcome.fees,
        (aIsA ? spec.b : spec.a).outcome.fees,
        edge,
      )
    } else {
      edge.set(askA, bidB, round6(bidB - askA), round6(topNet), 0, 0, 0)
      hasEdge = true
    }
  }

  const va = withFallback(cheap.pushedVolume(cheapRow), volumeOf(terms, p.id, cheapLeg))
  const vb = withFallback(dear.pushedVolume(dearRow), volumeOf(terms, p.id, dearLeg))
  const minVolume = Number.isNaN(va) || Number.isNaN(vb) ? Number.NaN : Math.min(va, vb)
  const topDollars = Math.min(askA * cheap.bestAskSize(cheapRow), bidB * dear.bestBidSize(dearRow))
  const liquidityDollars =
    hasEdge && edge.size > 0 ? edge.costDollars : Number.isNaN(topDollars) ? undefined : topDollars
  const tsA = TA.venueTs(rowA)
  const tsB = TB.venueTs(rowB)
  const olderQuoteAt = Math.min(tsA, tsB)
  const feedStale = TA.isStale(rowA) || TB.isStale(rowB)
  record.rewrite(spec, aIsA, minVolume, hasEdge)
  record.priceA = aIsA ? pa : pb
  record.priceB = aIsA ? pb : pa
  record.spread = spread
  record.confidence = confidenceOf(
    spec.match.weight,
    spread,
    Number.isNaN(minVolume) ? undefined : minVolume,
    liquidityDollars,
    now - olderQuoteAt,
    feedStale,
  )
  record.updatedAt = Math.max(tsA, tsB)
  record.olderQuoteAt = olderQuoteAt
  record.feedStale = feedStale
  return record
}

/**
 * A pair's record, rewritten in place by every recompute of the pair (`rewrite` and `recordFromRows`, which bump `version`). The engine
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
  #aIsA = true
  #minVolume = Number.NaN
  #hasEdge = false
  /** `id` and the key it was computed for (a pair keeps its key; hashed once). */
  #id = ''
  #idOf = ''
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

  /**
   * Starts a rewrite (`recordFromRows` then writes the prices, confidence and times): bumps `version` and sets
   * what the getters derive from. `aIsA`: leg a is the cheaper leg (platform A).
   */
  rewrite(spec: SpreadPairSpec, aIsA: boolean, minVolume: number, hasEdge: boolean): void {
    this.version++
    this.#spec = spec
    this.#aIsA = aIsA
    this.#minVolume = minVolume
    this.#hasEdge = hasEdge
  }

  /** Leg a of the spec is platform A (the cheaper leg). */
  get aIsA(): boolean {
    return this.#aIsA
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
  get id(): string {
    const key = this.#spec.key
    if (this.#idOf !== key) {
      this.#id = pairIdOf(key)
      this.#idOf = key
    }
    return this.#id
  }
  get eventSlug(): string {
    return this.#spec.eventSlug
  }
  get eventTitle(): string {
    return this.#spec.eventTitle
  }
  get category(): string {
    return this.#spec.category
  }
  get outcomeTitle(): string {
    return this.#spec.outcomeTitle
  }
  get outcomeKey(): string {
    return this.#spec.outcomeKey
  }
  get platformA(): VenueId {
    return this.#aIsA ? this.#spec.a.venue : this.#spec.b.venue
  }
  get platformB(): VenueId {
    return this.#aIsA ? this.#spec.b.venue : this.#spec.a.venue
  }
  get spreadBps(): number {
    return Math.round(this.spread * 10_000 * 1e4) / 1e4
  }
  get platformAUrl(): string {
    return this.#aIsA ? this.#spec.a.url : this.#spec.b.url
  }
  get platformBUrl(): string {
    return this.#aIsA ? this.#spec.b.url : this.#spec.a.url
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

/** What `record` says now, in a frozen object no recompute touches (for readers that keep a record past the turn). */
export function snapshotRecord(record: SpreadRecord): Readonly<SpreadRecord> {
  const x = record.executable
  return Object.freeze({
    pairId: record.pairId,
    id: record.id,
    version: record.version,
    key: record.key,
    eventSlug: record.eventSlug,
    eventTitle: record.eventTitle,
    category: record.category,
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
  same(id: number, record: SpreadRecordValue | undefined): boolean {
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

  set(id: number, record: SpreadRecordValue | undefined): void {
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

/** Present, which leg is platform A, feed state and whether an executable edge exists, as bits (0: no record). */
function flagsOf(r: SpreadRecordValue): number {
  return 1 | (r.aIsA ? 2 : 0) | (r.feedStale ? 4 : 0) | (r.executable !== undefined ? 8 : 0)
}

/** `value`, or `fallback` when it is NaN (the rows' and terms' "none"). */
function withFallback(value: number, fallback: number): number {
  return Number.isNaN(value) ? fallback : value
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6
}
