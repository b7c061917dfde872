import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { OpenApiDocument } from '../../src/http/openapi.js'
import { countRows, findInAnyColumn, INJECTIONS } from '../store/scan.js'
import { assertError, assertInvalid, request, type JsonResponse } from '../helpers/json-client.js'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * Developer accounts, keys and authentication through HTTP, on the whole service (simulated venues, in-memory
 * PGlite, auth on as in production): signup, key creation, listing and revocation, and the 401s of the data
 * endpoints. Rate limits have their own suite (developers-rate-limit.test.ts).
 */
let s: TestService

before(async () => {
  s = await startTestService({ questions: 40, config: { auth: { maxActiveKeysPerAccount: 3 } } })
})
after(() => s.close())

const DATA = '/api/v2/venuep/markets?limit=2'
const KEY = /^pmk_live_[0-9A-Za-z]{43}$/

interface SignupCreated {
  account_id: string
  email: string
  company: string
  use_case: string
  created_at: string
  api_key: string
  key_returned_once: true
  key: ApiKey
}

interface Usage {
  rate_limit: { remaining: number; limit: number }
  usage: { key: { requests: { current_minute: number; last_hour: number; last_day: number } } }
  key: { key_prefix: string }
}

interface ApiKey {
  id: string
  name: string
  key_prefix: string
  status: 'active' | 'revoked'
  created_at: string
  revoked_at: string | null
}

function signup(body: unknown, contentType?: string | null): Promise<JsonResponse> {
  return request(s, '/api/v2/developers/signup', {
    body,
    operationId: 'signup',
    ...(contentType === undefined ? {} : { contentType }),
  })
}

async function newAccount(email: string): Promise<SignupCreated> {
  const r = await signup({ email, company: 'Acme', use_case: 'dashboards' })
  assert.equal(r.status, 201, JSON.stringify(r.body))
  return r.body as unknown as SignupCreated
}

function data(key: string | undefined): Promise<JsonResponse> {
  return request(s, DATA, { key, operationId: 'listVenuepMarkets' })
}

describe('signup', () => {
  test('a new address: 201, the account and its first key, shown once', async () => {
    const before = await countRows(s.db, 'accounts')
    const r = await signup({ email: 'Ada@Example.com', company: 'Analytical Engines', use_case: 'spread dashboards' })
    assert.equal(r.status, 201)
    const b = r.body as unknown as SignupCreated
    assert.match(b.api_key, KEY)
    assert.equal(b.key_returned_once, true)
    assert.deepEqual([b.email, b.company, b.use_case], ['Ada@Example.com', 'Analytical Engines', 'spread dashboards'])
    assert.match(b.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/)
    assert.deepEqual(
      { ...b.key, id: '-', created_at: '-' },
      {
        id: '-',
        name: 'default',
        key_prefix: `${b.api_key.slice(0, 13)}…`,
        status: 'active',
        created_at: '-',
        revoked_at: null,
      },
    )
    assert.equal(await countRows(s.db, 'accounts'), before + 1)
    assert.equal((await data(b.api_key)).status, 200, 'the key works at once')
  })

  test('the same address again (any case): 200, company and use case updated, no key', async () => {
    await newAccount('repeat@example.com')
    const keysBefore = await countRows(s.db, 'api_keys')
    const r = await signup({ email: 'REPEAT@example.COM', company: 'New Co', use_case: 'alerts' })
    assert.equal(r.status, 200)
    assert.deepEqual(
      { ...r.body, detail: '-' },
      {
        email: 'repeat@example.com',
        company: 'New Co',
        use_case: 'alerts',
        api_key: null,
        key_returned_once: false,
        detail: '-',
      },
    )
    assert.equal(await countRows(s.db, 'api_keys'), keysBefore)
    const { rows } = await s.db.query<{ company: string }>(
      "SELECT company FROM accounts WHERE lower(email) = 'repeat@example.com'",
    )
    assert.deepEqual(
      rows.map((x) => x.company),
      ['New Co'],
    )
  })

  test('two signups for one address at once: one account, one key', async () => {
    const [a, b] = await Promise.all([
      signup({ email: 'twin@example.com', company: 'A', use_case: 'x' }),
      signup({ email: 'Twin@example.com', company: 'B', use_case: 'y' }),
    ])
    assert.deepEqual([a.status, b.status].sort(), [200, 201])
    const { rows } = await s.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM accounts WHERE lower(email) = 'twin@example.com'",
    )
    assert.equal(rows[0]?.n, 1)
  })

  test('bad input is 422/415 and stores nothing', async () => {
    const before = await countRows(s.db, 'accounts')
    const ok = { email: 'valid@example.com', company: 'C', use_case: 'U' }
    assertInvalid(await signup({ ...ok, email: 'not-an-email' }), [['body', 'email']])
    assertInvalid(await signup({ ...ok, email: 'a@b' }), [['body', 'email']])
    assertInvalid(await signup({ ...ok, email: `${'a'.repeat(250)}@example.com` }), [['body', 'email']])
    assertInvalid(await signup({ ...ok, company: 'x'.repeat(201) }), [['body', 'company']])
    assertInvalid(await signup({ ...ok, use_case: 'x'.repeat(2_001) }), [['body', 'use_case']])
    assertInvalid(await signup({ ...ok, company: '   ' }), [['body', 'company']])
    assertInvalid(await signup({ ...ok, company: 7 }), [['body', 'company']])
    assertInvalid(await signup({ email: 'valid@example.com' }), [
      ['body', 'company'],
      ['body', 'use_case'],
    ])
    assertInvalid(await signup({ ...ok, plan: 'pro' }), [['body', 'plan']])
    assertInvalid(await signup('{"email": "valid@example.com",'), [['body', 30]])
    assertInvalid(await signup('[]'), [['body']])
    assertError(await signup(ok, 'text/plain'), 415, 'unsupported_media_type')
    assertError(
      await request(s, '/api/v2/developers/signup', { body: JSON.stringify({ ...ok, use_case: 'x'.repeat(70_000) }) }),
      413,
      'payload_too_large',
    )
    assert.equal(await countRows(s.db, 'accounts'), before)
  })
})

