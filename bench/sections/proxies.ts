import { httpLead, httpRows } from '../http-report.js'
import { benchProxies } from '../proxies.bench.js'
import { defaultRateRun } from './http.js'
import { log, measuredLead, ns, OBSERVATION, type Row, type SectionDef } from './section.js'

/**
 * Issue 6: a cached candlestick read ≥ 0.8 × bare uWS (a scenario of the HTTP section's service run, shared with it
 * when both run), and 100 concurrent identical cold requests make exactly one upstream call; plus the cost of a hit.
 */
export const proxiesSection: SectionDef = {
  name: 'proxies',
  title: 'venuep proxies (issue 6)',
  method: [
    "- **Cached candlesticks over HTTP** (`bench/http.bench.ts`, the `section: 'proxies'` scenario of `THROUGHPUT_SCENARIOS` in `bench/http/scenarios.ts`): in",
    "  the HTTP section's service run (same world, key, pinning, wrk and pairs); the path is the first market of",
    '  `venuep/markets?limit=25` with a non-empty week of hourly candles ending a day ago (closed, so cached for a day).',
    '- **Proxies in process** (`bench/proxies.bench.ts`): the venuep proxy routes on our HttpServer with a live venuep actor and',
    '  the standalone simulator (2,000 questions); a cache hit timed as the best of 7 rounds of 200,000 calls (handler alone, and',
    "  the whole route without a socket); 100 concurrent identical cold requests over HTTP, counting the CLOB upstream's calls.",
  ],
  async run(selected) {
    const report = await defaultRateRun(selected)
    log('proxies in process: cache hit cost, 100 concurrent cold requests')
    const p = await benchProxies()
    const statuses = Object.entries(p.cold.statuses)
      .map(([status, n]) => `${n} × ${status}`)
      .join(', ')
    const rows: Row[] = [
      ...httpRows(report, 'proxies'),
      {
        measure: `Proxies: ${p.cold.requests} concurrent identical cold requests, \`GET ${p.cold.path}\` (in process, over HTTP)`,
        result: `**${p.cold.upstreamCalls} venue call${p.cold.upstreamCalls === 1 ? '' : 's'}**; responses ${statuses}`,
        target: 'exactly 1 upstream call',
        ok: p.cold.upstreamCalls === 1 && p.cold.statuses['200'] === p.cold.requests,
      },
      {
        measure: `Proxies: cached candlestick read in process, no socket (${p.historyPoints} points, ${(p.bodyBytes / 1e3).toFixed(1)} kB body)`,
        result: `\`VenuepLive.candlesticks\` from the upstream cache (identifiers resolved, upstream key, LRU) ${ns(p.nsPerHit)}; whole route (query validation memo, then the reply bytes kept per raw query string) ${ns(p.nsPerRoute)}`,
        ...OBSERVATION,
      },
    ]
    return { lead: [measuredLead(), '', ...httpLead(report)], rows }
  },
}
