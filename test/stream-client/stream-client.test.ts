import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, test } from 'node:test'
import { crc32 as zlibCrc32 } from 'node:zlib'
import fc from 'fast-check'
import { SimulatedClock } from '../../src/core/clock.js'
import { nodeStreamClient } from '../../src/stream-client/node-client.js'
import { reconnectDelayMs } from '../../src/stream-client/reconnect-policy.js'
import {
  StreamClosedError,
  StreamCommandError,
  type StreamClient,
  type StreamClientEvents,
  type StreamClientOptions,
} from '../../src/stream-client/stream-client.js'
import { waitFor } from '../helpers/wait.js'
import { FakePeer, LIMITS, PeerStream, ReferenceBook, type PeerConnection } from './fake-peer.js'

/**
 * The client against a fake server that speaks the contract over a real socket. Timers inside the client
 * (reconnect backoff, heartbeat watchdog, command timeouts) run on a SimulatedClock the tests move; only socket
 * I/O is awaited.
 */
let peer: FakePeer
let clock: SimulatedClock
let client: StreamClient

beforeEach(async () => {
  peer = await FakePeer.start()
  clock = new SimulatedClock(1_000_000)
})

afterEach(async () => {
  client?.close()
  await peer.close()
})

function start(options: Partial<StreamClientOptions> = {}): StreamClient {
  client = nodeStreamClient({ url: peer.url, apiKey: 'good-key', clock, random: () => 0.5, ...options })
  return client
}

/** Every event of `name` the client emits from now on. */
function record<K extends keyof StreamClientEvents>(c: StreamClient, name: K): StreamClientEvents[K][] {
  const out: StreamClientEvents[K][] = []
  c.on(name, (v) => out.push(v))
  return out
}

/** A round trip: every frame the peer sent before the pong has been handled by the client. */
async function sync(c: StreamClient): Promise<void> {
  await c.ping()
}

const BOOK_KEY = 'venuek:KXFED-27APR-T4.25'

describe('connect and commands', () => {
  test('the key goes in X-API-Key; welcome resolves connect; acks, errors and pongs answer by id', async () => {
    const c = start()
    const states = record(c, 'state')
    const welcome = await c.connect()
    const conn = await peer.connection(0)
    assert.equal(conn.request.headers['x-api-key'], 'good-key')
    assert.deepEqual(welcome, { type: 'welcome', limits: LIMITS })
    assert.deepEqual(states, [{ state: 'connecting' }, { state: 'open' }])

    peer.respond = (p, cmd) => {
      if (cmd.op === 'subscribe')
        p.send({
          type: 'ack',
          id: cmd.id,
          sid: 's9',
          accepted: ['venuep:1'],
          rejected: [{ key: 'venuep:nope', code: 'UNKNOWN_KEY', reason: 'no such token' }],
          recovered: false,
        })
      else if (cmd.op === 'snapshot') p.send({ type: 'error', id: cmd.id, code: 'RATE_LIMITED', message: 'slow down' })
      else if (cmd.op === 'ping') p.send({ type: 'pong', id: cmd.id })
    }
    const sub = await c.subscribe('quote', ['venuep:1', 'venuep:nope'])
    assert.deepEqual(conn.commands.at(-1), { op: 'subscribe', id: 1, ch: 'quote', keys: ['venuep:1', 'venuep:nope'] })
    assert.deepEqual(sub.ack.rejected, [{ key: 'venuep:nope', code: 'UNKNOWN_KEY', reason: 'no such token' }])
    assert.deepEqual(
      { ch: sub.subscription.ch, keys: [...sub.subscription.keys], sid: sub.subscription.sid },
      {
        ch: 'quote',
        keys: ['venuep:1'],
        sid: 's9',
      },
    )
    await assert.rejects(c.snapshot('quote', ['venuep:1']), (e: unknown) => {
      assert.ok(e instanceof StreamCommandError)
      assert.equal(e.code, 'RATE_LIMITED')
      return true
    })
    assert.deepEqual(await c.ping(), { type: 'pong', id: 3 })
    assert.deepEqual(conn.commands.slice(1), [
      { op: 'snapshot', id: 2, ch: 'quote', keys: ['venuep:1'] },
      { op: 'ping', id: 3 },
    ])
  })

  test('query and first-frame auth (the browser ways) also get a welcome; the auth frame is acked by its id', async () => {
    start({ auth: 'query' })
    await client.connect()
    assert.equal(new URL((await peer.connection(0)).request.url!, 'http://x').searchParams.get('api_key'), 'good-key')
    client.close()

    start({ auth: 'frame' })
    await client.connect()
    const conn = await peer.connection(1)
    assert.equal(conn.request.headers['x-api-key'], undefined)
    assert.deepEqual(conn.commands[0], { op: 'auth', id: 1, key: 'good-key' })
  })

  test('unsubscribe returns the ack with last_seq and forgets the streams; update adds and removes keys', async () => {
    const c = start()
    await c.connect()
    const conn = await peer.connection(0)
    const { subscription } = await c.subscribe('quote', ['venuep:1'])
    const q = new PeerStream('quote', 'venuep:1')
    conn.send(q.snapshot({ best_bid: 0.4, best_ask: 0.42, bid_size: 10, ask_size: 5, probability: 0.41, stale: false }))
    await sync(c)
    assert.equal(c.stream('quote', 'venuep:1')?.seq, 0)
    await c.update(subscription, { add: ['venuep:2'] })
    assert.deepEqual([...subscription.keys], ['venuep:1', 'venuep:2'])
    peer.respond = (p, cmd) => p.send({ type: 'ack', id: cmd.id, sid: cmd.sid, last_seq: { 'venuep:1': 0 } })
    const ack = await c.unsubscribe(subscription)
    assert.deepEqual(ack, { type: 'ack', id: 4, sid: 's1', last_seq: { 'venuep:1': 0 } })
    assert.deepEqual(conn.commands.slice(1), [
      { op: 'ping', id: 2 },
      { op: 'update', id: 3, sid: 's1', add: ['venuep:2'] },
      { op: 'unsubscribe', id: 4, sid: 's1' },
    ])
    assert.equal(c.stream('quote', 'venuep:1'), undefined)
    assert.deepEqual(c.subscriptions, [])
  })
})