describe('authentication of data endpoints', () => {
  test('missing, malformed, unknown key: 401 with the error body; no rate-limit headers', async () => {
    const missing = await data(undefined)
    assert.deepEqual(missing.body, {
      detail: 'Missing API key: send it in the X-API-Key header (POST /api/v2/developers/signup issues one).',
      code: 'unauthorized',
    })
    assert.equal(missing.status, 401)
    assert.equal(missing.headers.get('x-ratelimit-limit'), null)
    assert.deepEqual((await data('hunter2')).body, { detail: 'Invalid API key.', code: 'unauthorized' })
    assert.deepEqual((await data(`pmk_live_${'A'.repeat(43)}`)).body, {
      detail: 'Invalid API key.',
      code: 'unauthorized',
    })
    assert.equal((await data(`pmk_live_${'A'.repeat(43)}`)).status, 401)
  })

  test('every non-public route answers 401 without a key; the public ones do not ask for one', async () => {
    for (const route of s.app.routes) {
      const path = route.path.replace(/:(\w+)/g, (_m, name: string) =>
        name === 'id' ? '00000000-0000-4000-8000-000000000000' : 'x',
      )
      const method = { get: 'GET', post: 'POST', patch: 'PATCH', del: 'DELETE', put: 'PUT' }[route.method]
      const body = method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }
      const res = await fetch(`${s.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...body,
      })
      if (route.public === true) assert.notEqual(res.status, 401, `${route.operationId} is public`)
      else assert.equal(res.status, 401, `${route.operationId} needs a key`)
      await res.arrayBuffer()
    }
    for (const path of ['/healthz', '/readyz', '/docs', '/api/v2/openapi.json', '/api/v2/sitemap/events?limit=1']) {
      const res = await fetch(`${s.baseUrl}${path}`)
      assert.ok(res.status === 200, `${path}: ${res.status}`)
      await res.arrayBuffer()
    }
  })

  test('a valid key reads data, with X-RateLimit-* headers; the read costs no store lookup', async () => {
    const { api_key } = await newAccount('reader@example.com')
    const first = await data(api_key)
    assert.equal(first.status, 200)
    assert.equal(first.headers.get('x-ratelimit-limit'), '100000')
    const lookups = s.app.store.auth.lookups
    for (let i = 0; i < 20; i++) assert.equal((await data(api_key)).status, 200)
    assert.equal(s.app.store.auth.lookups, lookups, 'cached: no database round trip')
    const remaining = Number((await data(api_key)).headers.get('x-ratelimit-remaining'))
    assert.equal(remaining, 100_000 - 22)
  })
})

describe('api keys', () => {
  test('create: 201 with the full key once; it authenticates; listings show prefixes only', async () => {
    const acct = await newAccount('keys@example.com')
    const r = await request<{ api_key: string; key_returned_once: boolean; key: ApiKey }>(
      s,
      '/api/v2/developers/api-keys',
      { key: acct.api_key, body: { name: 'ci runner' }, operationId: 'createApiKey' },
    )
    assert.equal(r.status, 201)
    assert.match(r.body.api_key, KEY)
    assert.notEqual(r.body.api_key, acct.api_key)
    assert.equal(r.body.key_returned_once, true)
    assert.deepEqual(
      [r.body.key.name, r.body.key.key_prefix, r.body.key.status],
      ['ci runner', `${r.body.api_key.slice(0, 13)}…`, 'active'],
    )
    assert.ok(r.headers.get('x-ratelimit-remaining') !== null)
    assert.equal((await data(r.body.api_key)).status, 200)

    const list = await request<{ keys: ApiKey[]; total: number; current_key_id: string }>(
      s,
      '/api/v2/developers/api-keys',
      { key: r.body.api_key, operationId: 'listApiKeys' },
    )
    assert.equal(list.status, 200)
    assert.deepEqual(
      list.body.keys.map((k) => [k.name, k.status]),
      [
        ['default', 'active'],
        ['ci runner', 'active'],
      ],
    )
    assert.equal(list.body.current_key_id, r.body.key.id)
    const text = JSON.stringify(list.body)
    assert.ok(!text.includes(acct.api_key) && !text.includes(r.body.api_key), 'no full key in a listing')
    assert.ok(!text.includes(acct.api_key.slice(13)) && !text.includes(r.body.api_key.slice(13)))
  })

  test('create: name required and bounded; no key → 401; the per-account cap → 409', async () => {
    const acct = await newAccount('cap@example.com')
    const create = (body: unknown, key: string | null = acct.api_key) =>
      request(s, '/api/v2/developers/api-keys', { key: key ?? undefined, body, operationId: 'createApiKey' })
    assertInvalid(await create({}), [['body', 'name']])
    assertInvalid(await create({ name: 'x'.repeat(101) }), [['body', 'name']])
    assertInvalid(await create({ name: 'ok', scopes: ['all'] }), [['body', 'scopes']])
    assertError(await create({ name: 'ok' }, null), 401, 'unauthorized')
    assert.equal((await create({ name: 'two' })).status, 201)
    assert.equal((await create({ name: 'three' })).status, 201)
    assertError(await create({ name: 'four' }), 409, 'conflict', /3 active keys/)
  })

  test('revoke: immediate on this replica (next request 401), listed as revoked, idempotent', async () => {
    const acct = await newAccount('revoke@example.com')
    const extra = await request<{ api_key: string; key: ApiKey }>(s, '/api/v2/developers/api-keys', {
      key: acct.api_key,
      body: { name: 'to revoke' },
    })
    assert.equal((await data(extra.body.api_key)).status, 200, 'cached before revocation')
    const started = Date.now()
    const r = await request<{ key: ApiKey }>(s, `/api/v2/developers/api-keys/${extra.body.key.id}`, {
      method: 'DELETE',
      key: acct.api_key,
      operationId: 'revokeApiKey',
    })
    assert.equal(r.status, 200)
    assert.equal(r.body.key.status, 'revoked')
    assert.match(r.body.key.revoked_at ?? '', /^\d{4}-/)
    const after = await data(extra.body.api_key)
    assert.ok(Date.now() - started < 1_000)
    assert.deepEqual(after.body, { detail: 'This API key has been revoked.', code: 'unauthorized' })
    assert.equal(after.status, 401)
    const again = await request<{ key: ApiKey }>(s, `/api/v2/developers/api-keys/${extra.body.key.id}`, {
      method: 'DELETE',
      key: acct.api_key,
      operationId: 'revokeApiKey',
    })
    assert.deepEqual(again.body, r.body)
    const list = await request<{ keys: ApiKey[] }>(s, '/api/v2/developers/api-keys', { key: acct.api_key })
    assert.deepEqual(
      list.body.keys.map((k) => k.status),
      ['active', 'revoked'],
    )
    assertError(
      await request(s, '/api/v2/developers/api-keys', { key: extra.body.api_key }),
      401,
      'unauthorized',
      /revoked/,
    )
  })

  test('revoking the key in use works too; the last active key cannot be revoked', async () => {
    const acct = await newAccount('self@example.com')
    assertError(
      await request(s, `/api/v2/developers/api-keys/${acct.key.id}`, {
        method: 'DELETE',
        key: acct.api_key,
        operationId: 'revokeApiKey',
      }),
      409,
      'conflict',
      /last active key/,
    )
    const extra = await request<{ api_key: string; key: ApiKey }>(s, '/api/v2/developers/api-keys', {
      key: acct.api_key,
      body: { name: 'next' },
    })
    assert.equal(
      (await request(s, `/api/v2/developers/api-keys/${acct.key.id}`, { method: 'DELETE', key: acct.api_key })).status,
      200,
    )
    assertError(await data(acct.api_key), 401, 'unauthorized')
    assert.equal((await data(extra.body.api_key)).status, 200)
  })

  test("another account's key is 404; a malformed id is 422", async () => {
    const a = await newAccount('owner-a@example.com')
    const b = await newAccount('owner-b@example.com')
    assertError(
      await request(s, `/api/v2/developers/api-keys/${a.key.id}`, {
        method: 'DELETE',
        key: b.api_key,
        operationId: 'revokeApiKey',
      }),
      404,
      'not_found',
    )
    assertInvalid(
      await request(s, '/api/v2/developers/api-keys/1%27%20OR%201=1', {
        method: 'DELETE',
        key: b.api_key,
        operationId: 'revokeApiKey',
      }),
      [['path', 'id']],
    )
    assert.equal((await data(a.api_key)).status, 200)
  })
})

describe('usage', () => {
  test('counts this key and its account; free: does not take a token', async () => {
    const acct = await newAccount('usage@example.com')
    for (let i = 0; i < 5; i++) await data(acct.api_key)
    const u1 = await request<Usage>(s, '/api/v2/developers/usage', {
      key: acct.api_key,
      operationId: 'getDeveloperUsage',
    })
    assert.equal(u1.status, 200)
    assert.deepEqual(u1.body.usage.key.requests, { current_minute: 5, last_hour: 5, last_day: 5 })
    assert.equal(u1.body.key.key_prefix, acct.key.key_prefix)
    const u2 = await request<typeof u1.body>(s, '/api/v2/developers/usage', { key: acct.api_key })
    assert.equal(u2.body.rate_limit.remaining, u1.body.rate_limit.remaining, 'the usage call took no token')
    assert.equal(u2.body.usage.key.requests.current_minute, 5, 'and was not counted')
    await s.app.store.usage.flush()
    const u3 = await request<typeof u1.body>(s, '/api/v2/developers/usage', { key: acct.api_key })
    assert.deepEqual(
      u3.body.usage.key.requests,
      u1.body.usage.key.requests,
      'the same after the counts are written to the store',
    )
    assertError(await request(s, '/api/v2/developers/usage'), 401, 'unauthorized')
  })
})

describe('stored data', () => {
  test('no plaintext key anywhere in the database', async () => {
    const acct = await newAccount('plain@example.com')
    const extra = await request<{ api_key: string }>(s, '/api/v2/developers/api-keys', {
      key: acct.api_key,
      body: { name: 'second' },
    })
    await s.app.store.usage.flush()
    for (const key of [acct.api_key, extra.body.api_key, s.apiKey as string]) {
      assert.deepEqual(await findInAnyColumn(s.db, [key, key.slice('pmk_live_'.length)]), [])
    }
  })

  test('SQL injection attempts in company, use case and key name are stored verbatim', async () => {
    for (const [i, evil] of INJECTIONS.entries()) {
      const r = await signup({ email: `o'reilly+${i}@example.com`, company: evil, use_case: evil })
      assert.equal(r.status, 201, JSON.stringify(r.body))
      const b = r.body as unknown as SignupCreated
      assert.deepEqual([b.company, b.use_case], [evil, evil])
      const k = await request<{ key: ApiKey }>(s, '/api/v2/developers/api-keys', {
        key: b.api_key,
        body: { name: evil },
      })
      assert.equal(k.body.key.name, evil)
      const { rows } = await s.db.query<{ company: string }>('SELECT company FROM accounts WHERE id = $1', [
        b.account_id,
      ])
      assert.equal(rows[0]?.company, evil)
    }
    assertInvalid(await signup({ email: "x'); DROP TABLE accounts; --@example.com", company: 'c', use_case: 'u' }), [
      ['body', 'email'],
    ])
    assert.ok((await countRows(s.db, 'accounts')) > INJECTIONS.length)
  })
})

describe('published description', () => {
  test('signup is public; keyed routes document 401, 429 and the rate-limit headers; usage has no 429', async () => {
    const doc = (await (await fetch(`${s.baseUrl}/api/v2/openapi.json`)).json()) as OpenApiDocument
    assert.deepEqual(doc.paths['/api/v2/developers/signup']?.post?.security, [])
    const create = doc.paths['/api/v2/developers/api-keys']?.post
    assert.equal(create?.security, undefined)
    assert.ok(create?.responses['401'] && create.responses['429'])
    assert.ok(create?.responses['201']?.headers?.['X-RateLimit-Remaining'])
    assert.equal(doc.paths['/api/v2/developers/usage']?.get?.responses['429'], undefined)
    assert.ok(doc.paths['/api/v2/venuep/markets']?.get?.responses['429'])
    assert.ok(doc.paths['/api/v2/alerts/{id}']?.patch)
  })
})
