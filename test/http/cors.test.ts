import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Type } from '@sinclair/typebox'
import { silentLogger } from '../../src/core/logger.js'
import { ConfigError, loadConfig } from '../../src/config/load.js'
import { CorsPolicy } from '../../src/http/cors.js'
import { registerRoutes, type RouteGuard } from '../../src/http/register.js'
import { AppError } from '../../src/core/errors.js'
import { errorReply, json, renderHeaderLines } from '../../src/http/reply.js'
import { defineRoute, type AnyRoute } from '../../src/http/route.js'
import { HttpServer } from '../../src/http/server.js'
import { rawRequest, type RawResponse } from '../helpers/raw-http.js'

/**
 * CORS through the real HttpServer (cors.ts): preflights answered for every route's path without a key, the
 * allowed origin echoed (or `*`) on responses and errors alike, nothing for other origins or when unconfigured.
 * Whole header sets are compared, minus the Date and server name uWS adds.
 */
const APP = 'https://app.example.com'
/** Configured in mixed case with a port: browsers send origins lowercase, the match ignores case. */
const ADMIN_CONFIGURED = 'HTTPS://Admin.Example.com:8443'
const ADMIN = 'https://admin.example.com:8443'

/** Requests the guard saw; it answers 401 without `x-api-key`, as the key guard does. */
let guarded = 0
const keyGuard: RouteGuard = {
  headers: ['x-api-key'],
  check(ctx) {
    guarded++
    if (ctx.headers['x-api-key'] !== 'k') return errorReply(new AppError(401, 'unauthorized', 'Missing API key.'))
    ctx.responseHeaderLines = renderHeaderLines([['x-ratelimit-limit', '40']])
    return undefined
  },
}

const routes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/things',
    operationId: 'listThings',
    summary: '',
    tags: [],
    responses: { 200: { description: '' } },
    handler: () => json(200, { things: [] }),
  }),
  defineRoute({
    method: 'post',
    path: '/things',
    operationId: 'createThing',
    summary: '',
    tags: [],
    body: Type.Object({ n: Type.Integer({ minimum: 0, maximum: 9 }) }),
    responses: { 201: { description: '' } },
    handler: () => json(201, { n: 1 }),
  }),
  defineRoute({
    method: 'get',
    path: '/things/:id',
    operationId: 'getThing',
    summary: '',
    tags: [],
    params: Type.Object({ id: Type.String({ maxLength: 10 }) }),
    responses: { 200: { description: '' } },
    handler: ({ params }) => json(200, { id: params.id }),
  }),
  defineRoute({
    method: 'del',
    path: '/things/:id',
    operationId: 'deleteThing',
    summary: '',
    tags: [],
    params: Type.Object({ id: Type.String({ maxLength: 10 }) }),
    responses: { 200: { description: '' } },
    handler: () => json(200, {}),
  }),
]

async function serve(cors: CorsPolicy | undefined): Promise<{ server: HttpServer; port: number }> {
  const server = new HttpServer({ log: silentLogger, ...(cors === undefined ? {} : { cors }) })
  registerRoutes(server, routes, { guard: () => keyGuard })
  server.notFound()
  return { server, port: await server.listen('127.0.0.1', 0) }
}

function send(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return rawRequest(port, { method, target, headers: Object.entries(headers) })
}

function headerSet(res: RawResponse): [string, string][] {
  return res.headerList.filter(([name]) => name !== 'date' && name !== 'uwebsockets').map(([n, v]) => [n, v])
}

const NOSNIFF: [string, string] = ['x-content-type-options', 'nosniff']
const JSON_TYPE: [string, string] = ['content-type', 'application/json; charset=utf-8']
const EXPOSE: [string, string] = [
  'access-control-expose-headers',
  'ETag, X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After',
]
const ALLOW_HEADERS: [string, string] = [
  'access-control-allow-headers',
  'X-API-Key, X-User-Id, Content-Type, If-None-Match',
]
const MAX_AGE: [string, string] = ['access-control-max-age', '7200']
const VARY_ORIGIN: [string, string] = ['vary', 'Origin']
const preflight = (origin: string) => ({
  origin,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'x-api-key, content-type',
})

