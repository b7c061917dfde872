/**
 * The simulated world: canonical questions (ground truth) and how each venue lists them. The venue protocol
 * servers in src/sim/venuep and src/sim/venuek serialize these records into each venue's wire format; the
 * live engine (engine.ts) moves books and prints trades. All of it is SIMULATED data.
 */
export type Category = 'politics' | 'economics' | 'sports' | 'crypto' | 'culture' | 'tech' | 'climate'

export const CATEGORIES: readonly Category[] = ['politics', 'economics', 'sports', 'crypto', 'culture', 'tech', 'climate']

/** binary: one yes/no proposition; multi: mutually exclusive candidates; ladder: "above X" thresholds. */
export type QuestionKind = 'binary' | 'multi' | 'ladder'

export type Lifecycle = 'active' | 'closed' | 'resolved'

export type SimVenue = 'venuep' | 'venuek'

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
  /** Typical displayed size per level (shares). */
  readonly depthSize: number
  /** Mean seconds between trades. */
  readonly tradeIntervalSec: number
}

export interface Question {
  readonly id: string
  readonly seed: number
  readonly category: Category
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
  | { readonly kind: 'ladder'; readonly logLevel: number; readonly sigma: number }

// ---------------------------------------------------------------------------------------------- venuep

export interface VpTag {
  readonly id: string
  readonly label: string
  readonly slug: string
}

export interface VpEvent {
  readonly id: string
  readonly slug: string
  readonly title: string
  readonly description: string
  readonly tag: VpTag
  readonly negRisk: boolean
  readonly negRiskMarketId: string | undefined
  readonly createdAt: number
  readonly startDate: number
  readonly endDate: number
  readonly question: Question
  readonly markets: VpMarket[]
  readonly image: string
}

export interface VpMarket {
  readonly id: string
  readonly slug: string
  readonly question: string
  readonly description: string
  readonly conditionId: string
  readonly questionHash: string
  /** Outcome labels aligned with tokenIds: ["Yes","No"] or e.g. team names. */
  readonly outcomes: readonly [string, string]
  readonly tokenIds: readonly [string, string]
  readonly groupItemTitle: string | undefined
  readonly groupItemThreshold: string | undefined
  /** The contract priced by token 0 (token 1 is its complement). */
  readonly contract: Contract
  readonly tickSize: number
  readonly minOrderSize: number
  readonly takerBaseFeeBps: number
  readonly event: VpEvent
  /** All-time volume before the simulation window (USD), for realistic catalog numbers. */
  readonly baseVolume: number
  readonly baseVolume24h: number
  readonly liquidity: number
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

export interface VkSeries {
  readonly ticker: string
  readonly title: string
  /** The venue's category label, e.g. "Politics", "Climate and Weather". */
  readonly category: string
  readonly frequency: string
  readonly feeType: 'quadratic'
  readonly feeMultiplier: number
}

export interface VkEvent {
  readonly eventTicker: string
  readonly series: VkSeries
  readonly title: string
  readonly subTitle: string
  readonly mutuallyExclusive: boolean
  readonly strikeDate: number
  readonly question: Question
  readonly markets: VkMarket[]
  readonly lastUpdated: number
}

export interface VkMarket {
  readonly ticker: string
  readonly marketId: string
  readonly event: VkEvent
  readonly title: string
  readonly subtitle: string
  readonly yesSubTitle: string
  readonly noSubTitle: string
  readonly strikeType: 'greater' | 'between' | 'custom' | 'structured'
  readonly floorStrike: number | undefined
  readonly capStrike: number | undefined
  readonly contract: Contract
  readonly createdTime: number
  readonly openTime: number
  readonly closeTime: number
  readonly priceLevelStructure: 'linear_cent' | 'deci_cent'
  readonly tickSize: number
  readonly rulesPrimary: string
  readonly baseVolume: number
  readonly baseVolume24h: number
  readonly baseOpenInterest: number
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

export interface GroundTruth {
  /** Question ids listed on both venues. */
  readonly sharedQuestions: readonly string[]
  readonly eventPairs: readonly { questionId: string; venuepEventSlug: string; venuekEventTicker: string }[]
  readonly outcomePairs: readonly TruePair[]
  /** Pairs of questions that look alike but are different (a matcher must NOT pair them). */
  readonly decoys: readonly { questionId: string; decoyId: string }[]
}
