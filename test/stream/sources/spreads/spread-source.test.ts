import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { pairIdOf } from '../../../../src/spreads/engine/pair-id.js'
import type { VenueId } from '../../../../src/model/types.js'
import { streamId, type StreamId } from '../../../../src/stream/sequencer.js'
import type { Rejection } from '../../../../src/stream/protocol.js'
import type { ChannelSource } from '../../../../src/stream/source.js'
import { SpreadSource } from '../../../../src/stream/sources/spreads/spread-source.js'
import { pairSpec, T0, world, type World } from './fixtures.js'

/** The pair's record as the scanner prints it now (its event, every spread and volume). */
async function restRecord(w: World, i: number): Promise<Record<string, unknown> | undefined> {
  const spec = pairSpec(i)
  const body = await w.rest('scan', `event_slug=${spec.eventSlug}&min_spread=0&min_volume=0`)
  return body.data.find((r) => r.outcome_key === spec.outcomeKey)
}

function setup() {
  const w = world(4)
  const source: ChannelSource = new SpreadSource({ engine: w.engine, sequencer: w.sequencer, clock: w.clock })
  const key = pairSpec(1).key
  const id = source.resolve(key, {})
  assert.ok(!('code' in id))
  const log = w.sequencer.open(id)
  source.open(log, {})
  return { w, source, key, log, topic: `spread|${key}` }
}

describe('stream source: spread', () => {
  test('a pair is named by its record key or its id, both the one stream printed with the record key', () => {
    const { w, source, key } = setup()
    assert.deepEqual(source.resolve(key, {}), streamId('spread', key))
    assert.deepEqual(source.resolve(pairIdOf(key), {}), streamId('spread', key))
    // The id is a function of the key alone: pinned, so a release that changed it would be seen here.
    assert.equal(pairIdOf(key), 'bf477bcccd9d2f08')
    assert.deepEqual(source.resolve('event-9|text:nope', {}), {
      key: 'event-9|text:nope',
      code: 'UNKNOWN_KEY',
      reason: 'no matched pair has this key (`<event_slug>|<outcome_key>`) or id',
    })
    assert.equal((source.resolve(pairIdOf('event-9|text:nope'), {}) as Rejection).code, 'UNKNOWN_KEY')
    assert.equal(w.sink.frames.length, 0)
  })

  test('snapshot, then a delta per change of the record as /api/v2/spreads shows it; no frame for no change', async () => {
    const { w, source, key, log, topic } = setup()
    assert.deepEqual(JSON.parse(source.snapshot(log)), {
      type: 'snapshot',
      ch: 'spread',
      key,
      epoch: 'e1.0',
      seq: 0,
      ts: 0,
      lts: 0,
      pts: T0,
      d: null,
    })
    w.quote('p', 1, 0.4)
    assert.equal(w.sink.frames.length, 0, 'one leg quoted: still no record')
    w.clock.increment(1_000)
    w.quote('k', 1, 0.5)
    w.quote('k', 2, 0.7) // another pair: not this stream
    const first = await restRecord(w, 1)
    assert.equal(first?.id, pairIdOf(key))
    assert.deepEqual(w.sink.of(topic), [
      {
        type: 'delta',
        ch: 'spread',
        key,
        epoch: 'e1.0',
        seq: 1,
        ts: T0 + 1_000,
        lts: T0 + 1_000,
        pts: T0 + 1_000,
        d: first,
      },
    ])
    // The same probability again: the record says the same, no frame.
    w.quote('k', 1, 0.5)
    assert.equal(w.sink.of(topic).length, 1)
    w.clock.increment(2_000)
    w.quote('p', 1, 0.3)
    const second = await restRecord(w, 1)
    assert.equal(second?.price_a, 0.3)
    assert.deepEqual(w.sink.of(topic)[1], {
      type: 'delta',
      ch: 'spread',
      key,
      epoch: 'e1.0',
      seq: 2,
      ts: T0 + 3_000,
      lts: T0 + 3_000,
      pts: T0 + 3_000,
      d: second,
    })
    assert.deepEqual(JSON.parse(source.snapshot(log)), { ...w.sink.of(topic)[1], type: 'snapshot' })
  })

  test('is_stale turns true when the older quote passes the cutoff, with no engine change', async () => {
    const { w, key, topic } = setup()
    w.quote('p', 1, 0.4)
    w.quote('k', 1, 0.5)
    w.clock.increment(45 * 60_000)
    assert.equal(w.sink.of(topic).length, 1, 'at the cutoff: not stale yet')
    w.clock.increment(1)
    const frames = w.sink.of(topic)
    assert.equal(frames.length, 2)
    assert.deepEqual(frames[1], {
      type: 'delta',
      ch: 'spread',
      key,
      epoch: 'e1.0',
      seq: 2,
      ts: T0,
      lts: T0 + 45 * 60_000 + 1,
      pts: T0 + 45 * 60_000 + 1,
      d: { ...(frames[0]?.d as object), is_stale: true },
    })
    assert.equal((await restRecord(w, 1))?.is_stale, true)
  })

  test('a pair that loses its record or its match gets `d: null`, and continues when it comes back', async () => {
    const { w, key, topic } = setup()
    w.quote('p', 1, 0.4)
    w.quote('k', 1, 0.5)
    w.engine.send({ type: 'pairs', specs: [pairSpec(0), pairSpec(2)] })
    w.engine.send({ type: 'pairs', specs: [pairSpec(0), pairSpec(1), pairSpec(2)] })
    const frames = w.sink.of(topic)
    assert.deepEqual(
      frames.map((f) => [f.type, f.seq, f.d === null ? null : 'record']),
      [
        ['delta', 1, 'record'],
        ['delta', 2, null],
        ['delta', 3, 'record'],
      ],
    )
    assert.deepEqual(frames[2]?.d, await restRecord(w, 1))
  })

  test("a venue's continuity marker reaches the streams of pairs with a leg there, in sequence", () => {
    const w = world(4)
    const source = new SpreadSource({ engine: w.engine, sequencer: w.sequencer, clock: w.clock })
    const log = w.sequencer.open(source.resolve(pairSpec(1).key) as StreamId)
    source.open(log)
    w.quote('p', 1, 0.4)
    w.quote('k', 1, 0.5)
    const marker = { ev: 'venue_disconnect', venue: 'venuek', reason: 'stale_no_data', since: T0 } as const
    source.venueMarker('venuex' as VenueId, marker)
    source.venueMarker('venuek', marker)
    w.quote('k', 1, 0.5, true)
    const frames = w.sink.of(`spread|${pairSpec(1).key}`)
    assert.deepEqual(
      frames.map((f) => [f.type, f.seq]),
      [
        ['delta', 1],
        ['marker', 2],
        ['delta', 3],
      ],
    )
    assert.deepEqual(frames[1], {
      type: 'marker',
      ch: 'spread',
      key: pairSpec(1).key,
      epoch: 'e1.0',
      seq: 2,
      ts: T0,
      lts: T0,
      pts: T0,
      d: marker,
    })
    assert.equal((frames[2]?.d as { is_stale: boolean }).is_stale, true)
  })

  test('a closed stream gets no frame, and the engine listener is dropped with the last stream', () => {
    const { w, source, log, topic } = setup()
    source.close(log)
    w.quote('p', 1, 0.4)
    w.quote('k', 1, 0.5)
    w.clock.increment(3_600_000)
    assert.deepEqual(w.sink.of(topic), [])
    assert.equal(w.clock.pendingTimers, 1, 'only the engine sweep is scheduled')
  })
})
