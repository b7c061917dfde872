import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Authenticator } from '../../src/accounts/authenticator.js'
import type { UsageMeter } from '../../src/accounts/usage-meter.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { keyGuards } from '../../src/http/auth.js'
import { errorReply, replyForError } from '../../src/http/reply.js'
import { registerRoutes } from '../../src/http/register.js'
import { defineRoute, type AnyRoute } from '../../src/http/route.js'
import { eventRoutes } from '../../src/http/routes/events.js'
import { healthRoutes } from '../../src/http/routes/health.js'
import { spreadHistoryRoutes } from '../../src/http/routes/spread-history.js'
import { HttpServer } from '../../src/http/server.js'
import { upstreamAppError, UpstreamRejectedError } from '../../src/venues/upstream/errors.js'
import type { ReadModels } from '../../src/views/read-models.js'
import { VENUES } from '../../src/venues/index.js'
import { mountProxies, singleMarkets, type ProxyHarness } from '../proxies/harness.js'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * Every error code the API answers with, on one representative route each (and each kind of route: a schema 422 and
 * a handler's own 422, a guard, a fallback, a store read, a venue proxy), asserted WHOLE: status, the exact bytes of
 * the body and the headers that matter. All of them come out of one writer (src/http/reply.ts `errorReply`), so a
 * change of format shows here for every code at once. The codes the running service cannot be made to answer (not
 * ready, the key store down, the history store down, an unexpected exception) are provoked on a server of their own.
 */
interface Row {
  readonly name: string
  readonly path: string
  readonly method?: string
  readonly headers?: Record<string, string>
  readonly body?: string
  readonly status: number
  readonly expect: unknown
  /** Response headers that must be present with these values (lowercase names); null: must be absent. */
  readonly expectHeaders?: Record<string, string | null>
}

interface Answer {
  readonly status: number
  readonly text: string
  readonly headers: Headers
}

async function send(base: string, row: Pick<Row, 'path' | 'method' | 'headers' | 'body'>): Promise<Answer> {
  const res = await fetch(`${base}${row.path}`, {
    method: row.method ?? (row.body === undefined ? 'GET' : 'POST'),
    headers: { connection: 'close', ...row.headers },
    ...(row.body === undefined ? {} : { body: row.body }),
  })
  return { status: res.status, text: await res.text(), headers: res.headers }
}

function assertWhole(row: Row, a: Answer): void {
  assert.equal(a.status, row.status, `${row.name}: ${a.text}`)
  assert.equal(a.text, JSON.stringify(row.expect), row.name)
  assert.equal(a.headers.get('content-type'), 'application/json; charset=utf-8', row.name)
  for (const [name, value] of Object.entries(row.expectHeaders ?? {}))
    assert.equal(a.headers.get(name), value, `${row.name}: header ${name}`)
}

const MISSING_KEY = 'Missing API key: send it in the X-API-Key header (POST /api/v2/developers/signup issues one).'

describe('error bodies on the running service', () => {
  let s: TestService
  let proxies: ProxyHarness
  let key: Record<string, string>
  before(async () => {
    s = await startTestService({
      questions: 40,
      config: { auth: { rateLimit: { burst: 100, perSecond: 20 }, signupRateLimit: { burst: 3, perMinute: 5 } } },
    })
    key = { ...s.authHeaders }
    proxies = await mountProxies(s, {
      timeoutsMs: { gamma: 300, clob: 300, data: 300 },
      breaker: { failureThreshold: 2, openMs: 10_000 },
    })
  })
  after(async () => {
    await proxies?.close()
    await s?.close()
  })

  const json = (extra: Record<string, string> = {}) => ({ ...key, 'content-type': 'application/json', ...extra })

  test('validation_error, unauthorized, not_found, payload_too_large, unsupported_media_type', async () => {
    const rows: Row[] = [
      {
        name: 'schema 422 (query)',
        path: '/api/v2/venuep/markets?limit=0',
        headers: key,
        status: 422,
        expect: {
          detail: [
            {
              type: 'greater_than_equal',
              loc: ['query', 'limit'],
              msg: 'Input should be greater than or equal to 1',
              input: '0',
              ctx: { ge: 1 },
            },
          ],
        },
        expectHeaders: { 'x-ratelimit-limit': '100' },
      },
      {
        name: 'schema 422 (path parameter)',
        path: '/api/v2/alerts/not-a-uuid',
        headers: { ...key, 'x-user-id': 'u1' },
        status: 422,
        expect: {
          detail: [
            {
              type: 'uuid_parsing',
              loc: ['path', 'id'],
              msg: 'Input should be a valid UUID, invalid UUID format',
              input: 'not-a-uuid',
              ctx: { error: 'invalid UUID format' },
            },
          ],
        },
      },
      {
        name: 'handler 422: neither identifier',
        path: '/api/v2/venuep/market-price',
        headers: key,
        status: 422,
        expect: {
          detail: [
            {
              type: 'missing',
              loc: ['query', 'market_slug'],
              msg: 'Field required: give market_slug or condition_id',
              input: null,
            },
          ],
        },
      },
      {
        name: 'handler 422: a CSV item outside its values',
        path: '/api/v2/spreads?platforms=venuep,nowhere',
        headers: key,
        status: 422,
        expect: {
          detail: [
            {
              type: 'literal_error',
              loc: ['query', 'platforms'],
              msg: "Input should be 'venuep' or 'venuek'",
              input: 'nowhere',
              ctx: { expected: "'venuep' or 'venuek'" },
            },
          ],
        },
      },
      {
        name: 'proxy 422: neither identifier',
        path: '/api/v2/venuep/orders',
        headers: key,
        status: 422,
        expect: {
          detail: [
            {
              type: 'missing',
              loc: ['query', 'market_slug'],
              msg: 'Field required: give market_slug or condition_id',
              input: null,
            },
          ],
        },
      },
      {
        name: 'proxy 422: a foreign cursor',
        path: '/api/v2/venuep/activity?wallet_address=0x1111111111111111111111111111111111111111&cursor=garbage',
        headers: key,
        status: 422,
        expect: {
          detail: [
            {
              type: 'value_error',
              loc: ['query', 'cursor'],
              msg: 'cursor is not a cursor of this list',
              input: 'garbage',
            },
          ],
        },
      },
      {
        name: 'body 422: JSON that does not parse',
        path: '/api/v2/alerts',
        headers: json({ 'x-user-id': 'u1' }),
        body: '{"channel":',
        status: 422,
        expect: {
          detail: [
            {
              type: 'json_invalid',
              loc: ['body', 11],
              msg: 'JSON decode error',
              input: {},
              ctx: { error: 'Expecting value' },
            },
          ],
        },
      },
      {
        name: 'body 422: a webhook host that does not resolve',
        path: '/api/v2/alerts',
        headers: json({ 'x-user-id': 'u1' }),
        body: JSON.stringify({
          trigger_type: 'spread_threshold',
          threshold: 0.05,
          channel: 'webhook',
          target: 'https://nowhere.example.com/hook',
        }),
        status: 422,
        expect: {
          detail: [
            {
              type: 'value_error',
              loc: ['body', 'target'],
              msg: 'Value error, nowhere.example.com does not resolve to any address (ENOTFOUND)',
              input: 'https://nowhere.example.com/hook',
              ctx: { error: 'nowhere.example.com does not resolve to any address (ENOTFOUND)' },
            },
          ],
        },
      },
      {
        name: 'guard 401',
        path: '/api/v2/venuep/markets',
        status: 401,
        expect: { detail: MISSING_KEY, code: 'unauthorized' },
        expectHeaders: { 'retry-after': null },
      },
      {
        name: 'guard 401: unknown key',
        path: '/api/v2/events',
        headers: { 'x-api-key': `pmk_live_${'A'.repeat(43)}` },
        status: 401,
        expect: { detail: 'Invalid API key.', code: 'unauthorized' },
      },
      {
        name: 'route 404',
        path: '/api/v2/events/no-such-event',
        headers: key,
        status: 404,
        expect: { detail: 'unknown event no-such-event', code: 'not_found' },
      },
      {
        name: 'route 404 (store)',
        path: '/api/v2/alerts/00000000-0000-4000-8000-000000000000',
        headers: { ...key, 'x-user-id': 'u1' },
        status: 404,
        expect: { detail: 'No such alert rule for this user.', code: 'not_found' },
      },
      {
        name: 'route 404 (venue read)',
        path: '/api/v2/venuek/market-price?market_ticker=NO-SUCH',
        headers: key,
        status: 404,
        expect: { detail: 'unknown market_ticker NO-SUCH', code: 'not_found' },
      },
      {
        name: 'route 404 (proxy)',
        path: '/api/v2/venuep/orderbook-history?token_id=123',
        headers: key,
        status: 404,
        expect: { detail: 'unknown token_id 123', code: 'not_found' },
      },
      {
        name: 'route 404 (spread history)',
        path: '/api/v2/spreads/history?event_slug=no-such-event&outcome_key=text%3Ayes',
        headers: key,
        status: 404,
        expect: {
          detail: 'no spread history for event_slug no-such-event and outcome_key text:yes',
          code: 'not_found',
        },
      },
      {
        name: 'route 404 (account)',
        path: '/api/v2/developers/api-keys/00000000-0000-4000-8000-000000000000',
        method: 'DELETE',
        headers: key,
        status: 404,
        expect: { detail: 'No such key in this account.', code: 'not_found' },
      },
      {
        name: 'fallback 404',
        path: '/api/v2/no-such-route',
        status: 404,
        expect: { detail: 'Not Found', code: 'not_found' },
      },
      {
        name: 'fallback 404 (method)',
        path: '/api/v2/events',
        method: 'PUT',
        headers: key,
        status: 404,
        expect: { detail: 'Not Found', code: 'not_found' },
      },
      {
        name: 'body over the limit',
        path: '/api/v2/alerts',
        headers: json({ 'x-user-id': 'u1' }),
        body: JSON.stringify({ target: 'x'.repeat(70_000) }),
        status: 413,
        expect: { detail: 'request body exceeds 65536 bytes', code: 'payload_too_large' },
      },
      {
        name: 'body that is not JSON',
        path: '/api/v2/alerts',
        headers: { ...key, 'x-user-id': 'u1', 'content-type': 'text/plain' },
        body: 'hello',
        status: 415,
        expect: { detail: 'Content-Type must be application/json', code: 'unsupported_media_type' },
      },
    ]
    for (const row of rows) assertWhole(row, await send(s.baseUrl, row))
  })

  test('a parameter the store cannot take is a 422, never a 500', async () => {
    // Ajv's `uuid` format admits a `urn:uuid:` prefix, which the store's uuid columns do not.
    for (const id of [
      'urn:uuid:00000000-0000-4000-8000-000000000000',
      'URN:UUID:00000000-0000-4000-8000-000000000000',
    ]) {
      for (const row of [
        { path: `/api/v2/alerts/${id}` },
        { path: `/api/v2/alerts/${id}/deliveries` },
        { path: `/api/v2/alerts/${id}`, method: 'DELETE' },
        { path: `/api/v2/developers/api-keys/${id}`, method: 'DELETE' },
      ]) {
        const a = await send(s.baseUrl, { ...row, headers: { ...key, 'x-user-id': 'u1' } })
        const expect = {
          detail: [
            {
              type: 'uuid_parsing',
              loc: ['path', 'id'],
              msg: 'Input should be a valid UUID, invalid UUID format',
              input: id,
              ctx: { error: 'invalid UUID format' },
            },
          ],
        }
        assertWhole({ name: `${row.method ?? 'GET'} ${row.path}`, path: row.path, status: 422, expect }, a)
      }
    }
  })

  test('conflict, dns_unavailable', async () => {
    const rule = await send(s.baseUrl, {
      path: '/api/v2/alerts',
      headers: json({ 'x-user-id': 'u2' }),
      body: JSON.stringify({
        trigger_type: 'spread_threshold',
        threshold: 0.05,
        channel: 'email',
        target: 'ops@example.com',
      }),
    })
    assert.equal(rule.status, 201, rule.text)
    const id = (JSON.parse(rule.text) as { id: string }).id
    s.resolver.fail('flaky.example.com', 'EAI_AGAIN')
    const rows: Row[] = [
      {
        name: '409',
        path: `/api/v2/alerts/${id}/signing-secret`,
        method: 'POST',
        headers: { ...key, 'x-user-id': 'u2' },
        status: 409,
        expect: { detail: 'Only webhook rules have a signing secret.', code: 'conflict' },
      },
      {
        name: '503 dns_unavailable',
        path: '/api/v2/alerts',
        headers: json({ 'x-user-id': 'u2' }),
        body: JSON.stringify({
          trigger_type: 'spread_threshold',
          threshold: 0.05,
          channel: 'webhook',
          target: 'https://flaky.example.com/hook',
        }),
        status: 503,
        expect: {
          detail:
            'The webhook host could not be checked: the address of flaky.example.com could not be looked up (EAI_AGAIN); retry shortly.',
          code: 'dns_unavailable',
        },
        expectHeaders: { 'retry-after': '5' },
      },
    ]
    for (const row of rows) assertWhole(row, await send(s.baseUrl, row))
  })

  test('rate_limited: the key guard and the signup throttle', async () => {
    const signup = (email: string) =>
      send(s.baseUrl, {
        path: '/api/v2/developers/signup',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, company: 'c', use_case: 'u' }),
      })
    const created = await signup('limits@example.com')
    assert.equal(created.status, 201, created.text)
    const own = { 'x-api-key': (JSON.parse(created.text) as { api_key: string }).api_key }
    for (let i = 0; i < 100; i++)
      assert.equal((await send(s.baseUrl, { path: '/api/v2/events?limit=1', headers: own })).status, 200)
    assertWhole(
      {
        name: 'key 429',
        path: '/api/v2/events?limit=1',
        status: 429,
        expect: {
          detail: 'Rate limit exceeded (bursts of 100, 20 requests per second per key); retry in 1 s.',
          code: 'rate_limited',
          retry_after_seconds: 1,
        },
        expectHeaders: { 'retry-after': '1', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0' },
      },
      await send(s.baseUrl, { path: '/api/v2/events?limit=1', headers: own }),
    )
    // The suite's own signup and the one above took two of the address's three.
    let last: Answer | undefined
    for (let i = 0; i < 2; i++) last = await signup(`burst-${i}@example.com`)
    assertWhole(
      {
        name: 'signup 429',
        path: '',
        status: 429,
        expect: {
          detail: 'Too many signups from your address (bursts of 3, then 5 per minute); retry in 12 s.',
          code: 'rate_limited',
          retry_after_seconds: 12,
        },
        expectHeaders: { 'retry-after': '12' },
      },
      last as Answer,
    )
  })

  test('upstream_error (502, and 503 with Retry-After), upstream_timeout', async () => {
    const m = singleMarkets(s, 'active')[0]!
    assertWhole(
      {
        name: 'proxy 422: a window the proxy cannot ask for',
        path: '',
        status: 422,
        // The proxies' own 422s echo the parsed value (a number here), as they always have.
        expect: {
          detail: [
            { type: 'value_error', loc: ['query', 'start_ts'], msg: 'start_ts must not be after end_ts', input: 10 },
          ],
        },
      },
      await send(s.baseUrl, {
        path: `/api/v2/venuep/candlesticks?market_slug=${m.marketId}&start_ts=10&end_ts=5`,
        headers: key,
      }),
    )
    const faults = s.sim.venuep.faults
    faults.failHttp({ status: 500, count: 1, host: 'data', pathPrefix: '/trades' })
    assertWhole(
      {
        name: '502',
        path: '',
        status: 502,
        expect: {
          detail: "the venue's data API answered 500",
          code: 'upstream_error',
          upstream: 'data',
          upstream_status: 500,
        },
        expectHeaders: { 'retry-after': null },
      },
      await send(proxies.baseUrl, { path: `/api/v2/venuep/orders?market_slug=${m.marketId}&limit=3`, headers: key }),
    )
    faults.clearHttpFaults()
    faults.latencyMs = 1_000
    try {
      assertWhole(
        {
          name: '504',
          path: '',
          status: 504,
          expect: {
            detail: "the venue's data API did not answer within 300 ms",
            code: 'upstream_timeout',
            upstream: 'data',
            timeout_ms: 300,
          },
        },
        await send(proxies.baseUrl, { path: `/api/v2/venuep/orders?market_slug=${m.marketId}&limit=4`, headers: key }),
      )
    } finally {
      faults.latencyMs = 0
    }
    // The 502 and the timeout opened the data host's breaker (threshold 2): the next call is refused without asking the venue.
    assertWhole(
      {
        name: '503 circuit open',
        path: '',
        status: 503,
        expect: {
          detail: "the venue's data API is failing; calls are paused (circuit open); retry after 10 s",
          code: 'upstream_error',
          upstream: 'data',
          reason: 'circuit_open',
          retry_after_seconds: 10,
        },
        expectHeaders: { 'retry-after': '10' },
      },
      await send(proxies.baseUrl, { path: `/api/v2/venuep/orders?market_slug=${m.marketId}&limit=5`, headers: key }),
    )
  })
})

