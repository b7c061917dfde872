/**
 * The normalized model: Event → PlatformMarket → Outcome → Quote. Venue adapters map wire payloads into these
 * records; everything above the adapters (actors, HTTP, spreads) sees only these. All records are readonly.
 * Unknown values are `undefined`, never 0 (see README.md, Normalization rules).
 */
export type VenueId = 'venuep' | 'venuek'

export const VENUE_IDS: readonly VenueId[] = ['venuep', 'venuek']

/** Service status, mapped from each venue's raw status (src/venues/<venue>/status.ts). */
export type ServiceStatus = 'active' | 'closed' | 'resolved'

export interface CatalogEvent {
  readonly venue: VenueId
  /** venuep: Gamma event slug; venuek: event ticker. Unique per venue. */
  readonly eventId: string
  readonly title: string
  readonly subtitle: string | undefined
  /** Category slug (lowercase, dash-separated), e.g. `politics`. */
  readonly category: string
  readonly status: ServiceStatus
  /** The venue's own status words, e.g. `active`, `closed`, `finalized`. */
  readonly rawStatus: string
  readonly url: string
  /** True when at most one child resolves YES (venuep negRisk, venuek mutually_exclusive). */
  readonly mutuallyExclusive: boolean
  readonly createdAt: number | undefined
  readonly updatedAt: number | undefined
  readonly endTime: number | undefined
  readonly volumeTotal: number | undefined
  readonly volume24h: number | undefined
  readonly liquidity: number | undefined
  readonly openInterest: number | undefined
  readonly markets: readonly PlatformMarket[]
  /**
   * What the venue says about the event beyond the fields above, for matching across venues (undefined when the
   * venue did not say it). Raw venue values, not normalized.
   */
  readonly details?: EventDetails
}

export interface EventDetails {
  /** venuek `series_ticker`. */
  readonly seriesTicker: string | undefined
  /** venuek `strike_date` (ms): the date the event's question is about. */
  readonly strikeDate: number | undefined
  /** venuek `strike_period`, e.g. "week" (often ""). */
  readonly strikePeriod: string | undefined
  /** The venue's own labels: venuep tag labels in the venue's order; venuek the event's (else its series') category. */
  readonly tags: readonly string[] | undefined
  /** venuep event `negRisk` (else `enableNegRisk`): true for a neg-risk group. Unknown when not sent. */
  readonly negRisk: boolean | undefined
  /** venuep event description (the resolution text). */
  readonly description: string | undefined
}

/**
 * One venue's market as the API lists it. venuep: a single-market event gives one PlatformMarket keyed by the
 * market slug with the market's own outcomes (Yes/No); a multi-market event gives one grouped PlatformMarket
 * keyed by the event (group) slug whose outcomes are the child markets. venuek: one per event (event ticker),
 * one outcome per binary market.
 */
export interface PlatformMarket {
  readonly venue: VenueId
  /** venuep: market slug or group (event) slug; venuek: event ticker. */
  readonly marketId: string
  readonly eventId: string
  /** Event title. */
  readonly title: string
  readonly category: string
  readonly status: ServiceStatus
  readonly rawStatus: string
  readonly url: string
  readonly createdAt: number | undefined
  readonly updatedAt: number | undefined
  readonly endTime: number | undefined
  readonly volumeTotal: number | undefined
  readonly volume24h: number | undefined
  readonly liquidity: number | undefined
  readonly openInterest: number | undefined
  readonly outcomes: readonly Outcome[]
}

export interface Outcome {
  readonly venue: VenueId
  /** venuep: CLOB token id of this outcome; venuek: market ticker. Unique per venue. */
  readonly outcomeId: string
  readonly marketId: string
  readonly eventId: string
  readonly title: string
  /** The order book that prices this outcome (venuep token id, venuek market ticker). */
  readonly instrumentId: string
  /** The book of the opposite side when the venue lists it separately (venuep's other token). */
  readonly complementInstrumentId: string | undefined
  /** venuep condition id of the binary market this outcome belongs to. */
  readonly conditionId: string | undefined
  /** venuep market slug of the binary market this outcome belongs to. */
  readonly childMarketSlug: string | undefined
  /** venuep: index in the market's `outcomes`/`clobTokenIds` (0 = first/YES token). */
  readonly outcomeIndex: number | undefined
  /** venuek market ticker. */
  readonly marketTicker: string | undefined
  readonly status: ServiceStatus
  readonly rawStatus: string
  /**
   * The outcome's own volume: that of the binary market it is (a venuek market, a child of a venuep group).
   * Undefined for either side of a venuep binary market that lists two outcomes (Yes and No, a head-to-head's two
   * teams): the venue reports volume per market, not per side, and each side's is not the whole market's.
   */
  readonly volume: number | undefined
  /** The outcome's own 24 h volume, by the rule of `volume`. */
  readonly volume24h: number | undefined
  /**
   * Volume of the binary market the outcome trades in (venuep condition, venuek market), whichever side it is: the
   * platform volume the spreads filter (`min_volume`) and weigh (confidence) a pair by.
   */
  readonly marketVolume: number | undefined
  readonly openInterest: number | undefined
  readonly liquidity: number | undefined
  /** Catalog-time prices (REST), used until the live book arrives and for closed markets. */
  readonly catalogBestBid: number | undefined
  readonly catalogBestAsk: number | undefined
  readonly catalogLastPrice: number | undefined
  readonly closeTime: number | undefined
  readonly createdAt: number | undefined
  /** Resolution: true if this outcome won, false if it lost, undefined while unresolved. */
  readonly won: boolean | undefined
  /** Strike data where the venue gives it (venuek floor/cap; venuep group threshold), for matching. */
  readonly strike: Strike | undefined
  /** Venue fee description, used for net edges. */
  readonly fees: FeeModel | undefined
  /** What the venue says about this outcome's binary market beyond the fields above, for matching. */
  readonly details?: OutcomeDetails
}