describe('books over the socket', () => {
  /** Frames built from random level operations, each carrying the reference book's checksum. */
  const price = fc.integer({ min: 40, max: 60 }).map((c) => (c / 100).toFixed(4))
  const size = fc.oneof(
    fc.constant('0'),
    fc.integer({ min: 1, max: 999 }).map((n) => `${n}.00`),
  )
  const side = fc.array(fc.tuple(price, size), { maxLength: 5 })
  const ops = fc.record({ bids: side, asks: side })

  test('property: random level ops sent as snapshot + deltas assemble the reference book; every crc verifies', async () => {
    const c = start()
    await c.connect()
    const conn = await peer.connection(0)
    await c.subscribe('book', [BOOK_KEY], { depth: 10 })
    const mismatches = record(c, 'crcMismatch')
    let round = 0
    await fc.assert(
      fc.asyncProperty(ops, fc.array(ops, { maxLength: 12 }), async (first, rest) => {
        const ref = new ReferenceBook()
        const stream = new PeerStream('book', BOOK_KEY, `e${round++}`)
        const apply = (d: { bids: [string, string][]; asks: [string, string][] }) => {
          for (const [p, s] of d.bids) ref.set('bids', p, s)
          for (const [p, s] of d.asks) ref.set('asks', p, s)
          return { ...d, crc: ref.crc() }
        }
        // A snapshot is the whole book (no zero sizes in it), so it replaces whatever the last run left.
        const snap = apply(first)
        conn.send(stream.snapshot({ bids: ref.levels('bids'), asks: ref.levels('asks'), crc: snap.crc }))
        for (const d of rest) conn.send(stream.delta(apply(d)))
        await sync(c)
        assert.deepEqual(c.book(BOOK_KEY)?.view(), { bids: ref.levels('bids'), asks: ref.levels('asks') })
        assert.deepEqual(c.stream('book', BOOK_KEY), {
          epoch: stream.epoch,
          seq: stream.seq,
          awaitingSnapshot: false,
          stale: false,
        })
      }),
      { numRuns: 30 },
    )
    assert.deepEqual(mismatches, [])
  })

  test('a corrupted delta fails its crc: the client asks for a snapshot, skips deltas until it comes, then goes on', async () => {
    const c = start()
    await c.connect()
    const conn = await peer.connection(0)
    await c.subscribe('book', [BOOK_KEY], { depth: 10 })
    const mismatches = record(c, 'crcMismatch')
    const books = record(c, 'book')
    const ref = new ReferenceBook()
    const stream = new PeerStream('book', BOOK_KEY, 'b7e1', 1_040)
    ref.set('bids', '0.4700', '5.00')
    ref.set('asks', '0.4900', '7.00')
    conn.send(stream.snapshot({ bids: ref.levels('bids'), asks: ref.levels('asks'), crc: ref.crc() }))
    // The frame lost a level on the way: the server's book added 0.4600 and removed 0.4700, the frame says only
    // the removal, so the crc (of the server's book) disagrees with the client's.
    ref.set('bids', '0.4600', '12.00')
    ref.set('bids', '0.4700', '0')
    conn.send(stream.delta({ bids: [['0.4700', '0']], asks: [], crc: ref.crc() }))
    const asked = await conn.nextCommand('snapshot')
    assert.deepEqual(asked, { op: 'snapshot', id: 2, ch: 'book', keys: [BOOK_KEY] })
    assert.deepEqual(mismatches, [
      {
        ch: 'book',
        key: BOOK_KEY,
        expected: zlibCrc32('0.4900:7.00|0.4600:12.00'),
        actual: zlibCrc32('0.4900:7.00|'),
      },
    ])
    // A delta in flight before the snapshot is skipped: the client's state is known to be wrong.
    ref.set('asks', '0.5000', '1.00')
    conn.send(stream.delta({ bids: [], asks: [['0.5000', '1.00']], crc: ref.crc() }))
    conn.send(stream.snapshot({ bids: ref.levels('bids'), asks: ref.levels('asks'), crc: ref.crc() }))
    ref.set('asks', '0.4900', '0')
    conn.send(stream.delta({ bids: [], asks: [['0.4900', '0']], crc: ref.crc() }))
    await sync(c)
    assert.deepEqual(c.book(BOOK_KEY)?.view(), {
      bids: [['0.4600', '12.00']],
      asks: [['0.5000', '1.00']],
    })
    assert.deepEqual(
      books.map((b) => [b.frame.type, b.frame.seq]),
      [
        ['snapshot', 1_040],
        ['snapshot', 1_042],
        ['delta', 1_043],
      ],
    )
    assert.equal(mismatches.length, 1)
    assert.equal(conn.commands.filter((x) => x.op === 'snapshot').length, 1, 'one request, not one per delta')
  })

  test('a gap (a delta that is not last + 1) asks for a snapshot of that key only', async () => {
    const c = start()
    await c.connect()
    const conn = await peer.connection(0)
    await c.subscribe('quote', ['venuep:1', 'venuep:2'])
    const gaps = record(c, 'gap')
    const a = new PeerStream('quote', 'venuep:1', 'q1', 7)
    const b = new PeerStream('quote', 'venuep:2', 'q1', 3)
    conn.send(a.snapshot({ probability: 0.4 }))
    conn.send(b.snapshot({ probability: 0.6 }))
    conn.send(a.delta({ probability: 0.41 }))
    conn.send(a.deltaAfterLoss(2, { probability: 0.45 }))
    conn.send(b.delta({ probability: 0.61 }))
    assert.deepEqual(await conn.nextCommand('snapshot'), { op: 'snapshot', id: 2, ch: 'quote', keys: ['venuep:1'] })
    await sync(c)
    assert.equal(gaps.length, 1)
    assert.deepEqual(
      { ch: gaps[0]!.ch, key: gaps[0]!.key, held: gaps[0]!.held, got: gaps[0]!.got.seq },
      { ch: 'quote', key: 'venuep:1', held: { epoch: 'q1', seq: 8 }, got: 11 },
    )
    assert.deepEqual(c.value('quote', 'venuep:1'), { probability: 0.41 }, 'the frame after the gap is not applied')
    assert.deepEqual(c.value('quote', 'venuep:2'), { probability: 0.61 })
    conn.send(a.snapshot({ probability: 0.46 }))
    conn.send(a.delta({ probability: 0.47 }))
    await sync(c)
    assert.deepEqual(c.value('quote', 'venuep:1'), { probability: 0.47 })
    assert.deepEqual(c.stream('quote', 'venuep:1'), { epoch: 'q1', seq: 12, awaitingSnapshot: false, stale: false })
  })

  test('a refused snapshot request (RATE_LIMITED) is asked again after snapshotRetryMs while the stream still waits', async () => {
    const c = start({ snapshotRetryMs: 1_000 })
    await c.connect()
    const conn = await peer.connection(0)
    await c.subscribe('quote', ['venuep:1'])
    peer.respond = (p, cmd) => {
      if (cmd.op === 'snapshot') p.send({ type: 'error', id: cmd.id, code: 'RATE_LIMITED', message: 'once per second' })
      else if (cmd.op === 'ping') p.send({ type: 'pong', id: cmd.id })
    }
    const a = new PeerStream('quote', 'venuep:1', 'q', 1)
    conn.send(a.snapshot({ probability: 0.4 }))
    conn.send(a.deltaAfterLoss(1, { probability: 0.41 }))
    assert.deepEqual(await conn.nextCommand('snapshot'), { op: 'snapshot', id: 2, ch: 'quote', keys: ['venuep:1'] })
    await sync(c)
    clock.increment(999)
    await sync(c)
    assert.equal(conn.commands.filter((x) => x.op === 'snapshot').length, 1)
    clock.increment(1)
    const again = await conn.nextCommand('snapshot')
    assert.deepEqual({ ...again, id: 0 }, { op: 'snapshot', id: 0, ch: 'quote', keys: ['venuep:1'] })
  })

  test('venue_disconnect marks the stream stale (the marker takes a seq); resync clears it and a snapshot follows', async () => {
    const c = start()
    await c.connect()
    const conn = await peer.connection(0)
    await c.subscribe('book', [BOOK_KEY])
    const stale = record(c, 'stale')
    const markers = record(c, 'marker')
    const done = record(c, 'snapshotsDone')
    const s = new PeerStream('book', BOOK_KEY, 'e', 5)
    const ref = new ReferenceBook()
    ref.set('bids', '0.3000', '1.00')
    conn.send(s.snapshot({ bids: ref.levels('bids'), asks: [], crc: ref.crc() }))
    conn.send({ type: 'marker', ch: 'book', key: null, seq: null, sid: 's1', d: { ev: 'snapshots_done' } })
    const disconnect = { ev: 'venue_disconnect', venue: 'venuek', reason: 'stale_no_data', since: 1_781_159_489_957 }
    conn.send(s.marker(disconnect))
    await sync(c)
    assert.deepEqual(c.stream('book', BOOK_KEY), { epoch: 'e', seq: 6, awaitingSnapshot: false, stale: true })
    conn.send(s.marker({ ev: 'resync', reason: 'venue_reconnected', snapshot_follows: true }))
    ref.set('bids', '0.3100', '2.00')
    conn.send(s.snapshot({ bids: ref.levels('bids'), asks: [], crc: ref.crc() }))
    await sync(c)
    assert.deepEqual(
      stale.map((x) => [x.key, x.stale, x.marker.ev]),
      [
        [BOOK_KEY, true, 'venue_disconnect'],
        [BOOK_KEY, false, 'resync'],
      ],
    )
    assert.deepEqual(
      markers.map((m) => m.seq),
      [6, 7],
    )
    assert.deepEqual(
      done.map((d) => d.sid),
      ['s1'],
    )
    assert.deepEqual(c.book(BOOK_KEY)?.view().bids, ref.levels('bids'))
    assert.deepEqual(c.stream('book', BOOK_KEY), { epoch: 'e', seq: 7, awaitingSnapshot: false, stale: false })
  })
})

