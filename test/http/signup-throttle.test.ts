import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { request, type JsonResponse } from '../helpers/json-client.js'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * Public signup is throttled per client address (the test profile lifts the limit for the other suites; these run
 * with the shipped defaults). Time is the service's SimulatedClock: refills happen when the test moves it.
 */
const DEFAULTS = loadConfig({ env: {} }).auth.signupRateLimit

let s: TestService
let n = 0

before(async () => {
  // auth off: the helper signs nobody up, so the bucket starts full.
  s = await startTestService({ questions: 20, auth: 'off', config: { auth: { signupRateLimit: DEFAULTS } } })
})
after(() => s.close())

function signup(
  body: unknown = { email: `dev-${++n}@example.com`, company: 'Acme', use_case: 'dashboards' },
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
  return request(s, '/api/v2/developers/signup', { body, headers, operationId: 'signup' })
}

describe('signup throttle', () => {
  test('the defaults: bursts of 10, then 5 per minute, per client, bounded', () => {
    assert.deepEqual(DEFAULTS, { perMinute: 5, burst: 10, maxClients: 10_000 })
    assert.deepEqual(loadConfig({ env: {} }).http.trustedProxies, [])
  })

  test('30 signups in a row from one client: 10 accounts, then 429 rate_limited with Retry-After; X-Forwarded-For changes nothing', async () => {
    const statuses: number[] = []
    let limited: JsonResponse | undefined
    for (let i = 0; i < 30; i++) {
      // A different X-Forwarded-For each time: without trusted proxies it is ignored.
      const r = await signup(undefined, { 'x-forwarded-for': `203.0.113.${i}` })
      statuses.push(r.status)
      if (r.status === 429) limited ??= r
    }
    assert.deepEqual(statuses, [...new Array<number>(10).fill(201), ...new Array<number>(20).fill(429)])
    assert.ok(limited !== undefined)
    assert.deepEqual(limited.body, {
      detail: 'Too many signups from your address (bursts of 10, then 5 per minute); retry in 12 s.',
      code: 'rate_limited',
      retry_after_seconds: 12,
    })
    assert.equal(limited.headers.get('retry-after'), '12')
    const { rows } = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts')
    assert.equal(rows[0]?.n, 10, 'only the admitted signups made accounts')
  })

  test('checked before the body: an invalid signup is 429 too, and counts', async () => {
    const r = await signup({ email: 'not an address' })
    assert.equal(r.status, 429)
    assert.equal((r.body as { code: string }).code, 'rate_limited')
  })

  test('the bucket refills with time: one signup per 12 s', async () => {
    s.clock.increment(11_000)
    const early = await signup()
    assert.deepEqual([early.status, early.body.retry_after_seconds, early.headers.get('retry-after')], [429, 1, '1'])
    s.clock.increment(1_000)
    assert.equal((await signup()).status, 201)
    assert.equal((await signup()).status, 429)
    s.clock.increment(120_000)
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) statuses.push((await signup()).status)
    assert.deepEqual(statuses, [...new Array<number>(10).fill(201), 429], 'never more than a burst, however long idle')
  })

  test('the published description documents the 429', async () => {
    const doc = (await (await fetch(`${s.baseUrl}/api/v2/openapi.json`)).json()) as {
      paths: Record<string, { post: { responses: Record<string, { description: string; headers?: object }> } }>
    }
    const res = doc.paths['/api/v2/developers/signup']?.post.responses['429']
    assert.ok(res !== undefined && /rate_limited/.test(res.description) && res.headers !== undefined)
  })
})
