import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { waitFor } from '../../helpers/wait.js'
import { Harness } from './harness.js'

/**
 * `hb` every second to every socket, `n` contiguous per socket, with each venue's state and data age (what proves
 * the feed, not just the socket); `bye` then 1001 at the end of a connection's lifetime and on shutdown.
 */
let h: Harness

before(async () => {
  h = await new Harness({ config: { maxLifetimeS: 3_600, reconnectAfterMs: 2_500 } }).start()
})

after(async () => {
  await h.close()
})

test('hb: n contiguous per socket, the venues as the injected function reports them', async () => {
  const a = await h.connect()
  h.clock.increment(1_000)
  const b = await h.connect()
  h.venueAges.venuek = { state: 'down', age_ms: null }
  h.clock.increment(1_000)
  h.clock.increment(1_000)
  const hbA = [await a.next(), await a.next(), await a.next()]
  const hbB = [await b.next(), await b.next()]
  const t0 = 1_000_000
  assert.deepEqual(hbA, [
    { type: 'hb', n: 1, ts: t0 + 1_000, venues: { venuep: { state: 'up', age_ms: 140 } } },
    {
      type: 'hb',
      n: 2,
      ts: t0 + 2_000,
      venues: { venuep: { state: 'up', age_ms: 140 }, venuek: { state: 'down', age_ms: null } },
    },
    {
      type: 'hb',
      n: 3,
      ts: t0 + 3_000,
      venues: { venuep: { state: 'up', age_ms: 140 }, venuek: { state: 'down', age_ms: null } },
    },
  ])
  assert.deepEqual(
    hbB.map((f) => f.n),
    [1, 2],
  )
  a.ws.close()
  b.ws.close()
  await Promise.all([a.closed(), b.closed()])
  delete h.venueAges.venuek
})

test('max lifetime: bye, then close 1001', async () => {
  const c = await h.connect()
  h.clock.increment(3_600_000)
  const frames = []
  for (;;) {
    const f = await c.next()
    if (f.type === 'hb') continue
    frames.push(f)
    break
  }
  assert.deepEqual(frames, [{ type: 'bye', reconnect_after_ms: 0 }])
  assert.equal(await c.closed(), 1001)
})

test('shutdown: bye with reconnect_after_ms to every socket, then 1001; streams closed', async () => {
  const a = await h.connect()
  const b = await h.connect()
  await a.command({ op: 'subscribe', id: 1, ch: 'quote', keys: ['venuep:A'] })
  h.server.close()
  for (const c of [a, b]) {
    assert.equal(await c.closed(), 1001)
    assert.deepEqual(c.frames.at(-1), { type: 'bye', reconnect_after_ms: 2_500 })
  }
  assert.deepEqual(h.quote.closed, ['quote|venuep:A'])
  await waitFor(() => h.server.stats.connections === 0, 2_000, 'every close')
  assert.deepEqual(h.server.statsSnapshot().closes.get(1001), 3)
})
