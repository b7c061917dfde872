import type { CategorySlug } from '../../model/categories.js'
import type { VkEvent } from '../venuek/types.js'
import type { VpEvent } from '../venuep/types.js'

/**
 * The simulated world: canonical questions (ground truth) and how each venue lists them. The venue protocol
 * servers in src/sim/venuep and src/sim/venuek serialize these records into each venue's wire format; the
 * live engine (engine.ts) moves books and prints trades. All of it is SIMULATED data.
 *
 * Two builders make a World: generate.ts (a seeded synthetic world) and replay.ts (real captured catalogs, whose
 * listing records carry their `capture`; see replay.ts for what is taken from it and what is derived).
 */
/**
 * What a generated question is about: the canonical category slugs (src/model/categories.ts) except `other`. The
 * venues label it their own way (venuek one category from its vocabulary, venuep several tags).
 */
export type Category = Exclude<CategorySlug, 'other'>

export const CATEGORIES: readonly Category[] = ['politics', 'world', 'economics', 'finance', 'sports', 'crypto', 'culture', 'tech', 'climate', 'health']

/**
 * binary: one yes/no proposition; multi: mutually exclusive candidates; ladder: numeric strikes (thresholds and
 * ranges); deadline: "happens before D" for several deadlines D.
 */
export type QuestionKind = 'binary' | 'multi' | 'ladder' | 'deadline'

export type Lifecycle = 'active' | 'closed' | 'resolved'

/** A simulated venue's id, as the sim list (src/sim/peers.ts) and the service's registry name it. */
export type SimVenue = string

/** A proposition that pays 1 if true. Both venues price the same contracts of a question. */
export interface Contract {
  /** `${questionId}:${index}`, stable across runs with the same seed. */
  readonly key: string
  readonly questionId: string
  readonly index: number
  /** Canonical outcome label, e.g. "Jane Smith", "Above $100,000", "Yes". */
  readonly label: string
  readonly threshold: number | undefined
  /** Set for resolved questions: whether this contract resolved YES. */
  readonly won: boolean | undefined
  /** Typical half bid/ask spread in probability points for this contract (liquidity proxy). */
  readonly halfSpread: number
  /**
   * Whether the engine walks this contract's fair value (moves its books, trades it). False for a generated
   * venuep placeholder (listed inactive, no orders: its book stays empty and it has no price) and for a replayed
   * market that was not trading when captured, or was captured without a price: its book (if any) stays as seeded
   * and its price is the captured one.
   */
  readonly walks: boolean
  /** Typical displayed size per level (shares). */
  readonly depthSize: number
  /** Mean seconds between trades. */
  readonly tradeIntervalSec: number
}

export interface Question {
  readonly id: string
  readonly seed: number
  /** Undefined for a replayed market: its category is the venue's own, in its capture. */
  readonly category: Category | undefined
  readonly kind: QuestionKind
  readonly lifecycle: Lifecycle
  /** Short description of what is asked (for logs and tests). */
  readonly subject: string
  readonly createdAt: number
  readonly endTime: number
  readonly resolvedAt: number | undefined
  readonly volatility: number
  readonly contracts: readonly Contract[]
  /** Fair-value model parameters (see fair.ts). */
  readonly model: FairModel
  /** Set when this question was generated as a look-alike of another (same wording, other date/threshold). */
  readonly decoyOf: string | undefined
  venuep: VpEvent | undefined
  venuek: VkEvent | undefined
}

export type FairModel =
  | { readonly kind: 'binary'; readonly base: number }
  | { readonly kind: 'multi'; readonly bases: readonly number[] }
  | {
      readonly kind: 'ladder'
      readonly logLevel: number
      readonly sigma: number
      /**
       * Per contract, the open interval (lo, hi) of the underlying that makes it true (0 and Infinity for open
       * ends): thresholds, ranges and the one-tick gap between "at least X" and "more than X". Without it a
       * contract is "above its threshold".
       */
      readonly bounds?: readonly (readonly [lo: number, hi: number])[]
    }
  | {
      readonly kind: 'deadline'
      /** Log of the yearly hazard rate of the event happening (its path moves it). */
      readonly logHazard: number
      /** Per contract, the instant before which the event must happen. */
      readonly deadlines: readonly number[]
    }

// ------------------------------------------------------------------------------------------ listing shapes

/** An event tag (the slug style's listings carry several); captures may hold the label alone (no id or slug). */
export interface EventTag {
  readonly id: string | undefined
  readonly label: string
  readonly slug: string | undefined
}

/** How a market's strike reads (`floor_strike`, `cap_strike`). */
export type StrikeType = 'greater' | 'greater_or_equal' | 'less' | 'less_or_equal' | 'between' | 'custom' | 'structured'

// ------------------------------------------------------------------------------------------ ground truth

/** The same contract listed on both venues: what a perfect matcher would pair. */
export interface TruePair {
  readonly questionId: string
  readonly contractKey: string
  readonly label: string
  readonly venuepEventSlug: string
  readonly venuepConditionId: string
  /** Token that pays if the contract is true. */
  readonly venuepTokenId: string
  readonly venuekEventTicker: string
  readonly venuekMarketTicker: string
}

/**
 * Two outcomes, one per venue, that look alike but are different contracts (a matcher must NOT pair them): another
 * deadline, strike or comparator within one question, or the same label in a decoy question.
 */
export interface HardNegative {
  readonly venuepQuestionId: string
  readonly venuepEventSlug: string
  /** The outcome's token (token 0, YES, except for a head-to-head's second side). */
  readonly venuepTokenId: string
  readonly venuekQuestionId: string
  readonly venuekEventTicker: string
  readonly venuekMarketTicker: string
  /** What differs, e.g. "at least vs more than", "another deadline", "nominee vs winner". */
  readonly reason: string
}

export interface GroundTruth {
  /** Question ids with at least one contract listed on both venues. */
  readonly sharedQuestions: readonly string[]
  /**
   * Every (venuep event, venuek event) pair that lists at least one common contract. A question listed as one
   * venuek event and several venuep events (a deadline ladder split into single-market events) has one entry per
   * venuep event.
   */
  readonly eventPairs: readonly { questionId: string; venuepEventSlug: string; venuekEventTicker: string }[]
  /** Exactly the outcome pairs that are the same contract: venuep token ↔ venuek market ticker. */
  readonly outcomePairs: readonly TruePair[]
  /** Pairs of questions that look alike but are different (a matcher must NOT pair them); `reason` says how. */
  readonly decoys: readonly { questionId: string; decoyId: string; reason?: string }[]
  /** Outcome-level look-alikes (absent in a replay, where nothing is known). */
  readonly hardNegatives?: readonly HardNegative[]
}
