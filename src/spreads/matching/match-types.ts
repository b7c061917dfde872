import type { Outcome, VenueId } from '../../model/types.js'

/**
 * What the matcher publishes (matcher.ts), in records of their own so that readers of matches (calibration, the
 * spread engine, the views) do not import the matcher. A match is between two venues A and B, A the earlier in
 * registry order (src/venues/index.ts): the judge reads A's contract as the one whose every word B must state.
 */
export type MatchingStrategy = 'auto_canonical' | 'manual_override' | 'normalized_title_fallback' | 'event_key'
export type MatchQuality = 'manual' | 'auto_high' | 'auto_medium'

/** One side of a match: a venue's contract and the texts it was read from. */
export interface MatchLeg {
  readonly venue: VenueId
  /** The venue's outcome id (the contract's YES side). */
  readonly outcomeId: string
  /** The texts the contract was read from, most specific first. */
  readonly text: readonly string[]
}

/** Why two outcomes were paired, as the API shows it (`match` on spread records). */
export interface MatchExplanation {
  readonly quality: MatchQuality
  /**
   * The share of pairs of this quality that were the same contract when measured (95% lower bound,
   * matching/calibration.ts); the spread's confidence is scaled by it. 1 for manual overrides.
   */
  readonly weight: number
  /** Manual overrides say so; automatic pairs carry the judge's evidence. */
  readonly manual: boolean
  readonly a: MatchLeg
  readonly b: MatchLeg
  readonly evidence: Evidence | undefined
}

export interface OutcomePair {
  readonly a: Outcome
  readonly b: Outcome
  /** `text:<A outcome title, lowercased>` (spec 4.3). */
  readonly outcomeKey: string
  readonly quality: MatchQuality
  readonly explanation: MatchExplanation
}

/** One venue's event. */
export interface VenueEvent {
  readonly venue: VenueId
  readonly eventId: string
}

export interface EventMatch {
  readonly a: VenueEvent
  readonly b: VenueEvent
  readonly strategy: MatchingStrategy
  /** The weakest of its pairs' qualities. */
  readonly quality: MatchQuality
  readonly outcomes: readonly OutcomePair[]
}

/** A manual mapping: the two events, and optionally which outcomes pair (default: paired by label). */
export interface ManualMatch {
  readonly a: VenueEvent
  readonly b: VenueEvent
  /** Outcome ids of A and of B. */
  readonly outcomes?: readonly { readonly a: string; readonly b: string }[]
}

/** One side of a deny rule: an event, or one of its outcomes. */
export interface DenySide extends VenueEvent {
  readonly outcomeId?: string
}

/**
 * A reviewer's "not the same": removes automatic pairs between two events, or only between two of their outcomes
 * (when both sides name one). Manual matches are not affected (edit those directly).
 */
export interface DenyRule {
  readonly a: DenySide
  readonly b: DenySide
}

/** What the judge compared to accept a pair (judge.ts), as the API and the dashboard show it. */
export interface Evidence {
  /** The kind of proposition both contracts are (proposition.ts): winner, threshold, bracket, top-n, map winner… */
  readonly kind: string
  /** Each field compared, with the value both sides agreed on ("part: map 2", "side: FURIA", "day: 2026-05-10"). */
  readonly compared: readonly string[]
  /** Content words both texts share (the subject, role and action they agree on). */
  readonly shared: readonly string[]
  /** Words only one side names, accepted as implicit on the other. */
  readonly implicit: readonly string[]
  /** How the periods agree ("deadline 2026-07-01", "year 2028", "end times …"). */
  readonly period: string
  /** The common threshold or range, when there is one. */
  readonly strike: string | undefined
}
