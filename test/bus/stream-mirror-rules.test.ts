import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { NatsConnection } from '@nats-io/transport-node'
import { mdSubjectOfTopic } from '../../src/bus/stream/bus-frame-sink.js'
import { MirrorStreams } from '../../src/bus/stream/mirror-streams.js'
import { topicOfMdSubject } from '../../src/bus/subjects.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { streamId } from '../../src/stream/sequencer.js'
import { RecordingSink } from '../stream/sources/market/fake-venue.js'

/**
 * The mirror's rules for frames it receives (no broker: `receive` is what the consumer calls per message): forward
 * what continues a stream, start over on a gap or a new epoch with a snapshot, never forward a state it cannot vouch
 * for, and keep keyframes from clients.
 */
const T = 1_700_000_000_000

function frame(type: string, epoch: string, seq: number, d: unknown, pts = T): string {
  return JSON.stringify({ type, ch: 'quote', key: 'venuep:a', epoch, seq, ts: 1, lts: 2, pts, d })
}

function mirror(): { m: MirrorStreams; sink: RecordingSink; clock: SimulatedClock } {
  const sink = new RecordingSink()
  const clock = new SimulatedClock(T + 5)
  const m = new MirrorStreams({ nc: {} as NatsConnection, sink, clock })
  return { m, sink, clock }
}

const TOPIC = 'quote|venuep:a'
const ID = streamId('quote', 'venuep:a')

test('frames that continue a stream are forwarded verbatim and replayable; keyframes are held, not forwarded', () => {
  const { m, sink } = mirror()
  m.receive(frame('marker', 'e1', 3, { ev: 'venue_disconnect' }))
  assert.equal(m.has(TOPIC), false, 'a marker first: the value is unknown, the stream is not served yet')
  const snap = frame('snapshot', 'e1', 3, { v: 1 })
  m.receive(snap)
  const d4 = frame('delta', 'e1', 4, { v: 2 })
  const r5 = frame('marker', 'e1', 5, { ev: 'resync', snapshot_follows: true })
  const s5 = frame('snapshot', 'e1', 5, { v: 3 })
  const k5 = frame('snapshot', 'e1', 5, { v: 3 }, T + 1)
  for (const f of [d4, r5, s5, k5, d4]) m.receive(f)
  assert.deepEqual(
    sink.of(TOPIC).map((f) => JSON.stringify(f)),
    [snap, d4, r5, s5],
    'the keyframe and the repeated delta are not forwarded',
  )
  const log = m.open(ID)
  assert.equal(log.epoch, 'e1')
  assert.equal(log.seq, 5)
  assert.deepEqual(m.replay(log, 'e1', 3), [d4, r5])
  assert.deepEqual(m.replay(log, 'e1', 5), [])
  assert.equal(m.replay(log, 'e0', 3), undefined)
  assert.deepEqual(JSON.parse(m.snapshot(TOPIC) ?? ''), JSON.parse(frame('snapshot', 'e1', 5, { v: 3 }, T + 5)))
})

test('a gap: a delta starts the stream over as a snapshot at its seq; a marker is dropped until then', () => {
  const { m, sink } = mirror()
  m.receive(frame('delta', 'e1', 1, { v: 1 }))
  sink.frames.clear()
  m.receive(frame('marker', 'e1', 3, { ev: 'venue_disconnect' }))
  assert.deepEqual(sink.of(TOPIC), [], 'the state after the missed frame 2 is unknown: nothing forwarded')
  assert.equal(m.open(ID).seq, 1, 'the stream stays at the last seq it can vouch for')
  const d4 = frame('delta', 'e1', 4, { v: 4 })
  m.receive(d4)
  assert.deepEqual(sink.of(TOPIC), [JSON.parse(frame('snapshot', 'e1', 4, { v: 4 }, T + 5))])
  const log = m.open(ID)
  assert.equal(log.seq, 4)
  assert.equal(m.replay(log, 'e1', 1), undefined, 'nothing replays across the gap')
  assert.deepEqual(m.replay(log, 'e1', 3), [d4])
  assert.equal(m.gaps, 2, 'the marker and the delta both did not continue the stream')
  assert.equal(m.skipped, 1)
})

test('a new epoch (the ingest restarted) replaces the stream: its snapshot is forwarded, the old tokens expire', () => {
  const { m, sink } = mirror()
  m.receive(frame('delta', 'e1', 7, { v: 1 }))
  const log = m.open(ID)
  sink.frames.clear()
  m.receive(frame('marker', 'e2', 1, { ev: 'venue_disconnect' }))
  assert.equal(log.epoch, 'e1', 'a marker of the new epoch says nothing of its state')
  const s0 = frame('snapshot', 'e2', 0, { v: 9 })
  m.receive(s0)
  assert.deepEqual(sink.of(TOPIC), [JSON.parse(s0)])
  assert.equal(m.open(ID), log, 'the same log, renewed: the fan-out holding it reads the new numbers')
  assert.equal(log.epoch, 'e2')
  assert.equal(log.seq, 0)
  assert.equal(m.replay(log, 'e1', 7), undefined)
})

