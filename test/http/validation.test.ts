import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Type } from '@sinclair/typebox'
import { silentLogger } from '../../src/core/logger.js'
import { registerRoutes } from '../../src/http/register.js'
import { json } from '../../src/http/reply.js'
import { defineRoute, type AnyRoute } from '../../src/http/route.js'
import { Csv, Limit, Offset, Order, StatusFilter, StringEnum } from '../../src/http/schemas/common.js'
import { HttpServer } from '../../src/http/server.js'

/**
 * Request validation end to end: real HttpServer on an ephemeral port, real fetch. 422 bodies are asserted
 * whole, because clients parse them (FastAPI/pydantic format), and every invalid request must leave the
 * handler uncalled.
 */
const calls: string[] = []

const routes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/t/markets',
    operationId: 'listMarkets',
    summary: 'list',
    tags: ['test'],
    query: Type.Object({
      market_ticker: Type.Optional(Csv()),
      status: StatusFilter,
      min_volume: Type.Optional(Type.Number()),
      limit: Limit(25, 100),
      offset: Offset(),
      order: Order,
      outcome_index: Type.Integer({ minimum: 0, maximum: 1, default: 0 }),
      stale: Type.Optional(Type.Boolean()),
    }),
    responses: { 200: { description: 'ok' } },
    handler: (input) => {
      calls.push('listMarkets')
      // The static type says string[] for CSV parameters; the test checks the runtime agrees.
      const tickers: string[] | undefined = input.query.market_ticker
      return json(200, { ...input.query, tickers_is_array: tickers === undefined ? null : Array.isArray(tickers) })
    },
  }),
  defineRoute({
    method: 'get',
    path: '/t/market-price',
    operationId: 'marketPrice',
    summary: 'price',
    tags: ['test'],
    query: Type.Object({ market_ticker: Type.String(), window: Type.Optional(StringEnum(['1d', '1w'])) }),
    responses: { 200: { description: 'ok' } },
    handler: (input) => {
      calls.push('marketPrice')
      return json(200, input.query)
    },
  }),
  defineRoute({
    method: 'get',
    path: '/t/items/:slug/page/:n',
    operationId: 'item',
    summary: 'item',
    tags: ['test'],
    params: Type.Object({ slug: Type.String(), n: Type.Integer({ minimum: 1, maximum: 1_000 }) }),
    query: Type.Object({ verbose: Type.Optional(Type.Boolean()) }),
    responses: { 200: { description: 'ok' } },
    handler: (input) => {
      calls.push('item')
      return json(200, { params: input.params, query: input.query })
    },
  }),
  defineRoute({
    method: 'get',
    path: '/t/whoami',
    operationId: 'whoami',
    summary: 'headers',
    tags: ['test'],
    headers: Type.Object({
      'x-user-id': Type.String({ minLength: 3 }),
      'x-count': Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000 })),
    }),
    responses: { 200: { description: 'ok' } },
    handler: (input) => {
      calls.push('whoami')
      return json(200, input.headers)
    },
  }),
  defineRoute({
    method: 'post',
    path: '/t/alerts',
    operationId: 'createAlert',
    summary: 'body',
    tags: ['test'],
    headers: Type.Object({ 'x-user-id': Type.String() }),
    body: Type.Object(
      {
        trigger_type: StringEnum(['spread_threshold']),
        threshold: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
        channel: StringEnum(['email', 'webhook'], { default: 'email' }),
        email: Type.Optional(Type.String({ format: 'email' })),
        scope: Type.Optional(Type.Object({}, { additionalProperties: true })),
        tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 3 })),
      },
      { additionalProperties: false },
    ),
    responses: { 201: { description: 'created' } },
    handler: (input) => {
      calls.push('createAlert')
      return json(201, { user: input.headers['x-user-id'], ...input.body })
    },
  }),
]

let server: HttpServer
let base: string

before(async () => {
  server = new HttpServer({ log: silentLogger, maxBodyBytes: 1024 })
  registerRoutes(server, routes)
  server.notFound()
  base = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}`
})

after(() => server.close())

// `connection: close` so that no keep-alive socket outlives the test and holds the process open after close().
async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${path}`, { headers: { ...headers, connection: 'close' } })
  return { status: res.status, body: await res.json() }
}

async function post(
  body: string | undefined,
  contentType: string | undefined = 'application/json',
  headers: Record<string, string> = { 'x-user-id': 'u1' },
) {
  const h: Record<string, string> = { ...headers, connection: 'close' }
  if (contentType !== undefined) h['content-type'] = contentType
  const res = await fetch(`${base}/t/alerts`, { method: 'POST', headers: h, body })
  return { status: res.status, body: await res.json() }
}

