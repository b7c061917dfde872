import assert from 'node:assert/strict'
import type { Socket } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { waitFor } from '../../helpers/wait.js'
import { Harness, type Client, type Frame } from './harness.js'

/**
 * A client that stops reading (its TCP socket paused) fills its buffers until the server drops its frames. The
 * server must notice: the lagging stream gets one fresh snapshot once the socket drains, a socket that stays
 * stuck is closed with 4008, and an alerts frame is never dropped silently (close instead). Meanwhile another
 * client on the same stream receives every frame, contiguous.
 */
const PAYLOAD = 'x'.repeat(4_000)

function tcp(c: Client): Socket {
  return (c.ws as unknown as { _socket: Socket })._socket
}

/** Emits on `key` from the event loop (as an actor would) until `stop` holds; returns how many were emitted. */
async function pumpUntil(
  h: Harness,
  emit: (n: number) => void,
  stop: () => boolean,
  maxFrames = 40_000,
): Promise<number> {
  let n = 0
  while (!stop()) {
    if (n >= maxFrames) throw new Error(`no drop detected after ${n} frames`)
    for (let i = 0; i < 50; i++) emit(n++)
    // One heartbeat tick per batch: the server looks at every socket's buffer on each.
    h.clock.increment(h.config.heartbeatMs)
    await new Promise((r) => setImmediate(r))
  }
  return n
}

function deltasContiguous(frames: readonly Frame[], key: string): number[] {
  const seqs = frames.filter((f) => f.type === 'delta' && f.key === key).map((f) => f.seq as number)
  seqs.forEach((s, i) => assert.equal(s, (seqs[0] as number) + i, `contiguous at ${i}`))
  return seqs
}

describe('slow consumers', () => {
  let h: Harness

  before(async () => {
    h = await new Harness({ config: { maxBackpressureBytes: 16_384, heartbeatMs: 100 } }).start()
  })

  after(async () => {
    await h.close()
  })

  test('a paused client is re-snapshotted when it drains; the other one receives everything', async () => {
    const slow = await h.connect()
    const fast = await h.connect()
    for (const c of [slow, fast]) {
      await c.command({ op: 'subscribe', id: 1, ch: 'quote', keys: ['venuep:A'] })
      await c.take(2)
    }
    tcp(slow).pause()
    const emitted = await pumpUntil(
      h,
      (n) => h.quote.emit('venuep:A', `${n}${PAYLOAD}`),
      () => (h.server.statsSnapshot().drops.get('quote') ?? 0) > 0,
    )
    const last = h.quote.logs.get('venuep:A')?.seq as number
    // The other client is not held back: every frame, in order, promptly.
    await waitFor(() => fast.frames.filter((f) => f.type === 'delta').length === emitted, 3_000, 'every frame')
    assert.deepEqual(deltasContiguous(fast.frames, 'venuep:A').at(-1), last)

    tcp(slow).resume()
    await waitFor(
      () => slow.frames.some((f, i) => i > 4 && f.type === 'snapshot') || slow.closeCode !== undefined,
      10_000,
      'a re-snapshot or a close',
    )
    if (slow.closeCode !== undefined) {
      assert.equal(slow.closeCode, 4008)
      return
    }
    const at = slow.frames.findIndex((f, i) => i > 4 && f.type === 'snapshot')
    const before = deltasContiguous(slow.frames.slice(0, at), 'venuep:A')
    const snap = slow.frames[at] as Frame
    assert.ok((before.at(-1) ?? 0) < last, 'frames were lost')
    assert.deepEqual([snap.key, snap.seq], ['venuep:A', last], 'the fresh snapshot jumps to the newest state')
    assert.equal(h.server.statsSnapshot().resnapshots, 1)
    // And the stream goes on after it.
    h.quote.emit('venuep:A', 'after')
    await waitFor(() => slow.frames.at(-1)?.seq === last + 1, 5_000, 'the next delta')
    slow.ws.close()
    fast.ws.close()
    await Promise.all([slow.closed(), fast.closed()])
  })

  test('a client that keeps lagging (more than 3 re-snapshots within 60 s) is closed with 4008', async () => {
    const slow = await h.connect()
    await slow.command({ op: 'subscribe', id: 1, ch: 'quote', keys: ['venuek:C'] })
    await slow.take(2)
    const closesBefore = h.server.statsSnapshot().closes.get(4008) ?? 0
    for (let round = 0; round < 4; round++) {
      const resnapshots = h.server.statsSnapshot().resnapshots
      const drops = h.server.statsSnapshot().drops.get('quote') ?? 0
      tcp(slow).pause()
      await pumpUntil(
        h,
        (n) => h.quote.emit('venuek:C', `${n}${PAYLOAD}`),
        () => (h.server.statsSnapshot().drops.get('quote') ?? 0) > drops,
      )
      tcp(slow).resume()
      if (round < 3)
        await waitFor(() => h.server.statsSnapshot().resnapshots > resnapshots, 10_000, `re-snapshot ${round + 1}`)
    }
    const code = await slow.closed()
    assert.equal(code, 4008)
    assert.equal(h.server.statsSnapshot().closes.get(4008), closesBefore + 1)
    assert.deepEqual(slow.frames.at(-1), {
      type: 'error',
      id: null,
      code: 'SLOW_CONSUMER',
      message: 'lagging again after 3 re-snapshots within 60000 ms',
    })
  })

  test('a client that stays stuck is closed with 4008 once it has lagged too long', async () => {
    const slow = await h.connect()
    await slow.command({ op: 'subscribe', id: 1, ch: 'quote', keys: ['venuep:B'] })
    await slow.take(2)
    const dropsBefore = h.server.statsSnapshot().drops.get('quote') ?? 0
    const closesBefore = h.server.statsSnapshot().closes.get(4008) ?? 0
    tcp(slow).pause()
    await pumpUntil(
      h,
      (n) => h.quote.emit('venuep:B', `${n}${PAYLOAD}`),
      () => (h.server.statsSnapshot().drops.get('quote') ?? 0) > dropsBefore,
    )
    h.clock.increment(h.config.slowConsumer.maxLagMs + 1_000)
    await waitFor(
      () => (h.server.statsSnapshot().closes.get(4008) ?? 0) === closesBefore + 1,
      5_000,
      'the server closing it',
    )
    tcp(slow).resume()
    const code = await slow.closed()
    assert.ok(code === 4008 || code === 1006, `closed with ${code}`)
  })

  test('alerts are never dropped silently: the socket is closed with 4008 instead', async () => {
    const slow = await h.connect()
    await slow.command({ op: 'subscribe', id: 1, ch: 'alerts', keys: ['venuek:C'] })
    await slow.take(2)
    const closesBefore = h.server.statsSnapshot().closes.get(4008) ?? 0
    tcp(slow).pause()
    await pumpUntil(
      h,
      (n) => h.alerts.emit('venuek:C', `${n}${PAYLOAD}`),
      () => (h.server.statsSnapshot().closes.get(4008) ?? 0) > closesBefore,
    )
    tcp(slow).resume()
    const code = await slow.closed()
    assert.ok(code === 4008 || code === 1006, `closed with ${code}`)
    // Whatever it received before the close is contiguous: nothing was skipped.
    deltasContiguous(slow.frames, 'venuek:C')
  })
})
