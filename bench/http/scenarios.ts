/** What the HTTP bench (http.bench.ts) measures: the throughput and latency scenarios and their targets. */

/**
 * Does the service serve its hot reads at close to what bare uWS can do with the same bytes? Each scenario
 * takes the service's response body, starts a bare uWS server (bare-uws.ts) returning exactly those bytes, and
 * runs wrk against both in the same run (bare, service, bare, service), so machine drift hits both alike. The
 * service runs against the standalone simulator (its own process) with ≥ 20,000 markets per venue and its live
 * feeds on at the simulator's default rates, as in production. Pairs are kept out of the service's periodic
 * catalog refreshes (refresh-gate.ts); one run across a refresh is reported on its own. Scenarios marked `boost`
 * (the spreads top list) measure the service while the simulator streams quote changes far above its default
 * rates (sim-child.ts), in a run of their own.
 */
export interface ThroughputScenario {
  readonly name: string
  /** The request path, or (with `resolve`) its shape for logs. */
  readonly path: string
  readonly connections: number
  readonly threads: number
  readonly durationSec: number
  /** The target, when it sets one for this endpoint. */
  readonly target?: { readonly minRatio: number; readonly maxP99Ms?: number }
  /** Also run the service once across a catalog refresh. */
  readonly acrossRefresh?: boolean
  /** The RESULTS.md section that reports it (run.ts); 'http' when unset. */
  readonly section?: string
  /** Picks the concrete path once the service is ready (e.g. a market that exists), with the API key. */
  readonly resolve?: (get: (path: string) => Promise<{ status: number; body: string }>) => Promise<string>
  /**
   * Measure the service while the simulator's activity is boosted (HttpBenchOptions.simBoostPerSec; see
   * sim-child.ts): the boost is on for the service's warm-up and runs and off for the bare ones, and the
   * service's feed and spread-engine rates are sampled from /metrics during each service run.
   */
  readonly boost?: boolean
  /** Request headers beyond the API key, sent to both servers (e.g. `accept-encoding`). */
  readonly requestHeaders?: Readonly<Record<string, string>>
  /**
   * A polling client's revalidation: the requests also carry `If-None-Match` with the ETag the service gave for
   * this path and these headers when the scenario started, so the service answers 304 with no body (the bare
   * server answers the same 304). Use a path whose page does not change during the run.
   */
  readonly revalidate?: boolean
}

export interface LatencyScenario {
  readonly name: string
  readonly path: string
  readonly warmup: number
  readonly requests: number
  readonly maxP99Ms: number
}

/**
 * Enough questions for at least MIN_MARKETS_PER_VENUE markets on each venue (catalog.markets in /readyz) with seed 42.
 * The world is laid out around the start's minute (SIM_CALENDAR) and has grown short-dated families since the size
 * was first set: 33,000 questions gave 20,613 venuep and 21,418 venuek markets on 2026-11-26, and 16,455 and 17,021
 * on 2026-12-07, so 42,000 (~21,000 and ~21,700).
 */
export const HTTP_QUESTIONS = 42_000
export const MIN_MARKETS_PER_VENUE = 20_000

/**
 * 10 s runs: at 60 s between catalog refreshes one (bare, service) pair fits a quiet window, so the section
 * takes ~10 minutes. BENCH_HTTP_SECONDS=5 fits two pairs a window (~5 minutes) for a quick look.
 */
const LIST = { connections: 64, threads: 1, durationSec: Number(process.env.BENCH_HTTP_SECONDS ?? '') || 10 } as const

