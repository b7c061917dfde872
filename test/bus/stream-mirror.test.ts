import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { jetstreamManager } from '@nats-io/jetstream'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { RESUME_WINDOW_MS } from '../../src/stream/sequencer.js'
import { NatsServer } from '../helpers/nats-server.js'
import { settle, waitFor } from '../helpers/wait.js'
import type { Client, Frame } from '../stream/server/harness.js'
import { FakeVenue, level, snapshot } from '../stream/sources/market/fake-venue.js'
import { commandId, dataFrames, subscribe, TestEdge, TestIngest, type BusWorld } from './harness.js'

/**
 * `/api/v2/stream` split over a real nats-server (test/bus/harness.ts): an ingest (a venue actor on a fake feed, the
 * real sequencer and market sources, opened by the StreamKeeper when an edge leases a quote, published by the
 * BusFrameSink) and edges (MirrorStreams and LeaseClient under a real StreamServer each, on its own uWS app). Both
 * edges send the same frames with the same numbers, a token read on one resumes on the other, an edge started late
 * serves the state from the JetStream window, and an ingest restart reaches clients as a snapshot of a new epoch.
 */
let nats: NatsServer
let world: BusWorld
const clock = new SimulatedClock(Date.now())
const venue = new FakeVenue(clock, ['a', 'b'])
const actor = new VenueActor({ adapter: venue.adapter, clock, log: silentLogger, catalogRefreshMs: 3_600_000 })
const edges: TestEdge[] = []

before(async () => {
  nats = await NatsServer.start()
  world = { natsUrl: nats.url, clock, actor }
  actor.start()
  await waitFor(() => actor.catalog() !== undefined)
})
after(async () => {
  for (const e of edges) await e.close()
  actor.stop()
  await nats.close()
})

async function startEdge(name: string): Promise<TestEdge> {
  const edge = await TestEdge.start(world, name)
  edges.push(edge)
  return edge
}

const KEY = 'venuep:a'

function quote(bid: number, ask: number, bidSize: number, askSize: number): Record<string, unknown> {
  return {
    best_bid: bid,
    best_ask: ask,
    bid_size: bidSize,
    ask_size: askSize,
    probability: Math.round(((bid + ask) / 2) * 1e6) / 1e6,
    stale: false,
  }
}

let ingest: TestIngest
let edgeA: TestEdge
let edgeB: TestEdge
/** What a client that stayed subscribed on edge A received (every data frame of KEY, raw). */
let watched: string[] = []

test('two edges send the same frames of a stream with the same (epoch, seq)', async () => {
  venue.emit(snapshot('a', [[0.4, 10]], [[0.45, 5]]))
  ingest = await TestIngest.start(world)
  edgeA = await startEdge('edge-a')
  edgeB = await startEdge('edge-b')
  const epoch = ingest.sequencer.open({ ch: 'quote', key: KEY, topic: `quote|${KEY}` }).epoch

  const onA = await edgeA.connect()
  const onB = await edgeB.connect()
  const a = await subscribe(onA, 'quote', [KEY])
  const b = await subscribe(onB, 'quote', [KEY])
  for (const s of [a, b]) {
    assert.deepEqual(s.ack, {
      type: 'ack',
      id: s.ack.id,
      sid: s.ack.sid,
      accepted: [KEY],
      rejected: [],
      recovered: false,
    })
    assert.equal(s.burst.length, 1)
    const { pts: _pts, ...snap } = s.burst[0] as Frame
    assert.deepEqual(snap, {
      type: 'snapshot',
      ch: 'quote',
      key: KEY,
      epoch,
      seq: 0,
      ts: 900,
      lts: clock.now(),
      d: quote(0.4, 0.45, 10, 5),
    })
  }

  venue.emit(level('a', 'bid', 0.42, 3, 960))
  venue.emit(level('a', 'ask', 0.44, 2, 970))
  venue.emit(level('b', 'bid', 0.1, 1)) // another stream, not subscribed here
  const fromA = await dataFrames(onA, KEY, 2)
  const fromB = await dataFrames(onB, KEY, 2)
  assert.deepEqual(fromA, fromB, 'byte for byte the same frames')
  assert.deepEqual(
    fromA.map((f) => JSON.parse(f) as Frame).map((f) => [f.type, f.epoch, f.seq, f.ts, f.d]),
    [
      ['delta', epoch, 1, 960, quote(0.42, 0.45, 3, 5)],
      ['delta', epoch, 2, 970, quote(0.42, 0.44, 3, 2)],
    ],
  )
  watched = fromA

  // The venue stream is mirrored too, and an unknown key is rejected at once.
  const v = await subscribe(onB, 'venue', ['venuep'])
  assert.deepEqual(v.ack.accepted, ['venuep'])
  assert.equal((v.burst[0] as Frame).epoch, ingest.sequencer.get('venue|venuep')?.epoch)
  const bad = await onB.command({ op: 'subscribe', id: commandId(), ch: 'quote', keys: ['venuep:zzz'] })
  assert.deepEqual(bad.rejected, [
    {
      key: 'venuep:zzz',
      code: 'UNKNOWN_KEY',
      reason: 'venuep has no instrument zzz: it is not among its streamed books',
    },
  ])
})

