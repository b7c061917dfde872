/**
 * Writes src/http/openapi-examples.generated.ts: one real response per documented status of every operation,
 * captured from the whole service running against the simulator (`npm run openapi:examples`). The OpenAPI
 * document publishes them as examples (openapi.ts), so a reader sees what the server actually sends, and a test
 * (test/http/openapi-examples.test.ts) checks that every operation has one and that each still matches its
 * response schema, so an example cannot silently go stale when a schema changes.
 *
 * What is changed on the way, and why:
 * - lists are cut to their first EXAMPLE_ROWS items (an example shows the shape, not the catalog);
 * - the loopback webhook receiver's address (port 0, different at each run) is shown as https://hooks.example.com;
 * - text bodies (Prometheus metrics, the HTML reference page) are cut to their first lines.
 * Everything else is the response as served: the data is SIMULATED (seeded world, simulated clock), and each
 * example's summary says so.
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { settle } from '../test/helpers/wait.js'
import { startTestService, type TestService } from '../test/helpers/service.js'
import { startWebhookReceiver } from '../test/alerts/receivers.js'
import type { OpenApiDocument, OperationExamples } from '../src/http/openapi.js'
import { venuepOf } from '../src/sim/venuep/state.js'

const EXAMPLE_ROWS = 2
const TEXT_LINES = 12
const OUTPUT = resolve(import.meta.dirname, '../../src/http/openapi-examples.generated.ts')

interface Capture {
  readonly status: number
  readonly body: unknown
}

async function main(): Promise<void> {
  const receiver = await startWebhookReceiver()
  const s = await startTestService({
    questions: 120,
    wallets: 20,
    config: { alerts: { webhook: { allowedCidrs: ['127.0.0.1/32'] } } },
  })
  try {
    // Some simulated minutes: trades print, books move, spread history gets points.
    for (let m = 0; m < 10; m++) {
      s.advance(60_000, 2_000)
      await settle(20)
    }
    for (let i = 0; i < 90; i++) s.clock.increment(1_000)
    await settle(200)
    await s.app.history.sampler.flush()
    const examples = await capture(s, receiver.url)
    writeFileSync(OUTPUT, render(examples))
    console.log(`wrote ${Object.keys(examples).length} operations' examples to ${OUTPUT}`)
  } finally {
    await s.close()
    await receiver.close()
  }
}

/** Calls every operation (successes first, then the documented errors a caller meets most) and keeps the answers. */
async function capture(s: TestService, receiverUrl: string): Promise<Record<string, OperationExamples>> {
  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Capture> =>
    request(s.baseUrl, method, path, headers, body)
  const out: Record<string, OperationExamples> = {}
  const key = s.apiKey!
  const documented = documentedBodies((await send('GET', '/api/v2/openapi.json', {})).body as OpenApiDocument)
  const userHeaders = { 'x-api-key': key, 'x-user-id': 'user-42' }
  const keep = (operationId: string, request: string, c: Capture, note?: string): void => {
    if (!documented.has(`${operationId} ${c.status}`))
      throw new Error(`${request} → ${c.status}, a status ${operationId} does not document`)
    const byStatus = (out[operationId] ??= {})
    if (byStatus[c.status] !== undefined) return
    const summary = `${request} → ${c.status}${note === undefined ? '' : ` (${note})`}, simulated data`
    byStatus[c.status] = { summary, value: shorten(c.body, receiverUrl) }
  }
  const get = async (
    operationId: string,
    path: string,
    headers: Record<string, string> = { 'x-api-key': key },
    note?: string,
  ): Promise<Capture> => {
    const c = await send('GET', path, headers)
    keep(operationId, `GET ${path}`, c, note)
    // A call without a note is meant to succeed, and what it answers feeds later calls.
    if (note === undefined && c.status >= 300)
      throw new Error(`GET ${path} → ${c.status}: ${JSON.stringify(c.body).slice(0, 300)}`)
    return c
  }
  const call = async (
    operationId: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
    note?: string,
  ): Promise<Capture> => {
    const c = await send(method, path, headers, body)
    keep(operationId, `${method} ${path}`, c, note)
    return c
  }

  // Operations and health.
  await get('health', '/healthz', {})
  await get('readiness', '/readyz', {})
  await get('metrics', '/metrics', {})
  const doc = await send('GET', '/api/v2/openapi.json', {})
  keep(
    'getOpenApi',
    'GET /api/v2/openapi.json',
    { status: doc.status, body: openApiHead(doc.body as Record<string, unknown>) },
    'its head and first path only',
  )
  const asyncDoc = await send('GET', '/api/v2/asyncapi.json', {})
  keep(
    'getAsyncApi',
    'GET /api/v2/asyncapi.json',
    { status: asyncDoc.status, body: asyncApiHead(asyncDoc.body as Record<string, unknown>) },
    'its head, channel and first operation only',
  )
  const busDoc = await send('GET', '/api/v2/bus-asyncapi.json', {})
  keep(
    'getBusAsyncApi',
    'GET /api/v2/bus-asyncapi.json',
    { status: busDoc.status, body: asyncApiHead(busDoc.body as Record<string, unknown>) },
    'its head, first channel and first operation only',
  )
  await get('getDocs', '/docs', {})

  // Normalized events and spreads.
  const spreads = (await get('listSpreads', '/api/v2/spreads?min_spread=0&min_volume=0')).body as {
    data?: { event_slug: string; outcome_key: string }[]
  }
  await get('topSpreads', '/api/v2/spreads/top?limit=2')
  const pair = spreads.data?.[0]
  if (pair === undefined) throw new Error('the simulated world gave no spreads: nothing to show')
  const pairQuery = `event_slug=${encodeURIComponent(pair.event_slug)}&outcome_key=${encodeURIComponent(pair.outcome_key)}`
  await get('getSpreadHistory', `/api/v2/spreads/history?${pairQuery}&range=1d`)
  await get(
    'getSpreadHistory',
    `/api/v2/spreads/history?event_slug=nope&outcome_key=text%3Ayes`,
    undefined,
    'a pair that is not matched',
  )
  await get('listEvents', '/api/v2/events?limit=2')
  await get('getEvent', `/api/v2/events/${encodeURIComponent(pair.event_slug)}`)
  await get('getEvent', '/api/v2/events/no-such-event', undefined, 'unknown slug')
  await get('listSitemapEvents', '/api/v2/sitemap/events?limit=2')

  // venuep catalog, prices and live proxies.
  const vpMarkets = (await get('listVenuepMarkets', '/api/v2/venuep/markets?limit=2&status=active')).body as {
    markets: { market_slug: string }[]
  }
  const slug = vpMarkets.markets[0]!.market_slug
  await get('listVenuepEvents', '/api/v2/venuep/events?limit=2')
  await get('listVenuepPrices', '/api/v2/venuep/prices?limit=2')
  await get('getVenuepMarketPrice', `/api/v2/venuep/market-price?market_slug=${slug}`)
  await get(
    'getVenuepMarketPrice',
    '/api/v2/venuep/market-price?market_slug=no-such-market',
    undefined,
    'unknown market',
  )
  await get('getVenuepOrderbook', `/api/v2/venuep/orderbook-history?market_slug=${slug}`)
  await get('listVenuepOrders', `/api/v2/venuep/orders?market_slug=${slug}&limit=2`)
  await get('getVenuepCandlesticks', `/api/v2/venuep/candlesticks?market_slug=${slug}&fidelity=60`)
  await get(
    'getVenuepCandlesticks',
    '/api/v2/venuep/candlesticks?market_slug=x&fidelity=0',
    undefined,
    'fidelity out of bounds',
  )
  const wallet = busiestWallet(s)
  await get('listVenuepActivity', `/api/v2/venuep/activity?wallet_address=${wallet}&limit=2`)
  await get('getVenuepWalletPositions', `/api/v2/venuep/positions/wallet/${wallet}`)
  await get('getVenuepWallet', `/api/v2/venuep/wallet/${wallet}`)
  await get('getVenuepWalletPnl', `/api/v2/venuep/wallet/${wallet}/pnl`)

  // venuek catalog and prices.
  const vkMarkets = (await get('listVenuekMarkets', '/api/v2/venuek/markets?limit=2&status=active')).body as {
    markets: { outcomes: { market_ticker: string }[] }[]
  }
  await get('listVenuekEvents', '/api/v2/venuek/events?limit=2')
  await get('listVenuekPrices', '/api/v2/venuek/prices?limit=2')
  await get(
    'getVenuekMarketPrice',
    `/api/v2/venuek/market-price?market_ticker=${vkMarkets.markets[0]!.outcomes[0]!.market_ticker}`,
  )
  await get('listVenuekMarkets', '/api/v2/venuek/markets', {}, 'no API key')
  await get('listVenuekMarkets', '/api/v2/venuek/markets?limit=0', undefined, 'limit out of bounds')

  // Developer accounts and keys.
  await call(
    'signup',
    'POST',
    '/api/v2/developers/signup',
    {},
    { email: 'ada@example.com', company: 'Analytical Engines', use_case: 'spread dashboards' },
  )
  await call('signup', 'POST', '/api/v2/developers/signup', {}, { email: 'not an address' }, 'invalid e-mail')
  const created = (
    await call('createApiKey', 'POST', '/api/v2/developers/api-keys', { 'x-api-key': key }, { name: 'ci' })
  ).body as { key: { id: string } }
  await get('listApiKeys', '/api/v2/developers/api-keys')
  await call('revokeApiKey', 'DELETE', `/api/v2/developers/api-keys/${created.key.id}`, { 'x-api-key': key })
  await get('getDeveloperUsage', '/api/v2/developers/usage')

  // Alert rules and their deliveries (to a loopback receiver, shown as hooks.example.com).
  const rule = (
    await call('createAlert', 'POST', '/api/v2/alerts', userHeaders, {
      trigger_type: 'spread_threshold',
      threshold: 0.05,
      channel: 'webhook',
      target: `${receiverUrl}/spreads`,
      scope: { platforms: ['venuep', 'venuek'], min_volume: 1000 },
      cooldown_seconds: 600,
    })
  ).body as { id: string }
  await call(
    'createAlert',
    'POST',
    '/api/v2/alerts',
    userHeaders,
    { trigger_type: 'spread_threshold', threshold: 2, channel: 'sms', target: 'x' },
    'invalid rule',
  )
  await get('listAlerts', '/api/v2/alerts', userHeaders)
  await get('getAlert', `/api/v2/alerts/${rule.id}`, userHeaders)
  await get('getAlert', '/api/v2/alerts/00000000-0000-4000-8000-000000000000', userHeaders, "not this user's rule")
  await call('testAlert', 'POST', `/api/v2/alerts/${rule.id}/test`, userHeaders)
  await get('listAlertDeliveries', `/api/v2/alerts/${rule.id}/deliveries?limit=2`, userHeaders)
  await call('rotateAlertSigningSecret', 'POST', `/api/v2/alerts/${rule.id}/signing-secret`, userHeaders)
  await call('updateAlert', 'PATCH', `/api/v2/alerts/${rule.id}`, userHeaders, { status: 'paused' })
  await call('deleteAlert', 'DELETE', `/api/v2/alerts/${rule.id}`, userHeaders)
  return out
}