export const THROUGHPUT_SCENARIOS: readonly ThroughputScenario[] = [
  {
    name: 'venuep markets, first page',
    path: '/api/v2/venuep/markets?limit=25',
    ...LIST,
    target: { minRatio: 0.8, maxP99Ms: 5 },
    acrossRefresh: true,
  },
  { name: 'venuek markets, first page', path: '/api/v2/venuek/markets?limit=25', ...LIST },
  { name: 'collapsed events, first page', path: '/api/v2/events?limit=25', ...LIST },
  { name: 'healthz (floor: tiny body)', path: '/healthz', ...LIST },
  // Issue 19 item 6: the hot read compressed as a browser asks for it (brotli) and as older clients do (gzip); the
  // compressed bytes are kept beside the cached page, so both servers send stored bytes. Then a polling client's
  // revalidation of a page that does not change (closed markets: no quotes move them): a 304 with no body.
  {
    name: 'venuep markets, first page, brotli',
    path: '/api/v2/venuep/markets?limit=25',
    ...LIST,
    requestHeaders: { 'accept-encoding': 'gzip, deflate, br' },
  },
  {
    name: 'venuep markets, first page, gzip',
    path: '/api/v2/venuep/markets?limit=25',
    ...LIST,
    requestHeaders: { 'accept-encoding': 'gzip' },
  },
  {
    name: 'venuep markets, closed page, revalidated (304)',
    path: '/api/v2/venuep/markets?limit=25&status=closed',
    ...LIST,
    requestHeaders: { 'accept-encoding': 'gzip, deflate, br' },
    revalidate: true,
  },
  // Issue 6: a cached proxy read (a closed window, cached for a day after the first request).
  {
    name: 'venuep candlesticks, cached',
    path: '/api/v2/venuep/candlesticks?market_slug=…&fidelity=60&start_ts=…&end_ts=…',
    ...LIST,
    target: { minRatio: 0.8 },
    section: 'proxies',
    resolve: candlestickPath,
  },
]

/**
 * Issue 5: the top list while quotes change. Its own service run (spreads.ts runs it with the simulator boosted),
 * since the other scenarios are measured at the simulator's default rates.
 */
export const SPREADS_TOP_SCENARIO: ThroughputScenario = {
  name: 'spreads top',
  path: '/api/v2/spreads/top?limit=20',
  ...LIST,
  target: { minRatio: 0.85, maxP99Ms: 5 },
  section: 'spreads',
  boost: true,
}
/** Issue 5: the spread engine must see at least this many quote changes per second during the top-list runs. */
export const MIN_QUOTE_CHANGES_PER_SEC = 5_000

/**
 * A candlestick request for a venuep market that has a price history: the first market of the first page whose
 * one-week window of hourly candles (ending a day ago, so closed and cached for a day) is not empty. Each try is
 * a cold request (one venue call); the chosen one leaves the cache warm.
 */
async function candlestickPath(get: (path: string) => Promise<{ status: number; body: string }>): Promise<string> {
  const endTs = Math.floor(Date.now() / 3_600_000) * 3_600 - 86_400
  const markets = await get('/api/v2/venuep/markets?limit=25')
  if (markets.status !== 200)
    throw new Error(`GET /api/v2/venuep/markets: ${markets.status} ${markets.body.slice(0, 300)}`)
  const slugs = new Set(
    (JSON.parse(markets.body) as { markets: { outcomes: { market_slug: string }[] }[] }).markets.flatMap((m) =>
      m.outcomes.map((o) => o.market_slug),
    ),
  )
  for (const slug of slugs) {
    const path = `/api/v2/venuep/candlesticks?market_slug=${encodeURIComponent(slug)}&fidelity=60&start_ts=${endTs - 7 * 86_400}&end_ts=${endTs}`
    const res = await get(path)
    if (res.status === 200 && (JSON.parse(res.body) as { history: unknown[] }).history.length > 0) return path
  }
  throw new Error(`no venuep market of the first page has a candlestick history (tried ${slugs.size})`)
}

export const SITEMAP_SCENARIO: LatencyScenario = {
  name: 'sitemap, limit=45000',
  path: '/api/v2/sitemap/events?limit=45000',
  warmup: 5,
  requests: 50,
  maxP99Ms: 150,
}