test('a client that read up to seq N on edge A resumes on edge B with exactly the missed frames', async () => {
  const watcher = edgeA.clients[0] as Client
  const mover = await edgeA.connect()
  const first = await subscribe(mover, 'quote', [KEY])
  const held = first.burst[0] as Frame
  assert.equal(held.seq, 2)
  mover.ws.terminate() // edge A's client is gone (as if edge A were killed)

  venue.emit(level('a', 'bid', 0.43, 4, 980))
  venue.emit(level('a', 'bid', 0.43, 6, 990))
  venue.emit({ type: 'stale', instrumentIds: ['a'], reason: 'wss://x: closed (1006)' })
  const missed = await dataFrames(watcher, KEY, 4)
  assert.deepEqual(
    missed.map((f) => JSON.parse(f) as Frame).map((f) => [f.type, f.seq]),
    [
      ['delta', 3],
      ['delta', 4],
      ['marker', 5],
      ['delta', 6],
    ],
  )
  watched.push(...missed)
  // Edge B has them too (its mirror is live) before the client arrives there.
  await waitFor(() => (JSON.parse(edgeB.mirror.snapshot(`quote|${KEY}`) ?? '{}') as Frame).seq === 6)

  const onB = await edgeB.connect()
  const resumed = await subscribe(onB, 'quote', [KEY], { resume: { [KEY]: { epoch: held.epoch as string, seq: 2 } } })
  assert.equal(resumed.ack.recovered, true)
  assert.deepEqual(resumed.raw, missed, 'exactly the missed frames, byte for byte, no snapshot')
})

test('an edge started after the frames flowed serves the current state from the JetStream window, and resumes', async () => {
  const late = await startEdge('edge-late')
  const c = await late.connect()
  const s = await subscribe(c, 'quote', [KEY])
  const last = JSON.parse(watched.at(-1) as string) as Frame
  const { pts: _pts, ...snap } = s.burst[0] as Frame
  assert.deepEqual(snap, {
    type: 'snapshot',
    ch: 'quote',
    key: KEY,
    epoch: last.epoch,
    seq: 6,
    ts: last.ts,
    lts: last.lts,
    d: { ...quote(0.43, 0.44, 6, 2), stale: true },
  })
  // The window it read back is replayable as well.
  const c2 = await late.connect()
  const resumed = await subscribe(c2, 'quote', [KEY], { resume: { [KEY]: { epoch: last.epoch as string, seq: 1 } } })
  assert.equal(resumed.ack.recovered, true)
  assert.deepEqual(resumed.raw, watched.slice(1))
})

test('after half a window with no full state the ingest publishes keyframes; edges keep them from clients', async () => {
  const watcher = edgeA.clients[0] as Client
  const before = ingest.keeper.keyframes
  clock.increment(RESUME_WINDOW_MS / 2 + RESUME_WINDOW_MS / 4)
  assert.ok(ingest.keeper.keyframes > before)
  await ingest.link.nc.flush()
  const jsm = await jetstreamManager(ingest.link.nc)
  const last = await jsm.streams.getMessage('MD', { last_by_subj: 'md.quote.venuep.venuep:a' })
  const keyframe = JSON.parse(last?.string() ?? '{}') as Frame
  assert.deepEqual([keyframe.type, keyframe.seq], ['snapshot', 6])
  assert.deepEqual(keyframe.d, { ...quote(0.43, 0.44, 6, 2), stale: true })
  // The edge has it (it read past it) and forwarded nothing: the client holds that state already.
  const sub = await edgeA.connect()
  await subscribe(sub, 'quote', [KEY]) // a command round trip on edge A, after the keyframe reached the broker
  await waitFor(() => (JSON.parse(edgeA.mirror.snapshot(`quote|${KEY}`) ?? '{}') as Frame).seq === 6)
  assert.deepEqual(
    watcher.unread.filter((f) => f.key === KEY),
    [],
  )
})