/** Runs a request that must be rejected and checks the handler was not called. */
async function rejected<T>(request: () => Promise<T>): Promise<T> {
  const before = calls.length
  const result = await request()
  assert.equal(calls.length, before, 'handler must not run on invalid input')
  return result
}

const ge = (name: string, input: string, n: number) => ({
  type: 'greater_than_equal',
  loc: ['query', name],
  msg: `Input should be greater than or equal to ${n}`,
  input,
  ctx: { ge: n },
})
const intParsing = (loc: (string | number)[], input: string) => ({
  type: 'int_parsing',
  loc,
  msg: 'Input should be a valid integer, unable to parse string as an integer',
  input,
})
const STATUS_CHOICES = "'active', 'closed', 'resolved' or 'all'"

describe('query parameters', () => {
  test('defaults are applied when parameters are absent', async () => {
    assert.deepEqual(await get('/t/markets'), {
      status: 200,
      body: { status: 'active', limit: 25, offset: 0, order: 'desc', outcome_index: 0, tickers_is_array: null },
    })
  })

  test('values are coerced to their types; CSV reaches the handler as a trimmed array', async () => {
    const r = await get(
      '/t/markets?market_ticker=KX-A,%20KX-B,,KX-C&status=all&min_volume=1e3&limit=50&offset=10&order=asc&outcome_index=1&stale=yes',
    )
    assert.deepEqual(r, {
      status: 200,
      body: {
        market_ticker: ['KX-A', 'KX-B', 'KX-C'],
        status: 'all',
        min_volume: 1000,
        limit: 50,
        offset: 10,
        order: 'asc',
        outcome_index: 1,
        stale: true,
        tickers_is_array: true,
      },
    })
  })

  test('a repeated key takes its last value, and unknown parameters are ignored', async () => {
    const r = await get('/t/markets?limit=5&limit=7&unknown=1&__proto__=x&constructor=y')
    assert.deepEqual(r, {
      status: 200,
      body: { status: 'active', limit: 7, offset: 0, order: 'desc', outcome_index: 0, tickers_is_array: null },
    })
  })

  test('+ and percent-encoding are decoded before validation', async () => {
    assert.deepEqual(await get('/t/market-price?market_ticker=KX+A%2FB%C3%A9'), {
      status: 200,
      body: { market_ticker: 'KX A/Bé' },
    })
  })

  test('limit 0 and limit 101 are out of bounds', async () => {
    assert.deepEqual(await rejected(() => get('/t/markets?limit=0')), {
      status: 422,
      body: { detail: [ge('limit', '0', 1)] },
    })
    assert.deepEqual(await rejected(() => get('/t/markets?limit=101')), {
      status: 422,
      body: {
        detail: [
          {
            type: 'less_than_equal',
            loc: ['query', 'limit'],
            msg: 'Input should be less than or equal to 100',
            input: '101',
            ctx: { le: 100 },
          },
        ],
      },
    })
  })

  test('offset -1 is below its minimum', async () => {
    assert.deepEqual(await rejected(() => get('/t/markets?offset=-1')), {
      status: 422,
      body: { detail: [ge('offset', '-1', 0)] },
    })
  })

  test('a non-integer limit is an int_parsing error echoing the raw string', async () => {
    for (const raw of ['abc', '2.5', '0x10', '']) {
      const q = raw === '' ? 'limit=' : `limit=${raw}`
      assert.deepEqual(
        await rejected(() => get(`/t/markets?${q}`)),
        { status: 422, body: { detail: [intParsing(['query', 'limit'], raw)] } },
        raw,
      )
    }
  })

  test('an unknown enum value is a literal_error listing the choices', async () => {
    assert.deepEqual(await rejected(() => get('/t/markets?status=open')), {
      status: 422,
      body: {
        detail: [
          {
            type: 'literal_error',
            loc: ['query', 'status'],
            msg: `Input should be ${STATUS_CHOICES}`,
            input: 'open',
            ctx: { expected: STATUS_CHOICES },
          },
        ],
      },
    })
    assert.deepEqual(await rejected(() => get('/t/market-price?market_ticker=K&window=1y')), {
      status: 422,
      body: {
        detail: [
          {
            type: 'literal_error',
            loc: ['query', 'window'],
            msg: "Input should be '1d' or '1w'",
            input: '1y',
            ctx: { expected: "'1d' or '1w'" },
          },
        ],
      },
    })
  })

  test('a missing required parameter', async () => {
    assert.deepEqual(await rejected(() => get('/t/market-price')), {
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['query', 'market_ticker'], msg: 'Field required', input: null }] },
    })
  })

  test('several problems give one entry each, in schema order', async () => {
    const r = await rejected(() =>
      get('/t/markets?stale=maybe&order=up&offset=-1&limit=0&min_volume=lots&status=x&outcome_index=2'),
    )
    assert.deepEqual(r, {
      status: 422,
      body: {
        detail: [
          {
            type: 'literal_error',
            loc: ['query', 'status'],
            msg: `Input should be ${STATUS_CHOICES}`,
            input: 'x',
            ctx: { expected: STATUS_CHOICES },
          },
          {
            type: 'float_parsing',
            loc: ['query', 'min_volume'],
            msg: 'Input should be a valid number, unable to parse string as a number',
            input: 'lots',
          },
          ge('limit', '0', 1),
          ge('offset', '-1', 0),
          {
            type: 'literal_error',
            loc: ['query', 'order'],
            msg: "Input should be 'asc' or 'desc'",
            input: 'up',
            ctx: { expected: "'asc' or 'desc'" },
          },
          {
            type: 'less_than_equal',
            loc: ['query', 'outcome_index'],
            msg: 'Input should be less than or equal to 1',
            input: '2',
            ctx: { le: 1 },
          },
          {
            type: 'bool_parsing',
            loc: ['query', 'stale'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'maybe',
          },
        ],
      },
    })
  })
})

