import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { HttpClient, withRetry } from '../../src/venues/http-client.js'

/**
 * venuek answers 401 `header_timestamp_expired` when a signed request reached it more than a few seconds after it
 * was signed (a busy client or venue). Each attempt is signed anew, so the request is retried with a fresh
 * timestamp; any other 401 (a wrong key or signature) is not retried.
 */
test('an expired signature timestamp is retried with a new signature; a bad signature is not', async () => {
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(String(req.headers['x-signed-at']))
    const expired = req.url?.startsWith('/expired') === true && seen.length === 1
    const bad = req.url?.startsWith('/bad') === true
    res.writeHead(expired || bad ? 401 : 200, { 'content-type': 'application/json' })
    if (expired)
      res.end(JSON.stringify({ error: { code: 'header_timestamp_expired', message: 'header timestamp expired' } }))
    else if (bad)
      res.end(
        JSON.stringify({
          error: {
            code: 'authentication_error',
            message: 'authentication_error',
            details: 'INCORRECT_API_KEY_SIGNATURE',
          },
        }),
      )
    else res.end(JSON.stringify({ ok: true }))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  try {
    let signatures = 0
    const client = new HttpClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      timeoutMs: 2_000,
      headers: () => ({ 'x-signed-at': String(++signatures) }),
    })
    const retry = { attempts: 3, baseMs: 1, maxMs: 2 }
    assert.deepEqual(await withRetry(() => client.getJson('/expired'), retry), { ok: true })
    assert.deepEqual(seen, ['1', '2'], 'signed again for the second attempt')
    seen.length = 0
    await assert.rejects(
      withRetry(() => client.getJson('/bad'), retry),
      { name: 'UpstreamHttpError', status: 401 },
    )
    assert.equal(seen.length, 1, 'a bad signature is not retried')
  } finally {
    server.close()
  }
})
