import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { settle, waitFor } from '../../helpers/wait.js'
import { EPOCH, Harness, type Client, type Frame } from './harness.js'

/**
 * Subscribe, deltas, unsubscribe and resume as a client sees them: whole frames, in order. Snapshots carry the
 * stream's current seq; deltas follow at +1; an unsubscribe ack is the last frame of its subscription; a resume
 * inside the window replays the exact frames, anything else gets a snapshot and `recovered: false`.
 */
let h: Harness

before(async () => {
  h = await new Harness().start()
})

after(async () => {
  await h.close()
})

const NOW = 1_000_000

function snapshotOf(key: string, seq: number, v: unknown, epoch = `${EPOCH}.0`, ts = 0): Frame {
  return { type: 'snapshot', ch: 'quote', key, epoch, seq, ts, lts: ts, pts: h.clock.now(), d: { v } }
}

describe('subscribe', () => {
  let c: Client

  test('ack, then the snapshot, then snapshots_done, as whole frames', async () => {
    c = await h.connect()
    h.quote.state.set('venuep:A', 7)
    await c.send({ op: 'subscribe', id: 1, ch: 'quote', keys: ['venuep:A'] })
    const frames = await c.take(3)
    assert.deepEqual(frames, [
      { type: 'ack', id: 1, sid: 's1', accepted: ['venuep:A'], rejected: [], recovered: false },
      { ...snapshotOf('venuep:A', 0, 7), epoch: frames[1]?.epoch },
      { type: 'marker', ch: 'quote', key: null, seq: null, sid: 's1', d: { ev: 'snapshots_done' } },
    ])
    assert.equal(h.quote.opened.length, 1, 'the first subscriber opened the stream')
  })

  test('deltas follow with contiguous seq, the same bytes the sequencer made', async () => {
    const sent = [1, 2, 3, 4, 5].map((v) => h.quote.emit('venuep:A', v))
    const got = await c.take(5)
    assert.deepEqual(
      got.map((f) => [f.type, f.seq]),
      [1, 2, 3, 4, 5].map((s) => ['delta', s]),
    )
    assert.deepEqual(c.raw.slice(-5), sent)
    assert.deepEqual(got[0], {
      type: 'delta',
      ch: 'quote',
      key: 'venuep:A',
      epoch: got[0]?.epoch,
      seq: 1,
      ts: NOW,
      lts: NOW,
      pts: NOW,
      d: { v: 1 },
    })
  })

  test('unknown keys are rejected at once, per key, the good ones served', async () => {
    await c.send({ op: 'subscribe', id: 2, ch: 'quote', keys: ['venuep:nope', 'venuep:B'] })
    const [ack, snap, done] = await c.take(3)
    assert.deepEqual(ack, {
      type: 'ack',
      id: 2,
      sid: 's2',
      accepted: ['venuep:B'],
      rejected: [{ key: 'venuep:nope', code: 'UNKNOWN_KEY', reason: 'no such instrument' }],
      recovered: false,
    })
    assert.equal(snap?.type, 'snapshot')
    assert.equal(snap?.key, 'venuep:B')
    assert.deepEqual(done, {
      type: 'marker',
      ch: 'quote',
      key: null,
      seq: null,
      sid: 's2',
      d: { ev: 'snapshots_done' },
    })
  })

  test('a key held by the connection is rejected, not subscribed twice', async () => {
    const ack = await c.command({ op: 'subscribe', id: 3, ch: 'quote', keys: ['venuep:A'] })
    assert.deepEqual(ack, {
      type: 'ack',
      id: 3,
      sid: 's3',
      accepted: [],
      rejected: [{ key: 'venuep:A', code: 'BAD_REQUEST', reason: 'already subscribed (s1)' }],
      recovered: false,
    })
    assert.deepEqual(await c.next(), {
      type: 'marker',
      ch: 'quote',
      key: null,
      seq: null,
      sid: 's3',
      d: { ev: 'snapshots_done' },
    })
  })

  test('list names every subscription and its keys', async () => {
    const ack = await c.command({ op: 'list', id: 4 })
    assert.deepEqual(ack, {
      type: 'ack',
      id: 4,
      subscriptions: [
        { sid: 's1', ch: 'quote', keys: ['venuep:A'] },
        { sid: 's2', ch: 'quote', keys: ['venuep:B'] },
        { sid: 's3', ch: 'quote', keys: [] },
      ],
    })
  })

  test('snapshot on request: ack then the state; a second one within the interval is refused per key', async () => {
    h.quote.emit('venuep:B', 'b1')
    assert.equal((await c.next()).seq, 1)
    const ack = await c.command({ op: 'snapshot', id: 5, ch: 'quote', keys: ['venuep:B', 'venuek:C'] })
    assert.deepEqual(ack, {
      type: 'ack',
      id: 5,
      accepted: ['venuep:B'],
      rejected: [{ key: 'venuek:C', code: 'BAD_REQUEST', reason: 'not subscribed on this connection' }],
    })
    const snap = await c.next()
    assert.deepEqual([snap.type, snap.key, snap.seq, snap.d], ['snapshot', 'venuep:B', 1, { v: 'b1' }])
    const again = await c.command({ op: 'snapshot', id: 6, ch: 'quote', keys: ['venuep:B'] })
    assert.deepEqual(again, {
      type: 'ack',
      id: 6,
      accepted: [],
      rejected: [{ key: 'venuep:B', code: 'RATE_LIMITED', reason: 'one snapshot per 1000 ms per key' }],
    })
  })

  test('update removes and adds keys: last_seq for the removed, a snapshot burst for the added', async () => {
    const ack = await c.command({ op: 'update', id: 7, sid: 's2', remove: ['venuep:B'], add: ['venuek:C'] })
    assert.deepEqual(ack, {
      type: 'ack',
      id: 7,
      sid: 's2',
      accepted: ['venuek:C'],
      rejected: [],
      recovered: false,
      last_seq: { 'venuep:B': 1 },
    })
    const [snap, done] = await c.take(2)
    assert.deepEqual([snap?.type, snap?.key], ['snapshot', 'venuek:C'])
    assert.deepEqual(done?.d, { ev: 'snapshots_done' })
    h.quote.emit('venuep:B', 'b2')
    h.quote.emit('venuek:C', 'c1')
    const next = await c.next()
    assert.deepEqual([next.key, next.seq], ['venuek:C', 1], 'nothing of the removed key')
  })
})

