import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { Type } from '@sinclair/typebox'
import { silentLogger } from '../../src/core/logger.js'
import { buildOpenApi } from '../../src/http/openapi.js'
import { registerRoutes } from '../../src/http/register.js'
import { json } from '../../src/http/reply.js'
import { defineRoute, type AnyRoute } from '../../src/http/route.js'
import { metaRoutes } from '../../src/http/routes/meta.js'
import { HttpServer } from '../../src/http/server.js'

/**
 * Headers every response carries, whichever path wrote it (HttpServer has one writer): `nosniff` on all of them, a
 * Content-Security-Policy on HTML. The docs page allows its one inline stylesheet by hash, nothing else.
 */
const routes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/ok',
    operationId: 'ok',
    summary: 'ok',
    tags: [],
    public: true,
    responses: { 200: { description: 'ok' } },
    handler: () => json(200, { ok: true }),
  }),
  defineRoute({
    method: 'get',
    path: '/later',
    operationId: 'later',
    summary: 'async',
    tags: [],
    public: true,
    responses: { 200: { description: 'ok' } },
    handler: async () => json(200, { later: true }),
  }),
  defineRoute({
    method: 'get',
    path: '/boom',
    operationId: 'boom',
    summary: 'throws',
    tags: [],
    public: true,
    responses: { 200: { description: 'never' } },
    handler: () => {
      throw new Error('secret internals')
    },
  }),
  defineRoute({
    method: 'get',
    path: '/page',
    operationId: 'page',
    summary: 'an HTML page without a policy of its own',
    tags: [],
    public: true,
    responses: { 200: { description: 'html', contentType: 'text/html' } },
    handler: () => ({ status: 200, body: '<!doctype html><p>hi</p>', contentType: 'text/html; charset=utf-8' }),
  }),
  defineRoute({
    method: 'post',
    path: '/things',
    operationId: 'createThing',
    summary: 'a body route',
    tags: [],
    public: true,
    body: Type.Object({ n: Type.Integer({ minimum: 0, maximum: 1_000 }) }, { additionalProperties: false }),
    responses: { 201: { description: 'created' } },
    handler: () => json(201, {}),
  }),
]
const all = [...routes, ...metaRoutes(() => doc)]
const doc = buildOpenApi(all, { title: 'Headers test' })

describe('security headers', () => {
  let server: HttpServer
  let base: string
  before(async () => {
    server = new HttpServer({ log: silentLogger, maxBodyBytes: 1_024 })
    registerRoutes(server, all)
    server.notFound()
    base = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}`
  })
  after(() => server.close())

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { connection: 'close', ...init.headers } })
  const post = (body: string, contentType = 'application/json') =>
    call('/things', { method: 'POST', body, headers: { 'content-type': contentType } })

  test('every response says X-Content-Type-Options: nosniff (2xx sync and async, 404, 413, 415, 422, 500, HTML, OpenAPI)', async () => {
    const cases: [string, Promise<Response>, number][] = [
      ['sync 200', call('/ok'), 200],
      ['async 200', call('/later'), 200],
      ['catch-all 404', call('/nowhere'), 404],
      ['413', post(JSON.stringify({ n: 'x'.repeat(2_000) })), 413],
      ['415', post('n=1', 'application/x-www-form-urlencoded'), 415],
      ['422', post('{"n":"one"}'), 422],
      ['201', post('{"n":1}'), 201],
      ['500', call('/boom'), 500],
      ['html', call('/page'), 200],
      ['docs', call('/docs'), 200],
      ['openapi', call('/api/v2/openapi.json'), 200],
    ]
    for (const [name, pending, status] of cases) {
      const res = await pending
      await res.arrayBuffer()
      assert.equal(res.status, status, name)
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', name)
    }
  })

  test('JSON responses carry no CSP; an HTML reply without its own gets one that allows nothing', async () => {
    const jsonRes = await call('/ok')
    assert.deepEqual(await jsonRes.json(), { ok: true })
    assert.equal(jsonRes.headers.get('content-security-policy'), null)
    const page = await call('/page')
    assert.equal(await page.text(), '<!doctype html><p>hi</p>')
    assert.equal(
      page.headers.get('content-security-policy'),
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    )
  })

  test('/docs: a strict policy whose only allowance is the hash of its inline stylesheet', async () => {
    const res = await call('/docs')
    const html = await res.text()
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] as string)
    assert.equal(styles.length, 1, 'one stylesheet')
    const hash = createHash('sha256')
      .update(styles[0] as string, 'utf8')
      .digest('base64')
    assert.equal(
      res.headers.get('content-security-policy'),
      `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    )
    assert.ok(
      !/<script|\sstyle=|\son[a-z]+=/i.test(html),
      'no scripts, inline style attributes or event handlers (the policy would block them)',
    )
  })
})
