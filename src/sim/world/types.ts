import type { CategorySlug } from '../../model/categories.js'
import type { VkCapturedEvent, VkCapturedMarket, VpCapturedEvent, VpCapturedMarket } from './capture.js'

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

// ---------------------------------------------------------------------------------------------- venuep

/** A Gamma tag; captures may hold the label alone (no id or slug). */
export interface EventTag {
  readonly id: string | undefined
  readonly label: string
  readonly slug: string | undefined
}

export interface VpEvent {
  readonly id: string
  readonly slug: string
  readonly title: string
  readonly description: string
  readonly tags: readonly EventTag[]
  readonly negRisk: boolean
  readonly negRiskMarketId: string | undefined
  readonly createdAt: number
  readonly startDate: number
  readonly endDate: number
  /** The question a generated event lists; a replayed event has none (its markets are independent questions). */
  readonly question: Question | undefined
  readonly markets: VpMarket[]
  readonly image: string | undefined
  /** The captured Gamma event a replay serves (undefined in a generated world). */
  readonly capture: VpCapturedEvent | undefined
}

export interface VpMarket {
  readonly id: string
  readonly slug: string
  readonly question: string
  readonly description: string | undefined
  readonly conditionId: string
  readonly questionHash: string | undefined
  /** Outcome labels aligned with tokenIds: ["Yes","No"] or e.g. team names. */
  readonly outcomes: readonly [string, string]
  readonly tokenIds: readonly [string, string]
  /** A group child's label; `""` or absent in many real listings (the name is then only in the question). */
  readonly groupItemTitle: string | undefined
  readonly groupItemThreshold: string | undefined
  /** The market's own `endDate` when it is not its event's (a deadline group: each child ends at its deadline). */
  readonly endDate?: number
  /** False for an inactive placeholder child ("Person K", `active: false`, no orders); unset means active. */
  readonly active?: boolean
  /** The contract priced by token 0 (token 1 is its complement). */
  readonly contract: Contract
  /**
   * The question `contract` belongs to: its lifecycle, end and resolution are this market's. The event's question
   * in a generated world; the market's own in a replay, where markets of one event close and resolve apart.
   */
  readonly canonical: Question
  readonly tickSize: number
  readonly minOrderSize: number
  readonly takerBaseFeeBps: number
  readonly event: VpEvent
  /**
   * All-time volume (USD) before the trades the world reports (its history and live trades), for realistic catalog
   * numbers. The last 24 hours' volume is only ever the trades the venue lists (recent-prints.ts).
   */
  readonly baseVolume: number
  readonly liquidity: number
  /** The captured Gamma market a replay serves (undefined in a generated world). */
  readonly capture: VpCapturedMarket | undefined
}

export interface VpWallet {
  readonly address: string
  readonly name: string
  readonly pseudonym: string
  readonly bio: string
  readonly profileImage: string
  readonly xUsername: string | undefined
  readonly verifiedBadge: boolean
  readonly createdAt: number
  readonly userId: string
}

// ---------------------------------------------------------------------------------------------- venuek

/** venuek.md §3.3: how a market's strike reads (`floor_strike`, `cap_strike`). */
export type StrikeType = 'greater' | 'greater_or_equal' | 'less' | 'less_or_equal' | 'between' | 'custom' | 'structured'

/** A series; a replay knows only its ticker and its events' category, so the rest may be unknown. */
export interface VkSeries {
  /** True for a series a replay derived from its events' captured `series_ticker` and `category`. */
  readonly fromCapture: boolean
  readonly ticker: string
  readonly title: string | undefined
  /** The venue's category label, e.g. "Politics", "Climate and Weather". */
  readonly category: string
  readonly frequency: string | undefined
  readonly feeType: 'quadratic' | undefined
  readonly feeMultiplier: number | undefined
}

export interface VkEvent {
  readonly eventTicker: string
  readonly series: VkSeries
  readonly title: string
  readonly subTitle: string
  readonly mutuallyExclusive: boolean
  /** `strike_date`; null on the wire for a long-dated event (and unknown for a replayed one: captures lack it). */
  readonly strikeDate: number | undefined
  /** The question a generated event lists; a replayed event has none (its markets are independent questions). */
  readonly question: Question | undefined
  readonly markets: VkMarket[]
  readonly lastUpdated: number
  /** The captured event a replay serves (undefined in a generated world). */
  readonly capture: VkCapturedEvent | undefined
}

export interface VkMarket {
  readonly ticker: string
  readonly marketId: string
  readonly event: VkEvent
  readonly title: string
  readonly subtitle: string
  readonly yesSubTitle: string
  readonly noSubTitle: string
  /** Unknown for a replayed market (captures do not hold it). */
  readonly strikeType: StrikeType | undefined
  readonly floorStrike: number | undefined
  readonly capStrike: number | undefined
  readonly contract: Contract
  /** The question `contract` belongs to (see VpMarket.canonical). */
  readonly canonical: Question
  /** Unknown for a replayed market (captures do not hold it). */
  readonly createdTime: number | undefined
  readonly openTime: number
  /** The latest time trading can stop: often long after the question's own date (see src/sim/venuek/listing.ts). */
  readonly closeTime: number
  /**
   * `expected_expiration_time`: the expected date, when the venue states one (absent on many long-dated markets).
   * Unset in a replay (its capture says).
   */
  readonly expectedExpiration?: number | undefined
  readonly priceLevelStructure: 'linear_cent' | 'deci_cent'
  readonly tickSize: number
  /** Unknown for a replayed market (captures do not hold it). */
  readonly rulesPrimary: string | undefined
  /** Contracts traded before the trades the world reports (see VpMarket.baseVolume). */
  readonly baseVolume: number
  readonly baseOpenInterest: number
  /** The captured market a replay serves (undefined in a generated world). */
  readonly capture: VkCapturedMarket | undefined
}

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
