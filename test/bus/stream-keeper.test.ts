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
 * The keeper on an ingest opens a leased stream (here `spread`) when an edge asks, with its snapshot published; holds
 * it while leases are renewed; closes it a resume window after the last renewal, saying so; and republishes a
 * stream's snapshot once half a window passed without a full state.
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
  const keeper = new StreamKeeper({ sequencer, sink, sources: [source], venues: [], clock: w.clock })
  return { w, published, keeper, sequencer }
}

const subject = (i: number): string => `md.spread.x.${subjectToken(pairSpec(i).key)}`
const lease = (i: number) => ({ ch: 'spread' as const, key: pairSpec(i).key })

test('a leased stream opens with its snapshot, lives while renewed, and closes a window after the last renewal', () => {
  const { w, published, keeper, sequencer } = setup(3)
  const closed: string[] = []
  keeper.onLeaseExpired = (topic, epoch) => closed.push(`${topic} ${epoch}`)
  keeper.start()
  assert.deepEqual(keeper.topics, [], 'nothing is open before an edge asks')
  const answers = keeper.lease([lease(0), lease(1)], true)
  assert.deepEqual(answers, [
    { topic: `spread|${pairSpec(0).key}`, epoch: 'i1.0', seq: 0 },
    { topic: `spread|${pairSpec(1).key}`, epoch: 'i1.1', seq: 0 },
  ])
  assert.deepEqual(
    published.map((p) => [p.subject, p.frame.type, p.frame.seq, p.frame.d]),
    [
      [subject(0), 'snapshot', 0, null],
      [subject(1), 'snapshot', 0, null],
    ],
  )
  published.length = 0
  w.quote('p', 1, 0.4)
  w.quote('k', 1, 0.5)
  w.quote('p', 2, 0.4) // pair 2 is not leased: nothing is serialized for it
  assert.deepEqual(
    published.map((p) => [p.subject, p.frame.type, p.frame.seq]),
    [[subject(1), 'delta', 1]],
  )

  // A renewal (no fresh snapshot) keeps pair 1; pair 0 is not renewed and closes a window after it was leased.
  w.clock.increment(RESUME_WINDOW_MS / 2)
  published.length = 0
  assert.deepEqual(keeper.lease([lease(1)], false), [{ topic: `spread|${pairSpec(1).key}`, epoch: 'i1.1', seq: 1 }])
  assert.deepEqual(published, [], 'a renewal publishes nothing')
  w.clock.increment(RESUME_WINDOW_MS / 2 + RESUME_WINDOW_MS / 4)
  assert.deepEqual(keeper.topics, [`spread|${pairSpec(1).key}`])
  assert.deepEqual(closed, [`spread|${pairSpec(0).key} i1.0`])
  assert.equal(keeper.leasesExpired, 1)
  assert.equal(sequencer.get(`spread|${pairSpec(0).key}`), undefined)

  // Leased again later: a new epoch.
  assert.equal((keeper.lease([lease(0)], true)[0] as { epoch: string }).epoch, 'i1.2')
  keeper.stop()
  assert.deepEqual(keeper.topics, [])
})

test('a lease of a kept channel or a bad key is refused, and nothing opens', () => {
  const { keeper } = setup(1)
  keeper.start()
  assert.deepEqual(keeper.lease([{ ch: 'venue', key: 'venuep' }], true), [
    { key: 'venuep', code: 'UNKNOWN_CHANNEL', reason: 'venue streams are not leased from the ingest' },
  ])
  const [bad] = keeper.lease([{ ch: 'spread', key: 'no-such-pair' }], true)
  assert.equal((bad as { code: string }).code, 'UNKNOWN_KEY')
  assert.deepEqual(keeper.topics, [])
  keeper.stop()
})

test('a stream with no snapshot or delta for half a window gets its snapshot again; one with a recent delta not', () => {
  const { w, published, keeper } = setup(2)
  keeper.start()
  keeper.lease([lease(0), lease(1)], true)
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
