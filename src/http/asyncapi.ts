import { BOOK_DEPTHS, CHANNELS, CLOSE, ERROR_CODES, type Channel, type StreamErrorCode } from '../stream/protocol.js'
import {
  nullableNumber,
  Level,
  QuotePayload,
  BookPayload,
  SpreadRecord,
  TopPayload,
  AlertFiring,
  VenueState,
  VenuePayload,
  CHANNEL_DOC,
  MarkerPayload,
  schemaRef,
  type Json,
} from './asyncapi-payloads.js'

/**
 * The AsyncAPI 3.0 description of `GET /api/v2/stream`, served at `/api/v2/asyncapi.json` beside the OpenAPI
 * document. Every name that has a constant in src/stream/protocol.ts (channels, book depths, error codes, close
 * codes) is taken from it, and each channel's frames are generated from `CHANNELS` through a payload table typed
 * `Record<Channel, …>`, so adding a channel without documenting it does not compile.
 *
 * Plain JSON (no TypeBox): AsyncAPI's schema objects are JSON Schema draft-07, and this document is data that a
 * test validates against the AsyncAPI 3.0.0 JSON Schema.
 */
const ref = (path: string): Json => ({ $ref: path })

/** Why each close code is sent and whether a client may reconnect after it (the contract's list). */
const CLOSE_MEANING: Readonly<Record<keyof typeof CLOSE, { readonly reconnect: boolean; readonly when: string }>> = {
  goingAway: {
    reconnect: true,
    when: 'Server restart, shutdown or the connection reached its maximum lifetime; a `bye {reconnect_after_ms}` comes first.',
  },
  slowConsumer: {
    reconnect: true,
    when: 'The socket kept lagging (repeated re-snapshots, or lagging too long); resume from the last seq held.',
  },
  rateLimited: {
    reconnect: true,
    when: 'Too many commands, persistently, or more connections than `connections_per_key`; back off before reconnecting.',
  },
  badRequest: { reconnect: false, when: 'A frame over `max_frame_bytes` (after a `BAD_REQUEST` error).' },
  authFailed: {
    reconnect: false,
    when: 'Missing, bad or revoked API key, or no `auth` frame within 5 s (an `AUTH_FAILED` error may precede it).',
  },
  forbidden: { reconnect: false, when: 'The key may not use the stream.' },
}

const ERROR_MEANING: Readonly<Record<StreamErrorCode, string>> = {
  AUTH_FAILED: 'The API key is missing, unknown or revoked (the connection is then closed with 4401).',
  UNKNOWN_CHANNEL: 'No channel of that name.',
  UNKNOWN_KEY: 'A key the channel does not know (per key, in `rejected`).',
  BAD_REQUEST: 'A malformed command or bad field (e.g. `depth` outside 10/25/100 or on another channel).',
  RATE_LIMITED: 'Over `commands_per_second`, or `snapshot` asked too often for a key.',
  SUBSCRIPTION_LIMIT: 'Over `keys_per_connection`.',
  CONNECTION_LIMIT: 'Over `connections_per_key` (the connection is then closed with 4029).',
  RESUME_EXPIRED: 'A resume token outside the window (a snapshot is sent instead).',
  SLOW_CONSUMER: 'The socket lagged behind; it is sent fresh snapshots (or closed with 4008).',
}

function closeCodesText(): string {
  return (Object.keys(CLOSE) as (keyof typeof CLOSE)[])
    .map((name) => {
      const m = CLOSE_MEANING[name]
      return `- \`${CLOSE[name]}\` (${m.reconnect ? 'reconnect allowed' : 'terminal: do not reconnect'}): ${m.when}`
    })
    .join('\n')
}

function errorCodesText(): string {
  return ERROR_CODES.map((c) => `- \`${c}\`: ${ERROR_MEANING[c]}`).join('\n')
}

