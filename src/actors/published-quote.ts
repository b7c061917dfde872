import type { Quote, VenueId } from '../model/types.js'
import { QUOTE_ROW_WIDTH, type QuoteRows } from './quote-rows.js'

/** A quote's cells in its row. Absent prices and sizes are NaN, so every cell only ever holds a double. */
const BEST_BID = 0
const BEST_BID_SIZE = 1
const BEST_ASK = 2
const BEST_ASK_SIZE = 3
const LAST_TRADE_PRICE = 4
const PROBABILITY = 5
const VENUE_TS = 6
const RECEIVED_AT = 7

/**
 * An instrument's quote as its venue actor publishes it: one object per instrument for the instrument's life in
 * the actor, rewritten in place (`setPrices` and `stamp`, `demote`) whenever what a reader sees changes, `seq` bumped each time.
 *
 * Why in place: quotes used to be immutable, a new object per top-of-book change. Each lived until its book moved
 * again, seconds later, so V8 copied it through the young generation into the old one, where it died: with spread
 * records (see SpreadRecordValue) that was most of what the service promoted under a fast feed, and the old
 * generation filled up and had to be marked every few tens of seconds, a pause in every request then. A quote
 * rewritten in place allocates nothing. Its numbers live in a row of the actor's quote rows (quote-rows.ts says why),
 * absent prices and sizes as NaN.
 *
 * Readers read a quote synchronously, as they read a book (routes rendering it, the quote listeners, the spread
 * engine copying it into its rows); one that keeps a quote past the current turn keeps `snapshotQuote(q)`.
 */
export class PublishedQuote implements Quote {
  /** Where this quote's numbers are: cells `#at` to `#at + QUOTE_ROW_WIDTH` of `#cells` (quote-rows.ts). */
  #cells: Float64Array
  #at: number
  /** The row of `#rows` it holds, until `detach`. */
  #row: number
  #rows: QuoteRows | undefined
  stale = false
  seq = 0

  /** `rows`: the actor's quote rows; without them (benches, a lone quote) the quote keeps its own cells. */
  constructor(
    readonly venue: VenueId,
    readonly instrumentId: string,
    readonly instrumentSlot: number,
    rows?: QuoteRows,
  ) {
    if (rows === undefined) {
      this.#cells = new Float64Array(QUOTE_ROW_WIDTH).fill(Number.NaN)
      this.#at = 0
      this.#row = -1
    } else {
      const taken = rows.take()
      this.#cells = taken.cells
      this.#at = taken.at
      this.#row = taken.row
      this.#rows = rows
    }
  }

  /** The prices a reader sees; `stamp` follows with when and in which order they were published. */
  setPrices(
    bestBid: number | undefined,
    bestBidSize: number | undefined,
    bestAsk: number | undefined,
    bestAskSize: number | undefined,
    lastTradePrice: number | undefined,
    probability: number | undefined,
  ): this {
    const cells = this.#cells
    const at = this.#at
    cells[at + BEST_BID] = bestBid ?? Number.NaN
    cells[at + BEST_BID_SIZE] = bestBidSize ?? Number.NaN
    cells[at + BEST_ASK] = bestAsk ?? Number.NaN
    cells[at + BEST_ASK_SIZE] = bestAskSize ?? Number.NaN
    cells[at + LAST_TRADE_PRICE] = lastTradePrice ?? Number.NaN
    cells[at + PROBABILITY] = probability ?? Number.NaN
    return this
  }

  stamp(venueTs: number, receivedAt: number, stale: boolean, seq: number): this {
    this.#cells[this.#at + VENUE_TS] = venueTs
    this.#cells[this.#at + RECEIVED_AT] = receivedAt
    this.stale = stale
    this.seq = seq
    return this
  }

  /** The same prices, flagged stale (a restart: the book is rebuilt from the venue). */
  demote(seq: number): void {
    this.stale = true
    this.seq = seq
  }

  /**
   * Its instrument left the actor: the quote keeps what it says in cells of its own and gives its row back, so a
   * reader still holding it (the retired quotes being published, a handle not yet looked up again) reads the same.
   */
  detach(): void {
    if (this.#rows === undefined) return
    const own = this.#cells.slice(this.#at, this.#at + QUOTE_ROW_WIDTH)
    this.#rows.release(this.#row)
    this.#rows = undefined
    this.#row = -1
    this.#cells = own
    this.#at = 0
  }

  get bestBid(): number | undefined {
    return orNone(this.#cells[this.#at + BEST_BID] as number)
  }
  get bestBidSize(): number | undefined {
    return orNone(this.#cells[this.#at + BEST_BID_SIZE] as number)
  }
  get bestAsk(): number | undefined {
    return orNone(this.#cells[this.#at + BEST_ASK] as number)
  }
  get bestAskSize(): number | undefined {
    return orNone(this.#cells[this.#at + BEST_ASK_SIZE] as number)
  }
  get lastTradePrice(): number | undefined {
    return orNone(this.#cells[this.#at + LAST_TRADE_PRICE] as number)
  }
  get probability(): number | undefined {
    return orNone(this.#cells[this.#at + PROBABILITY] as number)
  }
  get venueTs(): number {
    return this.#cells[this.#at + VENUE_TS] as number
  }
  get receivedAt(): number {
    return this.#cells[this.#at + RECEIVED_AT] as number
  }
}

/** What `q` says now, in an object that no later change touches (for readers that keep quotes). */
export function snapshotQuote(q: Quote): Quote {
  return Object.freeze({
    venue: q.venue,
    instrumentId: q.instrumentId,
    bestBid: q.bestBid,
    bestBidSize: q.bestBidSize,
    bestAsk: q.bestAsk,
    bestAskSize: q.bestAskSize,
    lastTradePrice: q.lastTradePrice,
    probability: q.probability,
    venueTs: q.venueTs,
    receivedAt: q.receivedAt,
    stale: q.stale,
    seq: q.seq,
    instrumentSlot: q.instrumentSlot,
  })
}

function orNone(x: number): number | undefined {
  return Number.isNaN(x) ? undefined : x
}