/**
 * Raw venue fields of one binary market (undefined when the venue did not send them). `closeTime` above is already
 * the market's own end: venuep `endDate`, venuek `close_time`; `strike` holds venuek `strike_type`/`floor_strike`/
 * `cap_strike`.
 */
export interface OutcomeDetails {
  /** venuep market `question`; venuek market `title`. */
  readonly question: string | undefined
  /** venuep `groupItemTitle` as sent (may be ""). */
  readonly groupItemTitle: string | undefined
  /** venuep `groupItemThreshold` as sent (the child's order in its group, or its threshold). */
  readonly groupItemThreshold: string | undefined
  /** venuek `yes_sub_title` / `no_sub_title` as sent. */
  readonly yesSubTitle: string | undefined
  readonly noSubTitle: string | undefined
  /** venuep market `negRisk`. */
  readonly negRisk: boolean | undefined
  /** venuep market description; venuek `rules_primary`: the text the market resolves by. */
  readonly rules: string | undefined
  /** venuek `expected_expiration_time` (ms): when the result is expected, often long before `close_time`. */
  readonly expectedExpiration: number | undefined
}

export interface Strike {
  readonly type: string
  readonly floor: number | undefined
  readonly cap: number | undefined
}

/**
 * Taker fee per contract (share) bought or sold at price p:
 * - `curve`: rate × (p × (1 − p))^exponent (venuek's quadratic fee has exponent 1; venuep's fee schedules give
 *   their own rate and exponent);
 * - `bps`: takerBps / 10,000 × p (a flat share of notional).
 */
export type FeeModel =
  | { readonly kind: 'curve'; readonly rate: number; readonly exponent: number }
  | { readonly kind: 'bps'; readonly takerBps: number }

export function feePerContract(model: FeeModel | undefined, price: number): number {
  if (model === undefined) return 0
  if (model.kind === 'bps') return (model.takerBps / 10_000) * price
  return model.rate * (price * (1 - price)) ** model.exponent
}

/** A full catalog for one venue at one point in time. */
export interface Catalog {
  readonly venue: VenueId
  readonly events: readonly CatalogEvent[]
  readonly fetchedAt: number
  /**
   * Present only when the sync stopped at the `maxEvents` guard while the venue listed more: the catalog is the
   * first `maxEvents` events the venue listed, not all of them. The guard sits far above the real catalogs, so
   * this means a misbehaving venue or a guard set too low; the venue actor logs it as an error and /readyz shows it.
   */
  readonly truncation?: CatalogTruncation
}

export interface CatalogTruncation {
  /** The guard that was hit (config `venues.<venue>.catalog.maxEvents`): events listed by the venue, counted raw. */
  readonly maxEvents: number
  /**
   * Which listing was cut: `open` (the open events alone reached the guard; the closed lookback was not read) or
   * `closed` (every open event fits; the closed events of the lookback window were cut).
   */
  readonly cut: 'open' | 'closed'
}

/**
 * Top of book for one instrument, published by the venue actor whenever it changes. Prices are decimals in
 * [0, 1]; sizes are contracts/shares.
 */
export interface Quote {
  readonly venue: VenueId
  readonly instrumentId: string
  readonly bestBid: number | undefined
  readonly bestBidSize: number | undefined
  readonly bestAsk: number | undefined
  readonly bestAskSize: number | undefined
  readonly lastTradePrice: number | undefined
  /** The venue's displayed probability (see probabilityFor in src/venues/<venue>/probability.ts). */
  readonly probability: number | undefined
  /** Venue time of the change that produced this quote (ms). */
  readonly venueTs: number
  /** Local receipt time of that change (ms). */
  readonly receivedAt: number
  /** True while the instrument's feed is disconnected or resyncing: the book may be behind the venue. */
  readonly stale: boolean
  /** Per-venue publish sequence, increasing. */
  readonly seq: number
  /**
   * The instrument's number in its venue actor: unique for the actor's lifetime and never reused, so a subscriber
   * can keep per-instrument state in an array indexed by it instead of a lookup by id (the spread engine does).
   * Absent on quotes made outside a venue actor.
   */
  readonly instrumentSlot?: number
}