describe('a list of allowed origins', () => {
  let server: HttpServer
  let port: number
  before(async () => ({ server, port } = await serve(CorsPolicy.fromConfig([APP, ADMIN_CONFIGURED]))))
  after(() => server.close())

  test("a preflight is answered 204 with the path's methods, the headers the API reads and a max age, without a key", async () => {
    const before = guarded
    const res = await send(port, 'OPTIONS', '/things', preflight(APP))
    assert.equal(res.status, 204)
    assert.equal(res.body.length, 0)
    assert.deepEqual(headerSet(res), [
      NOSNIFF,
      ['allow', 'GET, HEAD, POST, OPTIONS'],
      ['access-control-allow-origin', APP],
      ['access-control-allow-methods', 'GET, HEAD, POST, OPTIONS'],
      ALLOW_HEADERS,
      MAX_AGE,
      VARY_ORIGIN,
    ])
    assert.equal(guarded, before, 'no guard ran: a preflight carries no key and takes no token')
    const item = await send(port, 'OPTIONS', '/things/42', preflight(ADMIN))
    assert.equal(item.status, 204)
    assert.equal(
      item.headers.get('access-control-allow-origin'),
      ADMIN,
      'the configured origin matches whatever its case',
    )
    assert.equal(item.headers.get('access-control-allow-methods'), 'GET, HEAD, DELETE, OPTIONS')
  })

  test('a preflight from another origin gets Allow only, so the browser refuses the request', async () => {
    const res = await send(port, 'OPTIONS', '/things', preflight('https://evil.example.com'))
    assert.equal(res.status, 204)
    assert.deepEqual(headerSet(res), [NOSNIFF, ['allow', 'GET, HEAD, POST, OPTIONS'], VARY_ORIGIN])
    // Not a prefix or suffix match either.
    assert.equal(
      (await send(port, 'OPTIONS', '/things', preflight(`${APP}.evil.com`))).headers.get('access-control-allow-origin'),
      undefined,
    )
  })

  test('a response to an allowed origin echoes it and exposes ETag and the rate-limit headers; errors too', async () => {
    const ok = await send(port, 'GET', '/things', { origin: APP, 'x-api-key': 'k' })
    assert.equal(ok.status, 200)
    assert.deepEqual(headerSet(ok), [
      JSON_TYPE,
      NOSNIFF,
      ['cache-control', 'private, no-cache'],
      VARY_ORIGIN,
      ['etag', ok.headers.get('etag') as string],
      ['x-ratelimit-limit', '40'],
      ['access-control-allow-origin', APP],
      EXPOSE,
      ['content-length', String(ok.body.length)],
    ])
    // The browser must be able to read why a request failed.
    const unauthorized = await send(port, 'GET', '/things', { origin: APP })
    assert.equal(unauthorized.status, 401)
    assert.deepEqual(headerSet(unauthorized), [
      JSON_TYPE,
      NOSNIFF,
      ['cache-control', 'no-store'],
      VARY_ORIGIN,
      ['access-control-allow-origin', APP],
      EXPOSE,
      ['content-length', String(unauthorized.body.length)],
    ])
    const missing = await send(port, 'GET', '/nowhere', { origin: APP })
    assert.equal(missing.status, 404)
    assert.equal(missing.headers.get('access-control-allow-origin'), APP)
  })

  test('another origin, or none: no CORS header, but Vary: Origin (the answer depends on it)', async () => {
    for (const headers of [{ origin: 'https://evil.example.com', 'x-api-key': 'k' }, { 'x-api-key': 'k' }] as Record<
      string,
      string
    >[]) {
      const res = await send(port, 'GET', '/things', headers)
      assert.equal(res.status, 200)
      assert.deepEqual(headerSet(res), [
        JSON_TYPE,
        NOSNIFF,
        ['cache-control', 'private, no-cache'],
        VARY_ORIGIN,
        ['etag', res.headers.get('etag') as string],
        ['x-ratelimit-limit', '40'],
        ['content-length', String(res.body.length)],
      ])
    }
  })

  test('OPTIONS on a path no route has is a 404, with CORS so a page can read it', async () => {
    const res = await send(port, 'OPTIONS', '/nowhere', preflight(APP))
    assert.equal(res.status, 404)
    assert.equal(res.headers.get('access-control-allow-origin'), APP)
  })
})

