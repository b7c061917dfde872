import { MICROS_PER_UNIT } from '../core/numbers.js'
import { OrderBook } from '../book/order-book.js'
import type { Quote, VenueId } from '../model/types.js'
import type { ProbabilityInputs } from '../venues/types.js'
import { PublishedQuote } from './published-quote.js'
import type { QuoteRows } from './quote-rows.js'

/**
 * One streamed instrument as its venue actor holds it (book, last trade, pushed statistics, staleness, the quote
 * it publishes), and how that quote is derived from the book. The actor is the only writer.
 */
/** Venue-pushed statistics for an instrument (a feed's `stats` events: volume, open interest). */
export interface InstrumentStats {
  readonly volume: number | undefined
  readonly openInterest: number | undefined
  readonly at: number
}

export interface InstrumentState {
  readonly id: string
  /** Unique for the actor's lifetime, never reused (published on quotes as `instrumentSlot`). */
  readonly slot: number
  readonly book: OrderBook
  /** Last traded price in micros. */
  lastTrade: number | undefined
  stats: InstrumentStats | undefined
  /** Set by a `stale` feed event (or a restart), cleared by the next snapshot. */
  stale: boolean
  /** The published quote (rewritten in place by each requote), undefined until the first. */
  quote: PublishedQuote | undefined
  /** The frame number that last touched this instrument (dedupes requotes within a frame). */
  touchedInFrame: number
  /**
   * Set when the instrument leaves the actor's map. Readers may hold this record as a handle (the spread engine
   * does, to skip a Map lookup per read); a retired handle no longer changes and must be looked up again.
   */
  retired: boolean
}

export function newInstrument(id: string, slot: number): InstrumentState {
  return {
    id,
    slot,
    book: new OrderBook(),
    lastTrade: undefined,
    stats: undefined,
    stale: false,
    quote: undefined,
    touchedInFrame: 0,
    retired: false,
  }
}

/**
 * Publishes the instrument's quote from its book: undefined when what a reader sees did not change. A stale
 * instrument keeps the last prices the venue showed, flagged; `seq` is the publish sequence number to stamp.
 */
export function requote(
  venue: VenueId,
  st: InstrumentState,
  venueTs: number,
  receivedAt: number,
  probability: (inputs: ProbabilityInputs) => number | undefined,
  seq: number,
  rows?: QuoteRows,
): Quote | undefined {
  const book = st.book
  const prev = st.quote
  const live = book.hasSnapshot && !st.stale
  if (!live && prev === undefined) return undefined
  let bestBid: number | undefined
  let bestAsk: number | undefined
  let bestBidSize: number | undefined
  let bestAskSize: number | undefined
  if (live) {
    const bid = book.bestBid()
    const ask = book.bestAsk()
    const bidSize = book.bestBidSize()
    const askSize = book.bestAskSize()
    bestBid = bid === undefined ? undefined : bid / MICROS_PER_UNIT
    bestAsk = ask === undefined ? undefined : ask / MICROS_PER_UNIT
    bestBidSize = bidSize === undefined ? undefined : bidSize / MICROS_PER_UNIT
    bestAskSize = askSize === undefined ? undefined : askSize / MICROS_PER_UNIT
  } else {
    // A stale quote keeps the last prices the venue showed us, flagged.
    bestBid = prev?.bestBid
    bestAsk = prev?.bestAsk
    bestBidSize = prev?.bestBidSize
    bestAskSize = prev?.bestAskSize
  }
  const lastTradePrice = st.lastTrade === undefined ? prev?.lastTradePrice : st.lastTrade / MICROS_PER_UNIT
  const stale = !live
  if (
    prev !== undefined &&
    prev.stale === stale &&
    prev.bestBid === bestBid &&
    prev.bestAsk === bestAsk &&
    prev.bestBidSize === bestBidSize &&
    prev.bestAskSize === bestAskSize &&
    prev.lastTradePrice === lastTradePrice
  ) {
    return undefined
  }
  const quote = (prev ?? new PublishedQuote(venue, st.id, st.slot, rows))
    .setPrices(
      bestBid,
      bestBidSize,
      bestAsk,
      bestAskSize,
      lastTradePrice,
      probability({ bestBid, bestAsk, lastTradePrice }),
    )
    .stamp(
      // A stale flag flip is not a venue quote change: keep the venue time of the last real change.
      stale && prev !== undefined ? prev.venueTs : venueTs,
      stale && prev !== undefined ? prev.receivedAt : receivedAt,
      stale,
      seq,
    )
  st.quote = quote
  return quote
}