test('through a broker restart no frame is lost: clients get every frame in order, and a token from before resumes', async () => {
  const watcher = edgeA.clients[0] as Client
  await settle()
  await watcher.take(watcher.unread.length)
  const from = watcher.frames.length
  await nats.stop()
  await waitFor(() => !ingest.link.up, 10_000, 'the ingest sees the broker down')
  venue.emit(snapshot('a', [[0.41, 7]], [[0.47, 8]], 995)) // the book is back: resync, snapshot, the live quote
  await nats.restart()
  venue.emit(level('a', 'bid', 0.42, 7, 997)) // the broker is up, the ingest not yet reconnected
  await waitFor(() => ingest.link.up, 10_000, 'the ingest reconnected')
  venue.emit(level('a', 'ask', 0.46, 9, 998)) // reconnected, JetStream perhaps still recovering
  const last = ingest.sequencer.get(`quote|${KEY}`)?.seq as number
  assert.equal(last, 10)
  await waitFor(() => watcher.frames.slice(from).some((f) => f.key === KEY && f.seq === last), 15_000, `seq ${last}`)
  await settle()
  // Every frame the ingest numbered, in order: a delta or marker continues the stream, a snapshot only follows the
  // resync marker that promised it (at its seq). No snapshot jumping ahead.
  const frames = watcher.frames.slice(from).filter((f) => f.key === KEY)
  let seq = 6
  for (const f of frames) {
    if (f.type === 'snapshot') assert.equal(f.seq, seq, 'a snapshot only at the seq of the resync marker before it')
    else assert.equal(f.seq, ++seq, `a ${String(f.type)} continues the stream`)
  }
  assert.equal(seq, last)
  const held = frames.at(-1) as Frame
  assert.deepEqual(held.d, quote(0.42, 0.46, 7, 9))
  assert.equal(ingest.sink.holdOverflows, 0)
  assert.ok(ingest.sink.framesHeld >= 3, `the frames of the outage were held: ${ingest.sink.framesHeld}`)

  // A client that had read up to seq 6 before the restart resumes on the other edge with exactly what it missed.
  await waitFor(() => (JSON.parse(edgeB.mirror.snapshot(`quote|${KEY}`) ?? '{}') as Frame).seq === last)
  const onB = await edgeB.connect()
  const resumed = await subscribe(onB, 'quote', [KEY], { resume: { [KEY]: { epoch: held.epoch as string, seq: 6 } } })
  assert.equal(resumed.ack.recovered, true)
  const replayed = resumed.burst.filter((f) => f.type !== 'snapshot')
  assert.deepEqual(
    replayed.map((f) => [f.type, f.seq, f.d]),
    frames.filter((f) => f.type !== 'snapshot').map((f) => [f.type, f.seq, f.d]),
  )
  // The resync marker among them promised a snapshot (the ring holds none): it comes with the state reached.
  for (const f of resumed.burst.filter((f) => f.type === 'snapshot')) assert.deepEqual([f.seq, f.d], [last, held.d])
})

test('a restarted ingest starts a new epoch: edge clients get its snapshot, then its deltas', async () => {
  const watcher = edgeA.clients[0] as Client
  const oldEpoch = (JSON.parse(watched.at(-1) as string) as Frame).epoch
  await ingest.stop()
  venue.emit(snapshot('a', [[0.5, 1]], [[0.6, 1]], 1_000)) // the book comes back while no ingest runs
  ingest = await TestIngest.start(world)
  // It holds no lease: it asks the edges for theirs (`lease.ask`), and reopens the stream when their renewals come.
  await waitFor(() => ingest.sequencer.get(`quote|${KEY}`) !== undefined, 10_000, 'the stream reopened')
  const epoch = ingest.sequencer.get(`quote|${KEY}`)?.epoch
  assert.notEqual(epoch, oldEpoch)

  // Old-epoch frames may come first (the tail of the broker restart; a slow-consumer re-snapshot after the keyframe
  // test's clock jump sent this socket a burst of heartbeats); the new epoch's first frame is its snapshot.
  const from = watcher.frames.length - watcher.unread.length
  await waitFor(() => watcher.frames.slice(from).some((f) => f.key === KEY && f.epoch === epoch), 10_000, 'new epoch')
  const seen = watcher.frames.slice(from).filter((f) => f.key === KEY)
  assert.ok(seen.every((f) => f.epoch === epoch || f.epoch === oldEpoch))
  await watcher.take(watcher.unread.length)
  const { pts: _pts, ...snap } = seen.find((f) => f.epoch === epoch) as Frame
  assert.deepEqual(snap, {
    type: 'snapshot',
    ch: 'quote',
    key: KEY,
    epoch,
    seq: 0,
    ts: 1_000,
    lts: clock.now(),
    d: quote(0.5, 0.6, 1, 1),
  })
  venue.emit(level('a', 'bid', 0.55, 2, 1_010))
  const [delta] = await dataFrames(watcher, KEY, 1)
  const d = JSON.parse(delta as string) as Frame
  assert.deepEqual([d.type, d.epoch, d.seq, d.d], ['delta', epoch, 1, quote(0.55, 0.6, 2, 1)])

  // A token of the old epoch is outside the window: a snapshot of the new one, recovered false.
  await waitFor(() => {
    const held = JSON.parse(edgeB.mirror.snapshot(`quote|${KEY}`) ?? '{}') as Frame
    return held.epoch === epoch && held.seq === 1
  })
  const c = await edgeB.connect()
  const s = await subscribe(c, 'quote', [KEY], { resume: { [KEY]: { epoch: oldEpoch as string, seq: 6 } } })
  assert.equal(s.ack.recovered, false)
  assert.deepEqual(
    s.burst.map((f) => [f.type, f.epoch, f.seq, f.d]),
    [['snapshot', epoch, 1, quote(0.55, 0.6, 2, 1)]],
  )
  await ingest.stop()
})
