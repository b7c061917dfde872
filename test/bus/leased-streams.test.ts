import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { Value } from '@sinclair/typebox/value'
import { jetstreamManager } from '@nats-io/jetstream'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { connectBus, type BusLink } from '../../src/bus/connection.js'
import {
  BusFrameSink,
  ensureMdStream,
  KEPT_CHANNELS,
  LeaseClient,
  MirroredSource,
  MirrorStreams,
  serveLeases,
  StreamKeeper,
} from '../../src/bus/stream/index.js'
import { StreamConfigSchema, type StreamConfig } from '../../src/config/schema.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { HttpServer } from '../../src/http/server.js'
import { RESUME_WINDOW_FRAMES, RESUME_WINDOW_MS, Sequencer } from '../../src/stream/sequencer.js'
import { StreamServer } from '../../src/stream/server/stream-server.js'
import { TopicPublisher } from '../../src/stream/server/topic-publisher.js'
import { marketSources } from '../../src/stream/sources/market/index.js'
import { NatsServer } from '../helpers/nats-server.js'
import { waitFor } from '../helpers/wait.js'
import { Client, type Frame as Reply } from '../stream/server/harness.js'
import type { Frame } from '../stream/sources/market/fake-venue.js'
import { FakeVenue, level, snapshot } from '../stream/sources/market/fake-venue.js'

/**
 * The leased channels over a real nats-server (`book` here; `spreads.top` and `alerts` go the same way): an ingest
 * opens a book stream only when an edge leases it, numbers it, and every edge serves it with those numbers, so a
 * client moved from one edge to another resumes; nobody holding it, the ingest closes it a window later.
 */
let nats: NatsServer
const clock = new SimulatedClock(Date.now())
const venue = new FakeVenue(clock, ['a', 'b'])
const actor = new VenueActor({ adapter: venue.adapter, clock, log: silentLogger, catalogRefreshMs: 3_600_000 })
const closers: (() => Promise<void>)[] = []

before(async () => {
  nats = await NatsServer.start()
  actor.start()
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => actor.catalog() !== undefined && (clearInterval(timer), resolve()), 5)
  })
})
after(async () => {
  for (const close of closers.reverse()) await close()
  actor.stop()
  await nats.close()
})

interface Ingest {
  readonly link: BusLink
  readonly sequencer: Sequencer
  readonly keeper: StreamKeeper
}

async function startIngest(): Promise<Ingest> {
  const link = await connectBus({ url: nats.url, name: 'ingest', log: silentLogger })
  await ensureMdStream(await jetstreamManager(link.nc), {
    windowMs: RESUME_WINDOW_MS,
    windowFrames: RESUME_WINDOW_FRAMES,
  })
  const sink = new BusFrameSink(link.nc)
  const sequencer = new Sequencer({ clock, sink })
  const sources = marketSources({ sequencer, venues: [actor], clock })
  const keeper = new StreamKeeper({ sequencer, sink, sources, venues: [actor], clock, log: silentLogger })
  keeper.start()
  const leases = serveLeases(link.nc, keeper, silentLogger)
  await link.nc.flush()
  closers.push(async () => {
    leases.stop()
    keeper.stop()
    await link.close()
  })
  return { link, sequencer, keeper }
}

interface Edge {
  readonly mirror: MirrorStreams
  readonly leases: LeaseClient
  connect(): Promise<Client>
  /** Terminates the clients so far and waits until the edge has let their streams go (its linger starts). */
  closeClients(): Promise<void>
}

/** An edge as ROLE=edge assembles it (src/roles/stream-role.ts): every channel from the mirror, books leased. */
async function startEdge(name: string, url = nats.url): Promise<Edge> {
  const link = await connectBus({ url, name, log: silentLogger })
  const http = new HttpServer({ log: silentLogger })
  const publisher = new TopicPublisher(http.app)
  let leases: LeaseClient | undefined
  const mirror = new MirrorStreams({
    nc: link.nc,
    sink: publisher,
    clock,
    log: silentLogger,
    onBroken: (topic) => leases?.repair(topic),
  })
  leases = new LeaseClient({ nc: link.nc, mirror, clock, log: silentLogger, windowMs: RESUME_WINDOW_MS })
  const l = leases
  // The edge's own sources only check keys (its replica actor is the shared one here).
  const local = marketSources({ sequencer: new Sequencer({ clock, sink: publisher }), venues: [actor], clock })
  const server = new StreamServer({
    app: http.app,
    publisher,
    sequencer: mirror,
    sources: local.map(
      (s) => new MirroredSource(s.ch, mirror, (k, p) => s.resolve(k, p), KEPT_CHANNELS.has(s.ch) ? undefined : l),
    ),
    clock,
    log: silentLogger,
    config: Value.Default(StreamConfigSchema, {}) as StreamConfig,
    authRequired: false,
    authenticate: () => Promise.resolve(undefined),
    venues: () => ({}),
  })
  http.notFound()
  await mirror.start()
  leases.start()
  const port = await http.listen('127.0.0.1', 0)
  const clients: Client[] = []
  closers.push(async () => {
    for (const c of clients) c.ws.terminate()
    server.close()
    http.close()
    l.stop()
    await mirror.stop()
    await link.close()
  })
  return {
    mirror,
    leases: l,
    connect: async () => {
      const c = new Client(new (await import('ws')).default(`ws://127.0.0.1:${port}/api/v2/stream`))
      clients.push(c)
      await c.nextOf('welcome')
      return c
    },
    closeClients: async () => {
      for (const c of clients.splice(0)) c.ws.terminate()
      await waitFor(() => server.stats.connections === 0, 5_000, 'sockets closed')
    },
  }
}

