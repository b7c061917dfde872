import {
  AlertFiring,
  BookPayload,
  Level,
  MarkerPayload,
  QuotePayload,
  schemaRef,
  SpreadRecord,
  TopPayload,
  VenuePayload,
  VenueState,
  type Json,
} from '../http/asyncapi-payloads.js'
import { CHANNELS } from '../stream/protocol.js'
import { LEASED_CHANNELS } from './stream/channels.js'
import {
  CATALOG_BUCKET,
  CROSS_VENUE,
  LEASE_ASK_SUBJECT,
  LEASE_CLOSED_SUBJECT,
  LEASE_OPEN_SUBJECT,
  LEASE_RENEW_SUBJECT,
  MD_STREAM,
} from './subjects.js'

/**
 * The AsyncAPI 3.0 description of the bus between an ingest and its edges (issue 24), served at
 * `/api/v2/bus-asyncapi.json` beside the client-facing `/api/v2/asyncapi.json`. It is the contract a second
 * implementation of either side would be written against: the subjects (src/bus/subjects.ts builds every one),
 * what each carries, and which JetStream stream or bucket keeps what. docs/SCALE-OUT.md tells the same in prose.
 */
const ref = (path: string): Json => ({ $ref: path })

/** The `{ch}` token of an md subject per channel (a token holds no dot). */
const CH_TOKENS = ['quote', 'spread', 'venue', 'book', 'top', 'alerts'] as const

const FRAME_DOC = `A frame of \`/api/v2/stream\`, byte for byte what a client receives: \`type\` snapshot, delta or marker, the
stream's \`ch\` and \`key\`, and the \`(epoch, seq)\` the ingest's single writer assigned (the venue actor for quote, book
and venue, the spread actor for spread and spreads.top, the outbox writer for alerts). Every edge forwards these bytes
unchanged, so a resume token is good on any edge. The ingest holds every venue stream open, and a stream of any
other channel while an edge leases it (\`lease.*\`); it publishes a snapshot when it opens a
stream, and again (a keyframe, at the stream's current seq) when the stream has carried no whole state for half the
resume window, so the window in JetStream always holds a full state of every stream. A quote, spread or venue delta
is the whole value; a book, spreads.top or alerts delta changes part of the state, applied as the client protocol says.`

const mdFrame: Json = {
  type: 'object',
  properties: {
    type: { enum: ['snapshot', 'delta', 'marker'] },
    ch: { enum: [...CHANNELS] },
    key: { type: 'string' },
    epoch: { type: 'string', description: "The ingest's stream generation: a new one after an ingest restart." },
    seq: { type: 'integer', minimum: 0 },
    ts: { type: 'number' },
    lts: { type: 'number', description: 'When the ingest received what the frame reflects (ms).' },
    pts: { type: 'number', description: 'When the ingest published the frame (ms).' },
    d: {
      description:
        "A snapshot or delta: the channel's payload as the client protocol defines it (QuotePayload, SpreadRecord, VenuePayload, BookPayload, TopPayload, AlertFiring). A marker: MarkerPayload.",
      anyOf: [
        schemaRef('QuotePayload'),
        schemaRef('SpreadRecord'),
        schemaRef('VenuePayload'),
        schemaRef('BookPayload'),
        schemaRef('TopPayload'),
        schemaRef('AlertFiring'),
        schemaRef('MarkerPayload'),
        { type: 'null' },
      ],
    },
  },
  required: ['type', 'ch', 'key', 'epoch', 'seq', 'ts', 'lts', 'pts', 'd'],
}

const micros = (what: string): Json => ({ type: 'integer', description: `${what}, in micro-units (1e-6).` })
const instrumentId = { type: 'string', description: "The venue's instrument id (a venuep token id, a venuek ticker)." }
const venueTs = { type: 'number', description: 'Venue time of the change (ms).' }
const levelMicros: Json = {
  type: 'array',
  description: '[price, size] in micro-units.',
  items: { type: 'integer' },
  minItems: 2,
  maxItems: 2,
}

