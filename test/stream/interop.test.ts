import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import { nodeStreamClient } from '../../src/stream-client/node-client.js'
import { StreamClosedError } from '../../src/stream-client/stream-client.js'
import { waitFor } from '../helpers/wait.js'
import { Harness, VALID_KEY } from './server/harness.js'

let h: Harness
before(async () => {
  h = await new Harness().start()
})
after(() => h.close())

test('interop: the client against the real stream server', async () => {
  const clock = new SimulatedClock(0)
  const client = nodeStreamClient({
    url: `ws://127.0.0.1:${h.port}/api/v2/stream`,
    apiKey: VALID_KEY,
    clock,
    random: () => 0.5,
  })
  const done: unknown[] = []
  client.on('snapshotsDone', (f) => done.push(f))
  const resub: unknown[] = []
  client.on('resubscribed', (r) => resub.push(r.ack))
  const gaps: unknown[] = []
  client.on('gap', (g) => gaps.push(g))
  const w = await client.connect()
  assert.equal(w.type, 'welcome')
  const { ack, subscription } = await client.subscribe('quote', ['venuep:A', 'nope'])
  assert.deepEqual(ack.accepted, ['venuep:A'])
  assert.deepEqual(
    (ack.rejected ?? []).map((r) => [r.key, r.code]),
    [['nope', 'UNKNOWN_KEY']],
  )
  await waitFor(() => client.stream('quote', 'venuep:A') !== undefined && done.length === 1, 5000, 'snapshot')
  h.quote.emit('venuep:A', 1)
  h.quote.emit('venuep:A', 2)
  await waitFor(() => client.stream('quote', 'venuep:A')?.seq === 2, 5000, 'deltas')
  assert.deepEqual(client.value('quote', 'venuep:A'), { v: 2 })
  h.clock.increment(1_000)
  await waitFor(() => client.lastHeartbeat !== undefined, 5000, 'hb')
  assert.equal(client.lastHeartbeat?.n, 1)
  assert.equal((await client.ping()).type, 'pong')
  assert.equal((await client.list()).type, 'ack')
  assert.equal((await client.snapshot('quote', ['venuep:A'])).type, 'ack')
  // Heartbeat watchdog on the client's clock: drop, reconnect, resume.
  clock.increment(3_000)
  assert.equal(client.state, 'reconnecting')
  h.quote.emit('venuep:A', 3)
  clock.increment(250)
  await waitFor(() => resub.length === 1, 5000, 'resubscribed')
  assert.equal((resub[0] as { recovered: boolean }).recovered, true, 'resumed inside the window')
  await waitFor(() => client.stream('quote', 'venuep:A')?.seq === 3, 5000, 'replayed')
  assert.deepEqual(client.value('quote', 'venuep:A'), { v: 3 })
  assert.deepEqual(gaps, [])
  const un = await client.unsubscribe(client.subscriptions[0]!)
  assert.deepEqual((un as unknown as { last_seq: unknown }).last_seq, { 'venuep:A': 3 })
  void subscription
  client.close()

  const bad = nodeStreamClient({ url: `ws://127.0.0.1:${h.port}/api/v2/stream`, apiKey: 'nope', clock })
  await assert.rejects(bad.connect(), (e: unknown) => e instanceof StreamClosedError && e.code === 4401)
  const frameAuth = nodeStreamClient({
    url: `ws://127.0.0.1:${h.port}/api/v2/stream`,
    apiKey: VALID_KEY,
    clock,
    auth: 'frame',
  })
  await frameAuth.connect()
  frameAuth.close()
  const queryAuth = nodeStreamClient({
    url: `ws://127.0.0.1:${h.port}/api/v2/stream`,
    apiKey: VALID_KEY,
    clock,
    auth: 'query',
  })
  await queryAuth.connect()
  queryAuth.close()
})
