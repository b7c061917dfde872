import type { ProbabilityInputs } from '../types.js'

/**
 * venuek's probability: the YES midpoint when both sides are quoted, else the last traded YES price;
 * the NO probability is 1 − YES (computed by readers).
 */
export function venuekProbability({ bestBid, bestAsk, lastTradePrice }: ProbabilityInputs): number | undefined {
  if (bestBid !== undefined && bestAsk !== undefined) return Math.round(((bestBid + bestAsk) / 2) * 1e6) / 1e6
  return lastTradePrice
}