const FeedEvent: Json = {
  description:
    'One event a venue actor applied (src/venues/types.ts FeedEvent): an edge applies the same, in the same order, so its books and quotes equal the ingest’s.',
  oneOf: [
    {
      type: 'object',
      properties: {
        type: { const: 'snapshot' },
        instrumentId,
        bids: { type: 'array', items: levelMicros },
        asks: { type: 'array', items: levelMicros },
        venueTs,
      },
      required: ['type', 'instrumentId', 'bids', 'asks', 'venueTs'],
    },
    {
      type: 'object',
      properties: {
        type: { const: 'level' },
        instrumentId,
        side: { enum: ['bid', 'ask'] },
        price: micros('Price'),
        size: micros('Absolute size; 0 removes the level'),
        venueTs,
      },
      required: ['type', 'instrumentId', 'side', 'price', 'size', 'venueTs'],
    },
    {
      type: 'object',
      properties: {
        type: { const: 'delta' },
        instrumentId,
        side: { enum: ['bid', 'ask'] },
        price: micros('Price'),
        delta: micros('Signed change of the size'),
        venueTs,
      },
      required: ['type', 'instrumentId', 'side', 'price', 'delta', 'venueTs'],
    },
    {
      type: 'object',
      properties: {
        type: { const: 'trade' },
        instrumentId,
        price: micros('Price'),
        size: micros('Size'),
        venueTs,
      },
      required: ['type', 'instrumentId', 'price', 'size', 'venueTs'],
    },
    {
      type: 'object',
      properties: {
        type: { const: 'stats' },
        instrumentId,
        volume: { type: ['number', 'null'] },
        openInterest: { type: ['number', 'null'] },
        venueTs,
      },
      required: ['type', 'instrumentId', 'venueTs'],
    },
    {
      type: 'object',
      properties: {
        type: { const: 'stale' },
        instrumentIds: { type: 'array', items: { type: 'string' } },
        reason: { type: 'string' },
      },
      required: ['type', 'instrumentIds', 'reason'],
    },
  ],
}

const FeedMessage: Json = {
  type: 'object',
  description:
    'One applied batch (or part of one: `more` says the batch goes on in the next message; a batch is split only when it would pass the broker’s max_payload, and the follower puts it together before applying it).',
  properties: {
    epoch: {
      type: 'string',
      description: "The publisher's run: a new one after an ingest restart (followers resynchronize).",
    },
    seq: {
      type: 'integer',
      minimum: 1,
      description: 'Counts the messages on `feed.<venue>` from 1: a follower sees a gap.',
    },
    receivedAt: { type: 'number', description: 'When the ingest received the venue frame (the quotes’ `lts`).' },
    events: { type: 'array', items: schemaRef('FeedEvent') },
    more: { const: true },
  },
  required: ['epoch', 'seq', 'receivedAt', 'events'],
}

const SnapshotReply: Json = {
  type: 'object',
  description:
    'Part of a snapshot reply, to the request’s reply subject: the books as batches of events (stats; then snapshot and trade events grouped by the receipt time their quotes carry; then `stale` for instruments without a live book), packed in order up to max_payload. All parts go out in one turn on the connection that publishes `feed.<venue>`: the reply is an exact cut of that feed.',
  properties: {
    epoch: { type: 'string' },
    seq: { type: 'integer', minimum: 0, description: 'The last `feed.<venue>` message the snapshot includes.' },
    request: { type: 'integer', description: 'The request answered.' },
    batches: {
      type: 'array',
      items: {
        type: 'object',
        properties: { receivedAt: { type: 'number' }, events: { type: 'array', items: schemaRef('FeedEvent') } },
        required: ['receivedAt', 'events'],
      },
    },
    more: { const: true, description: 'The last batch goes on in the next message.' },
    last: { const: true, description: 'The reply’s final message.' },
  },
  required: ['epoch', 'seq', 'request', 'batches'],
}

const SnapshotRequest: Json = {
  type: 'object',
  properties: {
    request: { type: 'integer' },
    instrumentIds: {
      type: 'array',
      items: { type: 'string' },
      description: 'Absent: every instrument the actor holds.',
    },
  },
  required: ['request'],
}

const CatalogAnnouncement: Json = {
  type: 'object',
  description: `A venue's new catalog is in the JetStream object store bucket \`${CATALOG_BUCKET}\` under the venue id (the normalized catalog, one JSON line per event).`,
  properties: { version: { type: 'integer', description: 'The venue actor’s catalog version.' } },
  required: ['version'],
}

const leaseRequest: Json = {
  type: 'object',
  properties: {
    ch: { enum: [...LEASED_CHANNELS] },
    key: {
      type: 'string',
      description: 'The key as the source resolves it: a market key, the canonical view, an account id.',
    },
    depth: { type: 'integer', description: '`book` only: 10, 25 or 100.' },
    account: { type: 'string', description: '`alerts` only: whose firings.' },
  },
  required: ['ch', 'key'],
}

const LeaseRequests: Json = {
  type: 'object',
  description: 'Streams an edge leases (split into messages under half the broker’s max_payload).',
  properties: { streams: { type: 'array', items: leaseRequest } },
  required: ['streams'],
}