describe('unsubscribe', () => {
  test('no frame of the subscription after its ack, while frames are emitted around it', async () => {
    const c = await h.connect()
    const ack = await c.command({ op: 'subscribe', id: 1, ch: 'quote', keys: ['venuep:A'] })
    assert.equal(ack.type, 'ack')
    await c.take(2)
    // Emit continuously from the event loop, before, during and after the unsubscribe.
    let emitting = true
    let n = 0
    const pump = (): void => {
      if (!emitting) return
      for (let i = 0; i < 20; i++) h.quote.emit('venuep:A', n++)
      setImmediate(pump)
    }
    pump()
    await settle(20)
    const before = c.frames.length
    const unack = await c.command({ op: 'unsubscribe', id: 2, sid: 's1' })
    await settle(50)
    emitting = false
    const at = c.frames.indexOf(unack)
    const last = c.frames[at - 1] as Frame
    assert.ok(at > before, 'frames arrived before the ack')
    assert.deepEqual(unack, { type: 'ack', id: 2, sid: 's1', last_seq: { 'venuep:A': last.seq } })
    assert.deepEqual(
      c.frames.slice(at + 1).filter((f) => f.type !== 'hb'),
      [],
      'no frame after the ack',
    )
    // Everything before the ack was contiguous.
    const seqs = c.frames.slice(4, at).map((f) => f.seq as number)
    seqs.forEach((s, i) => assert.equal(s, (seqs[0] as number) + i))
    c.ws.close()
  })

  test('a stream is closed only after the resume window without subscribers; a new one has a new epoch', async () => {
    const d = await h.connect()
    await d.command({ op: 'subscribe', id: 1, ch: 'book', keys: ['venuek:C'], depth: 25 })
    const [snap] = await d.take(2)
    assert.equal(snap?.ch, 'book')
    assert.deepEqual(h.book.opened, ['book|venuek:C|25'], 'a book stream is (key, depth)')
    await d.command({ op: 'unsubscribe', id: 2, sid: 's1' })
    h.clock.increment(h.sequencer.windowMs - 1)
    assert.deepEqual(h.book.closed, [], 'still open within the window')
    h.clock.increment(1)
    assert.deepEqual(h.book.closed, ['book|venuek:C|25'])
    await d.command({ op: 'subscribe', id: 3, ch: 'book', keys: ['venuek:C'], depth: 25 })
    const [again] = await d.take(2)
    assert.notEqual(again?.epoch, snap?.epoch, 'a reopened stream has a new epoch')
    assert.equal(again?.seq, 0)
    d.ws.close()
  })

  test('a subscriber back within the window keeps the stream (and its epoch): the close is cancelled', async () => {
    const d = await h.connect()
    await d.command({ op: 'subscribe', id: 1, ch: 'book', keys: ['venuep:A'] })
    const [snap] = await d.take(2)
    h.book.emit('venuep:A', 1)
    await d.next()
    d.ws.close()
    await d.closed()
    h.clock.increment(h.sequencer.windowMs - 1)
    const e = await h.connect()
    const ack = await e.command({
      op: 'subscribe',
      id: 1,
      ch: 'book',
      keys: ['venuep:A'],
      resume: { 'venuep:A': { epoch: snap?.epoch as string, seq: 0 } },
    })
    assert.equal(ack.recovered, true)
    assert.deepEqual((await e.next()).d, { v: 1 }, 'the missed delta, replayed')
    h.clock.increment(h.sequencer.windowMs * 2)
    assert.ok(!h.book.closed.includes('book|venuep:A|10'), 'held again: not closed')
    e.ws.close()
  })
})

