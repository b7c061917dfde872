import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { ValidateFunction } from 'ajv'
import { silentLogger } from '../../src/core/logger.js'
import { buildAsyncApi } from '../../src/http/asyncapi.js'
import { buildOpenApi } from '../../src/http/openapi.js'
import { registerRoutes } from '../../src/http/register.js'
import { metaRoutes } from '../../src/http/routes/meta.js'
import { HttpServer } from '../../src/http/server.js'
import { CHANNELS, CLOSE, ERROR_CODES } from '../../src/stream/protocol.js'
import {
  asyncApi3Validator,
  payloadValidator as payloadValidatorOf,
  resolvePointer,
  type Json,
} from '../helpers/asyncapi.js'

/**
 * The AsyncAPI document of the stream: valid AsyncAPI 3.0.0 (the official JSON Schema from @asyncapi/specs, the
 * one @asyncapi/parser validates with, plus the reference checks the parser adds), generated from the protocol's
 * names, describing real frames (the contract's own examples validate against their message payloads), and served
 * beside the OpenAPI document and linked from /docs.
 */
const doc = buildAsyncApi() as Json
const resolve = (pointer: string): unknown => resolvePointer(doc, pointer)
const payloadValidator = (message: string): ValidateFunction => payloadValidatorOf(doc, message)

describe('AsyncAPI document', () => {
  test('validates against the AsyncAPI 3.0.0 JSON Schema with no errors', () => {
    const validate = asyncApi3Validator()
    assert.equal(validate(doc), true, JSON.stringify(validate.errors, null, 2))
    assert.equal(doc.asyncapi, '3.0.0')
    // And the validator does catch a broken document.
    assert.equal(validate({ ...doc, channels: { stream: { address: 7 } } }), false)
  })

  test('every $ref resolves, and each operation names messages of its own channel', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1] as string)
    assert.ok(refs.length > 50)
    for (const r of refs) resolve(r)
    for (const [name, op] of Object.entries(doc.operations as Json)) {
      const channel = op.channel.$ref as string
      for (const m of op.messages as { $ref: string }[])
        assert.ok(m.$ref.startsWith(`${channel}/messages/`), `${name}: ${m.$ref} is a message of ${channel}`)
    }
  })

  test('names come from the protocol: every channel has snapshot, delta and marker messages; codes are all listed', () => {
    const messages = Object.keys(doc.components.messages as Json)
    const id = (ch: string) => ch.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())
    for (const ch of CHANNELS)
      for (const kind of ['Snapshot', 'Delta', 'Marker']) {
        const m = doc.components.messages[`${id(ch)}${kind}`]
        assert.ok(m !== undefined, `${ch} ${kind}`)
        assert.deepEqual(m.payload.properties.ch, { const: ch })
      }
    for (const m of ['welcome', 'ack', 'error', 'pong', 'hb', 'bye', 'snapshotsDone'])
      assert.ok(messages.includes(m), m)
    for (const op of ['auth', 'subscribe', 'update', 'snapshot', 'unsubscribe', 'list', 'ping'])
      assert.deepEqual(doc.components.messages[`${op}Command`].payload.properties.op, { const: op })
    assert.deepEqual(doc.components.schemas.ErrorCode.enum, [...ERROR_CODES])
    assert.deepEqual(doc.components.schemas.CloseCode.enum, Object.values(CLOSE))
    for (const code of Object.values(CLOSE)) assert.ok(doc.channels.stream.description.includes(`\`${code}\``))
    assert.equal(doc.channels.stream.address, '/api/v2/stream')
    assert.deepEqual(
      Object.values(doc.components.securitySchemes as Json).map((s) => [s.type, s.in, s.name]),
      [
        ['httpApiKey', 'header', 'X-API-Key'],
        ['httpApiKey', 'query', 'api_key'],
      ],
    )
    assert.match(doc.components.securitySchemes.apiKeyQuery.description, /`auth` command as the first frame/)
  })

  test("the contract's example frames validate against their messages, and a wrong frame does not", () => {
    const bookDelta = payloadValidator('bookDelta')
    const example = {
      type: 'delta',
      ch: 'book',
      key: 'venuek:KXFED-27APR-T4.25',
      epoch: 'b7e1',
      seq: 1044,
      ts: 1781159489957,
      lts: 1781159489961,
      pts: 1781159489962,
      d: {
        bids: [
          ['0.4700', '0'],
          ['0.4600', '12.00'],
        ],
        asks: [],
        crc: 2740194119,
      },
    }
    assert.equal(bookDelta(example), true, JSON.stringify(bookDelta.errors))
    assert.equal(bookDelta({ ...example, ch: 'quote' }), false)
    assert.equal(bookDelta({ ...example, d: { ...example.d, bids: [[0.47, 0]] } }), false, 'levels are strings')
    const marker = payloadValidator('bookMarker')
    const disconnect = { ev: 'venue_disconnect', venue: 'venuep', reason: 'stale_no_data', since: 1781159489000 }
    assert.equal(marker({ ...example, type: 'marker', d: disconnect }), true, JSON.stringify(marker.errors))
    const resync = { ev: 'resync', reason: 'venue_reconnected', snapshot_follows: true }
    assert.equal(marker({ ...example, type: 'marker', d: resync }), true)
    const checks: [string, unknown][] = [
      ['snapshotsDone', { type: 'marker', ch: 'book', key: null, seq: null, sid: 's1', d: { ev: 'snapshots_done' } }],
      ['error', { type: 'error', id: 7, code: 'SUBSCRIPTION_LIMIT', message: 'over 500 keys' }],
      ['hb', { type: 'hb', n: 812, ts: 1781159489957, venues: { venuep: { state: 'up', age_ms: 140 } } }],
      ['bye', { type: 'bye', reconnect_after_ms: 2000 }],
      [
        'ack',
        {
          type: 'ack',
          id: 1,
          sid: 's1',
          accepted: ['venuep:1'],
          rejected: [{ key: 'x', code: 'UNKNOWN_KEY', reason: 'no such token' }],
          recovered: false,
        },
      ],
      [
        'subscribeCommand',
        {
          op: 'subscribe',
          id: 3,
          ch: 'book',
          keys: ['venuek:A'],
          depth: 25,
          resume: { 'venuek:A': { epoch: 'e', seq: 9 } },
        },
      ],
      [
        'spreadsTopDelta',
        {
          ...example,
          ch: 'spreads.top',
          key: 'limit=20',
          d: {
            upsert: [{ rank: 1, id: 'p1', record: { id: 'p1', event_slug: 'e', outcome_key: 'k', spread: 0.1 } }],
            remove: [],
            crc: 1,
          },
        },
      ],
    ]
    for (const [message, frame] of checks) {
      const v = payloadValidator(message)
      assert.equal(v(frame), true, `${message}: ${JSON.stringify(v.errors)}`)
    }
    assert.equal(payloadValidator('subscribeCommand')({ op: 'subscribe', ch: 'book', keys: ['a'], depth: 50 }), false)
    assert.equal(payloadValidator('error')({ type: 'error', id: 1, code: 'NOPE', message: '' }), false)
  })
})

