/**
 * The normalized model: Event → PlatformMarket → Outcome → Quote. Venue adapters map wire payloads into these
 * records; everything above the adapters (actors, HTTP, spreads) sees only these. All records are readonly.
 * Unknown values are `undefined`, never 0 (see README.md, Normalization rules).
 */
/** A registered venue's id (src/venues/index.ts lists them); also the `platform` value the API prints. */
export type VenueId = string

/** Service status, mapped from each venue's raw status (src/venues/<venue>/status.ts). */
export type ServiceStatus = 'active' | 'closed' | 'resolved'

export interface CatalogEvent {
  readonly venue: VenueId
  /** The venue's own event key (a slug or a ticker). Unique per venue. */
  readonly eventId: string
  readonly title: string
  readonly subtitle: string | undefined
  /** Category slug (lowercase, dash-separated), e.g. `politics`. */
  readonly category: string
  readonly status: ServiceStatus
  /** The venue's own status words, e.g. `active`, `closed`, `finalized`. */
  readonly rawStatus: string
  readonly url: string
  /** True when at most one child resolves YES (the venue's neg-risk or mutually-exclusive flag). */
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
  /** The series the event belongs to, on a venue that groups recurring events into series. */
  readonly seriesTicker: string | undefined
  /** The date the event's question is about (ms), on a venue that states it apart from the close time. */
  readonly strikeDate: number | undefined
  /** The period that date covers, e.g. "week" (often ""). */
  readonly strikePeriod: string | undefined
  /** The venue's own labels in the venue's order (its tags, or the event's or its series' category). */
  readonly tags: readonly string[] | undefined
  /** True for a neg-risk group (at most one child resolves YES, collateral shared). Unknown when not sent. */
  readonly negRisk: boolean | undefined
  /** The event's description (its resolution text). */
  readonly description: string | undefined
  /** What the venue's own identifier of the event (its ticker or slug) states, read by the venue's adapter. */
  readonly identifier?: IdentifierFacts
}

/**
 * Facts a venue writes into its identifiers rather than its texts: a head-to-head's ticker or slug carries the
 * game's date and the teams' codes, which its title often leaves out. Read by each venue's adapter (the layout is the
 * venue's); the cross-venue matcher compares them without knowing which venue wrote them.
 */
export interface IdentifierFacts {
  /** The calendar day the identifier names ('YYYY-MM-DD', in the venue's own zone: US Eastern for both venues). */
  readonly day: string | undefined
  /** The time of day it names with the day, in minutes after midnight (a ticker's HHMM or HH), if any. */
  readonly minutes: number | undefined
  /** The identifier's series or league part, lower case, without a prefix every identifier of the venue has. */
  readonly league: string | undefined
  /** The participant codes it names, lower case, in its order, where it separates them (a slug's parts). */
  readonly codes: readonly string[] | undefined
  /** The participant codes run together, lower case, where it does not separate them (a ticker's "furhero"). */
  readonly codeRun: string | undefined
}

/**
 * One venue's market as the API lists it. On a venue whose events hold markets with their own outcomes, a
 * single-market event gives one PlatformMarket keyed by the market slug with the market's own outcomes (Yes/No),
 * and a multi-market event one grouped PlatformMarket keyed by the event (group) slug whose outcomes are the child
 * markets. On a venue whose events are sets of binary markets: one per event, one outcome per binary market.
 */
