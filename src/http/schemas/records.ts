import { Type, type TSchema } from '@sinclair/typebox'
import { CATEGORY_DESCRIPTION, StringEnum } from './common.js'

/**
 * Response record schemas (spec part 2). Field names and meanings are the spec's; a value the service does not
 * know is null (never a made-up 0), so numeric fields are nullable. Fields beyond the spec's tables are marked
 * "Addition" in their descriptions. Money and volume fields are rounded to cents (`Money`); prices and
 * probabilities keep the venue's tick precision. A venue's own records are in its folder
 * (src/venues/<venue>/schemas.ts), built from the shared fields here.
 */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
export const NNumber = (description: string) => Nullable(Type.Number({ description }))
/** The wording every money or volume field's description ends with (src/core/money.ts is the rule). */
export const CENTS = 'Rounded to cents (at most 2 decimals).'
export const Money = (description: string) => NNumber(`${description} ${CENTS}`)
export const Timestamp = (description: string) =>
  Nullable(Type.String({ description: `${description} ISO 8601, UTC, without zone suffix.` }))

export const ServiceStatusSchema = StringEnum(['active', 'closed', 'resolved'], { description: 'Service status.' })
/** A venue id (`platform` values): one of the registered venues, in registry order. */
export const platformSchema = (venueIds: readonly string[]) => StringEnum(venueIds, { description: 'Platform slug.' })

/**
 * An outcome's own volume. Venues report volume per binary market: a market that is one outcome (a child of a group)
 * has its own volume, but a market listing two outcomes (Yes and No, a head-to-head's two teams) has one volume for
 * both sides, which is neither side's; the market record's `volume_total` carries it.
 */
export const OUTCOME_VOLUME =
  "Outcome volume: that of the binary market the outcome is (a market of one outcome, or a child of a group). Null for either side of a market that lists two outcomes (Yes/No, two teams): the venue reports that volume for the market only (the market record's `volume_total`)."

/** The fields every venue's outcome record starts with (src/views/records.ts `outcomeCore`). */
export const outcomeCore = {
  title: Type.String({ description: 'Outcome title.' }),
  probability: NNumber('Normalized probability, 0 to 1 (venue rule: see the API description).'),
  best_bid: NNumber('Best bid.'),
  best_ask: NNumber('Best ask.'),
  spread: NNumber('Bid/ask spread (best_ask − best_bid).'),
  volume: Money(OUTCOME_VOLUME),
  updated_at: Timestamp('Addition: venue time of the live quote; null for catalog prices (closed markets).'),
  is_stale: Type.Boolean({
    description: 'Addition: true while the venue feed for this quote is disconnected or resyncing.',
  }),
}

/** The fields every venue's market record shares. */
export const marketCommon = {
  event_slug: Type.String({ description: 'Service event slug.' }),
  title: Type.String({ description: 'Event title.' }),
  status: ServiceStatusSchema,
  market_status: Type.String({ description: 'Raw platform status.' }),
  category: Type.String({ description: CATEGORY_DESCRIPTION }),
  platform_url: Type.String({ description: 'Link to the venue.' }),
  volume_total: Money('Total volume (USD, or contracts of $1 notional on a venue that counts contracts).'),
  volume_24h: Money('24-hour volume.'),
}

/** The fields of every venue's event record (src/views/records.ts `venueEventRecord`); its markets are the venue's. */
export const eventCommon = {
  event_slug: Type.String({ description: 'Service event slug.' }),
  event_id: Type.String({ description: "The venue's own event id (its event slug or ticker)." }),
  title: Type.String(),
  subtitle: Nullable(Type.String()),
  category: Type.String({ description: CATEGORY_DESCRIPTION }),
  status: ServiceStatusSchema,
  market_status: Type.String({ description: 'Raw platform status.' }),
  platform_url: Type.String(),
  mutually_exclusive: Type.Boolean({ description: 'At most one outcome can resolve YES.' }),
  volume_total: Money('Total volume.'),
  volume_24h: Money('24-hour volume.'),
  liquidity: Money('Total liquidity (null where the venue does not report it).'),
  open_interest: Money('Open interest.'),
  end_time: Timestamp('End time.'),
  created_at: Timestamp('Creation time.'),
  updated_at: Timestamp('Last catalog update.'),
  market_count: Type.Integer(),
  outcome_count: Type.Integer(),
}

