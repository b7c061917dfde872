import assert from 'node:assert/strict'
import { after, afterEach, before, describe, test } from 'node:test'
import { AppError } from '../../src/core/errors.js'
import { VenuepLive } from '../../src/venues/venuep/proxy/live.js'
import { createVenuepUpstreams } from '../../src/venues/venuep/proxy/upstreams.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { mountProxies, pcall, pok, singleMarkets, type HarnessOptions, type ProxyHarness } from './harness.js'
import { venuepOf } from '../../src/sim/venuep/state.js'

/**
 * Venue failures through the proxies: 5xx, 429, timeouts and malformed bodies map to honest statuses; the
 * breaker opens, refuses without calling the venue, and recovers on the simulated clock; the cache keeps
 * serving what it holds; the client-side rate limit refuses with Retry-After. Never a 500, never a hang.
 */
type Err = {
  detail: string
  code: string
  upstream?: string
  upstream_status?: number | null
  reason?: string
  retry_after_seconds?: number
  timeout_ms?: number
}

let s: TestService
const mounted: ProxyHarness[] = []

before(async () => {
  s = await startTestService({ questions: 100 })
})

afterEach(() => {
  s.sim.venuep.faults.clearHttpFaults()
})

after(async () => {
  for (const h of mounted) await h.close()
  await s?.close()
})

const FAST: HarnessOptions = {
  timeoutsMs: { gamma: 300, clob: 300, data: 300 },
  breaker: { failureThreshold: 3, openMs: 10_000 },
}

async function mount(options: HarnessOptions = FAST): Promise<ProxyHarness> {
  const h = await mountProxies(s, options)
  mounted.push(h)
  return h
}

let seq = 0
/** A candlestick path no earlier request used (a cold cache key). */
function freshCandles(): string {
  const m = singleMarkets(s, 'active')[0]!
  return `/api/v2/venuep/candlesticks?market_slug=${m.marketId}&fidelity=60&end_ts=${Math.floor(s.clock.now() / 1000) - 86_400 - seq++ * 60}`
}

const faults = () => s.sim.venuep.faults

