import type { ProbabilityInputs } from '../types.js'

/**
 * venuep's displayed probability (the venue's own rule): the midpoint while the bid/ask spread is at most
 * 0.10, otherwise the last trade price. Without a last trade the probability is unknown (undefined), never a
 * made-up midpoint of a wide or one-sided book.
 */
export const VENUEP_MAX_SPREAD_FOR_MIDPOINT = 0.1

export function venuepProbability({ bestBid, bestAsk, lastTradePrice }: ProbabilityInputs): number | undefined {
  if (bestBid !== undefined && bestAsk !== undefined && bestAsk - bestBid <= VENUEP_MAX_SPREAD_FOR_MIDPOINT + 1e-12) {
    return Math.round(((bestBid + bestAsk) / 2) * 1e6) / 1e6
  }
  return lastTradePrice
}
