import type { Quote } from '../../../model/types.js'
import { num } from '../../../views/outcome-price.js'

/** The `quote` channel's payload: the REST names and numbers (null when unknown, as the REST records print it). */
export interface QuotePayload {
  readonly best_bid: number | null
  readonly best_ask: number | null
  readonly bid_size: number | null
  readonly ask_size: number | null
  readonly probability: number | null
  readonly stale: boolean
}

/** A quote's payload; an instrument with no quote yet (its book never synced) shows nulls, stale. */
export function quotePayload(q: Quote | undefined): QuotePayload {
  return {
    best_bid: num(q?.bestBid),
    best_ask: num(q?.bestAsk),
    bid_size: num(q?.bestBidSize),
    ask_size: num(q?.bestAskSize),
    probability: num(q?.probability),
    stale: q?.stale ?? true,
  }
}