async function request(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Capture> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  const type = res.headers.get('content-type') ?? ''
  return { status: res.status, body: type.startsWith('application/json') ? (JSON.parse(text) as unknown) : text }
}

/** `operationId status` of every documented response with a body. */
function documentedBodies(doc: OpenApiDocument): Set<string> {
  const out = new Set<string>()
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      for (const [status, response] of Object.entries(op.responses))
        if (response.content !== undefined) out.add(`${op.operationId} ${status}`)
    }
  }
  return out
}

/** The document's head and its first path: the whole document is the example's own page. */
function openApiHead(doc: Record<string, unknown>): Record<string, unknown> {
  const [path, item] = Object.entries(doc.paths as Record<string, Record<string, { responses?: unknown }>>)[0]!
  const operations = Object.fromEntries(Object.entries(item).map(([method, op]) => [method, { ...op, responses: {} }]))
  return { openapi: doc.openapi, info: doc.info, servers: doc.servers, paths: { [path]: operations } }
}

/** The AsyncAPI document cut like the OpenAPI one: what it is, where the socket is, and one operation. */
function asyncApiHead(doc: Record<string, unknown>): Record<string, unknown> {
  const channels = doc.channels as Record<string, { address: unknown; title: unknown }>
  const [name, channel] = Object.entries(channels)[0]!
  const [opName, op] = Object.entries(doc.operations as Record<string, unknown>)[0]!
  return {
    asyncapi: doc.asyncapi,
    info: doc.info,
    servers: doc.servers,
    channels: { [name]: { address: channel.address, title: channel.title } },
    operations: { [opName]: op },
  }
}

