import { Type } from '@sinclair/typebox'
import { StringEnum } from '../../http/schemas/common.js'
import {
  eventCommon,
  marketCommon,
  Money,
  NNumber,
  Nullable,
  outcomeCore,
  priceCommon,
  ServiceStatusSchema,
  Timestamp,
} from '../../http/schemas/records.js'

/** venuep's records as its routes print them (built from the shared fields of src/http/schemas/records.ts). */
export const VenuepOutcomeSchema = Type.Object(
  {
    ...outcomeCore,
    token_id: Type.String({ description: 'Addition: CLOB token id pricing this outcome.' }),
    condition_id: Nullable(Type.String({ description: 'Addition: condition id of the binary market.' })),
    market_slug: Type.String({ description: 'Addition: slug of the binary market (child market of a group).' }),
  },
  { additionalProperties: false },
)

export const VenuepMarketSchema = Type.Object(
  {
    market_slug: Type.String({ description: 'Market slug (a group slug for multi-market events).' }),
    ...marketCommon,
    liquidity: Money('Total liquidity.'),
    open_interest: Money('Current open interest.'),
    end_time: Timestamp('Addition: end time.'),
    created_at: Timestamp('Addition: creation time.'),
    updated_at: Timestamp('Addition: last catalog update.'),
    outcomes: Type.Array(VenuepOutcomeSchema),
  },
  { additionalProperties: false },
)

export const VenuepEventSchema = Type.Object(
  { ...eventCommon, markets: Type.Array(VenuepMarketSchema) },
  { additionalProperties: false },
)

/** venuep price row (spec 2.5). */
export const VenuepPriceSchema = Type.Object(
  {
    market_slug: Type.String(),
    ...priceCommon,
    token_id: Type.String({ description: 'Addition: CLOB token id.' }),
    condition_id: Nullable(Type.String({ description: 'Addition: condition id.' })),
  },
  { additionalProperties: false },
)

export const MarketPriceOutcomeSchema = Type.Object(
  {
    title: Type.String(),
    token_id: Type.String(),
    condition_id: Nullable(Type.String()),
    probability: NNumber('0 to 1: live, or from the price history when `timestamp` is given.'),
    best_bid: NNumber('Best bid (null for historical prices).'),
    best_ask: NNumber('Best ask (null for historical prices).'),
    spread: NNumber('Bid/ask spread (null for historical prices).'),
    source: StringEnum(['live', 'catalog', 'history'], { description: 'Where the price comes from.' }),
    price_time: Timestamp("Time of the price: the quote's venue time, or the history point nearest `timestamp`."),
    quote_age_seconds: NNumber('Age of a live quote in seconds.'),
    is_stale: Type.Boolean(),
  },
  { additionalProperties: false },
)

/** venuep single market price (the spec leaves the body open): the market and its (filtered) outcomes. */
export const VenuepMarketPriceSchema = Type.Object(
  {
    market_slug: Type.String({ description: 'Slug of the market record answered for.' }),
    resolved_from: Nullable(
      Type.String({
        description:
          "Addition: the slug the request named when it was an event slug or alias rather than a market slug (resolved to the event's market record); null otherwise.",
      }),
    ),
    event_slug: Type.String(),
    title: Type.String({ description: 'Event title.' }),
    status: ServiceStatusSchema,
    platform_url: Type.String(),
    timestamp: Nullable(Type.Integer({ description: 'The requested Unix time, when given.' })),
    outcomes: Type.Array(MarketPriceOutcomeSchema),
  },
  { additionalProperties: false },
)
