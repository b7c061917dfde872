import { Type, type Static } from '@sinclair/typebox'

const Str = Type.String()
const Num = Type.Number()
const Bool = Type.Boolean()
const open = { additionalProperties: true } as const

/** The venue's captured catalog (test/fixtures/real-venues/FORMAT.md): Gamma `/events` shape (see world/capture.ts). */
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

export const VpCatalogFileSchema = Type.Object(
  { venue: Type.Literal('venuep'), events: Type.Array(VpCapturedEventSchema) },
  open,
)

export type VpCapturedEvent = Static<typeof VpCapturedEventSchema>
export type VpCapturedMarket = Static<typeof VpCapturedMarketSchema>
