import { eventOn } from '../../src/views/event-directory.js'
import assert from 'node:assert/strict'
import type { CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { silentLogger } from '../../src/core/logger.js'
import type { PlatformMarket } from '../../src/model/types.js'
import { documentGuard, keyGuards } from '../../src/http/auth.js'
import { registerRoutes } from '../../src/http/register.js'
import type { AnyRoute } from '../../src/http/route.js'
import { venuepLiveRoutes } from '../../src/venues/venuep/routes/live.js'
import { HttpServer } from '../../src/http/server.js'
import { VenuepLive, type VenuepLiveOptions } from '../../src/venues/venuep/proxy/live.js'
import { createVenuepUpstreams, type VenuepUpstreamOptions } from '../../src/venues/venuep/proxy/upstreams.js'
import { assertMatchesResponseSchema } from '../helpers/contract.js'
import type { TestService } from '../helpers/service.js'

/**
 * The proxies mounted on their own HTTP server next to a test service (the service's own server may or may not
 * carry them yet; wiring them into app.ts is the lead's), with upstream settings a test chooses: short
 * timeouts, a small breaker threshold. They sit behind the service's own API-key guard, as app.ts puts every
 * non-public route, and calls send the suite's key. Every call checks the response against the route's
 * published schema.
 */
export interface ProxyHarness {
  readonly s: TestService
  readonly live: VenuepLive
  readonly routes: readonly AnyRoute[]
  readonly baseUrl: string
  /** Headers for raw fetches (the suite's API key). */
  readonly headers: Readonly<Record<string, string>>
  close(): Promise<void>
}

export type HarnessOptions = Pick<VenuepUpstreamOptions, 'timeoutsMs' | 'breaker' | 'limits'> &
  Pick<VenuepLiveOptions, 'walletHistory'> & {
    /** The venuep actor as the proxies see it; a test wraps it to choose some quotes. Default: the service's actor. */
    readonly venue?: VenuepLiveOptions['venue']
  }

export async function mountProxies(s: TestService, options: HarnessOptions = {}): Promise<ProxyHarness> {
  const urls = s.sim.venuep.urls
  const upstreams = createVenuepUpstreams({
    urls: { gamma: urls.gamma, clob: urls.clob, data: urls.data },
    clock: s.clock,
    timeoutsMs: options.timeoutsMs,
    breaker: options.breaker,
    limits: options.limits,
  })
  const live = new VenuepLive({
    venue: options.venue ?? s.app.venues.venuep,
    clock: s.clock,
    upstreams,
    eventOfSlug: (slug) => eventOn(s.app.models.directory()?.bySlug(slug), 'venuep')?.eventId,
    walletHistory: options.walletHistory,
  })
  const routes = venuepLiveRoutes({ live }).map((r) => documentGuard(r, true))
  const guard = keyGuards(s.app.store.auth, s.app.store.usage, s.clock).metered
  const http = new HttpServer({ log: silentLogger })
  registerRoutes(http, routes, { guard: () => guard })
  http.notFound()
  const port = await http.listen('127.0.0.1', 0)
  return {
    s,
    live,
    routes,
    baseUrl: `http://127.0.0.1:${port}`,
    headers: s.authHeaders,
    close: async () => http.close(),
  }
}

export interface ProxyResponse<T> {
  readonly status: number
  readonly body: T
  readonly headers: Headers
}

export async function pcall<T = Record<string, unknown>>(
  h: ProxyHarness,
  operationId: string,
  pathAndQuery: string,
): Promise<ProxyResponse<T>> {
  const route = h.routes.find((r) => r.operationId === operationId)
  assert.ok(route !== undefined, `no route ${operationId}`)
  const res = await fetch(`${h.baseUrl}${pathAndQuery}`, { headers: h.headers })
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8')
  const body = (await res.json()) as T
  assertMatchesResponseSchema(route, res.status, body)
  return { status: res.status, body, headers: res.headers }
}

export async function pok<T = Record<string, unknown>>(
  h: ProxyHarness,
  operationId: string,
  pathAndQuery: string,
): Promise<T> {
  const r = await pcall<T>(h, operationId, pathAndQuery)
  assert.equal(r.status, 200, `${pathAndQuery} → ${r.status}: ${JSON.stringify(r.body).slice(0, 400)}`)
  return r.body
}

/** Asserts a 422 whose entries sit at exactly these locations. */
export async function pinvalid(
  h: ProxyHarness,
  operationId: string,
  pathAndQuery: string,
  locs: readonly (readonly string[])[],
): Promise<void> {
  const r = await pcall<{ detail: { loc: string[] }[] }>(h, operationId, pathAndQuery)
  assert.equal(r.status, 422, `${pathAndQuery} should be a 422, got ${r.status}: ${JSON.stringify(r.body)}`)
  assert.deepEqual(r.body.detail.map((d) => d.loc).sort(), [...locs].map((l) => [...l]).sort(), JSON.stringify(r.body))
}

/** Requests served by a simulator route (counts only requests that reached the route, not injected failures). */
export function served(s: TestService, host: 'gamma' | 'clob' | 'data', route: string): number {
  return s.sim.venuep.routers[host].requestCounts.get(route) ?? 0
}

export function catalog(s: TestService): CatalogSnapshot {
  const c = s.app.venues.venuep.catalog()
  assert.ok(c !== undefined, 'venuep catalog loaded')
  return c
}

/** Our market records of single binary markets (two tokens, the record keyed by the market slug). */
export function singleMarkets(s: TestService, status?: string): PlatformMarket[] {
  return [...catalog(s).marketsById.values()].filter(
    (m) =>
      m.outcomes.length === 2 &&
      m.outcomes[0]?.childMarketSlug === m.marketId &&
      (status === undefined || m.status === status),
  )
}

/** Our records of groups (several binary markets under one group slug). */
export function groupMarkets(s: TestService, status?: string): PlatformMarket[] {
  return [...catalog(s).marketsById.values()].filter(
    (m) =>
      m.outcomes.length >= 2 &&
      m.outcomes[0]?.childMarketSlug !== m.marketId &&
      (status === undefined || m.status === status),
  )
}
