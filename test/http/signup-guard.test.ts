import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Type } from '@sinclair/typebox'
import { ClientThrottle } from '../../src/accounts/client-throttle.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { parseCidr, type Cidr } from '../../src/core/ip.js'
import { silentLogger } from '../../src/core/logger.js'
import { registerRoutes } from '../../src/http/register.js'
import { json } from '../../src/http/reply.js'
import { defineRoute } from '../../src/http/route.js'
import { HttpServer } from '../../src/http/server.js'
import { SignupGuard } from '../../src/http/signup-guard.js'

/**
 * The signup guard over real uWS: the peer address is copied from the response while the request callback runs
 * (the route reads a body, so the guard runs later, from onData), and X-Forwarded-For counts only from a trusted
 * proxy. One token per client here, so the second request of a client is the 429.
 */
const route = defineRoute({
  method: 'post',
  path: '/signup',
  operationId: 'signup',
  summary: 'stand-in',
  tags: [],
  public: true,
  body: Type.Object({ email: Type.String() }),
  responses: { 201: { description: 'created' } },
  handler: async () => json(201, { created: true }),
})

async function serve(
  trusted: readonly string[],
): Promise<{ server: HttpServer; post: (forwardedFor?: string) => Promise<number> }> {
  const throttle = new ClientThrottle({ limit: { perSecond: 1 / 60, burst: 1 }, maxClients: 100 })
  const guard = new SignupGuard(
    throttle,
    new SimulatedClock(0),
    trusted.map((t) => parseCidr(t) as Cidr),
  )
  const server = new HttpServer({ log: silentLogger })
  registerRoutes(server, [route], { guard: () => guard })
  const base = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}`
  const post = async (forwardedFor?: string): Promise<number> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', connection: 'close' }
    if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor
    const res = await fetch(`${base}/signup`, { method: 'POST', headers, body: '{"email":"a@example.com"}' })
    await res.arrayBuffer()
    return res.status
  }
  return { server, post }
}

describe('signup guard over uWS', () => {
  let direct: Awaited<ReturnType<typeof serve>>
  let proxied: Awaited<ReturnType<typeof serve>>
  before(async () => {
    direct = await serve([])
    proxied = await serve(['127.0.0.1'])
  })
  after(() => {
    direct.server.close()
    proxied.server.close()
  })

  test('no trusted proxies: the peer is the client, whatever X-Forwarded-For says', async () => {
    assert.deepEqual(
      [await direct.post('198.51.100.1'), await direct.post('198.51.100.2'), await direct.post()],
      [201, 429, 429],
    )
  })

  test('behind a trusted proxy: X-Forwarded-For names the client, spoofed entries to its left do not', async () => {
    assert.equal(await proxied.post('198.51.100.1'), 201)
    assert.equal(await proxied.post('198.51.100.1'), 429)
    assert.equal(await proxied.post('6.6.6.6, 198.51.100.1'), 429, 'a made-up leftmost entry is not a new client')
    assert.equal(await proxied.post('198.51.100.2'), 201)
    assert.equal(await proxied.post(), 201, 'no header: the proxy itself is the client')
    assert.equal(await proxied.post(), 429)
  })
})