describe('path parameters', () => {
  test('are percent-decoded and coerced', async () => {
    assert.deepEqual(await get('/t/items/a%20b%2Fc/page/3?verbose=1'), {
      status: 200,
      body: { params: { slug: 'a b/c', n: 3 }, query: { verbose: true } },
    })
  })

  test('are validated, path entries before query entries', async () => {
    assert.deepEqual(await rejected(() => get('/t/items/x/page/zero?verbose=perhaps')), {
      status: 422,
      body: {
        detail: [
          intParsing(['path', 'n'], 'zero'),
          {
            type: 'bool_parsing',
            loc: ['query', 'verbose'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'perhaps',
          },
        ],
      },
    })
  })
})

describe('headers', () => {
  test('declared headers reach the handler, coerced', async () => {
    assert.deepEqual(await get('/t/whoami', { 'X-User-Id': 'alice', 'X-Count': '4' }), {
      status: 200,
      body: { 'x-user-id': 'alice', 'x-count': 4 },
    })
  })

  test('missing, too short and unparsable headers', async () => {
    assert.deepEqual(await rejected(() => get('/t/whoami')), {
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['header', 'x-user-id'], msg: 'Field required', input: null }] },
    })
    assert.deepEqual(await rejected(() => get('/t/whoami', { 'x-user-id': 'al', 'x-count': 'many' })), {
      status: 422,
      body: {
        detail: [
          {
            type: 'string_too_short',
            loc: ['header', 'x-user-id'],
            msg: 'String should have at least 3 characters',
            input: 'al',
            ctx: { min_length: 3 },
          },
          intParsing(['header', 'x-count'], 'many'),
        ],
      },
    })
  })
})

