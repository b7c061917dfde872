import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Type } from '@sinclair/typebox'
import { AppError } from '../../src/core/errors.js'
import { silentLogger } from '../../src/core/logger.js'
import { CACHING } from '../../src/http/caching.js'
import { registerRoutes, type RouteGuard } from '../../src/http/register.js'
import { json, renderHeaderLines } from '../../src/http/reply.js'
import { representationOf } from '../../src/http/representation.js'
import { defineRoute, type AnyRoute } from '../../src/http/route.js'
import { HttpServer } from '../../src/http/server.js'
import { rawRequest, type RawResponse } from '../helpers/raw-http.js'

/**
 * What a GET's 200 becomes on the wire (shape-reply.ts) through the real HttpServer: Cache-Control per route, the
 * ETag and 304, brotli and gzip when asked for and worth it, HEAD; and `no-store` on everything else. Whole header
 * sets are compared (minus the Date and server name uWS adds), so a header that appears or goes missing fails.
 */
const rows = (price: number) => ({
  markets: Array.from({ length: 80 }, (_, i) => ({ id: `m-${i}`, title: `Will market ${i} resolve yes?`, price })),
  total: 80,
})
/** The "cached page": one bytes object returned to every request until the data changes, as the page cache does. */
let page = Buffer.from(JSON.stringify(rows(0.5)), 'utf8')
/** Requests the guard saw (it stands for the key guard: a 304 must pass it like a 200). */
let guarded = 0

const countingGuard: RouteGuard = {
  headers: [],
  check(ctx) {
    guarded++
    ctx.responseHeaderLines = renderHeaderLines([['x-ratelimit-remaining', String(100 - guarded)]])
    return undefined
  },
}

const routes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/page',
    operationId: 'page',
    summary: '',
    tags: [],
    responses: { 200: { description: '' } },
    handler: () => ({ status: 200, body: page }),
  }),
  // The same bytes built per request as a string (routes that do not cache their bodies).
  defineRoute({
    method: 'get',
    path: '/built',
    operationId: 'built',
    summary: '',
    tags: [],
    responses: { 200: { description: '' } },
    handler: () => ({ status: 200, body: page.toString('utf8') }),
  }),
  defineRoute({
    method: 'get',
    path: '/small',
    operationId: 'small',
    summary: '',
    tags: [],
    responses: { 200: { description: '' } },
    handler: () => json(200, { ok: true }),
  }),
  defineRoute({
    method: 'get',
    path: '/catalog',
    operationId: 'catalog',
    summary: '',
    tags: [],
    caching: CACHING.publicCatalog,
    responses: { 200: { description: '' } },
    handler: () => ({ status: 200, body: page }),
  }),
  defineRoute({
    method: 'get',
    path: '/health',
    operationId: 'health',
    summary: '',
    tags: [],
    caching: CACHING.none,
    responses: { 200: { description: '' } },
    handler: () => ({ status: 200, body: page }),
  }),
  defineRoute({
    method: 'get',
    path: '/gone',
    operationId: 'gone',
    summary: '',
    tags: [],
    responses: { 404: { description: '' } },
    handler: () => {
      throw new AppError(404, 'not_found', 'no such thing')
    },
  }),
  defineRoute({
    method: 'post',
    path: '/things',
    operationId: 'createThing',
    summary: '',
    tags: [],
    body: Type.Object({ n: Type.Integer({ minimum: 0, maximum: 10 }) }),
    responses: { 201: { description: '' } },
    handler: () => ({ status: 201, body: page }),
  }),
]

let server: HttpServer
let port: number
before(async () => {
  server = new HttpServer({ log: silentLogger })
  registerRoutes(server, routes, { guard: (r) => (r.operationId === 'page' ? countingGuard : undefined) })
  server.notFound()
  port = await server.listen('127.0.0.1', 0)
})
after(() => server.close())

function get(
  target: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: Buffer,
): Promise<RawResponse> {
  return rawRequest(port, { method, target, headers: Object.entries(headers), ...(body === undefined ? {} : { body }) })
}

/** Header lines as sent, without the two uWS adds whatever we write. */
function headerSet(res: RawResponse): [string, string][] {
  return res.headerList.filter(([name]) => name !== 'date' && name !== 'uwebsockets').map(([n, v]) => [n, v])
}

function sha1Tag(bytes: Uint8Array, suffix = ''): string {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 20)}${suffix}"`
}

const JSON_TYPE: [string, string] = ['content-type', 'application/json; charset=utf-8']
const NOSNIFF: [string, string] = ['x-content-type-options', 'nosniff']
const LIVE: [string, string] = ['cache-control', 'private, no-cache']
const VARY_AE: [string, string] = ['vary', 'Accept-Encoding']

