import type { Contract, EventTag, Question } from '../world/types.js'
import type { VpCapturedEvent, VpCapturedMarket } from './capture-schema.js'

/** How the venue lists the simulated world (world/types.ts): its events, markets and wallets. */
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
  /**
   * Mutable for an event several questions share (`slugs.eventKey`: a match's maps): it takes the dates and the
   * lifecycle of the one that ends last, as the real event stays open until its last market closes.
   */
  endDate: number
  /**
   * The question a generated event lists (the last-ending of the questions it lists); a replayed event has none (its
   * markets are independent questions).
   */
  question: Question | undefined
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