let nextId = 1
const KEY = 'venuep:a'
const TOPIC = `book|${KEY}|10`

/** Subscribes; the ack and the burst's raw frames (up to `snapshots_done`). */
async function subscribe(
  c: Client,
  ch: string,
  keys: string[],
  extra: Record<string, unknown> = {},
): Promise<{ ack: Reply; raw: string[] }> {
  const ack = await c.command({ op: 'subscribe', id: nextId++, ch, keys, ...extra })
  const raw: string[] = []
  for (;;) {
    const at = c.frames.length - c.unread.length
    const f = await c.next()
    if (f.type === 'marker' && (f.d as { ev?: string }).ev === 'snapshots_done') break
    raw.push(c.raw[at] as string)
  }
  return { ack, raw }
}

/** The next `n` data frames of `key` a client receives, raw. */
async function frames(c: Client, key: string, n: number): Promise<string[]> {
  const start = c.frames.length - c.unread.length
  await waitFor(() => c.frames.slice(start).filter((f) => f.key === key).length >= n, 10_000, `${n} frames`)
  const out: string[] = []
  for (let i = start; i < c.frames.length; i++) if (c.frames[i]?.key === key) out.push(c.raw[i] as string)
  await c.take(c.frames.length - start)
  return out
}

let ingest: Ingest
let edgeA: Edge
let edgeB: Edge

test('a book is opened at the ingest when an edge leases it; both edges send its frames with the same numbers', async () => {
  venue.emit(snapshot('a', [[0.4, 10]], [[0.45, 5]]))
  ingest = await startIngest()
  edgeA = await startEdge('edge-a')
  edgeB = await startEdge('edge-b')
  assert.equal(ingest.sequencer.get(TOPIC), undefined, 'no book stream before a client asks')

  const onA = await edgeA.connect()
  const a = await subscribe(onA, 'book', [KEY])
  assert.deepEqual(a.ack.accepted, [KEY])
  const log = ingest.sequencer.get(TOPIC)
  assert.ok(log !== undefined, 'the ingest opened the stream')
  const snap = JSON.parse(a.raw[0] as string) as Frame
  assert.deepEqual(
    [snap.type, snap.epoch, snap.seq, snap.d],
    ['snapshot', log.epoch, 0, { bids: [['0.4000', '10.00']], asks: [['0.4500', '5.00']], crc: snap.d.crc }],
  )

  // Edge B has the stream already (its mirror follows every md subject): no round trip, the same state.
  const onB = await edgeB.connect()
  const b = await subscribe(onB, 'book', [KEY])
  const snapB = JSON.parse(b.raw[0] as string) as Frame
  assert.deepEqual([snapB.epoch, snapB.seq, snapB.d], [snap.epoch, snap.seq, snap.d])

  venue.emit(level('a', 'bid', 0.42, 3, 960))
  venue.emit(level('a', 'bid', 0.4, 0, 970))
  const fromA = await frames(onA, KEY, 2)
  const fromB = await frames(onB, KEY, 2)
  assert.deepEqual(fromA, fromB, 'byte for byte')
  assert.deepEqual(
    fromA.map((f) => JSON.parse(f) as Frame).map((f) => [f.type, f.seq, f.d.bids]),
    [
      ['delta', 1, [['0.4200', '3.00']]],
      ['delta', 2, [['0.4000', '0']]],
    ],
  )

  // A key the edge does not know is refused in the words of one process; nothing is asked of the ingest.
  const bad = await onB.command({ op: 'subscribe', id: nextId++, ch: 'book', keys: ['venuep:zzz'] })
  assert.equal((bad.rejected as { code: string }[])[0]?.code, 'UNKNOWN_KEY')
  assert.equal(ingest.sequencer.get('book|venuep:zzz|10'), undefined)
})