const PROTOCOL_SUMMARY = `One WebSocket, text JSON, one object per frame. Subscribe to streams (a channel and a key); each stream
starts with a \`snapshot\` and continues with \`delta\` frames and in-stream \`marker\` frames.

**Sequence numbers.** A stream's \`seq\` grows by exactly 1 per delta or marker; a snapshot carries the seq of the last
change it includes and does not consume one (it may repeat the last seq, or jump ahead after dropped frames). A delta
that is not the last seq + 1 means frames were lost: ask for a \`snapshot\` of that key. \`epoch\` changes when
continuity cannot be promised (e.g. a restart): a token from another epoch gets a snapshot.

**Resume.** After a reconnect, \`subscribe\` with \`resume: {"<key>": {epoch, seq}}\` (the last seq held). Inside the window
(the last 1,024 frames or 120 s of the stream) the missed frames are replayed with their original seq and the ack says
\`recovered: true\` (true only if every stream recovered); otherwise a snapshot is sent.

**Books.** Levels are \`[price, size]\` decimal strings with absolute sizes; size \`"0"\` removes the level. Every book
frame has \`crc\`: CRC-32 (zlib) of the top 10 asks ascending then the top 10 bids descending, each level \`price:size\` as
sent, levels joined with \`,\`, the two sides separated by \`|\`. On a mismatch, ask for a snapshot.

**spreads.top.** Keyed by its view as a query string (\`limit=20&min_spread=0.02\`): \`/spreads/top\`'s parameters
(\`limit\`, \`window\`, \`sort\`, \`executable_only\`, \`min_net_edge\`), the scanner's filters (\`min_spread\`, \`min_volume\`,
\`platforms\`) and the view's own \`category\` (the record's \`category\`) and \`search\` (words that must all occur in the
event or outcome title, case-insensitive); an unknown name is an error. Payload \`{upsert: [{rank, id, record}],
remove: [id], crc}\`, ranks absolute and 1-based, \`crc\` = CRC-32 of the ordered ids joined by \`,\`; a snapshot is the whole list
as \`upsert\`.

**Continuity markers.** When a venue feed drops, stalls or shows a gap, every affected stream gets a \`venue_disconnect\`
marker (its data is stale); when it is good again, a \`resync\` marker then a snapshot. \`snapshots_done\` ends the initial
burst of a subscribe (a marker of the subscription: no key, no seq).

**Heartbeats.** \`hb\` every second with \`n\` contiguous and each venue's feed state and data age. No \`hb\` for 3 s: reconnect.

**Close codes.**
${closeCodesText()}

**Error codes** (\`error\` frames and per-key rejections):
${errorCodesText()}`

/** The envelope of data and marker frames on channel `ch`, with payload `d`. */
function envelope(type: 'snapshot' | 'delta' | 'marker', ch: Channel, d: Json): Json {
  return {
    type: 'object',
    properties: {
      type: { const: type },
      ch: { const: ch },
      key: { type: 'string', description: CHANNEL_DOC[ch].key },
      epoch: { type: 'string', description: 'Stream generation: changes when continuity cannot be promised.' },
      seq: {
        type: 'integer',
        minimum: 0,
        description:
          type === 'snapshot'
            ? 'The seq of the last change included (not consumed).'
            : 'Exactly the previous seq of the stream + 1.',
      },
      ts: { type: 'number', description: 'Venue time (ms); our time for derived state (spreads).' },
      lts: {
        type: 'number',
        description:
          'When we received what the frame reflects (ms since the epoch; whole ms, or with microseconds when the operator sets STREAM_PRECISE_TIMES).',
      },
      pts: {
        type: 'number',
        description: 'When the frame was published (ms since the epoch; precision as `lts`).',
      },
      d,
    },
    required: ['type', 'ch', 'key', 'epoch', 'seq', 'ts', 'lts', 'pts', 'd'],
  }
}

const CommandId: Json = {
  type: ['integer', 'string'],
  description: 'Chosen by the client; echoed by the `ack`, `error` or `pong` that answers the command.',
}
const ErrorCode: Json = { type: 'string', enum: [...ERROR_CODES], description: 'Stable error codes.' }

const Rejection: Json = {
  type: 'object',
  properties: { key: { type: 'string' }, code: ErrorCode, reason: { type: 'string' } },
  required: ['key', 'code', 'reason'],
}

const ResumeTokens: Json = {
  type: 'object',
  description: 'Per key, the last `(epoch, seq)` the client holds.',
  additionalProperties: {
    type: 'object',
    properties: { epoch: { type: 'string' }, seq: { type: 'integer', minimum: 0 } },
    required: ['epoch', 'seq'],
  },
}

const channelName: Json = { type: 'string', enum: [...CHANNELS] }
const keyList: Json = { type: 'array', items: { type: 'string' }, minItems: 1 }

function command(op: string, properties: Json, required: string[], description: string): Json {
  return {
    name: op,
    title: `${op} (client → server)`,
    summary: description,
    payload: {
      type: 'object',
      properties: { op: { const: op }, id: CommandId, ...properties },
      required: ['op', ...required],
    },
  }
}