describe('JSON bodies', () => {
  test('a valid body reaches the handler with defaults applied', async () => {
    const r = await post(
      JSON.stringify({ trigger_type: 'spread_threshold', threshold: 0.05, scope: {} }),
      'application/json; charset=utf-8',
    )
    assert.deepEqual(r, {
      status: 201,
      body: { user: 'u1', trigger_type: 'spread_threshold', threshold: 0.05, channel: 'email', scope: {} },
    })
  })

  test('invalid JSON is a json_invalid entry at the character position, reported alone', async () => {
    assert.deepEqual(
      await rejected(() => post('{"trigger_type": "spread_threshold", "threshold": }', 'application/json', {})),
      {
        status: 422,
        body: {
          detail: [
            {
              type: 'json_invalid',
              loc: ['body', 50],
              msg: 'JSON decode error',
              input: {},
              ctx: { error: 'Expecting value' },
            },
          ],
        },
      },
    )
    assert.deepEqual(await rejected(() => post('{"a": 1 "b": 2}')), {
      status: 422,
      body: {
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', 8],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: "Expecting ',' delimiter" },
          },
        ],
      },
    })
  })

  test('a body that is not application/json is 415', async () => {
    const expected = {
      status: 415,
      body: { detail: 'Content-Type must be application/json', code: 'unsupported_media_type' },
    }
    assert.deepEqual(
      await rejected(() => post('{"trigger_type":"spread_threshold","threshold":0.1}', 'text/plain')),
      expected,
    )
    assert.deepEqual(
      await rejected(() => post('trigger_type=spread_threshold', 'application/x-www-form-urlencoded')),
      expected,
    )
  })

  test('an extra property, wrong types and broken constraints each give an entry', async () => {
    const body = {
      trigger_type: 'spread',
      threshold: '0.1',
      channel: 7,
      email: 'nobody',
      tags: ['a', ''],
      scope: [],
      extra: true,
    }
    assert.deepEqual(await rejected(() => post(JSON.stringify(body))), {
      status: 422,
      body: {
        detail: [
          {
            type: 'literal_error',
            loc: ['body', 'trigger_type'],
            msg: "Input should be 'spread_threshold'",
            input: 'spread',
            ctx: { expected: "'spread_threshold'" },
          },
          { type: 'float_type', loc: ['body', 'threshold'], msg: 'Input should be a valid number', input: '0.1' },
          {
            type: 'literal_error',
            loc: ['body', 'channel'],
            msg: "Input should be 'email' or 'webhook'",
            input: 7,
            ctx: { expected: "'email' or 'webhook'" },
          },
          {
            type: 'value_error',
            loc: ['body', 'email'],
            msg: 'value is not a valid email address: An email address must have an @-sign.',
            input: 'nobody',
            ctx: { reason: 'An email address must have an @-sign.' },
          },
          { type: 'dict_type', loc: ['body', 'scope'], msg: 'Input should be a valid dictionary', input: [] },
          {
            type: 'string_too_short',
            loc: ['body', 'tags', 1],
            msg: 'String should have at least 1 character',
            input: '',
            ctx: { min_length: 1 },
          },
          { type: 'extra_forbidden', loc: ['body', 'extra'], msg: 'Extra inputs are not permitted', input: true },
        ],
      },
    })
  })

  test('missing fields, bounds, and header problems are reported together', async () => {
    assert.deepEqual(await rejected(() => post(JSON.stringify({ threshold: 1.5 }), 'application/json', {})), {
      status: 422,
      body: {
        detail: [
          { type: 'missing', loc: ['header', 'x-user-id'], msg: 'Field required', input: null },
          { type: 'missing', loc: ['body', 'trigger_type'], msg: 'Field required', input: null },
          {
            type: 'less_than_equal',
            loc: ['body', 'threshold'],
            msg: 'Input should be less than or equal to 1',
            input: 1.5,
            ctx: { le: 1 },
          },
        ],
      },
    })
  })

  test('a body that is not an object, and an empty body', async () => {
    assert.deepEqual(await rejected(() => post('[1, 2]')), {
      status: 422,
      body: {
        detail: [
          {
            type: 'model_attributes_type',
            loc: ['body'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input: [1, 2],
          },
        ],
      },
    })
    assert.deepEqual(await rejected(() => post(undefined, undefined)), {
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] },
    })
  })

  test('a body over the size limit is 413', async () => {
    const big = JSON.stringify({ trigger_type: 'spread_threshold', threshold: 0.1, scope: { pad: 'x'.repeat(4096) } })
    assert.deepEqual(await rejected(() => post(big)), {
      status: 413,
      body: { detail: 'request body exceeds 1024 bytes', code: 'payload_too_large' },
    })
  })
})

