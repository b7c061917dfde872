import type { BookReader } from '../../book/order-book.js'
import { atLeast } from '../../core/typed-arrays.js'
import type { Quote, VenueId } from '../../model/types.js'

/**
 * The spread engine's own copy of what a recompute reads of each matched instrument of one venue: the top of the
 * published quote, its venue time and state, and the venue-pushed volume, in one 64-byte row of a Float64Array.
 * Rows are written from the venue actor's quote messages (and from its live state when an instrument first
 * joins the table or the periodic sweep runs), so a recompute reads two rows instead of following the venue
 * actor's objects (state record → quote → stats, and both books): at 100,000 pairs each of those objects is a
 * cache miss, and that chain, not the arithmetic, was most of a recompute's cost.
 *
 * A table belongs to one venue and one pair layout (src/spreads/engine/pair-plan.ts); a new layout copies the rows
 * of the instruments it keeps. Missing values are NaN. The row layout is this module's alone: readers go through
 * the accessors below (small methods V8 inlines into the recompute).
 *
 * The pushed volume is read from the venue actor when a row is loaded and on every sweep (once a minute), not on
 * each quote: quotes do not carry it, and reading the actor's state for it cost a cache miss per change. It only
 * feeds the volume term of the confidence (log-scaled), where a minute's lag does not show.
 */
const ROW = 8
const PROBABILITY = 0
const BEST_BID = 1
const BEST_ASK = 2
const BEST_BID_SIZE = 3
const BEST_ASK_SIZE = 4
const VENUE_TS = 5
const STATE = 6
/** Volume pushed by the venue (some venues push it with their ticker), NaN when it sent none: the catalog's applies. */
const PUSHED_VOLUME = 7

/** `STATE` values. */
const NO_QUOTE = 0
const LIVE = 1
const STALE = 2

/** What the engine reads of one instrument's live state in its venue actor. */
export interface InstrumentView {
  readonly quote: Quote | undefined
  readonly book: BookReader | undefined
  readonly stats: { readonly volume: number | undefined } | undefined
}

/**
 * A view that stays current until `retired`: the venue actor's own state record (see QuoteSource.handle), which
 * the actor updates in place, so its fields are not `readonly` here. The engine only reads it.
 */
export interface InstrumentHandle {
  quote: Quote | undefined
  book: BookReader | undefined
  stats: { readonly volume: number | undefined } | undefined
  /** The source no longer updates this view; look the instrument up again. */
  retired: boolean
}

export class InstrumentTable<P> {
  readonly venue: VenueId
  readonly #ids: string[]
  /** Rows of `size` instruments, and room for more (`rowFor` adds rows in place). */
  rows: Float64Array
  /**
   * Each instrument's first pair; the rest of its list is linked from pair to pair (see PairState). Undefined once
   * a patched plan took its last pair out (its row stays until the next whole plan).
   */
  readonly firstPair: (P | undefined)[]
  /** The engine's handles on the instruments' live state, filled on first use (see SpreadEngine). */
  readonly handles: (InstrumentHandle | undefined)[] = []
  readonly #index: Map<string, number>
  /**
   * Quote `instrumentSlot` → row + 1, -1 for an instrument no pair reads, 0 not seen yet: after its first quote an
   * instrument is found with one array read instead of a Map lookup by id (at 100,000 pairs a quarter of a
   * recompute, in the engine bench).
   */
  #rowBySlot = new Int32Array(1_024)

  constructor(venue: VenueId, ids: string[], index: Map<string, number>, firstPair: (P | undefined)[]) {
    this.venue = venue
    this.#ids = ids
    this.#index = index
    this.firstPair = firstPair
    this.rows = new Float64Array(ids.length * ROW).fill(Number.NaN)
    for (let i = 0; i < ids.length; i++) this.rows[i * ROW + STATE] = NO_QUOTE
  }

  get ids(): readonly string[] {
    return this.#ids
  }

  get size(): number {
    return this.#ids.length
  }

  /**
   * The instrument's row, added at the end (no quote yet: the caller loads it) when no pair read it before. Rows
   * grow by doubling; an instrument quoted before while no pair read it was remembered as "no row" by its slot, which
   * is forgotten here.
   */
  rowFor(instrumentId: string): { row: number; added: boolean } {
    const known = this.#index.get(instrumentId)
    if (known !== undefined) return { row: known, added: false }
    const row = this.#ids.length
    this.#ids.push(instrumentId)
    this.#index.set(instrumentId, row)
    this.firstPair.push(undefined)
    if ((row + 1) * ROW > this.rows.length) {
      const grown = new Float64Array(Math.max(2 * this.rows.length, (row + 1) * ROW)).fill(Number.NaN)
      grown.set(this.rows)
      this.rows = grown
    }
    this.rows.fill(Number.NaN, row * ROW, row * ROW + ROW)
    this.rows[row * ROW + STATE] = NO_QUOTE
    this.#rowBySlot.fill(0)
    return { row, added: true }
  }