describe('spreads.top over the socket', () => {
  test('upserts and removes assemble the ranked list; a crc mismatch asks for a snapshot', async () => {
    const c = start()
    await c.connect()
    const conn = await peer.connection(0)
    const view = 'limit=20&min_spread=0.02'
    await c.subscribe('spreads.top', [view])
    const s = new PeerStream('spreads.top', view, 't', 0)
    const rec = (id: string, spread: number) => ({ id, event_title: `E ${id}`, outcome_title: 'Yes', spread })
    conn.send(
      s.snapshot({
        upsert: [
          { rank: 1, id: 'p1', record: rec('p1', 0.2) },
          { rank: 2, id: 'p2', record: rec('p2', 0.1) },
        ],
        crc: zlibCrc32('p1,p2'),
      }),
    )
    conn.send(
      s.delta({
        upsert: [
          { rank: 1, id: 'p3', record: rec('p3', 0.3) },
          { rank: 2, id: 'p1', record: rec('p1', 0.2) },
        ],
        remove: ['p2'],
        crc: zlibCrc32('p3,p1'),
      }),
    )
    await sync(c)
    assert.deepEqual(c.topList(view)?.items(), [
      { rank: 1, id: 'p3', record: rec('p3', 0.3) },
      { rank: 2, id: 'p1', record: rec('p1', 0.2) },
    ])
    conn.send(s.delta({ upsert: [], remove: [], crc: zlibCrc32('p1,p3') }))
    assert.deepEqual(await conn.nextCommand('snapshot'), { op: 'snapshot', id: 3, ch: 'spreads.top', keys: [view] })
  })
})

