import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import WebSocket from 'ws'
import { request } from '../helpers/json-client.js'
import { signUp, startTestService, type TestService } from '../helpers/service.js'
import { startWebhookReceiver, type WebhookReceiver } from '../alerts/receivers.js'

/**
 * What must never be in the service's log, at any level (trace included): an API key (whole, or a near miss a
 * client mistyped), a webhook signing secret, an e-mail address. The service runs through the paths that handle
 * them — signup, key creation and revocation, bad keys on REST and on the stream (header, query and first frame),
 * webhook and e-mail rules, test deliveries, a secret rotation — and then every line it wrote is searched.
 */
let s: TestService
let receiver: WebhookReceiver

before(async () => {
  receiver = await startWebhookReceiver()
  s = await startTestService({
    questions: 30,
    log: { level: 'trace', keepAll: true },
    config: { alerts: { webhook: { allowedCidrs: ['127.0.0.0/8'] } } },
  })
})

after(async () => {
  await s?.close()
  await receiver?.close()
})

/** Opens the stream with `url` (and a first frame, if any) and returns the frames received within `ms`. */
async function streamFrames(url: string, first?: object, ms = 300): Promise<string[]> {
  const ws = new WebSocket(url)
  const frames: string[] = []
  ws.on('message', (data: Buffer) => frames.push(data.toString('utf8')))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  if (first !== undefined) ws.send(JSON.stringify(first))
  await new Promise((resolve) => setTimeout(resolve, ms))
  ws.close()
  return frames
}

test('no API key, signing secret or e-mail address is ever logged', async () => {
  const secrets: string[] = []
  const email = 'private.person+alerts@example.org'
  const key = await signUp(s.baseUrl, email, 'Secretive Co', 'logs must not say who I am')
  secrets.push(key, email, 'test-suite@example.com', s.apiKey as string)

  // A second key, then the first revoked (and used after).
  const created = await request(s, '/api/v2/developers/api-keys', { method: 'POST', key, body: { name: 'ci' } })
  assert.equal(created.status, 201, JSON.stringify(created.body))
  const second = created.body.api_key as string
  secrets.push(second)
  const listed = await request(s, '/api/v2/developers/api-keys', { key: second })
  const firstId = (listed.body.keys as { id: string; key_prefix: string }[]).find((k) =>
    key.startsWith(k.key_prefix.replace('…', '')),
  )?.id
  assert.ok(firstId !== undefined)
  assert.equal(
    (await request(s, `/api/v2/developers/api-keys/${firstId}`, { method: 'DELETE', key: second })).status,
    200,
  )
  assert.equal((await request(s, '/api/v2/venuep/markets', { key })).status, 401)

  // Near misses of a real key: a client's typo is a secret too (it is one character from a key).
  const nearMiss = `${second.slice(0, -1)}${second.endsWith('A') ? 'B' : 'A'}`
  secrets.push(nearMiss)
  assert.equal((await request(s, '/api/v2/venuep/markets', { key: nearMiss })).status, 401)
  assert.equal((await request(s, `/api/v2/venuep/markets?api_key=${nearMiss}`)).status, 401)

  // The stream: a key in the query, a bad key in the query, a first `auth` frame.
  const ws = s.baseUrl.replace('http', 'ws')
  assert.match((await streamFrames(`${ws}/api/v2/stream?api_key=${second}`))[0] ?? '', /"welcome"/)
  assert.match((await streamFrames(`${ws}/api/v2/stream?api_key=${nearMiss}`)).join(''), /AUTH_FAILED/)
  assert.match((await streamFrames(`${ws}/api/v2/stream`, { op: 'auth', api_key: nearMiss })).join(''), /AUTH_FAILED/)

  // Rules: a webhook (secret returned at creation, rotated, test delivery signed with it) and an e-mail target.
  const inbox = 'alert-inbox.private@example.net'
  secrets.push(inbox)
  const hook = await request(s, '/api/v2/alerts', {
    method: 'POST',
    key: second,
    headers: { 'x-user-id': 'secretive' },
    body: { trigger_type: 'spread_threshold', threshold: 0.05, channel: 'webhook', target: `${receiver.url}/hooks` },
  })
  assert.equal(hook.status, 201, JSON.stringify(hook.body))
  secrets.push(hook.body.signing_secret as string)
  const rotated = await request(s, `/api/v2/alerts/${String(hook.body.id)}/signing-secret`, {
    method: 'POST',
    key: second,
    headers: { 'x-user-id': 'secretive' },
  })
  assert.equal(rotated.status, 200, JSON.stringify(rotated.body))
  secrets.push(rotated.body.signing_secret as string)
  const mail = await request(s, '/api/v2/alerts', {
    method: 'POST',
    key: second,
    headers: { 'x-user-id': 'secretive' },
    body: { trigger_type: 'spread_threshold', threshold: 0.05, channel: 'email', target: inbox },
  })
  assert.equal(mail.status, 201, JSON.stringify(mail.body))
  for (const id of [hook.body.id, mail.body.id]) {
    const queued = await request(s, `/api/v2/alerts/${String(id)}/test`, {
      method: 'POST',
      key: second,
      headers: { 'x-user-id': 'secretive' },
    })
    assert.equal(queued.status, 202, JSON.stringify(queued.body))
  }
  await s.app.alerts.worker.idle()
  assert.equal(receiver.requests.length, 1, 'the webhook test delivery arrived')

  // The log spoke of these paths (the e-mail delivery's failure names the host it was for), and of no secret.
  const lines = s.logs.all()
  assert.ok(
    lines.some((l) => l.includes('"target_host":"example.net"')),
    'the failed e-mail delivery is logged, by host',
  )
  const leaks = secrets.flatMap((secret) =>
    lines.filter((l) => l.includes(secret)).map((l) => `${secret.slice(0, 12)}…: ${l.slice(0, 300)}`),
  )
  assert.deepEqual(leaks, [])
  // The e-mail addresses' local parts and domains apart, in case a line splits or encodes them.
  for (const address of [email, inbox]) {
    const encoded = encodeURIComponent(address)
    assert.deepEqual(
      lines.filter((l) => l.includes(encoded) || l.includes(address.split('@')[0] as string)),
      [],
    )
  }
})
