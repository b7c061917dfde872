import { Type, type Static } from '@sinclair/typebox'

const Str = Type.String()
const Num = Type.Number()
const Bool = Type.Boolean()
const open = { additionalProperties: true } as const

/**
 * The venue's captured catalog (test/fixtures/real-venues/FORMAT.md): trade-api v2
 * `/events?with_nested_markets=true` shape, prices in dollars, legacy field names (see world/capture.ts).
 */

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

export const VkCatalogFileSchema = Type.Object(
  { venue: Type.Literal('venuek'), events: Type.Array(VkCapturedEventSchema) },
  open,
)

export type VkCapturedEvent = Static<typeof VkCapturedEventSchema>
export type VkCapturedMarket = Static<typeof VkCapturedMarketSchema>
export type VkCapturedStatus = (typeof VK_CAPTURED_STATUSES)[number]
