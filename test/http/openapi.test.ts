import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Type } from '@sinclair/typebox'
import { silentLogger } from '../../src/core/logger.js'
import { buildOpenApi, type OpenApiDocument } from '../../src/http/openapi.js'
import { registerRoutes } from '../../src/http/register.js'
import { json } from '../../src/http/reply.js'
import { defineRoute, type AnyRoute } from '../../src/http/route.js'
import { metaRoutes } from '../../src/http/routes/meta.js'
import {
  Csv,
  ErrorBody,
  Limit,
  Offset,
  OFFSET_MAX,
  Order,
  StatusFilter,
  StringEnum,
  ValidationErrorBody,
} from '../../src/http/schemas/common.js'
import { HttpServer } from '../../src/http/server.js'

/** The published description must say exactly what the validators enforce; the docs page must show all of it safely. */
const Market = Type.Object(
  { event_ticker: Type.String(), title: Type.String(), volume_24h: Type.Union([Type.Number(), Type.Null()]) },
  { description: 'A venuek market.' },
)

const testRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/v2/venuek/markets',
    operationId: 'listVenuekMarkets',
    summary: 'List venuek markets',
    description: 'Filtered by `status`.',
    tags: ['venuek'],
    query: Type.Object({
      market_ticker: Type.Optional(Csv({ description: 'Outcome-level market tickers.' })),
      status: StatusFilter,
      sort: StringEnum(['volume', 'end_time'], { default: 'volume' }),
      limit: Limit(25, 100),
      offset: Offset(),
      order: Order,
    }),
    responses: {
      200: {
        description: 'A page of markets.',
        schema: Type.Object({
          markets: Type.Array(Market),
          total: Type.Integer(),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
        headers: { 'x-catalog-version': 'Catalog version the page was read from.' },
      },
    },
    handler: () => json(200, {}),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v2/venuep/wallet/:wallet_address/pnl',
    operationId: 'getWalletPnl',
    summary: 'Realized <b>PnL</b> of a wallet <script>alert(1)</script>',
    tags: ['venuep'],
    params: Type.Object({ wallet_address: Type.String({ description: 'Proxy wallet address.' }) }),
    responses: {
      200: { description: 'PnL.', schema: Type.Object({}, { additionalProperties: true }) },
      404: { description: 'Unknown wallet.', schema: ErrorBody },
    },
    handler: () => json(200, {}),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v2/alerts',
    operationId: 'createAlert',
    summary: 'Create an alert rule',
    tags: ['alerts'],
    headers: Type.Object({ 'x-user-id': Type.String({ description: 'The user.' }) }),
    body: Type.Object(
      { trigger_type: Type.String(), threshold: Type.Number({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    responses: {
      200: {
        description: 'The rule.',
        schema: Type.Object({ trigger_type: Type.String(), threshold: Type.Number(), status: Type.String() }),
      },
    },
    handler: () => json(200, {}),
  }),
]

const info = { title: 'Prediction Market Data API', description: 'Cross-venue data & <spreads>.' }
let doc: OpenApiDocument
const routes: AnyRoute[] = [...testRoutes, ...metaRoutes(() => doc)]
doc = buildOpenApi(routes, info)

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const jsonContent = (schema: unknown) => ({ 'application/json': { schema } })
const stringSchema = { type: 'string' }
/** What every revalidating GET route gets (caching.ts): the 200's caching headers, If-None-Match and its 304. */
const cachingHeaders = (cacheControl: string) => ({
  'Cache-Control': {
    description: `Addition: \`${cacheControl}\` (README, "HTTP: caching, compression, CORS").`,
    schema: stringSchema,
  },
  ETag: {
    description:
      'Addition: strong validator of this representation (each content coding has its own); send it in `If-None-Match` to get a 304 while it is current.',
    schema: stringSchema,
  },
})
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'Addition: ETag(s) of a response the client holds (or `*`). When one names the current representation the answer is 304 with no body; the request still counts against the rate limit.',
  schema: stringSchema,
}
const notModified = (headers: object) => ({
  description:
    'Addition: Not Modified: `If-None-Match` names the current representation. No body; the ETag, Cache-Control and Vary of the 200.',
  headers,
})

describe('the document', () => {
  test('is OpenAPI 3.1, version 2.0.0, with the given title and description', () => {
    assert.equal(doc.openapi, '3.1.0')
    assert.deepEqual(doc.info, { title: info.title, version: '2.0.0', description: info.description })
    assert.deepEqual(doc.tags, [{ name: 'venuek' }, { name: 'venuep' }, { name: 'alerts' }, { name: 'meta' }])
  })

  test('is plain JSON: no symbols, no undefined, no internal keywords', () => {
    const text = JSON.stringify(doc)
    assert.deepEqual(JSON.parse(text), doc)
    assert.ok(!text.includes('x-csv'), 'x-csv is replaced by style/explode')
  })

  test('paths use {param} templates, and every template has a path parameter', () => {
    assert.deepEqual(Object.keys(doc.paths), [
      '/api/v2/venuek/markets',
      '/api/v2/venuep/wallet/{wallet_address}/pnl',
      '/api/v2/alerts',
      '/api/v2/openapi.json',
      '/api/v2/asyncapi.json',
      '/api/v2/bus-asyncapi.json',
      '/docs',
    ])
    for (const [path, methods] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      for (const op of Object.values(methods)) {
        assert.deepEqual(
          op.parameters?.filter((p) => p.in === 'path').map((p) => p.name) ?? [],
          names,
          `${path} path parameters`,
        )
      }
    }
  })

  test('query parameters carry types, defaults, bounds, enums; CSV is form/explode=false; defaulted ones are optional', () => {
    const op = doc.paths['/api/v2/venuek/markets']?.get
    assert.deepEqual(op?.parameters, [
      {
        name: 'market_ticker',
        in: 'query',
        required: false,
        description: 'Outcome-level market tickers.',
        schema: { type: 'array', items: { type: 'string' } },
        style: 'form',
        explode: false,
      },
      {
        name: 'status',
        in: 'query',
        required: false,
        description: 'Service status to include; `all` disables the filter.',
        schema: { default: 'active', type: 'string', enum: ['active', 'closed', 'resolved', 'all'] },
      },
      {
        name: 'sort',
        in: 'query',
        required: false,
        schema: { default: 'volume', type: 'string', enum: ['volume', 'end_time'] },
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Maximum number of items to return.',
        schema: { minimum: 1, maximum: 100, default: 25, type: 'integer' },
      },
      {
        name: 'offset',
        in: 'query',
        required: false,
        description: 'Number of items to skip.',
        schema: { minimum: 0, maximum: OFFSET_MAX, default: 0, type: 'integer' },
      },
      {
        name: 'order',
        in: 'query',
        required: false,
        description: 'Sort direction.',
        schema: { default: 'desc', type: 'string', enum: ['asc', 'desc'] },
      },
      IF_NONE_MATCH,
    ])
    assert.equal(op?.operationId, 'listVenuekMarkets')
    assert.equal(op?.summary, 'List venuek markets')
    assert.equal(op?.description, 'Filtered by `status`.')
    assert.deepEqual(op?.tags, ['venuek'])
  })

  test('responses: declared schemas and headers, plus the implied 401, 422, caching headers and 304', () => {
    const responses = doc.paths['/api/v2/venuek/markets']?.get?.responses
    assert.deepEqual(Object.keys(responses ?? {}), ['200', '304', '401', '422'])
    const headers = {
      'x-catalog-version': { description: 'Catalog version the page was read from.', schema: { type: 'string' } },
      ...cachingHeaders('private, no-cache'),
    }
    assert.deepEqual(responses?.['304'], notModified(headers))
    assert.deepEqual(responses?.['200'], {
      description: 'A page of markets.',
      headers,
      content: jsonContent({
        type: 'object',
        properties: {
          markets: {
            type: 'array',
            items: {
              description: 'A venuek market.',
              type: 'object',
              properties: {
                event_ticker: { type: 'string' },
                title: { type: 'string' },
                volume_24h: { anyOf: [{ type: 'number' }, { type: 'null' }] },
              },
              required: ['event_ticker', 'title', 'volume_24h'],
            },
          },
          total: { type: 'integer' },
          limit: { type: 'integer' },
          offset: { type: 'integer' },
        },
        required: ['markets', 'total', 'limit', 'offset'],
      }),
    })
    assert.deepEqual(responses?.['422'], {
      description: 'Validation error: one entry per problem.',
      content: jsonContent(ref('ValidationErrorBody')),
    })
    assert.deepEqual(responses?.['401'], {
      description: 'Missing or invalid API key (`unauthorized`).',
      content: jsonContent(ref('ErrorBody')),
    })
  })

  test('path and header parameters are documented; bodies get requestBody, 413 and 415', () => {
    assert.deepEqual(doc.paths['/api/v2/venuep/wallet/{wallet_address}/pnl']?.get?.parameters, [
      {
        name: 'wallet_address',
        in: 'path',
        required: true,
        description: 'Proxy wallet address.',
        schema: { type: 'string' },
      },
      IF_NONE_MATCH,
    ])
    assert.deepEqual(doc.paths['/api/v2/venuep/wallet/{wallet_address}/pnl']?.get?.responses['404'], {
      description: 'Unknown wallet.',
      content: jsonContent(ref('ErrorBody')),
    })
    const post = doc.paths['/api/v2/alerts']?.post
    assert.deepEqual(post?.parameters, [
      { name: 'x-user-id', in: 'header', required: true, description: 'The user.', schema: { type: 'string' } },
    ])
    assert.deepEqual(post?.requestBody, {
      required: true,
      content: jsonContent({
        additionalProperties: false,
        type: 'object',
        properties: { trigger_type: { type: 'string' }, threshold: { minimum: 0, type: 'number' } },
        required: ['trigger_type', 'threshold'],
      }),
    })
    assert.deepEqual(
      Object.keys(post?.responses ?? {}),
      ['200', '401', '413', '415', '422'],
      'a write: no caching headers, no 304',
    )
    assert.equal(post?.responses['200']?.headers, undefined)
  })

  test('public routes opt out of the API key; the scheme is declared once', () => {
    assert.deepEqual(doc.paths['/docs']?.get?.security, [])
    const docsHeaders = cachingHeaders('public, no-cache')
    assert.deepEqual(doc.paths['/docs']?.get?.responses, {
      '200': {
        description: 'The reference page.',
        headers: docsHeaders,
        content: { 'text/html': { schema: { type: 'string' } } },
      },
      '304': notModified(docsHeaders),
    })
    assert.equal(doc.paths['/api/v2/alerts']?.post?.security, undefined)
    assert.deepEqual(doc.security, [{ ApiKeyAuth: [] }])
    assert.deepEqual(doc.components.securitySchemes.ApiKeyAuth, {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'API key from POST /api/v2/developers/signup.',
    })
  })

  test('every $ref resolves to a component', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1] as string,
    )
    assert.ok(refs.length > 0)
    for (const r of refs) assert.ok(doc.components.schemas[r] !== undefined, `component ${r}`)
    assert.deepEqual(doc.components.schemas.ValidationErrorBody, {
      additionalProperties: false,
      description: ValidationErrorBody.description,
      type: 'object',
      properties: { detail: { type: 'array', items: ref('ValidationIssue') } },
      required: ['detail'],
    })
  })

  test('duplicate operation ids are refused', () => {
    assert.throws(
      () => buildOpenApi([testRoutes[0] as AnyRoute, testRoutes[0] as AnyRoute], info),
      /duplicate operationId: listVenuekMarkets/,
    )
  })
})

