import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { RESUME_WINDOW_MS } from '../../src/stream/sequencer.js'
import { NatsServer } from '../helpers/nats-server.js'
import { waitFor } from '../helpers/wait.js'
import type { Frame } from '../stream/sources/market/fake-venue.js'
import { FakeVenue, level, snapshot } from '../stream/sources/market/fake-venue.js'
import { commandId, dataFrames, subscribe, TestEdge, TestIngest, type BusWorld } from './harness.js'

/**
 * The leased channels over a real nats-server (`book` here; `spreads.top` and `alerts` go the same way): an ingest
 * opens a book stream only when an edge leases it, numbers it, and every edge serves it with those numbers, so a
 * client moved from one edge to another resumes; nobody holding it, the ingest closes it a window later.
 */
let nats: NatsServer
let world: BusWorld
const clock = new SimulatedClock(Date.now())
const venue = new FakeVenue(clock, ['a', 'b'])
const actor = new VenueActor({ adapter: venue.adapter, clock, log: silentLogger, catalogRefreshMs: 3_600_000 })
const closers: (() => Promise<void>)[] = []

before(async () => {
  nats = await NatsServer.start()
  world = { natsUrl: nats.url, clock, actor }
  actor.start()
  await waitFor(() => actor.catalog() !== undefined)
})
after(async () => {
  for (const close of closers.reverse()) await close()
  actor.stop()
  await nats.close()
})

async function startIngest(): Promise<TestIngest> {
  const ingest = await TestIngest.start(world)
  closers.push(() => ingest.stop())
  return ingest
}

async function startEdge(name: string, url = nats.url): Promise<TestEdge> {
  const edge = await TestEdge.start(world, name, url)
  closers.push(() => edge.close())
  return edge
}

const KEY = 'venuep:a'
const TOPIC = `book|${KEY}|10`

let ingest: TestIngest
let edgeA: TestEdge
let edgeB: TestEdge

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
  const fromA = await dataFrames(onA, KEY, 2)
  const fromB = await dataFrames(onB, KEY, 2)
  assert.deepEqual(fromA, fromB, 'byte for byte')
  assert.deepEqual(
    fromA.map((f) => JSON.parse(f) as Frame).map((f) => [f.type, f.seq, f.d.bids]),
    [
      ['delta', 1, [['0.4200', '3.00']]],
      ['delta', 2, [['0.4000', '0']]],
    ],
  )

  // A key the edge does not know is refused in the words of one process; nothing is asked of the ingest.
  const bad = await onB.command({ op: 'subscribe', id: commandId(), ch: 'book', keys: ['venuep:zzz'] })
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
  const watcher = edgeA
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
  const ack = await c.command({ op: 'subscribe', id: commandId(), ch: 'book', keys: [KEY] })
  assert.deepEqual(ack.accepted, [])
  assert.deepEqual(ack.rejected, [{ key: KEY, code: 'UNKNOWN_KEY', reason: 'the ingest cannot be reached: try again' }])
  assert.equal(edge.leases.failures, 1)
  const ping = commandId()
  assert.deepEqual(await c.command({ op: 'ping', id: ping }), { type: 'pong', id: ping })
})
