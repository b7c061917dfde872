import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { assertError, request, type JsonResponse } from '../helpers/json-client.js'
import { signUp, startTestService, type TestService } from '../helpers/service.js'

/**
 * Per-key token buckets through HTTP (burst 5, 1 per second). The service runs on a SimulatedClock, so buckets
 * refill only when the test moves time: parallel requests must see exactly `burst` successes.
 */
let s: TestService

before(async () => {
  s = await startTestService({ questions: 40, config: { auth: { rateLimit: { perSecond: 1, burst: 5 } } } })
})
after(() => s.close())

const DATA = '/api/v2/venuek/markets?limit=1'

interface Usage {
  rate_limit: { limit: number; remaining: number; refill_per_second: number; scope: string }
  usage: {
    key: { requests: { current_minute: number }; rate_limited: { current_minute: number } }
    account: { requests: { current_minute: number } }
  }
}

function read(key: string): Promise<JsonResponse> {
  return request(s, DATA, { key, operationId: 'listVenuekMarkets' })
}

test('20 parallel requests: exactly `burst` succeed, the rest are 429 with Retry-After and the rate-limit headers', async () => {
  const key = await signUp(s.baseUrl, 'burst@example.com')
  const results = await Promise.all(Array.from({ length: 20 }, () => read(key)))
  const ok = results.filter((r) => r.status === 200)
  const limited = results.filter((r) => r.status === 429)
  assert.equal(ok.length, 5)
  assert.equal(limited.length, 15)
  assert.deepEqual(ok.map((r) => r.headers.get('x-ratelimit-remaining')).sort(), ['0', '1', '2', '3', '4'])
  for (const r of [...ok, ...limited]) assert.equal(r.headers.get('x-ratelimit-limit'), '5')
  for (const r of limited) {
    assert.deepEqual(r.body, {
      detail: 'Rate limit exceeded (bursts of 5, 1 requests per second per key); retry in 1 s.',
      code: 'rate_limited',
      retry_after_seconds: 1,
    })
    assert.equal(r.headers.get('retry-after'), '1')
    assert.equal(r.headers.get('x-ratelimit-remaining'), '0')
  }

  s.clock.increment(1_000)
  assert.equal((await read(key)).status, 200, 'one token after a second')
  assertError(await read(key), 429, 'rate_limited')
  s.clock.increment(10_000)
  const refilled = await Promise.all(Array.from({ length: 8 }, () => read(key)))
  assert.equal(refilled.filter((r) => r.status === 200).length, 5, 'the bucket never holds more than burst')
})

test('buckets are per key; usage is free and counts the 429s', async () => {
  const first = await signUp(s.baseUrl, 'per-key@example.com')
  const second = (
    await request<{ api_key: string }>(s, '/api/v2/developers/api-keys', { key: first, body: { name: 'second' } })
  ).body.api_key
  // Creating the key took one of first's 5 tokens.
  const a = await Promise.all(Array.from({ length: 6 }, () => read(first)))
  assert.equal(a.filter((r) => r.status === 200).length, 4)
  const b = await Promise.all(Array.from({ length: 6 }, () => read(second)))
  assert.equal(b.filter((r) => r.status === 200).length, 5, "the second key's bucket is its own")

  for (let i = 0; i < 10; i++) {
    const u = await request<Usage>(s, '/api/v2/developers/usage', { key: first, operationId: 'getDeveloperUsage' })
    assert.equal(u.status, 200, 'usage answers with an empty bucket')
    assert.equal(u.headers.get('x-ratelimit-remaining'), '0')
    assert.deepEqual(u.body.rate_limit, { limit: 5, remaining: 0, refill_per_second: 1, scope: 'key_per_replica' })
    assert.deepEqual([u.body.usage.key.requests.current_minute, u.body.usage.key.rate_limited.current_minute], [5, 2])
    assert.equal(u.body.usage.account.requests.current_minute, 10)
  }
  assertError(await request(s, '/api/v2/developers/api-keys', { key: first }), 429, 'rate_limited')
})
