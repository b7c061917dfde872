import type { Contract, StrikeType, Question } from '../world/types.js'
import type { VkCapturedEvent, VkCapturedMarket } from './capture-schema.js'

/** How the venue lists the simulated world (world/types.ts): its series, events and markets. */
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
  /** Its last update (not its markets'); a bench's churn (bench/sim-child.ts) stamps an event it lists again. */
  lastUpdated: number
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
