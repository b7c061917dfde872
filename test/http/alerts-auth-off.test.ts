import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { OpenApiDocument } from '../../src/http/openapi.js'
import { assertError, request } from '../helpers/json-client.js'
import { signUp, startTestService, type TestService } from '../helpers/service.js'

/**
 * AUTH_REQUIRED=false (local use): data and alert endpoints answer without a key and without rate limits; alert
 * rules are scoped by `X-User-Id` alone (the spec's flow); key management still needs a key (it names the account).
 */
let s: TestService

before(async () => {
  s = await startTestService({ questions: 40, auth: 'off' })
})
after(() => s.close())

test('data endpoints answer without a key and without rate-limit headers', async () => {
  assert.equal(s.apiKey, undefined)
  const r = await request(s, '/api/v2/venuep/markets?limit=1', { operationId: 'listVenuepMarkets' })
  assert.equal(r.status, 200)
  assert.equal(r.headers.get('x-ratelimit-limit'), null)
})

test('alerts need only X-User-Id', async () => {
  const headers = { 'x-user-id': 'local-user' }
  const created = await request<{ id: string; status: string }>(s, '/api/v2/alerts', {
    headers,
    body: { trigger_type: 'spread_threshold', threshold: 0.03, channel: 'email', target: 'me@example.com' },
    operationId: 'createAlert',
  })
  assert.equal(created.status, 201)
  assert.equal(created.body.status, 'active')
  const list = await request<{ total: number }>(s, '/api/v2/alerts', { headers, operationId: 'listAlerts' })
  assert.equal(list.body.total, 1)
  assert.equal(
    (await request<{ total: number }>(s, '/api/v2/alerts', { headers: { 'x-user-id': 'someone-else' } })).body.total,
    0,
  )
  const { rows } = await s.db.query<{ account_id: string | null }>('SELECT account_id FROM alert_rules WHERE id = $1', [
    created.body.id,
  ])
  assert.equal(rows[0]?.account_id, null)
})

test('an e-mail rule without target is 422: without keys there is no account address to default to', async () => {
  const before = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_rules')).rows[0]?.n
  const r = await request(s, '/api/v2/alerts', {
    headers: { 'x-user-id': 'local-user' },
    body: { trigger_type: 'spread_threshold', threshold: 0.05, channel: 'email', scope: {} },
    operationId: 'createAlert',
  })
  assert.equal(r.status, 422)
  assert.deepEqual(r.body, {
    detail: [
      {
        type: 'missing',
        loc: ['body', 'target'],
        msg: 'Field required: without API keys (AUTH_REQUIRED=false) there is no account address to send e-mail alerts to; give `target`',
        input: null,
      },
    ],
  })
  assert.equal((await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_rules')).rows[0]?.n, before)
})

test('key management still needs a key; signup still works', async () => {
  assertError(await request(s, '/api/v2/developers/api-keys'), 401, 'unauthorized')
  const key = await signUp(s.baseUrl, 'local@example.com')
  assert.equal((await request(s, '/api/v2/developers/api-keys', { key, operationId: 'listApiKeys' })).status, 200)
})

test('the published description marks data routes public', async () => {
  const doc = (await (await fetch(`${s.baseUrl}/api/v2/openapi.json`)).json()) as OpenApiDocument
  assert.deepEqual(doc.paths['/api/v2/venuep/markets']?.get?.security, [])
  assert.deepEqual(doc.paths['/api/v2/alerts']?.post?.security, [])
  assert.equal(doc.paths['/api/v2/developers/api-keys']?.get?.security, undefined)
})