const COMMANDS: Readonly<Record<string, Json>> = {
  authCommand: command(
    'auth',
    { key: { type: 'string', description: 'The API key.' } },
    ['key'],
    'Browsers: authenticate with the first frame, within 5 s of the upgrade (else close 4401). Answered by an `ack` with its `id`, then `welcome`.',
  ),
  subscribeCommand: command(
    'subscribe',
    {
      ch: channelName,
      keys: keyList,
      depth: { type: 'integer', enum: [...BOOK_DEPTHS], description: 'Books only.' },
      resume: ResumeTokens,
    },
    ['ch', 'keys'],
    'Subscribe to keys of a channel; unknown keys are rejected at once, per key. Snapshots (or replays when resuming) follow, then `snapshots_done`.',
  ),
  updateCommand: command(
    'update',
    {
      sid: { type: 'string' },
      add: { type: 'array', items: { type: 'string' } },
      remove: { type: 'array', items: { type: 'string' } },
    },
    ['sid'],
    'Add keys to or remove keys from a subscription.',
  ),
  snapshotCommand: command(
    'snapshot',
    { ch: channelName, keys: keyList },
    ['ch', 'keys'],
    "Re-send the keys' state as snapshots (after a gap or a checksum mismatch); rate-limited per key.",
  ),
  unsubscribeCommand: command(
    'unsubscribe',
    { sid: { type: 'string' } },
    ['sid'],
    'End a subscription: its ack carries `last_seq` per stream, and no frame of the subscription follows the ack.',
  ),
  listCommand: command('list', {}, [], "List the connection's subscriptions."),
  pingCommand: command('ping', {}, [], 'Answered by `pong` with the same `id`.'),
}

function serverMessage(name: string, summary: string, payload: Json): Json {
  return { name, title: `${name} (server → client)`, summary, payload }
}

