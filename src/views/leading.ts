import { money } from '../core/money.js'

/**
 * Which outcome leads a set of outcomes: the one with the highest probability among the open ones (among all of
 * them when none is open), ties by the higher volume in cents as the API prints it, then by the lower outcome id
 * (a token id or a market ticker). Unknown probabilities and volumes rank last. One rule for the collapsed
 * rows' `leading_outcome` and for the live proxies that resolve an event slug to its leading market, so both name
 * the same outcome.
 */
export interface LeadCandidate {
  readonly open: boolean
  readonly probability: number | undefined
  readonly volume: number | undefined
  readonly id: string
}

/** Index of the leading candidate, -1 for none. */
export function leadingIndex(candidates: readonly LeadCandidate[]): number {
  const anyOpen = candidates.some((c) => c.open)
  let best = -1
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i] as LeadCandidate
    if (anyOpen && !c.open) continue
    if (best < 0 || leads(c, candidates[best] as LeadCandidate)) best = i
  }
  return best
}

/** Whether `a` ranks before `b`. */
function leads(a: LeadCandidate, b: LeadCandidate): boolean {
  const byProbability = compareKnownFirst(a.probability, b.probability)
  if (byProbability !== 0) return byProbability > 0
  const byVolume = compareKnownFirst(money(a.volume) ?? undefined, money(b.volume) ?? undefined)
  if (byVolume !== 0) return byVolume > 0
  return a.id < b.id
}

/** > 0 when `a` is the larger, or known where `b` is not; 0 when equal or both unknown. */
function compareKnownFirst(a: number | undefined, b: number | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1
  return a - b
}
