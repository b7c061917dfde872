import { BOOK_DEPTHS, DEFAULT_BOOK_DEPTH, type Channel } from '../stream/protocol.js'

/**
 * The stream's payload schemas for the AsyncAPI document (asyncapi.ts): what `d` holds on each channel, and the
 * channel table (key and payload of each channel) that the document's data messages are generated from.
 */
export type Json = Readonly<Record<string, unknown>>

export const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })

export const nullableNumber = (description: string): Json => ({ type: ['number', 'null'], description })

export const Level: Json = {
  type: 'array',
  description: '`[price, size]` as decimal strings; the size is absolute, `"0"` removes the level.',
  items: [
    { type: 'string', description: 'Price (probability, decimal string).' },
    { type: 'string', description: 'Size (decimal string).' },
  ],
  minItems: 2,
  maxItems: 2,
  additionalItems: false,
}

export const QuotePayload: Json = {
  type: 'object',
  description: 'Best bid and ask with sizes and the probability, in the REST names; the latest value.',
  properties: {
    best_bid: nullableNumber('Best bid (null when unknown).'),
    best_ask: nullableNumber('Best ask (null when unknown).'),
    bid_size: nullableNumber('Size at the best bid.'),
    ask_size: nullableNumber('Size at the best ask.'),
    probability: nullableNumber('Implied probability.'),
    stale: { type: 'boolean', description: 'True while the venue feed is disconnected or stalled.' },
  },
  required: ['best_bid', 'best_ask', 'bid_size', 'ask_size', 'probability', 'stale'],
}

export const BookPayload: Json = {
  type: 'object',
  description: 'Snapshot: the whole book to the subscribed depth. Delta: the changed levels only.',
  properties: {
    bids: { type: 'array', items: schemaRef('Level'), description: 'Bid levels.' },
    asks: { type: 'array', items: schemaRef('Level'), description: 'Ask levels.' },
    crc: {
      type: 'integer',
      minimum: 0,
      maximum: 4_294_967_295,
      description:
        'CRC-32 of the top 10 asks ascending `|` the top 10 bids descending (`price:size`, joined with `,`).',
    },
  },
  required: ['bids', 'asks', 'crc'],
}

export const SpreadRecord: Json = {
  type: 'object',
  description:
    "A cross-venue spread record exactly as `GET /api/v2/spreads` shows it (its full schema is in /api/v2/openapi.json), executable edge included; `id` is the pair's stable id.",
  properties: {
    id: { type: 'string', description: "The pair's stable id." },
    event_slug: { type: 'string' },
    event_title: { type: 'string' },
    outcome_key: { type: 'string' },
    outcome_title: { type: 'string' },
    spread: { type: 'number' },
    confidence: { type: 'number' },
    is_stale: { type: 'boolean' },
  },
  required: ['id', 'event_slug', 'outcome_key', 'spread'],
  additionalProperties: true,
}

export const TopPayload: Json = {
  type: 'object',
  description: 'Changes to the ranked list (a snapshot: the whole list as `upsert`, `remove` empty).',
  properties: {
    upsert: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          rank: { type: 'integer', minimum: 1, description: 'Absolute, 1-based.' },
          id: { type: 'string', description: "The pair's stable id." },
          record: schemaRef('SpreadRecord'),
        },
        required: ['rank', 'id', 'record'],
      },
      description: 'Items added, or whose rank or record changed.',
    },
    remove: { type: 'array', items: { type: 'string' }, description: 'Ids that left the list.' },
    crc: {
      type: 'integer',
      minimum: 0,
      maximum: 4_294_967_295,
      description: 'CRC-32 of the ordered ids joined by `,`.',
    },
  },
  required: ['upsert', 'remove', 'crc'],
}

const Firing: Json = {
  type: 'object',
  description:
    "One firing of one of the caller's alert rules: the delivery's body exactly as a webhook receives it (`id` is the durable delivery id; also `dedupe_key`, `fired_at`, `rule`, `spread`).",
  properties: { id: { type: 'string', description: 'Durable delivery id: a client dedupes by it.' } },
  required: ['id'],
  additionalProperties: true,
}

export const AlertFiring: Json = {
  description:
    "A delta is one new firing; a snapshot is `{firings}`, the caller's last 100 firings from the store, oldest first (what a client that cannot resume reads to catch up).",
  oneOf: [
    Firing,
    {
      type: 'object',
      properties: { firings: { type: 'array', items: Firing } },
      required: ['firings'],
      additionalProperties: false,
    },
  ],
}

export const VenueState = { type: 'string', enum: ['up', 'degraded', 'down'] }

export const VenuePayload: Json = {
  type: 'object',
  description: "A venue feed's state; the latest value.",
  properties: {
    state: VenueState,
    age_ms: nullableNumber("Time since the feed's last frame (null before the first)."),
    reconnects: { type: 'integer', minimum: 0 },
    gaps: { type: 'integer', minimum: 0 },
  },
  required: ['state', 'age_ms', 'reconnects', 'gaps'],
}

/** Each channel's key and payload (snapshot and delta). Typed by `Channel`: a new channel must be described here. */
export const CHANNEL_DOC: Readonly<
  Record<Channel, { readonly key: string; readonly payload: string; readonly about: string }>
> = {
  quote: { key: '`venuep:<token_id>` or `venuek:<market_ticker>`', payload: 'QuotePayload', about: 'Latest quote.' },
  book: {
    key: `\`venuep:<token_id>\` or \`venuek:<market_ticker>\`, with \`depth\` ${BOOK_DEPTHS.join('/')} (default ${DEFAULT_BOOK_DEPTH}) on subscribe; one depth per key per connection`,
    payload: 'BookPayload',
    about: 'Order book: snapshot, then absolute-size level changes, `crc` on every frame.',
  },
  spread: {
    key: 'a pair: `<event_slug>|<outcome_key>` or its id',
    payload: 'SpreadRecord',
    about: 'Latest spread record.',
  },
  'spreads.top': {
    key: 'a view as a query string: /spreads/top and scanner parameters plus `category` and `search`, e.g. `limit=20&min_spread=0.02&category=politics`',
    payload: 'TopPayload',
    about: 'The ranked list of top spreads.',
  },
  alerts: {
    key: "`me` or the caller's account id (frames carry the account id)",
    payload: 'AlertFiring',
    about: "The caller's alert firings.",
  },
  venue: { key: '`venuep` or `venuek`', payload: 'VenuePayload', about: 'Venue feed state.' },
}

export const MarkerPayload: Json = {
  oneOf: [
    {
      type: 'object',
      description: 'The venue feed dropped, stalled or showed a gap: what the stream built is stale.',
      properties: {
        ev: { const: 'venue_disconnect' },
        venue: { type: 'string' },
        reason: { type: 'string', description: 'e.g. `stale_no_data`.' },
        since: { type: 'number', description: 'When the trouble began (ms).' },
      },
      required: ['ev', 'venue', 'reason', 'since'],
    },
    {
      type: 'object',
      description: 'The stream is good again; a snapshot follows.',
      properties: {
        ev: { const: 'resync' },
        reason: { type: 'string', description: 'e.g. `venue_reconnected`.' },
        snapshot_follows: { const: true },
      },
      required: ['ev', 'reason', 'snapshot_follows'],
    },
  ],
}