describe('served by the meta routes', () => {
  let server: HttpServer
  let base: string
  before(async () => {
    server = new HttpServer({ log: silentLogger })
    registerRoutes(server, routes)
    base = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}`
  })
  after(() => server.close())

  // `connection: close` so no keep-alive socket holds the process open after close().
  const fetchClose = (path: string) => fetch(`${base}${path}`, { headers: { connection: 'close' } })

  test('GET /api/v2/openapi.json returns the document as JSON', async () => {
    const res = await fetchClose('/api/v2/openapi.json')
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8')
    assert.deepEqual(await res.json(), doc)
  })

  test('GET /docs is a self-contained HTML page listing every path, with everything escaped', async () => {
    const res = await fetchClose('/docs')
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8')
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/)
    const html = await res.text()
    assert.match(html, /^<!doctype html>/)
    for (const path of Object.keys(doc.paths)) assert.ok(html.includes(`<code>${path}</code>`), `lists ${path}`)
    assert.ok(!html.includes('<script'), 'no script element, not even from a summary')
    assert.ok(html.includes('Realized &lt;b&gt;PnL&lt;/b&gt; of a wallet &lt;script&gt;alert(1)&lt;/script&gt;'))
    assert.ok(html.includes('Cross-venue data &amp; &lt;spreads&gt;.'))
    assert.ok(!/(src|href)="(https?:)?\/\//.test(html), 'no external resources')
    // Parameter table: name, location, type, default, bounds, required.
    assert.match(
      html,
      /<td><code>limit<\/code><\/td><td>query<\/td><td>integer<\/td><td><code>25<\/code><\/td><td>≥ 1; ≤ 100<\/td><td>no<\/td>/,
    )
    assert.match(html, /<td><code>market_ticker<\/code><\/td><td>query<\/td><td>string list \(comma-separated\)<\/td>/)
    assert.match(html, /one of <code>active<\/code>, <code>closed<\/code>, <code>resolved<\/code>, <code>all<\/code>/)
    // Response fields flattened, request body fields, and the error conventions.
    assert.match(html, /<td><code>markets\[\]\.volume_24h<\/code><\/td><td>number \| null<\/td><td>yes<\/td>/)
    assert.match(html, /<td><code>threshold<\/code><\/td><td>number<\/td><td>yes<\/td><td>≥ 0<\/td>/)
    assert.ok(html.includes('Fields other than these are rejected.'), 'closed request bodies say so')
    assert.ok(html.includes('id="conventions"') && html.includes('<code>unsupported_media_type</code>'))
  })
})