export interface PlatformMarket {
  readonly venue: VenueId
  /** The market's key on its venue: a market slug, a group (event) slug or an event ticker. */
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
  /** The outcome's key on its venue (a token id or a market ticker). Unique per venue. */
  readonly outcomeId: string
  readonly marketId: string
  readonly eventId: string
  readonly title: string
  /** The order book that prices this outcome (the venue's token id or market ticker). */
  readonly instrumentId: string
  /** The book of the opposite side, on a venue that lists each side as its own book (the other token). */
  readonly complementInstrumentId: string | undefined
  /** The condition id of the binary market this outcome belongs to, on a venue that names markets by condition. */
  readonly conditionId: string | undefined
  /** The slug of the binary market this outcome belongs to, when it is a child of a grouped market. */
  readonly childMarketSlug: string | undefined
  /** On a venue that lists each side as its own token: index in the market's outcomes (0 = first/YES token). */
  readonly outcomeIndex: number | undefined
  /** The market ticker, on a venue whose outcomes are binary markets named by ticker. */
  readonly marketTicker: string | undefined
  readonly status: ServiceStatus
  readonly rawStatus: string
  /**
   * The outcome's own volume: that of the binary market it is (a market of a set, a child of a group).
   * Undefined for either side of a binary market listed as two outcomes (Yes and No, a head-to-head's two teams):
   * such a venue reports volume per market, not per side, and each side's is not the whole market's.
   */
  readonly volume: number | undefined
  /** The outcome's own 24 h volume, by the rule of `volume`. */
  readonly volume24h: number | undefined
  /**
   * Volume of the binary market the outcome trades in (its condition or market), whichever side it is: the
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
  /** Strike data where the venue gives it (floor/cap, or a group's threshold), for matching. */
  readonly strike: Strike | undefined
  /** Venue fee description, used for net edges. */
  readonly fees: FeeModel | undefined
  /** What the venue says about this outcome's binary market beyond the fields above, for matching. */
  readonly details?: OutcomeDetails
}

/**
 * Raw venue fields of one binary market (undefined when the venue did not send them). `closeTime` above is already
 * the market's own end; `strike` holds the strike type, floor and cap where the venue gives them.
 */
export interface OutcomeDetails {
  /** The binary market's question (or title). */
  readonly question: string | undefined
  /** The child's title within its group, as sent (may be ""). */
  readonly groupItemTitle: string | undefined
  /** The child's threshold within its group as sent (its order in the group, or its threshold). */
  readonly groupItemThreshold: string | undefined
  /** The YES / NO side's subtitle, as sent. */
  readonly yesSubTitle: string | undefined
  readonly noSubTitle: string | undefined
  /** The binary market's neg-risk flag. */
  readonly negRisk: boolean | undefined
  /** The text the market resolves by (its description or rules). */
  readonly rules: string | undefined
  /** When the result is expected (ms), often long before the close time. */
  readonly expectedExpiration: number | undefined
  /**
   * The labels of the binary market's two sides as the venue lists them, where it lists both sides as outcomes
   * (["Yes", "No"], or two teams: ["FURIA", "Heroic"]); the outcome is side `outcomeIndex`.
   */
  readonly sides?: readonly [string, string]
  /** The participant code the market's own identifier ends with, lower case (a team market's ticker: "-FUR"). */
  readonly code?: string
}

export interface Strike {
  readonly type: string
  readonly floor: number | undefined
  readonly cap: number | undefined
}

/**
 * Taker fee per contract (share) bought or sold at price p:
 * - `curve`: rate × (p × (1 − p))^exponent (a quadratic fee has exponent 1; other fee schedules give their own
 *   rate and exponent);
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
  /**
   * Raw events this sync mapped afresh, those it gave back unchanged from the last sync (of which `unparsed` without
   * being parsed: their bytes were the last sync's), and the pages of the listing whose bytes were the last sync's,
   * given back whole (mapped-records.ts).
   */
  readonly mapping?: {
    readonly mapped: number
    readonly reused: number
    readonly unparsed: number
    readonly pagesReused: number
  }
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
 * [0, 1]; sizes are contracts/shares. `readonly` says who may write, not that it never changes: the quote a venue
 * actor publishes is live (src/actors/published-quote.ts), one object per instrument rewritten in place by the
 * actor alone. Read it synchronously; keep `snapshotQuote(q)` to hold one past the current turn.
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