describe('upstream failures', () => {
  test("venue 5xx and 429 → 502 upstream_error with the venue's status", async () => {
    const h = await mount()
    const m = singleMarkets(s, 'active')[0]!
    for (const status of [500, 503, 429]) {
      faults().failHttp({ status, count: 1, host: 'data', pathPrefix: '/trades' })
      const r = await pcall<Err>(
        h,
        'listVenuepOrders',
        `/api/v2/venuep/orders?market_slug=${m.marketId}&limit=${(status % 100) + 1}`,
      )
      assert.equal(r.status, 502)
      assert.deepEqual([r.body.code, r.body.upstream, r.body.upstream_status], ['upstream_error', 'data', status])
    }
  })

  test('latency past the timeout → 504 upstream_timeout, answered at the timeout, not after the venue', async () => {
    const h = await mount()
    faults().latencyMs = 4_000
    const t0 = Date.now()
    const r = await pcall<Err>(h, 'getVenuepCandlesticks', freshCandles())
    const elapsed = Date.now() - t0
    assert.equal(r.status, 504)
    assert.deepEqual([r.body.code, r.body.upstream, r.body.timeout_ms], ['upstream_timeout', 'clob', 300])
    assert.ok(elapsed < 3_000, `answered after ${elapsed} ms, not after the venue's 4 s`)
  })

  test('a malformed body → 502 with reason malformed_response; it is not cached', async () => {
    const h = await mount()
    const path = freshCandles()
    faults().malformHttpBodies(1)
    const r = await pcall<Err>(h, 'getVenuepCandlesticks', path)
    assert.equal(r.status, 502)
    assert.deepEqual(
      [r.body.code, r.body.upstream_status, r.body.reason],
      ['upstream_error', 200, 'malformed_response'],
    )
    assert.equal((await pcall(h, 'getVenuepCandlesticks', path)).status, 200, 'the next request asks again')
  })

  test('malformed Data API rows and wallet endpoints fail as 502 too (never a 500)', async () => {
    const h = await mount()
    const w = [...venuepOf(s.sim.world).ledger.wallets.keys()][0]!
    for (const path of [
      `/api/v2/venuep/wallet/${w}/pnl`,
      `/api/v2/venuep/positions/wallet/${w}`,
      `/api/v2/venuep/activity?wallet_address=${w}`,
    ]) {
      faults().malformHttpBodies(3)
      const op = path.includes('/pnl')
        ? 'getVenuepWalletPnl'
        : path.includes('/positions/')
          ? 'getVenuepWalletPositions'
          : 'listVenuepActivity'
      const r = await pcall<Err>(h, op, path)
      assert.equal(r.status, 502, `${path}: ${JSON.stringify(r.body)}`)
      faults().clearHttpFaults()
    }
  })

  test('an unreachable venue → 502 with upstream_status null, reason unreachable; it counts against the breaker', async () => {
    const nowhere = 'http://127.0.0.1:9'
    const upstreams = createVenuepUpstreams({
      urls: { gamma: nowhere, clob: nowhere, data: nowhere },
      clock: s.clock,
      breaker: { failureThreshold: 1, openMs: 1_000 },
    })
    const live = new VenuepLive({ venue: s.app.venues.venuep, clock: s.clock, upstreams })
    const m = singleMarkets(s, 'active')[0]!
    await assert.rejects(
      Promise.resolve(live.candlesticks({ market_slug: m.marketId, fidelity: 60 })),
      (err: unknown) => {
        assert.ok(err instanceof AppError)
        assert.deepEqual(
          [err.status, err.code, err.extra?.upstream_status, err.extra?.reason],
          [502, 'upstream_error', null, 'unreachable'],
        )
        return true
      },
    )
    assert.equal(upstreams.clob.breakerState, 'open')
  })

  test("the venue's 4xx answers do not open the breaker", async () => {
    const h = await mount()
    const m = singleMarkets(s, 'active')[1]!
    for (let i = 0; i < 5; i++) {
      faults().failHttp({ status: 400, count: 1, host: 'data', pathPrefix: '/trades' })
      const r = await pcall<Err>(
        h,
        'listVenuepOrders',
        `/api/v2/venuep/orders?market_slug=${m.marketId}&limit=${i + 1}`,
      )
      assert.deepEqual([r.status, r.body.upstream_status], [502, 400])
    }
    assert.equal(h.live.upstreams.data.breakerState, 'closed')
  })
})

