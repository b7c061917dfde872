import type { CategorySlug } from '../../model/categories.js'

/**
 * The simulated world: canonical questions (ground truth) and the shapes the venues share. How each venue lists
 * them is its peer folder's (src/sim/<venue>/types.ts, state.ts), whose protocol servers serialize those records
 * into the venue's wire format; the live engine (engine.ts) moves books and prints trades. All of it is SIMULATED
 * data.
 *
 * Two builders make a World: generate.ts (a seeded synthetic world) and replay.ts (real captured catalogs, whose
 * listing records carry their `capture`; see replay.ts for what is taken from it and what is derived).
 */
/**
 * What a generated question is about: the canonical category slugs (src/model/categories.ts) except `other`. The
 * venues label it their own way (the ticker style one category from its vocabulary, the slug style several tags).
 */
export type Category = Exclude<CategorySlug, 'other'>

export const CATEGORIES: readonly Category[] = [
  'politics',
  'world',
  'economics',
  'finance',
  'sports',
  'crypto',
  'culture',
  'tech',
  'climate',
  'health',
]

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
   * placeholder (a slug-style listing's inactive child, no orders: its book stays empty and it has no price) and
   * for a replayed market that was not trading when captured, or was captured without a price: its book (if any)
   * stays as seeded and its price is the captured one.
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

/**
 * Where a venue lists a contract, by the venue's own ids: its event, its market and the outcome that pays if the
 * contract is true (a token, or the market itself where a market is one outcome).
 */
export interface TruthLeg {
  readonly venue: SimVenue
  readonly event: string
  readonly market: string
  readonly outcome: string
  /**
   * The outcome's place among its market's outcomes where a market lists two (a venuep market's tokens: 1 for a
   * head-to-head's second team, whose token pays when that team wins); absent where a market is one outcome.
   */
  readonly outcomeIndex?: 0 | 1
}

/**
 * The same contract listed on two venues: what a perfect matcher would pair. The ground truth pairs the first two
 * venues of the sim list (src/sim/peers.ts): `a` is the first, `b` the second, as the registry orients pairs.
 */
export interface TruePair {
  readonly questionId: string
  readonly contractKey: string
  readonly label: string
  readonly a: TruthLeg
  readonly b: TruthLeg
}

/**
 * Two outcomes, one per venue, that look alike but are different contracts (a matcher must NOT pair them): another
 * deadline, strike or comparator within one question, the same label in a decoy question, or in a sibling question
 * of the same occasion (the next hour, another map, the handicap).
 */
export interface HardNegative {
  /** The outcome on the first venue (token 0, YES, except for a head-to-head's second side) and its question. */
  readonly a: TruthLeg & { readonly questionId: string }
  readonly b: TruthLeg & { readonly questionId: string }
  /** What differs, e.g. "at least vs more than", "another deadline", "nominee vs winner". */
  readonly reason: string
}

/** Two events, one per venue, that list at least one common contract. */
export interface EventPair {
  readonly questionId: string
  readonly a: { readonly venue: SimVenue; readonly event: string }
  readonly b: { readonly venue: SimVenue; readonly event: string }
}

export interface GroundTruth {
  /** Question ids with at least one contract listed on both venues. */
  readonly sharedQuestions: readonly string[]
  /**
   * Every (A event, B event) pair that lists at least one common contract, once per question it lists. A question
   * listed as one event on one venue and several on the other (a deadline ladder split into single-market events)
   * has one entry per pair; questions that share their events (a tournament's players, `eventKey`) one each.
   */
  readonly eventPairs: readonly EventPair[]
  /** Exactly the outcome pairs that are the same contract. */
  readonly outcomePairs: readonly TruePair[]
  /** Pairs of questions that look alike but are different (a matcher must NOT pair them); `reason` says how. */
  readonly decoys: readonly { questionId: string; decoyId: string; reason?: string }[]
  /** Outcome-level look-alikes (absent in a replay, where nothing is known). */
  readonly hardNegatives?: readonly HardNegative[]
}
