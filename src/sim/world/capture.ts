import { Type, type Static } from '@sinclair/typebox'

/**
 * The captured real catalogs a replay serves (test/fixtures/real-venues/FORMAT.md): venuep in Gamma `/events`
 * shape, venuek in trade-api v2 `/events?with_nested_markets=true` shape (prices in dollars, legacy field names).
 * A field is absent when the capture did not have it; absent is never zero. Unknown extra fields are allowed and
 * kept, so a replay passes through everything a capture holds.
 */
const Str = Type.String()
const Num = Type.Number()
const Bool = Type.Boolean()
const open = { additionalProperties: true } as const

const VpCapturedTag = Type.Object({ id: Type.Optional(Str), label: Str, slug: Type.Optional(Str) }, open)

export const VpCapturedMarketSchema = Type.Object(
  {
    id: Str,
    question: Str,
    conditionId: Str,
    slug: Str,
    groupItemTitle: Type.Optional(Str),
    groupItemThreshold: Type.Optional(Str),
    outcomes: Type.Array(Str, { minItems: 2, maxItems: 2 }),
    /** Usually `[yes, no]`; some captures hold `[]` for a market that never traded. */
    outcomePrices: Type.Optional(Type.Array(Str)),
    clobTokenIds: Type.Array(Str, { minItems: 2, maxItems: 2 }),
    bestBid: Type.Optional(Num),
    bestAsk: Type.Optional(Num),
    lastTradePrice: Type.Optional(Num),
    spread: Type.Optional(Num),
    active: Bool,
    closed: Bool,
    archived: Type.Optional(Bool),
    negRisk: Type.Optional(Bool),
    volumeNum: Type.Optional(Num),
    liquidityNum: Type.Optional(Num),
    volume24hr: Type.Optional(Num),
    startDate: Type.Optional(Str),
    endDate: Type.Optional(Str),
    createdAt: Type.Optional(Str),
    updatedAt: Type.Optional(Str),
    orderPriceMinTickSize: Type.Optional(Num),
    orderMinSize: Type.Optional(Num),
    acceptingOrders: Type.Optional(Bool),
    enableOrderBook: Type.Optional(Bool),
    umaResolutionStatus: Type.Optional(Str),
    category: Type.Optional(Str),
  },
  open,
)

export const VpCapturedEventSchema = Type.Object(
  {
    id: Str,
    ticker: Str,
    slug: Str,
    title: Str,
    description: Type.Optional(Str),
    tags: Type.Optional(Type.Array(VpCapturedTag)),
    active: Bool,
    closed: Bool,
    archived: Type.Optional(Bool),
    negRisk: Type.Optional(Bool),
    enableNegRisk: Type.Optional(Bool),
    liquidity: Type.Optional(Num),
    volume: Type.Optional(Num),
    volume24hr: Type.Optional(Num),
    openInterest: Type.Optional(Num),
    startDate: Type.Optional(Str),
    endDate: Type.Optional(Str),
    createdAt: Type.Optional(Str),
    updatedAt: Type.Optional(Str),
    /** Provenance (`owner/repo@commit:path`), not a venue field: never served. */
    source: Str,
    captured: Str,
    markets: Type.Array(VpCapturedMarketSchema, { minItems: 1 }),
  },
  open,
)

/** venuek market statuses a capture may hold; the simulator's status filters know each of them. */
export const VK_CAPTURED_STATUSES = ['initialized', 'active', 'closed', 'determined', 'finalized'] as const

export const VkCapturedMarketSchema = Type.Object(
  {
    ticker: Str,
    event_ticker: Str,
    title: Str,
    market_type: Type.Optional(Str),
    status: Type.Union(VK_CAPTURED_STATUSES.map((s) => Type.Literal(s))),
    yes_sub_title: Str,
    no_sub_title: Type.Optional(Str),
    yes_bid: Type.Optional(Num),
    yes_ask: Type.Optional(Num),
    no_bid: Type.Optional(Num),
    no_ask: Type.Optional(Num),
    last_price: Type.Optional(Num),
    volume: Type.Optional(Num),
    volume_24h: Type.Optional(Num),
    open_interest: Type.Optional(Num),
    close_time: Type.Optional(Str),
  },
  open,
)

export const VkCapturedEventSchema = Type.Object(
  {
    event_ticker: Str,
    series_ticker: Str,
    title: Str,
    sub_title: Type.Optional(Str),
    category: Str,
    mutually_exclusive: Type.Optional(Bool),
    collateral_return_type: Type.Optional(Str),
    strike_period: Type.Optional(Str),
    last_updated_ts: Type.Optional(Str),
    source: Str,
    captured: Str,
    markets: Type.Array(VkCapturedMarketSchema, { minItems: 1 }),
  },
  open,
)

export const VpCatalogFileSchema = Type.Object({ venue: Type.Literal('venuep'), events: Type.Array(VpCapturedEventSchema) }, open)
export const VkCatalogFileSchema = Type.Object({ venue: Type.Literal('venuek'), events: Type.Array(VkCapturedEventSchema) }, open)

export type VpCapturedEvent = Static<typeof VpCapturedEventSchema>
export type VpCapturedMarket = Static<typeof VpCapturedMarketSchema>
export type VkCapturedEvent = Static<typeof VkCapturedEventSchema>
export type VkCapturedMarket = Static<typeof VkCapturedMarketSchema>
export type VkCapturedStatus = (typeof VK_CAPTURED_STATUSES)[number]

/** Fields of a captured event record that say where it came from rather than what the venue sent. */
export const PROVENANCE_FIELDS: ReadonlySet<string> = new Set(['source', 'captured'])