describe('resume', () => {
  let held: Client
  let frames: string[]
  let epoch: string

  before(async () => {
    held = await h.connect()
    await held.command({ op: 'subscribe', id: 1, ch: 'quote', keys: ['venuep:B'] })
    const [snap] = await held.take(2)
    epoch = snap?.epoch as string
    frames = [10, 11, 12, 13].map((v) => h.quote.emit('venuep:B', v) as string)
    await held.take(4)
  })

  after(() => held.ws.close())

  async function resumeWith(token: { epoch: string; seq: number }): Promise<Frame[]> {
    const c = await h.connect()
    const ack = await c.command({
      op: 'subscribe',
      id: 9,
      ch: 'quote',
      keys: ['venuep:B'],
      resume: { 'venuep:B': token },
    })
    const rest: Frame[] = [ack]
    for (;;) {
      const f = await c.next()
      rest.push(f)
      if (f.type === 'marker') break
    }
    c.ws.close()
    return rest
  }

  test('inside the window: the exact missed frames, recovered true', async () => {
    const seqAt = JSON.parse(frames[1] as string).seq as number
    const got = await resumeWith({ epoch, seq: seqAt })
    assert.deepEqual(got[0], { type: 'ack', id: 9, sid: 's1', accepted: ['venuep:B'], rejected: [], recovered: true })
    assert.deepEqual(
      got.slice(1, -1),
      frames.slice(2).map((f) => JSON.parse(f)),
    )
    assert.deepEqual(got.at(-1)?.d, { ev: 'snapshots_done' })
  })

  test('up to date: nothing replayed, recovered true', async () => {
    const last = JSON.parse(frames[3] as string).seq as number
    const got = await resumeWith({ epoch, seq: last })
    assert.equal(got[0]?.recovered, true)
    assert.equal(got.length, 2)
  })

  for (const [what, token] of [
    ['another epoch', () => ({ epoch: 'old.0', seq: 1 })],
    ['a seq ahead of the stream', () => ({ epoch, seq: 999 })],
  ] as const)
    test(`${what}: a snapshot, recovered false`, async () => {
      const got = await resumeWith(token())
      assert.equal(got[0]?.recovered, false)
      assert.deepEqual(
        got.slice(1, -1).map((f) => [f.type, f.seq, f.d]),
        [['snapshot', JSON.parse(frames[3] as string).seq, { v: 13 }]],
      )
    })

  test('older than the window: a snapshot, recovered false', async () => {
    h.clock.increment(h.sequencer.windowMs + 1)
    const got = await resumeWith({ epoch, seq: JSON.parse(frames[0] as string).seq as number })
    assert.equal(got[0]?.recovered, false)
    assert.equal(got[1]?.type, 'snapshot')
  })
})