describe('served by the meta routes', () => {
  let server: HttpServer
  let base: string
  const routes = metaRoutes(() => openapi)
  const openapi = buildOpenApi(routes, { title: 'Meta test' })
  before(async () => {
    server = new HttpServer({ log: silentLogger })
    registerRoutes(server, routes)
    base = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}`
  })
  after(() => server.close())

  const fetchClose = (path: string) => fetch(`${base}${path}`, { headers: { connection: 'close' } })

  test('GET /api/v2/asyncapi.json returns the document as JSON, public and documented in OpenAPI', async () => {
    const res = await fetchClose('/api/v2/asyncapi.json')
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8')
    assert.deepEqual(await res.json(), doc)
    const op = (openapi as Json).paths['/api/v2/asyncapi.json'].get
    assert.equal(op.operationId, 'getAsyncApi')
    assert.deepEqual(op.security, [])
  })

  test('/docs links it and has a short streaming section', async () => {
    const html = await (await fetchClose('/docs')).text()
    assert.ok(html.includes('<a href="/api/v2/asyncapi.json">/api/v2/asyncapi.json</a> (AsyncAPI 3.0)'))
    assert.ok(html.includes('<section id="streaming"><h2>Streaming (WebSocket)</h2>'))
    assert.ok(html.includes('<a href="#streaming">Streaming (WebSocket)</a>'))
    for (const ch of CHANNELS) assert.ok(html.includes(`<code>${ch}</code>`), ch)
    assert.ok(!html.includes('<script'))
  })
})
