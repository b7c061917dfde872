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
  console.log('welcome', JSON.stringify(w))
  const { ack, subscription } = await client.subscribe('quote', ['venuep:A', 'nope'])
  console.log('ack', JSON.stringify(ack))
  await waitFor(() => client.stream('quote', 'venuep:A') !== undefined && done.length === 1, 5000, 'snapshot')
  h.quote.emit('venuep:A', 1)
  h.quote.emit('venuep:A', 2)
  await waitFor(() => client.stream('quote', 'venuep:A')?.seq === 2, 5000, 'deltas')
  assert.deepEqual(client.value('quote', 'venuep:A'), { v: 2 })
  h.clock.increment(1_000)
  await waitFor(() => client.lastHeartbeat !== undefined, 5000, 'hb')
  console.log('hb', JSON.stringify(client.lastHeartbeat))
  console.log('pong', JSON.stringify(await client.ping()))
  console.log('list', JSON.stringify(await client.list()))
  console.log('snapshot', JSON.stringify(await client.snapshot('quote', ['venuep:A'])))
  // Heartbeat watchdog on the client's clock: drop, reconnect, resume.
  clock.increment(3_000)
  assert.equal(client.state, 'reconnecting')
  h.quote.emit('venuep:A', 3)
  clock.increment(250)
  await waitFor(() => resub.length === 1, 5000, 'resubscribed')
  console.log('resume ack', JSON.stringify(resub[0]))
  await waitFor(() => client.stream('quote', 'venuep:A')?.seq === 3, 5000, 'replayed')
  assert.deepEqual(client.value('quote', 'venuep:A'), { v: 3 })
  assert.deepEqual(gaps, [])
  const un = await client.unsubscribe(client.subscriptions[0]!)
  console.log('unsubscribe', JSON.stringify(un))
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