const LeaseAnswers: Json = {
  type: 'object',
  description: 'Per requested stream, in order: its topic and numbers now, or why its key cannot be served.',
  properties: {
    streams: {
      type: 'array',
      items: {
        oneOf: [
          {
            type: 'object',
            properties: { topic: { type: 'string' }, epoch: { type: 'string' }, seq: { type: 'integer' } },
            required: ['topic', 'epoch', 'seq'],
          },
          {
            type: 'object',
            properties: { key: { type: 'string' }, code: { type: 'string' }, reason: { type: 'string' } },
            required: ['key', 'code', 'reason'],
          },
        ],
      },
    },
  },
  required: ['streams'],
}

const LeaseClosed: Json = {
  type: 'object',
  description: 'A leased stream the ingest closed: no edge renewed it for a resume window.',
  properties: { topic: { type: 'string' }, epoch: { type: 'string' } },
  required: ['topic', 'epoch'],
}

const venueParam = { description: 'A venue id (`venuep`, `venuek`).' }

export function buildBusAsyncApi(): Json {
  const message = (name: string, summary: string, payload: Json): Json => ({
    name,
    summary,
    contentType: 'application/json',
    payload,
  })
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Prediction market data: the ingest–edge bus',
      version: '2.0.0',
      description: `What an ingest (\`ROLE=ingest\`) publishes on NATS and an edge (\`ROLE=edge\`) reads to serve REST and
\`/api/v2/stream\` without venue connections (docs/SCALE-OUT.md). Core NATS subjects for the live path; the JetStream stream
\`${MD_STREAM}\` keeps the stream frames of the resume window (every \`md.>\` subject: its last resume-window frames, none older
than the window, on file); the object store bucket \`${CATALOG_BUCKET}\` keeps each venue's latest catalog.`,
    },
    defaultContentType: 'application/json',
    servers: {
      broker: {
        host: '{host}',
        protocol: 'nats',
        description: 'The NATS server both roles name in NATS_URL (JetStream on).',
        variables: { host: { default: '127.0.0.1:4222' } },
      },
    },
    channels: {
      md: {
        address: 'md.{ch}.{venue}.{stream}',
        title: 'Stream frames',
        description: `${FRAME_DOC}\n\nKept in JetStream stream \`${MD_STREAM}\` for the resume window; an edge reads the window back when it starts, then live.`,
        parameters: {
          ch: { enum: [...CH_TOKENS], description: 'The stream channel (`top` for spreads.top).' },
          venue: {
            description: `The venue the key names (\`quote\`, \`book\`, \`venue\`), \`${CROSS_VENUE}\` for a stream of no one venue (\`spread\`, \`spreads.top\`, \`alerts\`).`,
          },
          stream: {
            description:
              'The stream key, and `|<depth>` for a book, as one subject token: every byte outside `[A-Za-z0-9_:|-]` written `%XX` (a key may hold dots or spaces).',
          },
        },
        messages: { frame: ref('#/components/messages/frame') },
      },
      feed: {
        address: 'feed.{venue}',
        title: 'Applied feed events',
        description: 'Every batch a venue actor applied, in order, with its receipt time.',
        parameters: { venue: venueParam },
        messages: { feedMessage: ref('#/components/messages/feedMessage') },
      },
      feedSnapshot: {
        address: 'feed.{venue}.snapshot',
        title: 'Book snapshots on request',
        description:
          'Request with a reply inbox: the actor’s books now, in snapshot replies on the inbox (`last` on the final one). The reply comes after every `feed.<venue>` message its books include and before any later one. An edge asks at start, for instruments a new catalog adds, after a gap or an ingest restart, and when its broker link comes back; unanswered, again after 3 s.',
        parameters: { venue: venueParam },
        messages: {
          snapshotRequest: ref('#/components/messages/snapshotRequest'),
          snapshotReply: ref('#/components/messages/snapshotReply'),
        },
      },
      catalog: {
        address: 'catalog.{venue}',
        title: 'Catalog versions',
        description: `A venue actor installed a catalog; it is in the object store bucket \`${CATALOG_BUCKET}\` under the venue id.`,
        parameters: { venue: venueParam },
        messages: { catalogAnnouncement: ref('#/components/messages/catalogAnnouncement') },
      },
      leaseOpen: {
        address: LEASE_OPEN_SUBJECT,
        title: 'Open leased streams',
        description:
          'Request with a reply inbox, from an edge whose client subscribed to a stream (any channel but venue) its mirror does not hold: the ingest opens each stream not open, publishes a snapshot of every stream named on its md subject, then replies (on one connection: the snapshots reach the edge first). Also sent for one stream whose frames the edge missed, for its snapshot.',
        messages: {
          leaseRequests: ref('#/components/messages/leaseRequests'),
          leaseAnswers: ref('#/components/messages/leaseAnswers'),
        },
      },
      leaseRenew: {
        address: LEASE_RENEW_SUBJECT,
        title: 'Renew leases',
        description:
          'Every quarter resume window (at most 10 s), each edge names the leased streams its clients hold (or held within the window). The ingest closes a leased stream no edge renewed for a resume window; one renewed after it closed is opened again (a new epoch).',
        messages: { leaseRequests: ref('#/components/messages/leaseRequests') },
      },
      leaseAsk: {
        address: LEASE_ASK_SUBJECT,
        title: 'Renew now',
        description:
          'An ingest started (it holds no lease): every edge renews its leases at once, so the streams its clients hold reopen (a new epoch, reaching them as a snapshot). Empty body.',
        messages: { leaseAsk: ref('#/components/messages/leaseAsk') },
      },
      leaseClosed: {
        address: LEASE_CLOSED_SUBJECT,
        title: 'Leased stream closed',
        description: 'The ingest closed a leased stream: edges drop what they hold of that epoch.',
        messages: { leaseClosed: ref('#/components/messages/leaseClosed') },
      },
    },
    operations: {
      publishFrames: {
        action: 'send',
        channel: ref('#/channels/md'),
        summary: 'The ingest publishes every frame of the streams it holds open.',
        messages: [ref('#/channels/md/messages/frame')],
      },
      publishFeed: {
        action: 'send',
        channel: ref('#/channels/feed'),
        summary: 'The ingest publishes each applied batch.',
        messages: [ref('#/channels/feed/messages/feedMessage')],
      },
      requestSnapshot: {
        action: 'send',
        channel: ref('#/channels/feedSnapshot'),
        summary: 'An edge asks for books (at start, for new instruments, after a gap or a broker outage).',
        messages: [ref('#/channels/feedSnapshot/messages/snapshotRequest')],
        reply: { messages: [ref('#/channels/feedSnapshot/messages/snapshotReply')] },
      },
      openLeases: {
        action: 'send',
        channel: ref('#/channels/leaseOpen'),
        summary: 'An edge asks the ingest to open leased streams.',
        messages: [ref('#/channels/leaseOpen/messages/leaseRequests')],
        reply: { messages: [ref('#/channels/leaseOpen/messages/leaseAnswers')] },
      },
      renewLeases: {
        action: 'send',
        channel: ref('#/channels/leaseRenew'),
        summary: 'An edge renews the leases its clients hold.',
        messages: [ref('#/channels/leaseRenew/messages/leaseRequests')],
      },
      askLeases: {
        action: 'send',
        channel: ref('#/channels/leaseAsk'),
        summary: 'A starting ingest asks the edges to renew their leases now.',
        messages: [ref('#/channels/leaseAsk/messages/leaseAsk')],
      },
      announceLeaseClosed: {
        action: 'send',
        channel: ref('#/channels/leaseClosed'),
        summary: 'The ingest announces a leased stream it closed.',
        messages: [ref('#/channels/leaseClosed/messages/leaseClosed')],
      },
      announceCatalog: {
        action: 'send',
        channel: ref('#/channels/catalog'),
        summary: 'The ingest announces a new catalog version.',
        messages: [ref('#/channels/catalog/messages/catalogAnnouncement')],
      },
    },
    components: {
      schemas: {
        Level,
        QuotePayload,
        SpreadRecord,
        VenueState,
        VenuePayload,
        MarkerPayload,
        Frame: mdFrame,
        FeedEvent,
        FeedMessage,
        SnapshotReply,
        SnapshotRequest,
        CatalogAnnouncement,
        BookPayload,
        TopPayload,
        AlertFiring,
        LeaseRequests,
        LeaseAnswers,
        LeaseClosed,
      },
      messages: {
        frame: message('frame', 'A stream frame, as clients receive it.', schemaRef('Frame')),
        feedMessage: message('feedMessage', 'Applied feed events.', schemaRef('FeedMessage')),
        snapshotRequest: message('snapshotRequest', 'Which books to send.', schemaRef('SnapshotRequest')),
        snapshotReply: message('snapshotReply', 'Books, as batches of feed events.', schemaRef('SnapshotReply')),
        catalogAnnouncement: message('catalogAnnouncement', 'A new catalog version.', schemaRef('CatalogAnnouncement')),
        leaseRequests: message('leaseRequests', 'Streams to open or renew.', schemaRef('LeaseRequests')),
        leaseAnswers: message('leaseAnswers', 'What was opened, or refused.', schemaRef('LeaseAnswers')),
        leaseClosed: message('leaseClosed', 'A leased stream closed.', schemaRef('LeaseClosed')),
        leaseAsk: message('leaseAsk', 'Renew every lease now.', { type: 'string', maxLength: 0 }),
      },
    },
  }
}
