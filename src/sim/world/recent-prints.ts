import type { Rng } from './random.js'
import type { Contract, Question } from './types.js'

/**
 * The last day's trades of every open market, printed before the simulator starts (each peer folder's
 * initial-state.ts).
 * A venue's 24 h volume is the sum of the trades it reports for the last 24 hours, so a market's day of volume must
 * be trades one can list: each open, trading market gets one to three taker prints in the 24 hours before the
 * anchor, sized to the day's volume the peer draws for it, at the price its path had then. Thin markets and long
 * shots get small days, as on the real venues. These are the rules the peers share.
 */
const DAY = 86_400_000
const MINUTE = 60_000

/** Open at the anchor, with a price path, and open for the whole last day (a market listed an hour ago has no day). */
export function openForTheDay(canonical: Question, contract: Contract, openedMs: number, anchorMs: number): boolean {
  // A placeholder (`active: false`) does not walk: it has never traded.
  if (canonical.lifecycle !== 'active' || !contract.walks) return false
  return openedMs < anchorMs - DAY
}

/** A whole millisecond within the day before the anchor, at least a minute before it (the history's margin). */
export function printTime(anchorMs: number, rng: Rng): number {
  return Math.floor(anchorMs - DAY + rng.next() * (DAY - MINUTE))
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100
}
