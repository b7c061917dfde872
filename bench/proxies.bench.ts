import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { VenueActor } from '../src/actors/venue-actor.js'
import { loadConfig } from '../src/config/load.js'
import { systemClock } from '../src/core/clock.js'
import { silentLogger } from '../src/core/logger.js'
import { registerRoutes } from '../src/http/register.js'
import { venuepLiveRoutes } from '../src/venues/venuep/routes/live.js'
import { HttpServer, type RequestContext, type RouteDef } from '../src/http/server.js'
import { VENUEP } from '../src/venues/venuep/module.js'
import { VenuepLive } from '../src/venues/venuep/proxy/live.js'
import { createVenuepUpstreams } from '../src/venues/venuep/proxy/upstreams.js'
import { startStandaloneSim, type Spawned } from './process.js'

/**
 * Issue 6's in-process proxy figures (the cached candlestick read through the service against bare uWS is a
 * scenario of the HTTP bench, bench/http/scenarios.ts, reported in the proxies section of RESULTS.md):
 *
 * 1. The cost of a cache hit, no socket: the handler (`VenuepLive.candlesticks`, synchronous) and the route as
 *    registerRoutes builds it (query parsing, validation, handler), in ns per call.
 * 2. 100 concurrent identical cold requests over HTTP: how many venue calls they make (must be exactly 1),
 *    counted by the CLOB upstream's own call counter (what `predmkt_upstream_calls_total` exposes).
 *
 * The proxy routes run in this process on our HttpServer with a live venuep actor streaming books from the
 * standalone simulator (2,000 questions), as the service wires them.
 *
 * Standalone: node dist/bench/proxies.bench.js
 */
export interface ProxyFigures {
  readonly market: string
  /** Cached-answer body size. */
  readonly bodyBytes: number
  readonly historyPoints: number
  readonly nsPerHit: number
  readonly nsPerRoute: number
  readonly cold: {
    readonly path: string
    readonly requests: number
    readonly upstreamCalls: number
    readonly statuses: Readonly<Record<string, number>>
  }
}

const COLD_REQUESTS = 100

