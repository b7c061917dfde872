import type { Quote, VenueId } from '../model/types.js'

/**
 * An instrument's quote as its venue actor publishes it: one object per instrument for the instrument's life in
 * the actor, rewritten in place (`setPrices` and `stamp`, `demote`) whenever what a reader sees changes, `seq` bumped each time.
 *
 * Why in place: quotes used to be immutable, a new object per top-of-book change. Each lived until its book moved
 * again, seconds later, so V8 copied it through the young generation into the old one, where it died: with spread
 * records (see SpreadRecordValue) that was most of what the service promoted under a fast feed, and the old
 * generation filled up and had to be marked every few tens of seconds, a pause in every request then. A quote
 * rewritten in place allocates nothing. Prices and sizes that may be absent are kept as NaN inside, so every
 * numeric field only ever holds doubles and V8 updates its box in place instead of allocating a new one.
 *
 * Readers read a quote synchronously, as they read a book (routes rendering it, the quote listeners, the spread
 * engine copying it into its rows); one that keeps a quote past the current turn keeps `snapshotQuote(q)`.
 */
export class PublishedQuote implements Quote {
  #bestBid = Number.NaN
  #bestBidSize = Number.NaN
  #bestAsk = Number.NaN
  #bestAskSize = Number.NaN
  #lastTradePrice = Number.NaN
  #probability = Number.NaN
  venueTs = Number.NaN
  receivedAt = Number.NaN
  stale = false
  seq = 0

  constructor(
    readonly venue: VenueId,
    readonly instrumentId: string,
    readonly instrumentSlot: number,
  ) {}

  /** The prices a reader sees; `stamp` follows with when and in which order they were published. */
  setPrices(
    bestBid: number | undefined,
    bestBidSize: number | undefined,
    bestAsk: number | undefined,
    bestAskSize: number | undefined,
    lastTradePrice: number | undefined,
    probability: number | undefined,
  ): this {
    this.#bestBid = bestBid ?? Number.NaN
    this.#bestBidSize = bestBidSize ?? Number.NaN
    this.#bestAsk = bestAsk ?? Number.NaN
    this.#bestAskSize = bestAskSize ?? Number.NaN
    this.#lastTradePrice = lastTradePrice ?? Number.NaN
    this.#probability = probability ?? Number.NaN
    return this
  }

  stamp(venueTs: number, receivedAt: number, stale: boolean, seq: number): this {
    this.venueTs = venueTs
    this.receivedAt = receivedAt
    this.stale = stale
    this.seq = seq
    return this
  }

  /** The same prices, flagged stale (a restart: the book is rebuilt from the venue). */
  demote(seq: number): void {
    this.stale = true
    this.seq = seq
  }

  get bestBid(): number | undefined {
    return orNone(this.#bestBid)
  }
  get bestBidSize(): number | undefined {
    return orNone(this.#bestBidSize)
  }
  get bestAsk(): number | undefined {
    return orNone(this.#bestAsk)
  }
  get bestAskSize(): number | undefined {
    return orNone(this.#bestAskSize)
  }
  get lastTradePrice(): number | undefined {
    return orNone(this.#lastTradePrice)
  }
  get probability(): number | undefined {
    return orNone(this.#probability)
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