test('a client moved from edge A to edge B resumes its book with exactly the frames it missed', async () => {
  const mover = await edgeA.connect()
  const first = await subscribe(mover, 'book', [KEY])
  const held = JSON.parse(first.raw[0] as string) as Frame
  mover.ws.terminate()
  venue.emit(level('a', 'ask', 0.44, 2, 980))
  venue.emit({ type: 'stale', instrumentIds: ['a'], reason: 'wss://x: closed (1006)' })
  venue.emit(snapshot('a', [[0.41, 7]], [[0.47, 8]], 990))
  const watcher = edgeA as Edge
  const missedAt = ingest.sequencer.get(TOPIC)?.seq ?? 0
  await waitFor(
    () => (JSON.parse(watcher.mirror.snapshot(TOPIC) ?? '{}') as Frame).seq === missedAt,
    10_000,
    'edge A has the frames',
  )
  await waitFor(() => (JSON.parse(edgeB.mirror.snapshot(TOPIC) ?? '{}') as Frame).seq === missedAt)

  const onB = await edgeB.connect()
  const resumed = await subscribe(onB, 'book', [KEY], { resume: { [KEY]: { epoch: held.epoch, seq: held.seq } } })
  assert.equal(resumed.ack.recovered, true)
  const kinds = resumed.raw.map((f) => JSON.parse(f) as Frame).map((f) => [f.type, f.seq])
  // delta (the ask), venue_disconnect, resync; the resync's snapshot is the current book.
  assert.deepEqual(kinds, [
    ['delta', held.seq + 1],
    ['marker', held.seq + 2],
    ['marker', held.seq + 3],
    ['snapshot', held.seq + 3],
  ])
  const last = JSON.parse(resumed.raw.at(-1) as string) as Frame
  assert.deepEqual([last.d.bids, last.d.asks], [[['0.4100', '7.00']], [['0.4700', '8.00']]])
})

test('a book nobody holds any more is closed at the ingest a resume window after the last renewal', async () => {
  const expired = ingest.keeper.leasesExpired
  // Every client leaves; each edge's fan-out keeps the stream a window, then its leases stop being renewed.
  for (const e of [edgeA, edgeB]) await e.closeClients()
  let steps = 0
  while (ingest.sequencer.get(TOPIC) !== undefined && steps++ < 16) {
    clock.increment(RESUME_WINDOW_MS / 4)
    await new Promise((r) => setTimeout(r, 20)) // renewals (or none) cross the broker
  }
  assert.equal(ingest.sequencer.get(TOPIC), undefined, 'closed')
  assert.ok(steps >= 8, `not before the edges' window and the ingest's have passed (${steps} quarter windows)`)
  assert.equal(ingest.keeper.leasesExpired, expired + 1)
  assert.equal(edgeA.leases.size, 0)
  assert.equal(edgeB.leases.size, 0)

  // Asked for again, it opens anew: a new epoch, reaching the client as a snapshot.
  const c = await edgeB.connect()
  const again = await subscribe(c, 'book', [KEY])
  const snap = JSON.parse(again.raw[0] as string) as Frame
  assert.equal(snap.epoch, ingest.sequencer.get(TOPIC)?.epoch)
})

test('commands sent while a subscription waits for the ingest run after it, in order', async () => {
  const c = await edgeA.connect()
  const key = 'venuep:b'
  assert.equal(edgeA.mirror.has(`book|${key}|25`), false, 'not leased yet: the subscribe waits for the ingest')
  c.ws.send(JSON.stringify({ op: 'subscribe', id: 'sub', ch: 'book', keys: [key], depth: 25 }))
  c.ws.send(JSON.stringify({ op: 'list', id: 'list' }))
  const sub = await c.nextOf('ack')
  const list = await c.nextOf('ack')
  assert.deepEqual([sub.id, sub.accepted], ['sub', [key]])
  assert.deepEqual(list, {
    type: 'ack',
    id: 'list',
    subscriptions: [{ sid: sub.sid, ch: 'book', depth: 25, keys: [key] }],
  })
  assert.equal(ingest.sequencer.get(`book|${key}|25`)?.id.topic, `book|${key}|25`)
})

test('an edge whose ingest does not answer refuses the key, saying to try again; the connection goes on', async () => {
  const lonely = await NatsServer.start()
  closers.push(() => lonely.close())
  const edge = await startEdge('edge-alone', lonely.url)
  const c = await edge.connect()
  const ack = await c.command({ op: 'subscribe', id: nextId++, ch: 'book', keys: [KEY] })
  assert.deepEqual(ack.accepted, [])
  assert.deepEqual(ack.rejected, [{ key: KEY, code: 'UNKNOWN_KEY', reason: 'the ingest cannot be reached: try again' }])
  assert.equal(edge.leases.failures, 1)
  assert.deepEqual(await c.command({ op: 'ping', id: nextId++ }), { type: 'pong', id: nextId - 1 })
})