export async function benchProxies(
  log: (line: string) => void = (l) => process.stderr.write(`bench proxies: ${l}\n`),
): Promise<ProxyFigures> {
  const tmp = mkdtempSync(join(tmpdir(), 'predmkt-proxy-bench-'))
  const children: Spawned[] = []
  let actor: VenueActor | undefined
  let http: HttpServer | undefined
  try {
    log('starting the simulator (2,000 questions) and a venuep actor in this process')
    const { sim, serviceEnv } = await startStandaloneSim({
      SIM_QUESTIONS: '2000',
      SIM_PORT_BASE: '17651',
      DATA_DIR: join(tmp, 'sim'),
    })
    children.push(sim)
    pin(sim, '1')
    const config = loadConfig({ env: { ...process.env, ...serviceEnv, LOG_LEVEL: 'silent' } })
    const adapter = VENUEP.createAdapter(config.venues.venuep, { clock: systemClock, log: silentLogger }, undefined)
    const venue = new VenueActor({
      adapter,
      clock: systemClock,
      log: silentLogger,
      catalogRefreshMs: config.venues.venuep.catalog.refreshMs,
    })
    actor = venue
    venue.start()
    const deadline = Date.now() + 120_000
    while (!venue.ready) {
      if (Date.now() > deadline) throw new Error('venuep actor not ready')
      await new Promise((r) => setTimeout(r, 100))
    }
    const p = config.venues.venuep
    const upstreams = createVenuepUpstreams({
      urls: { gamma: p.gammaUrl, clob: p.clobUrl, data: p.dataUrl },
      clock: systemClock,
    })
    const live = new VenuepLive({ venue, clock: systemClock, upstreams })
    http = new HttpServer({ log: silentLogger })
    registerRoutes(http, venuepLiveRoutes({ live }))
    http.notFound()
    const port = await http.listen('127.0.0.1', 0)

    const snapshot = venue.catalog()
    if (snapshot === undefined) throw new Error('no venuep catalog')
    const markets = [...snapshot.marketsById.values()].filter(
      (m) => m.status === 'active' && m.outcomes.length === 2 && m.outcomes[0]?.childMarketSlug === m.marketId,
    )
    const [hot, cold] = markets
    if (hot === undefined || cold === undefined) throw new Error('fewer than two active binary venuep markets')
    // A window that ended a day ago: closed, so cached for a day (ttl.ts).
    const endTs = Math.floor(Date.now() / 3_600_000) * 3_600 - 86_400
    const q = { market_slug: hot.marketId, fidelity: 60, start_ts: endTs - 7 * 86_400, end_ts: endTs }
    const path = `/api/v2/venuep/candlesticks?market_slug=${encodeURIComponent(q.market_slug)}&fidelity=${q.fidelity}&start_ts=${q.start_ts}&end_ts=${q.end_ts}`
    const warm = await fetch(`http://127.0.0.1:${port}${path}`)
    const body = await warm.text()
    if (warm.status !== 200) throw new Error(`candlesticks → ${warm.status}: ${body}`)
    const historyPoints = (JSON.parse(body) as { history: unknown[] }).history.length
    log(`cached body: ${body.length} B (${historyPoints} points)`)

    // 1. A hit: the handler, and the whole route without a socket.
    const defs: RouteDef[] = []
    registerRoutes({ route: (d: RouteDef) => defs.push(d) } as unknown as HttpServer, venuepLiveRoutes({ live }))
    const def = defs.find((d) => d.path === '/api/v2/venuep/candlesticks')
    if (def === undefined) throw new Error('no candlesticks route')
    const ctx: RequestContext = {
      method: 'get',
      path: '/api/v2/venuep/candlesticks',
      query: path.slice(path.indexOf('?') + 1),
      params: {},
      headers: {},
      body: undefined,
      responseHeaderLines: '',
    }
    const [nsPerHit, nsPerRoute] = bestNsPerCall([
      () => {
        if (live.candlesticks(q) instanceof Promise) throw new Error('not a cache hit')
      },
      () => {
        const r = def.handler(ctx)
        if (r instanceof Promise || r.status !== 200) throw new Error('not a synchronous 200')
      },
    ]) as [number, number]
    log(`cache hit: handler ${nsPerHit.toFixed(0)} ns, route ${nsPerRoute.toFixed(0)} ns`)

    // 2. A burst of identical cold requests (another market, never requested).
    const coldPath = `/api/v2/venuep/candlesticks?market_slug=${encodeURIComponent(cold.marketId)}&fidelity=30&end_ts=${endTs}`
    const before = upstreams.clob.stats().calls
    const results = await Promise.all(
      Array.from({ length: COLD_REQUESTS }, () =>
        fetch(`http://127.0.0.1:${port}${coldPath}`).then(async (r) => (await r.arrayBuffer(), r.status)),
      ),
    )
    const upstreamCalls = upstreams.clob.stats().calls - before
    const statuses: Record<string, number> = {}
    for (const s of results) statuses[s] = (statuses[s] ?? 0) + 1
    log(
      `${COLD_REQUESTS} concurrent cold requests: ${upstreamCalls} venue call(s); statuses ${JSON.stringify(statuses)}`,
    )
    return {
      market: hot.marketId,
      bodyBytes: Buffer.byteLength(body),
      historyPoints,
      nsPerHit,
      nsPerRoute,
      cold: { path: coldPath, requests: COLD_REQUESTS, upstreamCalls, statuses },
    }
  } finally {
    http?.close()
    actor?.stop()
    for (const c of children.reverse()) if (c.child.exitCode === null && c.child.signalCode === null) await c.stop()
    rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * ns per call of each function, best of 7 rounds of 200,000 (the functions' rounds interleaved, so machine drift
 * hits them alike): on a shared machine the minimum is the code's cost, not the neighbours'.
 */
function bestNsPerCall(fns: readonly (() => void)[]): number[] {
  for (const fn of fns) for (let i = 0; i < 20_000; i++) fn()
  const best = fns.map(() => Infinity)
  for (let round = 0; round < 7; round++) {
    for (const [k, fn] of fns.entries()) {
      const n = 200_000
      const t0 = process.hrtime.bigint()
      for (let i = 0; i < n; i++) fn()
      best[k] = Math.min(best[k] as number, Number(process.hrtime.bigint() - t0) / n)
    }
  }
  return best
}

function pin(child: Spawned, cpus: string): void {
  try {
    execFileSync('taskset', ['-a', '-pc', cpus, String(child.child.pid)], { stdio: 'ignore' })
  } catch {
    // no taskset: unpinned
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchProxies().then(
    (f) => {
      console.log(JSON.stringify(f, null, 2))
      process.exit(0)
    },
    (err: unknown) => {
      console.error(err)
      process.exit(1)
    },
  )
}