describe('reconnect', () => {
  test('after bye + 1001 it waits reconnect_after_ms plus jitter, then resumes every stream from the last seq held', async () => {
    const c = start()
    await c.connect()
    const conn = await peer.connection(0)
    await c.subscribe('book', [BOOK_KEY], { depth: 25 })
    await c.subscribe('quote', ['venuep:1', 'venuep:2'])
    const book = new PeerStream('book', BOOK_KEY, 'b7e1', 1_043)
    const q1 = new PeerStream('quote', 'venuep:1', 'q', 10)
    const ref = new ReferenceBook()
    ref.set('asks', '0.5000', '1.00')
    conn.send(book.snapshot({ bids: [], asks: ref.levels('asks'), crc: ref.crc() }))
    ref.set('asks', '0.5100', '2.00')
    conn.send(book.delta({ bids: [], asks: [['0.5100', '2.00']], crc: ref.crc() }))
    conn.send(q1.snapshot({ probability: 0.5 }))
    conn.send(q1.delta({ probability: 0.51 }))
    await sync(c)
    const scheduled = record(c, 'reconnectScheduled')
    const states = record(c, 'state')
    conn.send({ type: 'bye', reconnect_after_ms: 2_000 })
    conn.close(1001, 'restart')
    await waitFor(() => scheduled.length === 1, 5_000, 'a reconnect scheduled')
    const delayMs = reconnectDelayMs(0, { baseMs: 500, maxMs: 30_000, random: () => 0.5 }, 2_000)
    assert.deepEqual(scheduled, [{ attempt: 0, delayMs, code: 1001 }])
    assert.equal(delayMs, 2_250)
    clock.increment(delayMs - 1)
    await new Promise((r) => setTimeout(r, 50))
    assert.equal(peer.connections.length, 1, 'not before reconnect_after_ms + jitter')
    clock.increment(1)
    const again = await peer.connection(1)
    const [bookSub, quoteSub] = [await again.nextCommand('subscribe'), await again.nextCommand('subscribe')]
    assert.deepEqual(bookSub, {
      op: 'subscribe',
      id: bookSub.id,
      ch: 'book',
      keys: [BOOK_KEY],
      depth: 25,
      resume: { [BOOK_KEY]: { epoch: 'b7e1', seq: 1_044 } },
    })
    // venuep:2 never got a snapshot: no token, so the server sends one.
    assert.deepEqual(quoteSub, {
      op: 'subscribe',
      id: quoteSub.id,
      ch: 'quote',
      keys: ['venuep:1', 'venuep:2'],
      resume: { 'venuep:1': { epoch: 'q', seq: 11 } },
    })
    // The server replays what was missed with the original seq; the book goes on from what it held.
    ref.set('asks', '0.5000', '0')
    again.send(book.delta({ bids: [], asks: [['0.5000', '0']], crc: ref.crc() }))
    await sync(c)
    assert.deepEqual(c.book(BOOK_KEY)?.view(), { bids: [], asks: [['0.5100', '2.00']] })
    assert.deepEqual(
      states.map((s) => s.state),
      ['reconnecting', 'open'],
    )
    assert.deepEqual(
      c.subscriptions.map((s) => s.sid),
      ['s1', 's2'],
      'the sids of the new connection',
    )
  })

  test('no reconnect after 4401: connect rejects, the state is closed, no timer is left', async () => {
    const c = start({ apiKey: 'bad-key' })
    const errors = record(c, 'error')
    const scheduled = record(c, 'reconnectScheduled')
    await assert.rejects(c.connect(), (e: unknown) => {
      assert.ok(e instanceof StreamClosedError)
      assert.equal(e.code, 4401)
      return true
    })
    assert.equal(c.state, 'closed')
    assert.deepEqual(errors, [{ type: 'error', id: null, code: 'AUTH_FAILED', message: 'unknown API key' }])
    clock.increment(600_000)
    await new Promise((r) => setTimeout(r, 50))
    assert.deepEqual(scheduled, [])
    assert.equal(peer.connections.length, 1)
    assert.equal(clock.pendingTimers, 0)
  })

  test('backoff grows per failed attempt and is jittered by the injected random source; a welcome resets it', async () => {
    const randoms = [0.9, 0.3, 0.99, 0.5, 0.1, 0.75]
    let i = 0
    const c = start({ random: () => randoms[i++ % randoms.length]!, reconnect: { baseMs: 100, maxMs: 1_000 } })
    const scheduled = record(c, 'reconnectScheduled')
    peer.autoWelcome = false
    // Every attempt is refused in a different retryable way: rate limited, slow consumer, network error.
    const refusals = [
      (p: PeerConnection) => p.close(4029, 'rate limited'),
      (p: PeerConnection) => p.close(4008, 'slow consumer'),
      (p: PeerConnection) => p.terminate(),
    ]
    void c.connect()
    for (let n = 0; n < 6; n++) {
      refusals[n % 3]!(await peer.connection(n))
      await waitFor(() => scheduled.length === n + 1, 5_000, `attempt ${n}`)
      clock.increment(scheduled[n]!.delayMs)
    }
    ;(await peer.connection(6)).welcome()
    await waitFor(() => c.state === 'open', 5_000, 'open')
    assert.deepEqual(
      scheduled.map((s) => [s.attempt, s.code, s.delayMs]),
      [
        [0, 4029, 90], // 0.9 × 100
        [1, 4008, 60], // 0.3 × 200
        [2, 1006, 396], // 0.99 × 400
        [3, 4029, 400], // 0.5 × 800
        [4, 4008, 100], // 0.1 × 1000 (the cap)
        [5, 1006, 750], // 0.75 × 1000
      ],
    )
    ;(await peer.connection(6)).close(4029)
    await waitFor(() => scheduled.length === 7, 5_000, 'after a good connection')
    assert.deepEqual(scheduled[6], { attempt: 0, code: 4029, delayMs: 90 })
  })

  test('no hb for 3 s on an open socket: the client drops it and reconnects', async () => {
    const c = start()
    await c.connect()
    const conn = await peer.connection(0)
    const timeouts = record(c, 'heartbeatTimeout')
    const scheduled = record(c, 'reconnectScheduled')
    const hb = { type: 'hb', n: 1, ts: clock.now(), venues: { venuep: { state: 'up', age_ms: 140 } } }
    clock.increment(2_000)
    conn.send(hb)
    await sync(c)
    assert.deepEqual(c.lastHeartbeat, hb)
    clock.increment(2_999)
    assert.deepEqual(timeouts, [], 'the hb re-armed the watchdog')
    clock.increment(1)
    assert.deepEqual(timeouts, [{ sinceMs: 3_000 }])
    assert.deepEqual(scheduled, [{ attempt: 0, code: 1006, delayMs: 250 }])
    assert.ok((await conn.closed).code !== 1001)
    clock.increment(250)
    await peer.connection(1)
    await waitFor(() => c.state === 'open', 5_000, 'open again')
  })

  test('commands while disconnected are refused at once; commands pending at a close are rejected', async () => {
    const c = start()
    await assert.rejects(c.ping(), /DISCONNECTED/)
    await c.connect()
    const conn = await peer.connection(0)
    peer.respond = () => {}
    const pending = c.list()
    await conn.nextCommand('list')
    conn.close(4029)
    await assert.rejects(pending, (e: unknown) => e instanceof StreamCommandError && e.code === 'DISCONNECTED')
  })

  test('a command not answered within commandTimeoutMs is rejected with TIMEOUT; its late answer changes nothing', async () => {
    const c = start({ commandTimeoutMs: 2_000 })
    await c.connect()
    const conn = await peer.connection(0)
    const errors = record(c, 'error')
    peer.respond = () => {}
    const pending = c.list()
    const sent = await conn.nextCommand('list')
    clock.increment(1_999)
    clock.increment(1)
    await assert.rejects(pending, (e: unknown) => e instanceof StreamCommandError && e.code === 'TIMEOUT')
    // The connection stays; the late ack and an error for the timed-out id are ignored, the next command answered.
    peer.respond = (p, cmd) => p.send({ type: 'pong', id: cmd.id })
    conn.send({ type: 'ack', id: sent.id, subscriptions: [] })
    conn.send({ type: 'error', id: sent.id, code: 'RATE_LIMITED', message: 'late' })
    assert.deepEqual(await c.ping(), { type: 'pong', id: (sent.id as number) + 1 })
    assert.equal(c.state, 'open')
    assert.deepEqual(
      errors.map((e) => e.code),
      ['RATE_LIMITED'],
      'an error no command waits for is the connection’s',
    )
  })
})