/** The wallet with the most simulated activity, so its examples show trades and positions. */
function busiestWallet(s: TestService): string {
  const ledger = venuepOf(s.sim.world).ledger.wallets
  let best = ''
  let most = -1
  for (const [address, book] of ledger) {
    const n = JSON.stringify(book).length
    if (n > most) [best, most] = [address, n]
  }
  return best
}

/** Lists cut to EXAMPLE_ROWS items, text to TEXT_LINES lines, the receiver's loopback address replaced. */
function shorten(value: unknown, receiverUrl: string): unknown {
  if (typeof value === 'string') {
    const lines = value.split('\n')
    const text = lines.length > TEXT_LINES ? `${lines.slice(0, TEXT_LINES).join('\n')}\n…` : value
    return text.split(receiverUrl).join('https://hooks.example.com')
  }
  if (Array.isArray(value)) return value.slice(0, EXAMPLE_ROWS).map((v) => shorten(v, receiverUrl))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, receiverUrl)]))
  }
  return value
}

function render(examples: Record<string, OperationExamples>): string {
  const sorted = Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b)))
  return [
    '// Generated by tools/openapi-examples.ts (`npm run openapi:examples`) from responses of the service running',
    '// against the SIMULATED venues. Do not edit by hand: run the command again after an API change.',
    "import type { OperationExamples } from './openapi.js'",
    '',
    `export const OPENAPI_EXAMPLES: Readonly<Record<string, OperationExamples>> = ${JSON.stringify(sorted, null, 2)}`,
    '',
  ].join('\n')
}

await main()
