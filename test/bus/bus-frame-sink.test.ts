import assert from 'node:assert/strict'
import { test } from 'node:test'
import { BusFrameSink } from '../../src/bus/stream/bus-frame-sink.js'
import { FrameHold } from '../../src/bus/stream/frame-hold.js'

/**
 * The ingest's sink across a broker outage, over a fake connection whose flushes (the broker confirming what it
 * read) resolve or fail when the test says: frames the broker has not confirmed are published again once it is
 * back, frames of the outage are held and published after them in order, and a hold past its bound gives the
 * streams up to their snapshots (`onLost`) instead of publishing frames with a hole.
 */
function setup(holdMaxBytes = 1_000_000) {
  const sent: string[] = []
  const flushes: { resolve: () => void; reject: (err: Error) => void }[] = []
  let now = 0
  const nc = {
    publish: (_subject: string, data: string) => void sent.push(data),
    flush: () => new Promise<void>((resolve, reject) => flushes.push({ resolve, reject })),
  }
  const sink = new BusFrameSink(nc, { holdMaxBytes, now: () => now })
  let lost = 0
  sink.onLost = () => {
    lost++
    sink.publish('venue|v', 'snapshot')
  }
  return {
    sink,
    sent,
    flushes,
    lost: () => lost,
    later: (ms: number) => (now += ms),
    publish: (...frames: string[]) => frames.forEach((f) => sink.publish('venue|v', f)),
  }
}

/** Lets the flush promises' callbacks run. */
const settled = () => new Promise<void>((r) => setImmediate(r))

test('frames go out at once; those the broker confirmed are no longer held', async () => {
  const s = setup()
  s.publish('f1', 'f2')
  assert.deepEqual(s.sent, ['f1', 'f2'])
  assert.equal(s.flushes.length, 1, 'one confirmation asked for (on f1), not one per frame')
  assert.equal(s.sink.heldFrames, 2)
  s.flushes[0]?.resolve()
  await settled()
  assert.equal(s.sink.heldFrames, 1, 'f2 came after the confirmation was asked')
  s.publish('f3')
  assert.equal(s.flushes.length, 1, 'the next confirmation waits its interval')
  s.later(500)
  s.publish('f4')
  assert.equal(s.flushes.length, 2)
  s.flushes[1]?.resolve()
  await settled()
  assert.equal(s.sink.heldFrames, 0)
})

test('through an outage: unconfirmed frames are published again, then the held ones, in order; then direct again', async () => {
  const s = setup()
  s.publish('f1')
  s.flushes[0]?.resolve()
  await settled()
  s.later(500)
  s.publish('f2', 'f3') // published, not yet confirmed: the broker may have lost them
  s.sink.linkDown()
  s.flushes[1]?.reject(new Error('connection disconnected'))
  await settled()
  s.publish('f4', 'f5')
  assert.deepEqual(s.sent, ['f1', 'f2', 'f3'], 'nothing goes out while the link is down')
  s.sink.brokerBack()
  assert.deepEqual(s.sent, ['f1', 'f2', 'f3', 'f2', 'f3', 'f4', 'f5'])
  assert.equal(s.sink.framesHeld, 4)
  s.publish('f6')
  assert.deepEqual(s.sent.slice(-1), ['f6'])
  assert.equal(s.flushes.length, 3, 'the republished frames are confirmed at once')
  s.flushes[2]?.resolve()
  await settled()
  assert.equal(s.sink.heldFrames, 1, 'f6 came after that confirmation was asked')
  assert.equal(s.sink.holdOverflows, 0)
  assert.equal(s.lost(), 0)
})

test('a hold past its bound is dropped: once the broker is back the streams start over from their snapshots', async () => {
  const s = setup(50) // subject md.venue.v.v (12) + a 2-byte frame: 3 frames fit
  s.sink.linkDown()
  s.publish('f1', 'f2', 'f3')
  assert.equal(s.sink.holdOverflows, 0)
  s.publish('f4', 'f5')
  assert.equal(s.sink.holdOverflows, 1)
  assert.equal(s.sink.heldFrames, 0, 'nothing held after an overflow: the snapshots supersede it')
  s.sink.brokerBack()
  assert.equal(s.lost(), 1)
  assert.deepEqual(s.sent, ['snapshot'], 'no frame of the outage, only what onLost published')
  s.publish('f6')
  assert.deepEqual(s.sent, ['snapshot', 'f6'])
  assert.equal(s.sink.framesHeld, 0)
})

test('an overflow while the link is up is forgiven when the broker confirms it read past it', async () => {
  const s = setup(50)
  s.publish('f1', 'f2', 'f3', 'f4') // the broker does not answer: f4 overflows the unconfirmed frames
  assert.equal(s.sink.holdOverflows, 1)
  assert.deepEqual(s.sent, ['f1', 'f2', 'f3', 'f4'], 'frames still go out while the link is up')
  s.flushes[0]?.resolve() // asked before the overflow: does not cover the frames dropped
  await settled()
  s.later(500)
  s.publish('f5')
  s.flushes[1]?.resolve() // covers f1…f5
  await settled()
  s.later(500)
  s.publish('f6')
  s.sink.linkDown()
  s.sink.brokerBack()
  assert.equal(s.lost(), 0)
  assert.deepEqual(s.sent.slice(-2), ['f6', 'f6'], 'only the unconfirmed frame is published again')

  // Not confirmed before the link dropped: the dropped frames may be lost, so the streams start over.
  const t = setup(50)
  t.publish('f1', 'f2', 'f3', 'f4')
  t.sink.linkDown()
  t.publish('f5')
  t.sink.brokerBack()
  assert.equal(t.lost(), 1)
  assert.deepEqual(t.sent, ['f1', 'f2', 'f3', 'f4', 'snapshot'])
})

test('frames of topics with no subject are neither published nor held', () => {
  const s = setup()
  s.sink.publish('hb|venuep:a', 'b1')
  s.sink.linkDown()
  s.sink.publish('quote|', 'b2')
  s.sink.brokerBack()
  assert.deepEqual(s.sent, [])
  assert.equal(s.sink.unmirrored, 2)
})

test('the hold keeps its frames in order and its size exact through confirmations of any length', () => {
  const hold = new FrameHold(1_000_000)
  for (let i = 1; i <= 3_000; i++) assert.ok(hold.add('s', `f${i}`))
  hold.confirm(2_000) // past the point where the confirmed head is cut off the array
  assert.deepEqual(
    hold.frames().map((f) => f.payload),
    Array.from({ length: 1_000 }, (_, i) => `f${2_001 + i}`),
  )
  assert.equal(
    hold.bytes,
    hold.frames().reduce((n, f) => n + f.subject.length + f.payload.length, 0),
  )
  hold.add('s', 'f3001')
  hold.confirm(2_999)
  assert.deepEqual(
    hold.frames().map((f) => [f.n, f.payload]),
    [
      [3_000, 'f3000'],
      [3_001, 'f3001'],
    ],
  )
  hold.confirm(hold.last)
  assert.deepEqual([hold.size, hold.bytes], [0, 0])
  assert.equal(new FrameHold(10).add('subject', 'payload'), false, 'a frame past the bound is refused')
})