  /** The instrument's row number, or -1 when no pair reads it. */
  indexOf(instrumentId: string): number {
    return this.#index.get(instrumentId) ?? -1
  }

  /** The row of the quote's instrument, or -1 when no pair reads it. */
  rowOf(q: Quote): number {
    const slot = q.instrumentSlot
    if (slot === undefined) return this.indexOf(q.instrumentId)
    const known = slot < this.#rowBySlot.length ? (this.#rowBySlot[slot] as number) : 0
    if (known !== 0) return known > 0 ? known - 1 : -1
    const row = this.indexOf(q.instrumentId)
    this.#rowBySlot = atLeast(this.#rowBySlot, slot + 1)
    this.#rowBySlot[slot] = row >= 0 ? row + 1 : -1
    return row
  }

  /** Row `i` has a quote (with or without a probability). */
  hasQuote(i: number): boolean {
    return this.rows[i * ROW + STATE] !== NO_QUOTE
  }
  /** Row `i`'s quote is live (not stale: its feed is connected and synced). */
  isLive(i: number): boolean {
    return this.rows[i * ROW + STATE] === LIVE
  }
  isStale(i: number): boolean {
    return this.rows[i * ROW + STATE] === STALE
  }
  probability(i: number): number {
    return this.rows[i * ROW + PROBABILITY] as number
  }
  bestBid(i: number): number {
    return this.rows[i * ROW + BEST_BID] as number
  }
  bestAsk(i: number): number {
    return this.rows[i * ROW + BEST_ASK] as number
  }
  bestBidSize(i: number): number {
    return this.rows[i * ROW + BEST_BID_SIZE] as number
  }
  bestAskSize(i: number): number {
    return this.rows[i * ROW + BEST_ASK_SIZE] as number
  }
  venueTs(i: number): number {
    return this.rows[i * ROW + VENUE_TS] as number
  }
  pushedVolume(i: number): number {
    return this.rows[i * ROW + PUSHED_VOLUME] as number
  }

  /** Stores a published quote in row `i` (not the pushed volume: quotes do not carry it; see `load`). */
  writeQuote(i: number, q: Quote | undefined): void {
    const rows = this.rows
    const at = i * ROW
    if (q === undefined) {
      rows[at + STATE] = NO_QUOTE
      return
    }
    rows[at + PROBABILITY] = q.probability ?? Number.NaN
    rows[at + BEST_BID] = q.bestBid ?? Number.NaN
    rows[at + BEST_ASK] = q.bestAsk ?? Number.NaN
    rows[at + BEST_BID_SIZE] = q.bestBidSize ?? Number.NaN
    rows[at + BEST_ASK_SIZE] = q.bestAskSize ?? Number.NaN
    rows[at + VENUE_TS] = q.venueTs
    rows[at + STATE] = q.stale ? STALE : LIVE
  }

  /** Row `i` from an instrument's live state in its venue actor (its quote and pushed volume). */
  load(i: number, live: InstrumentView | undefined): void {
    this.writeQuote(i, live?.quote)
    this.rows[i * ROW + PUSHED_VOLUME] = live?.stats?.volume ?? Number.NaN
  }

  /** Copies row `from` of `other` (the previous layout's table), and its handle, into row `i`. */
  copyRow(i: number, other: InstrumentTable<P>, from: number): void {
    this.rows.set(other.rows.subarray(from * ROW, from * ROW + ROW), i * ROW)
    this.handles[i] = other.handles[from]
  }
}

/** Builds a table's id list and index as pairs are added (the pair plan does, in slices). */
export class InstrumentTableBuilder<P> {
  readonly venue: VenueId
  readonly ids: string[] = []
  readonly index = new Map<string, number>()
  /** Per instrument, its first and last pair so far (pairs are appended in the order they are added). */
  readonly #first: P[] = []
  readonly #last: P[] = []
  /** Sets the pair after `prev` on this venue's instrument. */
  readonly #link: (prev: P, next: P) => void

  constructor(venue: VenueId, link: (prev: P, next: P) => void) {
    this.venue = venue
    this.#link = link
  }

  /** Adds `pair` to the end of the instrument's pair list (creating its row); returns the row number. */
  add(instrumentId: string, pair: P): number {
    let i = this.index.get(instrumentId)
    if (i === undefined) {
      i = this.ids.length
      this.ids.push(instrumentId)
      this.index.set(instrumentId, i)
      this.#first.push(pair)
    } else {
      this.#link(this.#last[i] as P, pair)
    }
    this.#last[i] = pair
    return i
  }

  build(): InstrumentTable<P> {
    return new InstrumentTable<P>(this.venue, this.ids, this.index, this.#first)
  }
}