describe('a GET 200 of a body worth compressing', () => {
  test('identity when the request asks for no coding: ETag of the bytes, Cache-Control, Vary: Accept-Encoding', async () => {
    assert.ok(page.length > 4_000, `a page of ${page.length} B`)
    const res = await get('/page')
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, page)
    const remaining = res.headers.get('x-ratelimit-remaining') as string
    assert.deepEqual(headerSet(res), [
      JSON_TYPE,
      NOSNIFF,
      LIVE,
      VARY_AE,
      ['etag', sha1Tag(page)],
      ['x-ratelimit-remaining', remaining],
      ['content-length', String(page.length)],
    ])
  })

  test('brotli and gzip round-trip to the identity bytes, each with its own ETag', async () => {
    const br = await get('/page', { 'accept-encoding': 'gzip, deflate, br' })
    assert.deepEqual(brotliDecompressSync(br.body), page)
    assert.ok(br.body.length < page.length / 4, `brotli ${br.body.length} B of ${page.length}`)
    const remaining = br.headers.get('x-ratelimit-remaining') as string
    assert.deepEqual(headerSet(br), [
      JSON_TYPE,
      NOSNIFF,
      LIVE,
      VARY_AE,
      ['etag', sha1Tag(page, '-br')],
      ['content-encoding', 'br'],
      ['x-ratelimit-remaining', remaining],
      ['content-length', String(br.body.length)],
    ])
    const gz = await get('/page', { 'accept-encoding': 'gzip' })
    assert.deepEqual(gunzipSync(gz.body), page)
    assert.equal(gz.headers.get('content-encoding'), 'gzip')
    assert.equal(gz.headers.get('etag'), sha1Tag(page, '-gz'))
    // A hot read: the second request gets the very bytes the first one computed.
    assert.deepEqual((await get('/page', { 'accept-encoding': 'br' })).body, br.body)
  })

  test('q=0 refuses a coding; refusing both gives identity (still Vary: Accept-Encoding)', async () => {
    const gzOnly = await get('/page', { 'accept-encoding': 'br;q=0, gzip' })
    assert.equal(gzOnly.headers.get('content-encoding'), 'gzip')
    const none = await get('/page', { 'accept-encoding': 'br;q=0, gzip;q=0' })
    assert.deepEqual(none.body, page)
    assert.equal(none.headers.get('content-encoding'), undefined)
    assert.equal(none.headers.get('vary'), 'Accept-Encoding')
    assert.equal(none.headers.get('etag'), sha1Tag(page))
  })

  test('a body built per request (a string) gets the same treatment and the same ETag for the same bytes', async () => {
    const br = await get('/built', { 'accept-encoding': 'br' })
    assert.deepEqual(brotliDecompressSync(br.body), page)
    assert.deepEqual(headerSet(br), [
      JSON_TYPE,
      NOSNIFF,
      LIVE,
      VARY_AE,
      ['etag', sha1Tag(page, '-br')],
      ['content-encoding', 'br'],
      ['content-length', String(br.body.length)],
    ])
    const gz = await get('/built', { 'accept-encoding': 'gzip' })
    assert.deepEqual(gunzipSync(gz.body), page)
    assert.equal((await get('/built', { 'if-none-match': sha1Tag(page) })).status, 304)
  })

  test('a body under 1 kB is never compressed and does not vary by Accept-Encoding', async () => {
    const res = await get('/small', { 'accept-encoding': 'br, gzip' })
    assert.equal(res.body.toString(), '{"ok":true}')
    assert.deepEqual(headerSet(res), [
      JSON_TYPE,
      NOSNIFF,
      LIVE,
      ['etag', sha1Tag(Buffer.from('{"ok":true}'))],
      ['content-length', '11'],
    ])
  })

  test('Cache-Control follows the route: a public catalog may be kept 60 s by any cache', async () => {
    const res = await get('/catalog', { 'accept-encoding': 'gzip' })
    assert.equal(res.headers.get('cache-control'), 'public, max-age=60')
    assert.equal(res.headers.get('etag'), sha1Tag(page, '-gz'))
  })
})