describe('any origin (*)', () => {
  let server: HttpServer
  let port: number
  before(async () => ({ server, port } = await serve(CorsPolicy.fromConfig(['*']))))
  after(() => server.close())

  test('every response says Access-Control-Allow-Origin: * without Vary: Origin; credentials are never allowed', async () => {
    for (const headers of [{ origin: 'https://anyone.example.org', 'x-api-key': 'k' }, { 'x-api-key': 'k' }] as Record<
      string,
      string
    >[]) {
      const res = await send(port, 'GET', '/things/7', headers)
      assert.equal(res.status, 200)
      assert.deepEqual(headerSet(res), [
        JSON_TYPE,
        NOSNIFF,
        ['cache-control', 'private, no-cache'],
        ['etag', res.headers.get('etag') as string],
        ['x-ratelimit-limit', '40'],
        ['access-control-allow-origin', '*'],
        EXPOSE,
        ['content-length', String(res.body.length)],
      ])
    }
    const pre = await send(port, 'OPTIONS', '/things', preflight('https://anyone.example.org'))
    assert.deepEqual(headerSet(pre), [
      NOSNIFF,
      ['allow', 'GET, HEAD, POST, OPTIONS'],
      ['access-control-allow-origin', '*'],
      ['access-control-allow-methods', 'GET, HEAD, POST, OPTIONS'],
      ALLOW_HEADERS,
      MAX_AGE,
    ])
  })
})

describe('no allowed origin (the default)', () => {
  let server: HttpServer
  let port: number
  before(async () => ({ server, port } = await serve(undefined)))
  after(() => server.close())

  test('no CORS header and no Vary: Origin; OPTIONS still says what the path allows', async () => {
    const res = await send(port, 'GET', '/things', { origin: APP, 'x-api-key': 'k' })
    assert.deepEqual(headerSet(res), [
      JSON_TYPE,
      NOSNIFF,
      ['cache-control', 'private, no-cache'],
      ['etag', res.headers.get('etag') as string],
      ['x-ratelimit-limit', '40'],
      ['content-length', String(res.body.length)],
    ])
    const pre = await send(port, 'OPTIONS', '/things', preflight(APP))
    assert.equal(pre.status, 204)
    assert.deepEqual(headerSet(pre), [NOSNIFF, ['allow', 'GET, HEAD, POST, OPTIONS']])
  })
})

describe('configuration', () => {
  test('CORS_ALLOWED_ORIGINS is a comma-separated list of origins or *; anything else fails the boot', () => {
    assert.deepEqual(loadConfig({ env: {} }).http.corsAllowedOrigins, [])
    assert.deepEqual(
      loadConfig({ env: { CORS_ALLOWED_ORIGINS: `${APP}, http://localhost:5173` } }).http.corsAllowedOrigins,
      [APP, 'http://localhost:5173'],
    )
    assert.deepEqual(loadConfig({ env: { CORS_ALLOWED_ORIGINS: '*' } }).http.corsAllowedOrigins, ['*'])
    for (const bad of ['app.example.com', `${APP}/`, `${APP}/path`, 'https://a b.com']) {
      assert.throws(
        () => loadConfig({ env: { CORS_ALLOWED_ORIGINS: bad } }),
        (e: unknown) => e instanceof ConfigError && e.problems.some((p) => p.startsWith('/http/corsAllowedOrigins/0')),
        bad,
      )
    }
  })
})