test('an incremental stream after a gap waits for a snapshot, keeping the last state, and asks for one if held', () => {
  const broken: string[] = []
  const sink = new RecordingSink()
  const m = new MirrorStreams({
    nc: {} as NatsConnection,
    sink,
    clock: new SimulatedClock(T + 5),
    onBroken: (t) => broken.push(t),
  })
  const alerts = (type: string, seq: number, d: unknown): string =>
    JSON.stringify({ type, ch: 'alerts', key: 'acct', epoch: 'e1', seq, ts: 1, lts: 2, pts: T, d })
  const topic = 'alerts|acct'
  const id = streamId('alerts', 'acct')
  m.receive(alerts('delta', 1, { id: 'd1' }))
  assert.equal(m.has(topic), false, 'a delta alone is not a state')
  m.receive(alerts('snapshot', 1, { firings: [{ id: 'd1' }] }))
  m.open(id)
  m.receive(alerts('delta', 2, { id: 'd2' }))
  const held = { firings: [{ id: 'd1' }, { id: 'd2' }] }
  assert.deepEqual((JSON.parse(m.snapshot(topic) as string) as { d: unknown }).d, held)
  m.receive(alerts('delta', 4, { id: 'd4' }))
  m.receive(alerts('delta', 5, { id: 'd5' }))
  assert.deepEqual(broken, [topic], 'asked once for a snapshot')
  assert.deepEqual(
    sink.of(topic).map((f) => [f.type, f.seq]),
    [
      ['snapshot', 1],
      ['delta', 2],
    ],
    'nothing after the gap is forwarded',
  )
  const after = JSON.parse(m.snapshot(topic) as string) as { seq: number; d: unknown }
  assert.deepEqual([after.seq, after.d], [2, held], 'a subscriber meanwhile gets the last state it can vouch for')
  const all = { firings: ['d1', 'd2', 'd3', 'd4', 'd5'].map((x) => ({ id: x })) }
  m.receive(alerts('snapshot', 5, all))
  m.receive(alerts('delta', 6, { id: 'd6' }))
  assert.deepEqual(
    sink
      .of(topic)
      .map((f) => [f.type, f.seq])
      .slice(2),
    [
      ['snapshot', 5],
      ['delta', 6],
    ],
  )
  assert.deepEqual((JSON.parse(m.snapshot(topic) as string) as { d: unknown }).d, {
    firings: [...all.firings, { id: 'd6' }],
  })
  // A book frame names its stream only with the subject (its depth is not in the frame).
  const book = JSON.stringify({
    type: 'snapshot',
    ch: 'book',
    key: 'venuep:a',
    epoch: 'e1',
    seq: 0,
    ts: 1,
    lts: 2,
    pts: T,
    d: {},
  })
  m.receive(book)
  assert.equal(m.malformed, 1)
  // A subject that names another stream than the frame does is not believed.
  for (const other of ['book|venuep:a|', 'book|venuep:ab|25', 'book|venuep:|25', 'quote|venuep:a', 'book|venuep:a'])
    m.receive(book, other)
  assert.equal(m.malformed, 6)
  m.receive(book, 'book|venuep:a|25')
  assert.equal(m.has('book|venuep:a|25'), true)
  const quote = JSON.stringify({
    type: 'snapshot',
    ch: 'quote',
    key: 'venuep:a',
    epoch: 'e1',
    seq: 0,
    ts: 1,
    lts: 2,
    d: {},
  })
  for (const other of ['quote|venuep:a|25', 'quote|venuep:b', 'quotes|venuep:a']) m.receive(quote, other)
  assert.equal(m.malformed, 9)
})

test('topics map to their subjects and back: the venue the key names, x for streams of no one venue', () => {
  const cases: [string, string][] = [
    ['quote|venuek:KX-1.5', 'md.quote.venuek.venuek:KX-1%2E5'],
    ['venue|venuep', 'md.venue.venuep.venuep'],
    ['spread|fed-rates|t 4.25', 'md.spread.x.fed-rates|t%204%2E25'],
    ['book|venuep:a|10', 'md.book.venuep.venuep:a|10'],
    ['spreads.top|limit=20&sort=confidence', 'md.top.x.limit%3D20%26sort%3Dconfidence'],
    ['alerts|acct_1', 'md.alerts.x.acct_1'],
  ]
  for (const [topic, subject] of cases) {
    assert.equal(mdSubjectOfTopic(topic), subject)
    assert.equal(topicOfMdSubject(subject), topic)
  }
  assert.equal(mdSubjectOfTopic('hb|x'), undefined)
  assert.equal(mdSubjectOfTopic('quote|'), undefined)
  assert.equal(topicOfMdSubject('feed.venuep'), undefined)
  assert.equal(topicOfMdSubject('md.quote.venuep.%zz'), undefined)
})
