import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { SimulatedClock } from '../../../src/core/clock.js'
import { Sequencer, streamId } from '../../../src/stream/sequencer.js'

/**
 * The Sequencer (src/stream/sequencer.ts): seq per stream, frames serialized once in the documented field order,
 * the resume window by frames and by age, a new epoch after close/open, snapshots that consume no seq.
 */
function setup(o: { windowFrames?: number; windowMs?: number } = {}) {
  const clock = new SimulatedClock(5_000)
  const published: [string, string][] = []
  const sequencer = new Sequencer({ clock, sink: { publish: (t, f) => published.push([t, f]) }, epoch: 'ab12', ...o })
  return { clock, published, sequencer }
}

describe('Sequencer', () => {
  test('emit: +1 per frame, the envelope in order, published once on the stream topic', () => {
    const { sequencer, published } = setup()
    const log = sequencer.open(streamId('book', 'venuek:X', 25))
    const f1 = sequencer.emit(log, 'delta', { bids: [] }, 100, 101)
    const f2 = sequencer.emit(log, 'marker', { ev: 'resync', reason: 'r', snapshot_follows: true }, 102, 103)
    assert.equal(
      f1,
      '{"type":"delta","ch":"book","key":"venuek:X","epoch":"ab12.0","seq":1,"ts":100,"lts":101,"pts":5000,"d":{"bids":[]}}',
    )
    assert.equal(JSON.parse(f2).seq, 2)
    assert.deepEqual(published, [
      ['book|venuek:X|25', f1],
      ['book|venuek:X|25', f2],
    ])
  })

  test('snapshot carries the current seq and the latest change times, consumes none, publishes nothing', () => {
    const { sequencer, published, clock } = setup()
    const log = sequencer.open(streamId('quote', 'venuep:1'))
    assert.equal(JSON.parse(sequencer.snapshot(log, { v: 0 })).seq, 0)
    sequencer.emit(log, 'delta', { v: 1 }, 10, 11)
    clock.increment(7)
    const snap = JSON.parse(sequencer.snapshot(log, { v: 1 }))
    assert.deepEqual(snap, {
      type: 'snapshot',
      ch: 'quote',
      key: 'venuep:1',
      epoch: 'ab12.0',
      seq: 1,
      ts: 10,
      lts: 11,
      pts: 5_007,
      d: { v: 1 },
    })
    sequencer.snapshot(log, { v: 1 })
    assert.equal(JSON.parse(sequencer.emit(log, 'delta', { v: 2 }, 12, 12)).seq, 2, 'the next delta is +1')
    assert.equal(published.length, 2)
  })

  test('replay: exactly the frames after seq; [] when up to date; undefined for another epoch or a seq ahead', () => {
    const { sequencer } = setup()
    const log = sequencer.open(streamId('quote', 'k'))
    const frames = [1, 2, 3, 4].map((v) => sequencer.emit(log, 'delta', { v }, v, v))
    assert.deepEqual(sequencer.replay(log, 'ab12.0', 1), frames.slice(1))
    assert.deepEqual(sequencer.replay(log, 'ab12.0', 0), frames)
    assert.deepEqual(sequencer.replay(log, 'ab12.0', 4), [])
    assert.equal(sequencer.replay(log, 'ab12.0', 5), undefined)
    assert.equal(sequencer.replay(log, 'zz99.0', 2), undefined)
    assert.equal(sequencer.replay(log, 'ab12.0', -1), undefined)
  })

  test('window by frames: only the last windowFrames can be replayed', () => {
    const { sequencer } = setup({ windowFrames: 3 })
    const log = sequencer.open(streamId('quote', 'k'))
    const frames = [1, 2, 3, 4, 5].map((v) => sequencer.emit(log, 'delta', { v }, v, v))
    assert.deepEqual(sequencer.replay(log, log.epoch, 2), frames.slice(2), 'frames 3..5 are held')
    assert.equal(sequencer.replay(log, log.epoch, 1), undefined, 'frame 2 was evicted')
  })

  test('window by age: a frame older than windowMs cannot be replayed', () => {
    const { sequencer, clock } = setup({ windowMs: 1_000 })
    const log = sequencer.open(streamId('quote', 'k'))
    sequencer.emit(log, 'delta', { v: 1 }, 1, 1)
    clock.increment(600)
    const f2 = sequencer.emit(log, 'delta', { v: 2 }, 2, 2)
    clock.increment(500)
    assert.equal(sequencer.replay(log, log.epoch, 0), undefined, 'frame 1 is 1100 ms old')
    assert.deepEqual(sequencer.replay(log, log.epoch, 1), [f2], 'frame 2 is 500 ms old')
    clock.increment(501)
    assert.equal(sequencer.replay(log, log.epoch, 1), undefined)
    assert.deepEqual(sequencer.replay(log, log.epoch, 2), [], 'up to date needs no frame')
  })

  test('frames past the window are let go as new ones are recorded: a busy stream holds its last windowMs, not windowFrames of any age', () => {
    const { sequencer, clock } = setup({ windowMs: 1_000, windowFrames: 1_024 })
    const log = sequencer.open(streamId('quote', 'k'))
    // 10 frames a second for 5 s: 50 frames, of which the last second's are held.
    const frames: string[] = []
    for (let i = 1; i <= 50; i++) {
      clock.increment(100)
      frames.push(sequencer.emit(log, 'delta', { v: i }, i, i))
    }
    assert.equal(log.held, 11, 'the frames of the last 1,000 ms, both ends included')
    assert.deepEqual(sequencer.replay(log, log.epoch, 39), frames.slice(39), 'what is held still replays')
    assert.equal(sequencer.replay(log, log.epoch, 38), undefined, 'frame 39 was let go')
  })

  test('open returns the held log; close then open starts a new epoch at seq 0', () => {
    const { sequencer } = setup()
    const id = streamId('quote', 'k')
    const log = sequencer.open(id)
    sequencer.emit(log, 'delta', {}, 1, 1)
    assert.equal(sequencer.open(id), log)
    assert.equal(sequencer.size, 1)
    sequencer.close(id.topic)
    assert.equal(sequencer.get(id.topic), undefined)
    const again = sequencer.open(id)
    assert.notEqual(again.epoch, log.epoch)
    assert.equal(again.seq, 0)
    assert.equal(sequencer.replay(again, log.epoch, 1), undefined, 'an old token leads to a snapshot')
  })

  test('streams are numbered independently', () => {
    const { sequencer } = setup()
    const a = sequencer.open(streamId('quote', 'a'))
    const b = sequencer.open(streamId('quote', 'b'))
    sequencer.emit(a, 'delta', {}, 1, 1)
    sequencer.emit(a, 'delta', {}, 1, 1)
    assert.equal(JSON.parse(sequencer.emit(b, 'delta', {}, 1, 1)).seq, 1)
    assert.notEqual(a.epoch, b.epoch)
  })
})
