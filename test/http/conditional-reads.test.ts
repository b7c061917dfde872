import assert from 'node:assert/strict'
import { get as httpGet } from 'node:http'
import { after, before, test } from 'node:test'
import { brotliDecompressSync } from 'node:zlib'
import { signUp, startTestService, type TestService } from '../helpers/service.js'
import { settle } from '../helpers/wait.js'

/**
 * A polling client against the whole service and the simulator: a hot list read compressed and revalidated with
 * its ETag, counted by the key's rate limit and usage like any request, and answered 200 with a new tag once the
 * simulator moves the prices on the page.
 */
let s: TestService
before(async () => {
  s = await startTestService({ questions: 60 })
})
after(() => s?.close())

interface Raw {
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly body: Buffer
}

/**
 * node:http, not fetch: fetch would decompress the body and hide what came over the wire. A connection per request
 * (`agent: false`): the global agent keeps sockets alive and would reuse one the server closed.
 */
function get(path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    httpGet({ host: '127.0.0.1', port: s.app.port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.once('error', reject)
    }).once('error', reject)
  })
}

const PAGE = '/api/v2/venuep/markets?limit=25&sort=volume'

test('a hot read: brotli bytes equal to the identity page, a 304 while the page is unchanged, a new ETag once prices move', async () => {
  const key = await signUp(s.baseUrl, 'poller@example.com')
  const auth = { 'x-api-key': key }
  const identity = await get(PAGE, auth)
  assert.equal(identity.status, 200)
  const br = await get(PAGE, { ...auth, 'accept-encoding': 'gzip, deflate, br' })
  assert.equal(br.status, 200)
  assert.equal(br.headers['content-encoding'], 'br')
  assert.equal(br.headers.vary, 'Accept-Encoding')
  assert.equal(br.headers['cache-control'], 'private, no-cache')
  assert.deepEqual(brotliDecompressSync(br.body), identity.body, 'the same page, compressed')
  const etag = br.headers.etag as string
  assert.equal(etag, `${(identity.headers.etag as string).slice(0, -1)}-br"`)

  // Revalidation: nothing changed (the simulated clock has not moved), so 304s, each one counted.
  const remaining = Number(br.headers['x-ratelimit-remaining'])
  for (let i = 1; i <= 3; i++) {
    const res = await get(PAGE, { ...auth, 'accept-encoding': 'gzip, deflate, br', 'if-none-match': etag })
    assert.equal(res.status, 304)
    assert.equal(res.body.length, 0)
    assert.equal(res.headers.etag, etag)
    assert.equal(res.headers['content-type'], undefined)
    assert.equal(Number(res.headers['x-ratelimit-remaining']), remaining - i, 'a 304 takes a rate-limit token')
  }
  const usage = await fetch(`${s.baseUrl}/api/v2/developers/usage`, { headers: auth })
  const counted = ((await usage.json()) as { usage: { key: { requests: { current_minute: number } } } }).usage.key
    .requests.current_minute
  assert.equal(counted, 5, 'usage counts the two 200s and the three 304s')

  // Trades and quotes move the listed markets; the page is rebuilt with new prices and a new tag.
  let changed: Raw | undefined
  for (let step = 0; step < 40 && changed === undefined; step++) {
    s.advance(2_000, 100)
    await settle(50)
    const res = await get(PAGE, { ...auth, 'accept-encoding': 'br', 'if-none-match': etag })
    if (res.status === 200) changed = res
    else assert.equal(res.status, 304)
  }
  assert.ok(changed !== undefined, 'the page changed within 80 simulated seconds')
  assert.notEqual(changed.headers.etag, etag)
  assert.match(changed.headers.etag as string, /^"[A-Za-z0-9_-]{20}-br"$/)
  const now = await get(PAGE, auth)
  assert.deepEqual(brotliDecompressSync(changed.body), now.body)
  assert.notDeepEqual(now.body, identity.body)
})

test('errors are never cached, and without CORS_ALLOWED_ORIGINS no CORS header is sent', async () => {
  const res = await get('/api/v2/venuek/market-price?market_ticker=NOPE-1', {
    ...s.authHeaders,
    origin: 'https://app.example.com',
    'accept-encoding': 'br',
  })
  assert.equal(res.status, 404)
  assert.equal(res.headers['cache-control'], 'no-store')
  assert.equal(res.headers.etag, undefined)
  assert.equal(res.headers['access-control-allow-origin'], undefined)
  assert.equal(res.headers.vary, undefined)
})