const CONTROL_MESSAGES: Readonly<Record<string, Json>> = {
  welcome: serverMessage('welcome', 'Sent after a successful authentication: the limits in force.', {
    type: 'object',
    properties: { type: { const: 'welcome' }, limits: schemaRef('Limits') },
    required: ['type', 'limits'],
  }),
  ack: serverMessage('ack', 'Answers a command by its `id`.', {
    type: 'object',
    properties: {
      type: { const: 'ack' },
      id: { ...CommandId, type: ['integer', 'string', 'null'] },
      sid: { type: 'string', description: 'The subscription (subscribe, update, unsubscribe).' },
      accepted: { type: 'array', items: { type: 'string' } },
      rejected: { type: 'array', items: schemaRef('Rejection') },
      recovered: { type: 'boolean', description: 'Subscribe with `resume`: true only if every stream was replayed.' },
      last_seq: {
        type: 'object',
        additionalProperties: { type: 'integer' },
        description: 'Unsubscribe: the last seq per stream.',
      },
      subscriptions: {
        type: 'array',
        description: 'List: the subscriptions of the connection.',
        items: {
          type: 'object',
          properties: {
            sid: { type: 'string' },
            ch: channelName,
            depth: { type: 'integer' },
            keys: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
    required: ['type', 'id'],
  }),
  error: serverMessage('error', 'A refused command (with its `id`) or a connection-level problem (`id` null).', {
    type: 'object',
    properties: {
      type: { const: 'error' },
      id: { ...CommandId, type: ['integer', 'string', 'null'] },
      code: ErrorCode,
      message: { type: 'string' },
    },
    required: ['type', 'id', 'code', 'message'],
  }),
  pong: serverMessage('pong', 'Answers `ping`.', {
    type: 'object',
    properties: { type: { const: 'pong' }, id: { ...CommandId, type: ['integer', 'string', 'null'] } },
    required: ['type', 'id'],
  }),
  hb: serverMessage('hb', "Every second to every socket: proves the socket and each venue feed's data age.", {
    type: 'object',
    properties: {
      type: { const: 'hb' },
      n: { type: 'integer', description: 'Contiguous per connection.' },
      ts: { type: 'number' },
      venues: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: { state: VenueState, age_ms: nullableNumber("Time since the feed's last frame.") },
          required: ['state', 'age_ms'],
        },
      },
    },
    required: ['type', 'n', 'ts', 'venues'],
  }),
  bye: serverMessage('bye', 'The server is about to close with 1001: reconnect after `reconnect_after_ms`.', {
    type: 'object',
    properties: { type: { const: 'bye' }, reconnect_after_ms: { type: 'integer', minimum: 0 } },
    required: ['type', 'reconnect_after_ms'],
  }),
  snapshotsDone: serverMessage(
    'snapshotsDone',
    'Ends the initial burst of a subscribe: a marker of the subscription, exempt from the seq rule.',
    {
      type: 'object',
      properties: {
        type: { const: 'marker' },
        ch: channelName,
        key: { type: 'null' },
        seq: { type: 'null' },
        sid: { type: 'string' },
        d: { type: 'object', properties: { ev: { const: 'snapshots_done' } }, required: ['ev'] },
      },
      required: ['type', 'ch', 'key', 'seq', 'sid', 'd'],
    },
  ),
}

/** `spreads.top` → `spreadsTop`: message names are identifiers. */
function channelId(ch: Channel): string {
  return ch.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())
}

function dataMessages(): Record<string, Json> {
  const out: Record<string, Json> = {}
  for (const ch of CHANNELS) {
    const doc = CHANNEL_DOC[ch]
    const id = channelId(ch)
    const payload = schemaRef(doc.payload)
    out[`${id}Snapshot`] = serverMessage(
      `${id}Snapshot`,
      `${doc.about} Snapshot: replaces the state.`,
      envelope('snapshot', ch, payload),
    )
    out[`${id}Delta`] = serverMessage(`${id}Delta`, `${doc.about} Delta.`, envelope('delta', ch, payload))
    out[`${id}Marker`] = serverMessage(
      `${id}Marker`,
      'Continuity marker, in-stream and seq-bearing.',
      envelope('marker', ch, schemaRef('MarkerPayload')),
    )
  }
  return out
}

export function buildAsyncApi(): Json {
  const data = dataMessages()
  const receive = { ...CONTROL_MESSAGES, ...data }
  const messages = { ...COMMANDS, ...receive }
  const channelMessages = Object.fromEntries(Object.keys(messages).map((m) => [m, ref(`#/components/messages/${m}`)]))
  const opMessages = (names: string[]) => names.map((m) => ref(`#/channels/stream/messages/${m}`))
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Prediction market data stream',
      version: '2.0.0',
      description: `Realtime quotes, order books, spreads, the top-spreads list, alerts and venue feed state over one WebSocket.\n\n${PROTOCOL_SUMMARY}`,
    },
    defaultContentType: 'application/json',
    servers: {
      this: {
        host: '{host}',
        protocol: 'ws',
        description: 'This deployment (use wss behind TLS).',
        variables: { host: { default: '127.0.0.1:8080', description: 'The host that served this document.' } },
        security: [ref('#/components/securitySchemes/apiKeyHeader'), ref('#/components/securitySchemes/apiKeyQuery')],
      },
    },
    channels: {
      stream: {
        address: '/api/v2/stream',
        title: 'The stream socket',
        description: `\`GET /api/v2/stream\` upgrades to a WebSocket. Channels (\`ch\`): ${CHANNELS.map((c) => `\`${c}\` (${CHANNEL_DOC[c].about} Key: ${CHANNEL_DOC[c].key})`).join('; ')}.\n\nClose codes:\n${closeCodesText()}`,
        messages: channelMessages,
      },
    },
    operations: {
      sendCommand: {
        action: 'send',
        channel: ref('#/channels/stream'),
        summary: 'Commands, each with an `id` that its answer echoes.',
        messages: opMessages(Object.keys(COMMANDS)),
      },
      receiveControl: {
        action: 'receive',
        channel: ref('#/channels/stream'),
        summary: 'Connection frames: welcome, answers to commands, heartbeats, bye.',
        messages: opMessages(Object.keys(CONTROL_MESSAGES)),
      },
      receiveData: {
        action: 'receive',
        channel: ref('#/channels/stream'),
        summary: 'Snapshots, deltas and markers of the subscribed streams.',
        messages: opMessages(Object.keys(data)),
      },
    },
    components: {
      schemas: {
        Level,
        QuotePayload,
        BookPayload,
        SpreadRecord,
        TopPayload,
        AlertFiring,
        VenuePayload,
        MarkerPayload,
        Rejection,
        ErrorCode,
        CloseCode: {
          type: 'integer',
          enum: Object.values(CLOSE),
          description: `WebSocket close codes the server uses:\n${closeCodesText()}`,
        },
        Limits: {
          type: 'object',
          properties: {
            connections_per_key: { type: 'integer' },
            keys_per_connection: { type: 'integer' },
            commands_per_second: { type: 'number' },
            max_lifetime_s: { type: 'integer' },
            max_frame_bytes: { type: 'integer', description: 'A larger frame gets `BAD_REQUEST` and close 4400.' },
          },
          required: [
            'connections_per_key',
            'keys_per_connection',
            'commands_per_second',
            'max_lifetime_s',
            'max_frame_bytes',
          ],
        },
      },
      messages,
      securitySchemes: {
        apiKeyHeader: {
          type: 'httpApiKey',
          name: 'X-API-Key',
          in: 'header',
          description: 'API key on the upgrade request (servers and Node clients).',
        },
        apiKeyQuery: {
          type: 'httpApiKey',
          name: 'api_key',
          in: 'query',
          description:
            'Browsers, which cannot set headers on a WebSocket: `?api_key=`. Or send the `auth` command as the first frame within 5 s. A bad or missing key is an accepted upgrade followed by close 4401.',
        },
      },
    },
  }
}