describe('the one writer', () => {
  test('a refused upstream call carries Retry-After on every route that makes one (the proxies, market-price with a timestamp)', () => {
    const err = upstreamAppError(new UpstreamRejectedError('clob', 'upstream_rate_limit', 1_500), 'clob')
    assert.deepEqual(errorReply(err), {
      status: 503,
      body: JSON.stringify({
        detail: "the venue's clob API request budget is used up for now; retry after 2 s",
        code: 'upstream_error',
        upstream: 'clob',
        reason: 'upstream_rate_limit',
        retry_after_seconds: 2,
      }),
      headers: [['retry-after', '2']],
    })
  })

  test('anything but an AppError is a bare 500: no message, no headers', () => {
    assert.deepEqual(replyForError(new TypeError("Cannot read properties of undefined (reading 'x')")), {
      status: 500,
      body: '{"detail":"Internal Server Error","code":"internal"}',
    })
  })
})

describe('error bodies a running service does not give on demand', () => {
  let server: HttpServer
  let base: string
  const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
  const notBuilt = {
    collapsed: () => undefined,
    sitemap: () => undefined,
    directory: () => undefined,
    view: () => undefined,
  } as unknown as ReadModels
  const keyStoreDown = {
    rateLimit: { burst: 40, perSecond: 20 },
    resolve: () => ({ kind: 'rejected', reason: 'unavailable' }),
  } as unknown as Authenticator
  const failing = defineRoute({
    method: 'get',
    path: '/boom',
    operationId: 'boom',
    summary: 'throws',
    tags: [],
    public: true,
    responses: {},
    handler: () => {
      throw new Error('secret internals: connection string postgres://user:pw@db')
    },
  })
  const routes: AnyRoute[] = [
    ...eventRoutes({ models: notBuilt, venues: VENUES }),
    ...healthRoutes({
      venues: [],
      views: { serving: false },
      spreads: { ready: false, pairCount: 0 },
      source: { simulated: true, description: 'simulated venues (seed 1)' },
      startedAt: clock.now(),
      now: () => clock.now(),
    }),
    ...spreadHistoryRoutes({
      history: {
        buckets: () => Promise.reject(new Error('store down')),
        hasHistory: () => Promise.reject(new Error('store down')),
      },
      isMatched: () => true,
      clock,
      log: silentLogger,
      sampling: { minChangeBps: 10, minIntervalMs: 60_000, heartbeatMs: 3_600_000, flushMs: 1_000, retentionDays: 35 },
    }),
    failing,
  ]
  before(async () => {
    server = new HttpServer({ log: silentLogger })
    const guard = keyGuards(keyStoreDown, {} as UsageMeter, clock).metered
    registerRoutes(server, routes, { guard: (r) => (r.operationId === 'getEvent' ? guard : undefined) })
    server.notFound()
    base = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}`
  })
  after(() => server.close())

  test('not_ready, auth_unavailable, history_unavailable, internal', async () => {
    const rows: Row[] = [
      {
        name: 'list 503',
        path: '/api/v2/events',
        status: 503,
        expect: { detail: 'catalogs are still loading', code: 'not_ready' },
      },
      {
        name: 'sitemap 503',
        path: '/api/v2/sitemap/events',
        status: 503,
        expect: { detail: 'catalogs are still loading', code: 'not_ready' },
      },
      {
        name: 'readiness 503',
        path: '/readyz',
        status: 503,
        expect: {
          detail: 'venue catalogs and feeds are still loading',
          code: 'not_ready',
          status: 'not_ready',
          data_source: 'simulated',
          simulated: true,
          description: 'simulated venues (seed 1)',
          uptime_seconds: 0,
          venues: {},
          degraded_venues: [],
          read_models: { ready: false },
          spreads: { ready: false, pairs: 0, matches_from_file: false },
        },
      },
      {
        name: 'guard 503',
        path: '/api/v2/events/x',
        headers: { 'x-api-key': 'k' },
        status: 503,
        expect: { detail: 'API keys cannot be checked right now; retry shortly.', code: 'auth_unavailable' },
        expectHeaders: { 'retry-after': '1' },
      },
      {
        name: 'store 503',
        path: '/api/v2/spreads/history?event_slug=e&outcome_key=k',
        status: 503,
        expect: { detail: 'Spread history cannot be read right now; retry shortly.', code: 'history_unavailable' },
        expectHeaders: { 'retry-after': '1' },
      },
      {
        name: 'unexpected exception',
        path: '/boom',
        status: 500,
        expect: { detail: 'Internal Server Error', code: 'internal' },
      },
    ]
    for (const row of rows) assertWhole(row, await send(base, row))
  })
})
