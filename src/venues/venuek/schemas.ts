import { Type } from '@sinclair/typebox'
import {
  eventCommon,
  marketCommon,
  Money,
  NNumber,
  outcomeCore,
  PriceSide,
  priceCommon,
  ServiceStatusSchema,
  Timestamp,
} from '../../http/schemas/records.js'

/** venuek's records as its routes print them (built from the shared fields of src/http/schemas/records.ts). */
export const VenuekOutcomeSchema = Type.Object(
  {
    market_ticker: Type.String({ description: 'Market ticker (one binary market).' }),
    ...outcomeCore,
    status: ServiceStatusSchema,
  },
  { additionalProperties: false },
)

export const VenuekMarketSchema = Type.Object(
  {
    event_ticker: Type.String({ description: 'Event ticker.' }),
    ...marketCommon,
    open_interest: Money('Total open interest.'),
    end_time: Timestamp('End time.'),
    created_at: Timestamp('Addition: creation time.'),
    updated_at: Timestamp('Addition: last catalog update.'),
    outcomes: Type.Array(VenuekOutcomeSchema),
  },
  { additionalProperties: false },
)

export const VenuekEventSchema = Type.Object(
  { ...eventCommon, markets: Type.Array(VenuekMarketSchema) },
  { additionalProperties: false },
)

/** venuek price row: the venuep row's fields for a binary market, plus its tickers and status. */
export const VenuekPriceSchema = Type.Object(
  {
    market_ticker: Type.String(),
    event_ticker: Type.String(),
    ...priceCommon,
    status: ServiceStatusSchema,
  },
  { additionalProperties: false },
)

/** venuek single market price (spec 2.6); `no` is derived from the YES book (no.best_bid = 1 − yes.best_ask). */
export const VenuekMarketPriceSchema = Type.Object(
  {
    market_ticker: Type.String(),
    event_ticker: Type.String(),
    event_slug: Type.String(),
    title: Type.String({ description: 'Market (outcome) title.' }),
    event_title: Type.String({ description: 'Addition.' }),
    status: ServiceStatusSchema,
    yes: PriceSide('yes'),
    no: PriceSide('no'),
    platform_url: Type.String(),
    updated_at: Timestamp('Addition: venue time of the live quote.'),
    quote_age_seconds: NNumber('Addition: age of the quote in seconds.'),
    is_stale: Type.Boolean({ description: 'Addition.' }),
  },
  { additionalProperties: false },
)