describe('conditional requests', () => {
  test('the ETag is stable while the data is; If-None-Match naming it gives a 304 with no body and the same validators', async () => {
    const first = await get('/page', { 'accept-encoding': 'br' })
    const second = await get('/page', { 'accept-encoding': 'br' })
    const etag = first.headers.get('etag') as string
    assert.equal(second.headers.get('etag'), etag)
    const before = guarded
    const res = await get('/page', { 'accept-encoding': 'br', 'if-none-match': etag })
    assert.equal(res.status, 304)
    assert.equal(res.body.length, 0)
    const remaining = res.headers.get('x-ratelimit-remaining') as string
    // No Content-Type or Content-Length: a 304 carries validators and caching fields, not representation metadata.
    assert.deepEqual(headerSet(res), [NOSNIFF, LIVE, VARY_AE, ['etag', etag], ['x-ratelimit-remaining', remaining]])
    assert.equal(guarded, before + 1, 'the 304 went through the guard (rate limit and usage count it)')
  })

  test("weak comparison, lists and * match; another representation's tag does not", async () => {
    const identity = sha1Tag(page)
    for (const header of [`W/${identity}`, `"nope", ${identity}`, '*', ` ${identity} `]) {
      assert.equal((await get('/page', { 'if-none-match': header })).status, 304, header)
    }
    // The identity tag does not validate the brotli representation the request now asks for.
    const br = await get('/page', { 'accept-encoding': 'br', 'if-none-match': identity })
    assert.equal(br.status, 200)
    assert.equal(br.headers.get('etag'), sha1Tag(page, '-br'))
    assert.equal((await get('/page', { 'if-none-match': sha1Tag(page, '-br') })).status, 200)
    assert.equal((await get('/page', { 'if-none-match': '"something-else"' })).status, 200)
  })

  test('after the data changes: 200 with a new ETag, and the old tag no longer matches', async () => {
    const old = (await get('/page', { 'accept-encoding': 'gzip' })).headers.get('etag') as string
    page = Buffer.from(JSON.stringify(rows(0.51)), 'utf8')
    const res = await get('/page', { 'accept-encoding': 'gzip', 'if-none-match': old })
    assert.equal(res.status, 200)
    assert.deepEqual(gunzipSync(res.body), page)
    const fresh = res.headers.get('etag') as string
    assert.notEqual(fresh, old)
    assert.equal(fresh, sha1Tag(page, '-gz'))
    assert.equal((await get('/page', { 'accept-encoding': 'gzip', 'if-none-match': fresh })).status, 304)
  })

  test('a route that does not revalidate (health, metrics) sends no ETag and ignores If-None-Match', async () => {
    const res = await get('/health', { 'if-none-match': '*' })
    assert.equal(res.status, 200)
    assert.deepEqual(headerSet(res), [
      JSON_TYPE,
      NOSNIFF,
      ['cache-control', 'no-store'],
      VARY_AE,
      ['content-length', String(page.length)],
    ])
  })
})

describe('HEAD', () => {
  test("the GET's status and headers, Content-Length of the representation included, and no body", async () => {
    const getRes = await get('/page', { 'accept-encoding': 'br' })
    const head = await get('/page', { 'accept-encoding': 'br' }, 'HEAD')
    assert.equal(head.status, 200)
    const withoutCounts = (r: RawResponse) => headerSet(r).filter(([n]) => n !== 'x-ratelimit-remaining')
    assert.deepEqual(withoutCounts(head), withoutCounts(getRes))
    assert.equal(head.headers.get('content-length'), String(getRes.body.length))
    const small = await get('/small', {}, 'HEAD')
    assert.deepEqual(headerSet(small), [
      JSON_TYPE,
      NOSNIFF,
      LIVE,
      ['etag', sha1Tag(Buffer.from('{"ok":true}'))],
      ['content-length', '11'],
    ])
    // A conditional HEAD is answered like a conditional GET.
    assert.equal((await get('/page', { 'if-none-match': sha1Tag(page) }, 'HEAD')).status, 304)
    // Unknown paths answer HEAD with the 404's headers and no body (the connection stays usable).
    const missing = await get('/nowhere', {}, 'HEAD')
    assert.equal(missing.status, 404)
    assert.equal(missing.headers.get('content-length'), String('{"detail":"Not Found","code":"not_found"}'.length))
  })
})

describe('everything else says no-store', () => {
  test("errors (a route's, the catch-all 404, a 422) and answers to writes: never cached, never compressed or tagged", async () => {
    for (const [res, status] of [
      [await get('/gone', { 'accept-encoding': 'br' }), 404],
      [await get('/nowhere', { 'accept-encoding': 'br' }), 404],
      [
        await get(
          '/things',
          { 'accept-encoding': 'br', 'content-type': 'application/json' },
          'POST',
          Buffer.from('{"n":"x"}'),
        ),
        422,
      ],
    ] as const) {
      assert.equal(res.status, status)
      assert.deepEqual(headerSet(res), [
        JSON_TYPE,
        NOSNIFF,
        ['cache-control', 'no-store'],
        ['content-length', String(res.body.length)],
      ])
    }
    const created = await get(
      '/things',
      { 'accept-encoding': 'br', 'content-type': 'application/json' },
      'POST',
      Buffer.from('{"n":1}'),
    )
    assert.equal(created.status, 201)
    assert.deepEqual(created.body, page, "a write's answer is sent as is, uncompressed")
    assert.deepEqual(headerSet(created), [
      JSON_TYPE,
      NOSNIFF,
      ['cache-control', 'no-store'],
      ['content-length', String(page.length)],
    ])
  })
})

describe('representations of cached bytes', () => {
  test('kept per bytes object: the ETag and each encoding are computed once, the second ask is a lookup', async () => {
    const bytes = Buffer.from(JSON.stringify(rows(0.7)), 'utf8')
    const rep = representationOf(bytes)
    assert.equal(representationOf(bytes), rep)
    const pending = rep.encoded('br')
    assert.ok(pending instanceof Promise, 'the first ask compresses on the thread pool')
    const first = await pending
    assert.ok(first !== undefined)
    assert.equal(rep.encoded('br'), first, 'then it is the same bytes object, at once')
    // Equal bytes in another object are another page: nothing is shared by content.
    assert.notEqual(representationOf(Buffer.from(bytes)), rep)
    // A string body is built per request: its representation is not kept.
    assert.notEqual(representationOf('{"a":1}'), representationOf('{"a":1}'))
  })
})
