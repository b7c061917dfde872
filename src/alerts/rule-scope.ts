import type { AlertScope } from './rule-types.js'
import type { SpreadRecord } from '../spreads/engine/spread-engine.js'

/**
 * Whether a spread record is within a rule's scope. `event_slug` and `outcome_key` are exact matches (the rule
 * index already narrows by them; `inScope` checks them too, for callers that do not go through the index).
 * The other keys mean what they mean on `GET /api/v2/spreads`:
 *
 * - `platforms`: both platforms (venue ids) of the pair must be listed (a pair is on two venues, so a one-platform
 *   list matches nothing, exactly as the scanner's `platforms` filter);
 * - `min_volume`: the thinner venue's volume (`volume_min` in spread records) is at least this; unknown volume
 *   does not pass;
 * - `min_confidence`: the record's `confidence` is at least this.
 *
 * A record outside the scope is not an observation for the rule: it neither fires nor re-arms it, so a pair whose
 * confidence flickers around `min_confidence` cannot make a rule fire again and again.
 */
export function inScope(scope: AlertScope, r: SpreadRecord): boolean {
  if (scope.event_slug !== undefined && scope.event_slug !== r.eventSlug) return false
  if (scope.outcome_key !== undefined && scope.outcome_key !== r.outcomeKey) return false
  return passesFilters(scope, r)
}

/** The scope keys the index does not narrow by (platforms, volume, confidence). */
export function passesFilters(scope: AlertScope, r: SpreadRecord): boolean {
  const platforms = scope.platforms
  if (platforms !== undefined && !(platforms.includes(r.platformA) && platforms.includes(r.platformB))) return false
  if (scope.min_volume !== undefined && !((r.minVolume ?? -1) >= scope.min_volume)) return false
  if (scope.min_confidence !== undefined && !(r.confidence >= scope.min_confidence)) return false
  return true
}