describe('text the store cannot hold, nesting, long echoes', () => {
  const nul = 'text must not contain NUL (U+0000)'
  const textError = (loc: (string | number)[], input: string, error: string) => ({
    type: 'value_error',
    loc,
    msg: `Value error, ${error}`,
    input,
    ctx: { error },
  })

  test('NUL in a query, path or header value is a value_error, whatever else the schema says of the value', async () => {
    assert.deepEqual(await rejected(() => get('/t/market-price?market_ticker=a%00b')), {
      status: 422,
      body: { detail: [textError(['query', 'market_ticker'], 'a\u0000b', nul)] },
    })
    assert.deepEqual(await rejected(() => get('/t/items/a%00/page/1')), {
      status: 422,
      body: { detail: [textError(['path', 'slug'], 'a\u0000', nul)] },
    })
    // The enum would reject it too: one entry per parameter, the text problem first; other parameters as usual.
    assert.deepEqual(await rejected(() => get('/t/markets?status=%00&limit=0')), {
      status: 422,
      body: { detail: [textError(['query', 'status'], '\u0000', nul), ge('limit', '0', 1)] },
    })
  })

  test('NUL and unpaired surrogates anywhere in a body, keys of free-form objects included', async () => {
    const body =
      '{"trigger_type":"spread_threshold","threshold":0.5,"tags":["ok","\\u0000"],"scope":{"a":{"b":["x","\\ud800"]},"\\udfff":1}}'
    assert.deepEqual(await rejected(() => post(body)), {
      status: 422,
      body: {
        detail: [
          textError(['body', 'scope', 'a', 'b', 1], '\ud800', 'text must not contain an unpaired surrogate (U+D800)'),
          textError(['body', 'scope', '\udfff'], '\udfff', 'text must not contain an unpaired surrogate (U+DFFF)'),
          textError(['body', 'tags', 1], '\u0000', nul),
        ],
      },
    })
    // A surrogate pair is one character like any other.
    assert.equal(
      (await post(JSON.stringify({ trigger_type: 'spread_threshold', threshold: 0.5, scope: { a: '\ud83c\udf15' } })))
        .status,
      201,
    )
  })

  test('a body nested deeper than 32 levels is json_invalid at the bracket that went too deep, before parsing', async () => {
    const nested = (levels: number) =>
      `{"trigger_type":"spread_threshold","threshold":0.5,"scope":{"a":${'['.repeat(levels)}${']'.repeat(levels)}}}`
    // The body is level 1 and scope level 2, so 30 arrays inside scope make 32 levels.
    assert.equal((await post(nested(30))).status, 201)
    assert.deepEqual(await rejected(() => post(nested(31))), {
      status: 422,
      body: {
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', 94],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: 'JSON nested deeper than 32 levels' },
          },
        ],
      },
    })
  })

  test('echoed input is shortened: long strings, many entries, deep values', async () => {
    const r = await rejected(() =>
      post(JSON.stringify({ trigger_type: 'x'.repeat(300), threshold: [[[1]], 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] })),
    )
    assert.deepEqual(r, {
      status: 422,
      body: {
        detail: [
          {
            type: 'literal_error',
            loc: ['body', 'trigger_type'],
            msg: "Input should be 'spread_threshold'",
            input: `${'x'.repeat(200)}…`,
            ctx: { expected: "'spread_threshold'" },
          },
          {
            type: 'float_type',
            loc: ['body', 'threshold'],
            msg: 'Input should be a valid number',
            input: [['[…]'], 2, 3, 4, 5, 6, 7, 8, 9, 10, '… 2 more items'],
          },
        ],
      },
    })
  })
})

test('registration rejects routes whose schemas cannot work', () => {
  const s = new HttpServer({ log: silentLogger })
  const base = {
    method: 'get' as const,
    operationId: 'bad',
    summary: 'bad',
    tags: [],
    responses: {},
    handler: () => json(200, {}),
  }
  assert.throws(
    () => registerRoutes(s, [defineRoute({ ...base, path: '/b/:id' })]),
    /path \/b\/:id and params schema disagree/,
  )
  assert.throws(
    () =>
      registerRoutes(s, [defineRoute({ ...base, path: '/b', query: Type.Object({ ids: Type.Array(Type.String()) }) })]),
    /query parameter "ids": parameters must be scalars/,
  )
  assert.throws(
    () =>
      registerRoutes(s, [defineRoute({ ...base, path: '/b', headers: Type.Object({ 'X-Api-Key': Type.String() }) })]),
    /must be declared in lowercase/,
  )
  assert.throws(
    () =>
      registerRoutes(s, [
        defineRoute({ ...base, path: '/b', query: Type.Object({ q: Type.String({ nonsense: 1 }) }) }),
      ]),
    /unknown keyword/,
  )
  assert.throws(
    () =>
      registerRoutes(s, [
        defineRoute({ ...base, path: '/b', query: Type.Object({ n: Type.Integer({ minimum: 0 }) }) }),
      ]),
    /integer at "\/properties\/n" needs a minimum and a maximum/,
  )
  const body = Type.Object({ items: Type.Array(Type.Object({ n: Type.Integer({ minimum: 0, maximum: 2 ** 63 }) })) })
  assert.throws(
    () => registerRoutes(s, [defineRoute({ ...base, method: 'post', path: '/b', body })]),
    /integer at "\/properties\/items\/items\/properties\/n" has bounds beyond/,
  )
})
