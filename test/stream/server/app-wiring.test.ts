import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import WebSocket from 'ws'
import { startTestService, type TestService } from '../../helpers/service.js'
import { Client } from './harness.js'

/**
 * The stream as the running service serves it: the same port as REST, keys checked by the app's Authenticator,
 * each venue's feed state in `hb`, the stream counters in /metrics, and `bye` + 1001 when the service closes.
 */
let s: TestService

before(async () => {
  s = await startTestService({ questions: 40 })
})

after(async () => {
  await s?.close()
})

function connect(headers: Record<string, string>): Client {
  return new Client(new WebSocket(`${s.baseUrl.replace('http', 'ws')}/api/v2/stream`, { headers }))
}

test('a real key gets welcome, hb carries each venue, /metrics counts the connection, close says bye', async () => {
  const c = connect({ 'x-api-key': s.apiKey as string })
  assert.equal((await c.next()).type, 'welcome')
  assert.deepEqual(await c.command({ op: 'subscribe', id: 1, ch: 'weather', keys: ['x'] }), {
    type: 'error',
    id: 1,
    code: 'UNKNOWN_CHANNEL',
    message: 'no channel "weather"',
  })
  s.clock.increment(1_000)
  const hb = await c.nextOf('hb')
  assert.equal(hb.n, 1)
  const venues = hb.venues as Record<string, { state: string; age_ms: number | null }>
  assert.deepEqual(Object.keys(venues).sort(), Object.keys(s.app.venues).sort())
  for (const v of Object.values(venues)) assert.ok(['up', 'degraded', 'down'].includes(v.state))

  const metrics = await (await fetch(`${s.baseUrl}/metrics`, { headers: s.authHeaders })).text()
  assert.match(metrics, /^predmkt_stream_connections 1$/m)

  const bad = connect({ 'x-api-key': 'pmk_live_notakey' })
  assert.equal((await bad.next()).code, 'AUTH_FAILED')
  assert.equal(await bad.closed(), 4401)

  await s.close()
  assert.equal(await c.closed(), 1001)
  assert.deepEqual(c.frames.at(-1), { type: 'bye', reconnect_after_ms: 1_000 })
})
