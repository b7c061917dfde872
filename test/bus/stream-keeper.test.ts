import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { NatsConnection } from '@nats-io/transport-node'
import { BusFrameSink } from '../../src/bus/stream/bus-frame-sink.js'
import { StreamKeeper } from '../../src/bus/stream/stream-keeper.js'
import { subjectToken } from '../../src/bus/subjects.js'
import { RESUME_WINDOW_MS, Sequencer } from '../../src/stream/sequencer.js'
import { SpreadSource } from '../../src/stream/sources/spreads/spread-source.js'
import { pairSpec, world } from '../stream/sources/spreads/fixtures.js'

/**
 * The keeper on an ingest holds a `spread` stream open for every pair the engine holds (snapshot on open), follows
 * pairs as they come and go, and republishes a stream's snapshot once half a window passed without a full state.
 */
function setup(pairs: number) {
  const w = world(pairs)
  const published: { subject: string; frame: Record<string, unknown> }[] = []
  const nc = {
    publish: (subject: string, data: string) => void published.push({ subject, frame: JSON.parse(data) }),
    flush: () => Promise.resolve(),
  } as unknown as NatsConnection
  const sink = new BusFrameSink(nc)
  const sequencer = new Sequencer({ clock: w.clock, sink, epoch: 'i1' })
  const source = new SpreadSource({ engine: w.engine, sequencer, clock: w.clock })
  const keeper = new StreamKeeper({ sequencer, sink, sources: [source], venues: [], spreads: w.engine, clock: w.clock })
  return { w, published, keeper }
}

const subject = (i: number): string => `md.spread.x.${subjectToken(pairSpec(i).key)}`

test('every pair gets a stream, opened with its snapshot; pairs that leave are closed, new ones opened', () => {
  const { w, published, keeper } = setup(3)
  keeper.start()
  assert.deepEqual(keeper.topics.sort(), [0, 1, 2].map((i) => `spread|${pairSpec(i).key}`).sort())
  assert.deepEqual(
    published.map((p) => [p.subject, p.frame.type, p.frame.seq, p.frame.d]).sort(),
    [0, 1, 2].map((i) => [subject(i), 'snapshot', 0, null]).sort(),
  )
  published.length = 0
  w.quote('p', 1, 0.4)
  w.quote('k', 1, 0.5)
  assert.deepEqual(
    published.map((p) => [p.subject, p.frame.type, p.frame.seq]),
    [[subject(1), 'delta', 1]],
  )

  w.engine.send({ type: 'pairs', specs: [pairSpec(0), pairSpec(2), pairSpec(3)] })
  w.clock.increment(RESUME_WINDOW_MS / 4) // the check reconciles pairs that came without a change
  assert.deepEqual(keeper.topics.sort(), [0, 2, 3].map((i) => `spread|${pairSpec(i).key}`).sort())
  assert.ok(published.some((p) => p.subject === subject(3) && p.frame.type === 'snapshot'))
  keeper.stop()
  assert.deepEqual(keeper.topics, [])
})

test('a stream with no snapshot or delta for half a window gets its snapshot again; one with a recent delta not', () => {
  const { w, published, keeper } = setup(2)
  keeper.start()
  w.clock.increment(RESUME_WINDOW_MS / 4)
  w.quote('p', 1, 0.4)
  w.quote('k', 1, 0.5)
  published.length = 0
  w.clock.increment(RESUME_WINDOW_MS / 4) // half a window since the opening snapshots
  assert.deepEqual(
    published.map((p) => [p.subject, p.frame.type, p.frame.seq, p.frame.d]),
    [[subject(0), 'snapshot', 0, null]],
  )
  assert.equal(keeper.keyframes, 1)
  keeper.stop()
})
