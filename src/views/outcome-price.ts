import type { Outcome, Quote } from '../model/types.js'

/**
 * An outcome's current price as the API shows it. The live quote wins (even while stale: the last prices the
 * venue showed, flagged); without one (closed and resolved markets have no book, or the book has not synced
 * yet) the catalog's own prices are used; a resolved outcome is worth 1 or 0. Unknown stays undefined.
 */
export interface OutcomePrice {
  readonly probability: number | undefined
  readonly bestBid: number | undefined
  readonly bestAsk: number | undefined
  readonly spread: number | undefined
  /** Venue time of the quote (ms), undefined for catalog prices. */
  readonly updatedAt: number | undefined
  readonly stale: boolean
  readonly source: 'live' | 'catalog'
}

export function outcomePrice(outcome: Outcome, quote: Quote | undefined): OutcomePrice {
  if (quote !== undefined) {
    return {
      probability: quote.probability ?? outcome.catalogLastPrice,
      bestBid: quote.bestBid,
      bestAsk: quote.bestAsk,
      spread: spreadOf(quote.bestBid, quote.bestAsk),
      updatedAt: quote.venueTs,
      stale: quote.stale,
      source: 'live',
    }
  }
  const settled = outcome.won === undefined ? undefined : outcome.won ? 1 : 0
  const open = outcome.status === 'active'
  return {
    probability: settled ?? outcome.catalogLastPrice,
    bestBid: open ? outcome.catalogBestBid : undefined,
    bestAsk: open ? outcome.catalogBestAsk : undefined,
    spread: open ? spreadOf(outcome.catalogBestBid, outcome.catalogBestAsk) : undefined,
    updatedAt: undefined,
    stale: false,
    source: 'catalog',
  }
}

export function spreadOf(bid: number | undefined, ask: number | undefined): number | undefined {
  return bid === undefined || ask === undefined ? undefined : Math.round((ask - bid) * 1e6) / 1e6
}

/** JSON value for an optional number: null when unknown (never a made-up 0). */
export function num(x: number | undefined): number | null {
  return x === undefined || !Number.isFinite(x) ? null : x
}