/** The fields every venue's price row shares. */
export const priceCommon = {
  event_slug: Type.String(),
  event_title: Type.String(),
  title: Type.String({ description: 'Outcome title.' }),
  probability: NNumber('0 to 1.'),
  best_bid: NNumber('Best bid.'),
  best_ask: NNumber('Best ask.'),
  spread: NNumber('Bid/ask spread.'),
  volume: Money(OUTCOME_VOLUME),
  platform_url: Type.String(),
  quote_age_seconds: NNumber('Age of the quote in seconds; null without a live quote.'),
  is_stale: Type.Boolean({ description: "Addition: the quote's feed is disconnected or resyncing." }),
}

/** One side (YES or NO) of a binary market's price. */
export const PriceSide = (description: string) =>
  Type.Object(
    {
      probability: NNumber(`Normalized ${description} probability, 0 to 1.`),
      best_bid: NNumber(`Best ${description} bid.`),
      best_ask: NNumber(`Best ${description} ask.`),
    },
    { additionalProperties: false },
  )

const leadingOutcomeSchema = (venueIds: readonly string[]) =>
  Nullable(
    Type.Object(
      {
        title: Type.String(),
        probability: Type.Number(),
        platform: platformSchema(venueIds),
        outcome_id: Type.String({ description: "The outcome's id on `platform` (its token id or market ticker)." }),
      },
      {
        additionalProperties: false,
        description:
          'The open outcome (any outcome when none is open) with the highest probability on any venue; ties by the higher outcome volume, then by the lower `outcome_id`. Null when no outcome has a price.',
      },
    ),
  )

/** A row of the collapsed event list across venues (`platform` values: these venue ids). */
export const collapsedEventSchema = (venueIds: readonly string[]) =>
  Type.Object(
    {
      event_slug: Type.String(),
      title: Type.String(),
      category: Type.String({ description: CATEGORY_DESCRIPTION }),
      status: ServiceStatusSchema,
      leading_outcome: leadingOutcomeSchema(venueIds),
      volume_total: Money('Volume aggregated across venues.'),
      volume_24h: Money('24-hour volume aggregated across venues.'),
      platform_count: Type.Integer({ description: 'Venues listing this event.' }),
      platforms: Type.Array(platformSchema(venueIds)),
      end_time: Timestamp('Latest end time across venues.'),
      created_at: Timestamp('Earliest creation time across venues.'),
      updated_at: Timestamp('Latest catalog update across venues.'),
    },
    { additionalProperties: false },
  )

/** One event with each venue's event record (`venues`: one key per registered venue, in registry order). */
export const eventDetailSchema = (venues: readonly { readonly id: string; readonly eventSchema: TSchema }[]) =>
  Type.Object(
    {
      ...collapsedEventSchema(venues.map((v) => v.id)).properties,
      aliases: Type.Array(Type.String(), { description: 'Other slugs that resolve to this event.' }),
      venues: Type.Object(Object.fromEntries(venues.map((v) => [v.id, Nullable(v.eventSchema)])), {
        additionalProperties: false,
        description: "Each venue's event with its markets and outcomes (null when not listed).",
      }),
    },
    { additionalProperties: false },
  )

export const SitemapEventSchema = Type.Object(
  {
    event_slug: Type.String({ description: 'Routable as /api/v2/events/{event_slug}.' }),
    status: ServiceStatusSchema,
    updated_at: Timestamp('Last update (creation time when never updated).'),
  },
  { additionalProperties: false },
)

export const listOf = <T extends TSchema>(key: string, item: T, description: string) =>
  Type.Object(
    {
      [key]: Type.Array(item),
      total: Type.Integer({ description: 'Matches before limit and offset.' }),
      limit: Type.Integer(),
      offset: Type.Integer(),
    },
    { additionalProperties: false, description },
  )
