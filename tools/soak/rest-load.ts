import type { SoakTargets } from './targets.js'

/**
 * The REST half of the load: LOOPS concurrent loops, each sending one request at a time over a fixed mix of read
 * routes, paced so that together they stay under MAX_REQ_PER_SEC (a 2-core machine also runs the service, its
 * store, the simulator and the stream clients; the soak watches a steady load, not saturation).
 */
export const LOOPS = 4
export const MAX_REQ_PER_SEC = 150
const TIMEOUT_MS = 10_000

/**
 * The mix, one path per turn in order; `{token}` is a matched venuep token, a different one each turn. Most of it
 * is served from the service's memory; the candlesticks read goes through to the venue on a cache miss, so the
 * REST 503 fault is seen by clients there.
 */
export const REST_MIX: readonly string[] = [
  '/api/v2/venuep/markets?limit=50',
  '/api/v2/venuek/markets?limit=50',
  '/api/v2/events?limit=50',
  '/api/v2/spreads?limit=50',
  '/api/v2/spreads/top?limit=20',
  '/api/v2/venuep/orderbook-history?token_id={token}',
  // Read through to the venue (cached 30 s per window reaching now): what a venue's REST 503s reach.
  '/api/v2/venuep/candlesticks?token_id={token}&fidelity=60',
  '/healthz',
]

export interface RestStats {
  readonly byStatus: Map<string, number>
  /** Per route (the mix's path without its query), by status. */
  readonly byRoute: Map<string, Map<string, number>>
  readonly latenciesMs: number[]
  /** Answers other than 200 and network errors, per status and route: when (first and last second), how many. */
  readonly failures: Map<string, RestFailure>
  sent: number
}

export interface RestFailure {
  readonly status: string
  readonly route: string
  firstSec: number
  lastSec: number
  count: number
  /** The first answer's body (or the error), cut short. */
  readonly sample: string
}

export interface RestLoad {
  readonly stats: RestStats
  stop(): Promise<void>
}

export function startRestLoad(port: number, apiKey: string, targets: SoakTargets, t0: number): RestLoad {
  const stats: RestStats = { byStatus: new Map(), byRoute: new Map(), latenciesMs: [], failures: new Map(), sent: 0 }
  let running = true
  const intervalMs = (1000 * LOOPS) / MAX_REQ_PER_SEC
  const count = (route: string, status: string): void => {
    stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1)
    const r = stats.byRoute.get(route) ?? new Map<string, number>()
    r.set(status, (r.get(status) ?? 0) + 1)
    stats.byRoute.set(route, r)
  }
  const failed = (status: string, route: string, sample: string): void => {
    const sec = Math.round((Date.now() - t0) / 1000)
    const key = `${status} ${route}`
    const f = stats.failures.get(key)
    if (f === undefined)
      stats.failures.set(key, { status, route, firstSec: sec, lastSec: sec, count: 1, sample: sample.slice(0, 300) })
    else {
      f.lastSec = sec
      f.count++
    }
  }
  const loop = async (index: number): Promise<void> => {
    let next = Date.now() + (intervalMs * index) / LOOPS
    for (let turn = index; running; turn++) {
      const wait = next - Date.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      next = Math.max(next + intervalMs, Date.now() - intervalMs)
      if (!running) break
      const template = REST_MIX[turn % REST_MIX.length] as string
      const token = targets.venuepTokens[turn % targets.venuepTokens.length] as string
      const path = template.replace('{token}', token)
      const route = template.split('?')[0] as string
      const started = performance.now()
      stats.sent++
      try {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          headers: { 'x-api-key': apiKey, 'accept-encoding': 'identity' },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        })
        const body = await res.text()
        stats.latenciesMs.push(performance.now() - started)
        count(route, String(res.status))
        if (res.status !== 200) failed(String(res.status), route, body)
      } catch (err) {
        count(route, 'network error')
        failed('network error', route, String(err))
      }
    }
  }
  const loops = Array.from({ length: LOOPS }, (_, i) => loop(i))
  return {
    stats,
    async stop() {
      running = false
      await Promise.all(loops)
    },
  }
}
