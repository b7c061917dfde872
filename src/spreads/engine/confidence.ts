/**
 * How much a user can trust a gap, in [0, 1]:
 *
 *   confidence = match × (0.30·size + 0.25·volume + 0.25·liquidity + 0.20·freshness)
 *
 * - match: the measured share of pairs of the pair's match quality that were the same contract (95% lower bound,
 *   spreads/matching/calibration.ts; manual overrides 1) — a false match is a phantom gap;
 * - size: the gap in probability points rises linearly to 1 at 5 points, stays 1 to 25 points, then falls
 *   linearly to 0.3 at 60 points (huge gaps are more often dead books or mismatches than opportunities);
 * - volume: log10(1 + the thinner venue's volume in $) / 6, capped at 1 ($1M on both sides scores 1);
 * - liquidity: log10(1 + dollars executable at a positive net edge, else top-of-book dollars on the thinner
 *   side) / 5, capped at 1 ($100k scores 1);
 * - freshness: 1 for a quote updated now, falling linearly to 0 at `FRESHNESS_SCALE_MS` (age of the older of
 *   the two quotes, in whole minutes so it only changes once a minute); 0 while either feed is stale.
 */
export const FRESHNESS_SCALE_MS = 30 * 60_000

export interface ConfidenceInputs {
  /** The pair's match weight (MatchExplanation.weight). */
  readonly matchWeight: number
  readonly spread: number
  readonly minVolume: number | undefined
  readonly liquidityDollars: number | undefined
  /** Age of the older quote (ms). */
  readonly ageMs: number
  readonly stale: boolean
}

export function sizeScore(spread: number): number {
  if (spread <= 0) return 0
  if (spread <= 0.05) return spread / 0.05
  if (spread <= 0.25) return 1
  if (spread >= 0.6) return 0.3
  return 1 - ((spread - 0.25) / 0.35) * 0.7
}

export function freshnessScore(ageMs: number, stale: boolean): number {
  if (stale) return 0
  const minutes = Math.floor(Math.max(0, ageMs) / 60_000)
  return Math.max(0, 1 - (minutes * 60_000) / FRESHNESS_SCALE_MS)
}

export function confidence(i: ConfidenceInputs): number {
  return confidenceOf(i.matchWeight, i.spread, i.minVolume, i.liquidityDollars, i.ageMs, i.stale)
}

/** `confidence` from its inputs as arguments (the spread engine's recompute: no inputs object per call). */
export function confidenceOf(
  matchWeight: number,
  spread: number,
  minVolume: number | undefined,
  liquidityDollars: number | undefined,
  ageMs: number,
  stale: boolean,
): number {
  const volume = minVolume === undefined ? 0 : Math.min(1, Math.log10(1 + Math.max(0, minVolume)) / 6)
  const liquidity = liquidityDollars === undefined ? 0 : Math.min(1, Math.log10(1 + Math.max(0, liquidityDollars)) / 5)
  const c =
    matchWeight * (0.3 * sizeScore(spread) + 0.25 * volume + 0.25 * liquidity + 0.2 * freshnessScore(ageMs, stale))
  return Math.round(c * 1e6) / 1e6
}