describe('circuit breaker', () => {
  test('opens after consecutive failures, refuses at once with 503 + Retry-After without calling the venue, recovers', async () => {
    const h = await mount()
    faults().failHttp({ status: 500, count: Infinity, host: 'clob', pathPrefix: '/prices-history' })
    for (let i = 0; i < 3; i++) assert.equal((await pcall(h, 'getVenuepCandlesticks', freshCandles())).status, 502)
    assert.equal(h.live.upstreams.clob.breakerState, 'open')
    const failed = faults().counters.httpFailed
    const r = await pcall<Err>(h, 'getVenuepCandlesticks', freshCandles())
    assert.equal(r.status, 503)
    assert.deepEqual(
      [r.body.code, r.body.upstream, r.body.reason, r.body.retry_after_seconds],
      ['upstream_error', 'clob', 'circuit_open', 10],
    )
    assert.equal(r.headers.get('retry-after'), '10')
    assert.equal(faults().counters.httpFailed, failed, 'the venue was not called')
    assert.equal(h.live.upstreams.clob.stats().refusedOpen, 1)
    // Other hosts are not affected.
    const m = singleMarkets(s, 'active')[0]!
    assert.equal(
      (await pcall(h, 'listVenuepOrders', `/api/v2/venuep/orders?market_slug=${m.marketId}&limit=9`)).status,
      200,
    )

    // Still failing when the breaker half-opens: the probe fails and the breaker opens again.
    s.clock.increment(10_000)
    assert.equal(h.live.upstreams.clob.breakerState, 'half_open')
    assert.equal((await pcall(h, 'getVenuepCandlesticks', freshCandles())).status, 502, 'the probe went out and failed')
    assert.equal((await pcall(h, 'getVenuepCandlesticks', freshCandles())).status, 503, 'open again')
    assert.equal(faults().counters.httpFailed, failed + 1, 'exactly one probe reached the venue')

    // The venue recovers: after the next cool-down one probe succeeds and the breaker closes.
    faults().clearHttpFaults()
    assert.equal(
      (await pcall(h, 'getVenuepCandlesticks', freshCandles())).status,
      503,
      'no call before the cool-down ends',
    )
    s.clock.increment(10_000)
    assert.equal((await pcall(h, 'getVenuepCandlesticks', freshCandles())).status, 200)
    assert.equal(h.live.upstreams.clob.breakerState, 'closed')
    assert.equal((await pcall(h, 'getVenuepCandlesticks', freshCandles())).status, 200)
  })

  test('while the breaker is open the cache keeps serving what it holds', async () => {
    const h = await mount()
    const cached = freshCandles()
    const body = await pok(h, 'getVenuepCandlesticks', cached)
    faults().failHttp({ status: 502, count: Infinity, host: 'clob' })
    for (let i = 0; i < 3; i++) await pcall(h, 'getVenuepCandlesticks', freshCandles())
    assert.equal(h.live.upstreams.clob.breakerState, 'open')
    assert.deepEqual(await pok(h, 'getVenuepCandlesticks', cached), body)
  })

  test('a burst against a failing venue is one call and one failure, not a hundred', async () => {
    const h = await mount({ ...FAST, timeoutsMs: { clob: 10_000 } })
    const path = freshCandles()
    faults().failHttp({ status: 500, count: Infinity, host: 'clob', pathPrefix: '/prices-history' })
    // A failure is not cached: the call must still be in flight when the last of the burst arrives. Opening 100
    // client connections took over 1.5 s on a loaded 2-core machine, so the venue answers after 4 s.
    faults().latencyMs = 4_000
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () => fetch(`${h.baseUrl}${path}`, { headers: h.headers }).then((r) => r.status)),
    )
    assert.ok(statuses.every((x) => x === 502))
    // Counted by this harness's own upstream: the simulator's failure counter also sees a request an earlier test's
    // harness still had in flight.
    const stats = h.live.upstreams.clob.stats()
    assert.deepEqual([stats.calls, stats.failures, stats.joined], [1, 1, 99])
    assert.equal(h.live.upstreams.clob.breakerState, 'closed', 'one failure, below the threshold')
  })
})

describe('client-side rate limit', () => {
  test("over the venue's published budget: 503 upstream_rate_limit with Retry-After; the window slides", async () => {
    const h = await mount({ ...FAST, limits: { data: { windowMs: 10_000, general: 1_000, routes: { '/trades': 3 } } } })
    const m = singleMarkets(s, 'active')[2]!
    const page = (n: number) =>
      pcall<Err>(h, 'listVenuepOrders', `/api/v2/venuep/orders?market_slug=${m.marketId}&limit=${n}`)
    for (let n = 1; n <= 3; n++) assert.equal((await page(n)).status, 200)
    assert.equal((await page(1)).status, 200, 'a cached answer costs no budget')
    s.clock.increment(4_000)
    const r = await page(4)
    assert.equal(r.status, 503)
    assert.deepEqual(
      [r.body.code, r.body.reason, r.body.retry_after_seconds],
      ['upstream_error', 'upstream_rate_limit', 6],
    )
    assert.equal(r.headers.get('retry-after'), '6')
    s.clock.increment(6_000)
    assert.equal((await page(4)).status, 200)
  })
})
