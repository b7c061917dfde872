import { mean } from './harness.js'
import { pct } from './http/context.js'
import type { FeedRates } from './http/feeds.js'
import { describePinning, PINNINGS } from './http/pinning.js'
import { MIN_MARKETS_PER_VENUE, MIN_QUOTE_CHANGES_PER_SEC } from './http/scenarios.js'
import { ATTEMPTS_PER_PAIR, FOREIGN_LIMIT, type ServerRun } from './http/server-run.js'
import type { ThroughputResult } from './http/throughput.js'
import type { HttpReport } from './http.bench.js'

/** Turns the HTTP bench's report into RESULTS.md rows (the shape run.ts tabulates) and its method paragraph. */
export interface ReportRow {
  readonly measure: string
  readonly result: string
  readonly target: string
  readonly ok: boolean | undefined
}

/**
 * The rows of the scenarios reported by RESULTS.md section `section` (ThroughputScenario.section, 'http' when
 * unset), plus the sitemap row in the 'http' section.
 */
export function httpRows(r: HttpReport, section = 'http'): ReportRow[] {
  const worldOk = r.world.venuepMarkets >= MIN_MARKETS_PER_VENUE && r.world.venuekMarkets >= MIN_MARKETS_PER_VENUE
  const rows: ReportRow[] = []
  for (const t of r.throughput) {
    const s = t.scenario
    if ((s.section ?? 'http') !== section) continue
    const service = summary(t.service)
    const bare = summary(t.bare)
    const errors = t.service.reduce((a, r) => a + r.wrk.errors, 0)
    const requests = t.service.reduce((a, r) => a + r.wrk.requests, 0)
    const feed = s.boost === true ? feedSummary(t) : undefined
    const target =
      s.target === undefined
        ? undefined
        : `≥ ${s.target.minRatio} × bare${s.target.maxP99Ms === undefined ? '' : `, p99 ≤ ${s.target.maxP99Ms} ms`}`
    const unmet =
      s.target === undefined ? [] : unmetParts(s.target, t.ratio, service.p99, errors, worldOk, feed?.minRecomputes)
    rows.push({
      measure: `HTTP: \`GET ${t.path}\`${requestNote(s)}, ${s.connections} connections, ${s.revalidate === true ? '304, no body' : `${bytes(t.bodyBytes)} body`} — service vs bare uWS, ${feed === undefined ? (s.revalidate === true ? 'same 304' : 'same bytes') : "same bytes (one snapshot: the service's change with the quotes), while the simulator streams quote changes"}`,
      result:
        `**${t.ratio.toFixed(2)} × bare** (pairs ${t.pairRatios.map((x) => x.toFixed(2)).join(', ')}); service ${rate(service.rps)}, p50 ${ms(service.p50)}, p99 ${ms(service.p99)}; bare${feed === undefined ? '' : ' (boost on)'} ${rate(bare.rps)}, p50 ${ms(bare.p50)}, p99 ${ms(bare.p99)}` +
        (feed === undefined ? '' : `; during the service runs ${feed.text}`) +
        (errors === 0 ? '' : ` — **${count(errors)} of ${count(requests)} service responses were errors**`) +
        (t.disturbed.length === 0 ? '' : ` — **kept after ${ATTEMPTS_PER_PAIR} attempts: ${t.disturbed.join('; ')}**`) +
        (unmet.length === 0 ? '' : ` — **not met: ${unmet.join('; ')}**`),
      target:
        target === undefined
          ? s.path === '/healthz'
            ? '— (floor)'
            : '—'
          : feed === undefined
            ? target
            : `${target}, ≥ ${count(MIN_QUOTE_CHANGES_PER_SEC)} quote changes/s into the spread engine`,
      ok: s.target === undefined ? undefined : unmet.length === 0,
    })
    if (t.acrossRefresh !== undefined) {
      const a = t.acrossRefresh
      const w = a.wrk
      const probes = Object.entries(a.probeStatuses).sort((x, y) => y[1] - x[1])
      const failed = probes.filter(([k]) => k !== '200')
      rows.push({
        measure: `HTTP: \`GET ${s.path}\` across a catalog refresh (one ${t.acrossRefresh.durationSec} s service run starting 1 s before it)`,
        result:
          `${rate(w.requestsPerSec)}, p50 ${ms(w.p50Ms)}, p99 ${ms(w.p99Ms)}, max ${ms(w.maxMs)}` +
          (w.errors === 0
            ? '; no errors'
            : `; **${count(w.errors)} of ${count(w.requests)} responses were errors** (a probe every 200 ms saw ${probes.map(([k, n]) => `${n} × ${k}`).join(', ')})`) +
          (failed.length > 0 && w.errors === 0
            ? `; probe saw ${failed.map(([k, n]) => `${n} × ${k}`).join(', ')}`
            : '') +
          (a.refreshInstalled ? '' : ' (the new catalog was not installed by the end of the run)'),
        target: '— (observation)',
        ok: undefined,
      })
    }
  }
  const sm = r.sitemap
  if (sm === undefined || section !== 'http') return rows
  rows.push({
    measure: `HTTP: \`GET ${sm.scenario.path}\`, ${bytes(sm.bodyBytes)} body — ${sm.scenario.requests} sequential requests on one keep-alive connection, each to its last byte`,
    result: `p50 ${ms(sm.service.p50Ms)}, p99 ${ms(sm.service.p99Ms)} (bare uWS, same bytes: p50 ${ms(sm.bare.p50Ms)}, p99 ${ms(sm.bare.p99Ms)})${foreignNote(sm.foreignCores)}`,
    target: `p99 ≤ ${sm.scenario.maxP99Ms} ms`,
    ok: worldOk && sm.service.p99Ms <= sm.scenario.maxP99Ms,
  })
  return rows
}

/** Which parts of a throughput target a result misses, worded for the row (empty: every part is met). */
function unmetParts(
  target: { readonly minRatio: number; readonly maxP99Ms?: number },
  ratio: number,
  p99Ms: number,
  errors: number,
  worldOk: boolean,
  minRecomputes: number | undefined,
): string[] {
  const unmet: string[] = []
  if (!worldOk) unmet.push(`fewer than ${count(MIN_MARKETS_PER_VENUE)} markets on a venue`)
  if (errors > 0) unmet.push('error responses')
  if (ratio < target.minRatio) unmet.push(`${ratio.toFixed(2)} × bare < ${target.minRatio}`)
  if (target.maxP99Ms !== undefined && p99Ms > target.maxP99Ms) unmet.push(`p99 ${ms(p99Ms)} > ${target.maxP99Ms} ms`)
  if (minRecomputes !== undefined && minRecomputes < MIN_QUOTE_CHANGES_PER_SEC)
    unmet.push(`${count(Math.round(minRecomputes))} < ${count(MIN_QUOTE_CHANGES_PER_SEC)} quote changes/s`)
  return unmet
}

/** The feed figures of a boosted scenario's service runs: the row's text and the slowest run's recompute rate. */
function feedSummary(t: ThroughputResult): { text: string; minRecomputes: number } {
  const feeds = t.service.map((r) => r.feed).filter((f): f is FeedRates => f !== undefined)
  if (feeds.length === 0) return { text: 'no feed figures', minRecomputes: 0 }
  const each = (f: (x: FeedRates) => number, digits = 0) =>
    feeds.map((x) => f(x).toLocaleString('en-US', { maximumFractionDigits: digits })).join(', ')
  return {
    text:
      `the spread engine recomputed **${each((f) => f.recomputesPerSec)} pairs/s** on quote changes of matched instruments (per run; median of 1 s samples of /metrics), ` +
      `the feeds ${each((f) => f.framesPerSec)} frames/s, and the page was rebuilt ${each((f) => f.pageMissesPerSec, 1)} times/s; max actor mailbox ${Math.max(...feeds.map((f) => f.maxMailbox))}; ` +
      `the simulator used ${t.service.map((r) => r.simCores.toFixed(2)).join(', ')} cores. ` +
      // The pinning gives wrk and the boosted simulator one CPU between them; when wrk gets less of it than in the
      // bare runs, req/s measures the client. Server CPU per request (the feeds' share included) shows the server.
      `wrk had ${t.bare.map((r) => pct(r.wrk.wrkCpu)).join(', ')} of its CPU in the bare runs and ${t.service.map((r) => pct(r.wrk.wrkCpu)).join(', ')} in the service runs; ` +
      `in the bare runs the bare server used ${t.bare.map((r) => pct(r.serverCores)).join(', ')} of CPU 0 and the service's feed handling ${t.bare.map((r) => pct(r.idleServiceCores)).join(', ')} beside it ` +
      `(${t.bare.map((r) => (r.feed?.recomputesPerSec ?? NaN).toLocaleString('en-US', { maximumFractionDigits: 0 })).join(', ')} quote changes/s); ` +
      `server CPU per request: bare ${t.bare.map(cpuPerRequest).join(', ')}, service ${t.service.map(cpuPerRequest).join(', ')} (the feeds included)` +
      quietBare(t),
    minRecomputes: Math.min(...feeds.map((f) => f.recomputesPerSec)),
  }
}

/** The lines above the table: the world the figures were measured on. */
export function httpLead(r: HttpReport): string[] {
  const w = r.world
  const b = r.boost
  const feeds =
    b === undefined
      ? "live feeds on at the simulator's default rates."
      : `live feeds on at the simulator's default rates, which give ${count(Math.round(b.idle.framesPerSec))} frames/s and ${count(Math.round(b.idle.recomputesPerSec))} quote changes/s of matched instruments (spread recomputations/s in /metrics, no HTTP load). ` +
        `For the service runs the simulator (\`bench/sim-child.ts\`) adds ${count(b.perSec)} top-of-book changes/s (the best bid or ask of a random market listed on both venues re-sized, spread over 5 ms ticks): ` +
        `${count(Math.round(b.boosted.framesPerSec))} frames/s and ${count(Math.round(b.boosted.recomputesPerSec))} quote changes/s of matched instruments with no HTTP load, the simulator then using ${b.boosted.simCores.toFixed(2)} cores and the service ${b.boosted.serviceCores.toFixed(2)} cores (idle: ${b.idle.serviceCores.toFixed(2)}). ` +
        `The simulator shares CPU 1 with wrk${b.simNice === undefined ? '' : ` at nice ${b.simNice} (wrk at 0)`}. Each pair runs the bare server with the boost on, as in the service runs (wrk shares CPU 1 with the simulator; the service's feed handling stays on CPU 0 beside the bare server): that is the ratio judged. ` +
        'It also runs the bare server with the boost off (wrk alone on CPU 1, as in the HTTP section), reported beside it: that ratio measures how much of CPU 1 the simulator leaves to wrk as much as the service (SameBackground in `bench/http.bench.ts`).'
  return [
    `Service (\`node dist/src/main.js\`, \`SIM_EXTERNAL=1\`) against the standalone simulator (${w.questions.toLocaleString('en-US')} questions): ${w.venuepMarkets.toLocaleString('en-US')} venuep and ${w.venuekMarkets.toLocaleString('en-US')} venuek markets (\`catalog.markets\` in /readyz), ready in ${(w.readyMs / 1000).toFixed(1)} s, ${feeds}${r.keyed ? ' Requests carry an API key from `POST /api/v2/developers/signup` (key guard, rate-limit headers and usage metering on; `RATE_LIMIT_PER_SEC` and `RATE_LIMIT_BURST` raised so one key can carry the load).' : ''} Pinning: ${describePinning(r.pinning)}.${r.bareBody === 'string' ? ' **Diagnostic run: the bare server holds the body as a JS string (BENCH_HTTP_BARE_BODY=string), not bytes.**' : ''}`,
  ]
}

export function httpMethod(r: HttpReport): string[] {
  const t = r.throughput[0]?.scenario
  const wrk = t === undefined ? 'wrk' : `wrk (\`-t${t.threads} -c${t.connections} -d${t.durationSec}s --latency\`)`
  const pinning =
    r.pinning.name === PINNINGS.split?.name
      ? [
          '  Pinning (`taskset`): the server under test (service or bare) on CPU 0, wrk and the simulator on CPU 1, so the measured',
          '  server has a core of its own and never competes with its load generator; on this 2-vCPU VM unpinned runs spread about',
          '  twice as wide and let wrk and the server share a core at times. One wrk thread (`-t1`) because it has one core.',
        ]
      : [`  Pinning: ${describePinning(r.pinning)}.`]
  return [
    "- **HTTP throughput** (`bench/http.bench.ts`; alone: `node dist/bench/run.js http`): each scenario fetches the service's",
    '  response once and starts a bare uWS server (`bench/bare-uws.ts`, own process) that answers every GET with exactly those',
    `  bytes (${r.bareBody === 'buffer' ? 'held as a Buffer, the best case for uWS' : 'held as a JS string — diagnostic run'}) and the status line and headers the route wrote (in one uWS call, as the service writes them). ${wrk}`,
    "  runs against bare, service, bare, service after a 3 s untimed warm-up of each; the ratio is the mean of the two pairs'",
    '  service/bare req/s; req/s and latencies are the means of the two runs. Same run, same machine, loopback.',
    '  Compressed rows send the request headers named in the row to both servers: the bare server answers with the',
    "  service's compressed bytes, the service with the encoding it keeps beside the cached page. The 304 row sends the",
    '  ETag the service gave for that page; both answer 304 with no body (the service after its key check, page lookup',
    '  and tag comparison).',
    ...pinning,
    `  The service re-fetches every venue's catalog every ${r.world.refreshMs / 1000} s, which keeps its core busy for 10–17 s at this size;`,
    `  pairs are scheduled between refreshes and one run across a refresh has its own row. A pair is repeated (up to ${ATTEMPTS_PER_PAIR} attempts)`,
    `  when a refresh landed in it, the simulator was busy, or the machine had more than ${FOREIGN_LIMIT} cores of other load (process CPU in`,
    `  /proc/stat beyond our processes, e.g. another test run on the shared VM); a result marked "kept after ${ATTEMPTS_PER_PAIR} attempts" was disturbed in each.`,
    '- **Sitemap latency**: 5 warm-up requests, then 50 sequential ones on one keep-alive `node:http` connection, each timed from',
    '  sending the request to the last body byte; p99 is the nearest rank (the slowest of 50). Bare uWS with the same bytes for reference.',
  ]
}

/** The scenario's own request headers, as the row names them (`Accept-Encoding: gzip`), and the ETag it revalidates. */
function requestNote(s: ThroughputResult['scenario']): string {
  const names = Object.entries(s.requestHeaders ?? {}).map(
    ([k, v]) => `\`${k.replace(/(^|-)[a-z]/g, (c) => c.toUpperCase())}: ${v}\``,
  )
  if (s.revalidate === true) names.push('`If-None-Match` with its ETag')
  return names.length === 0 ? '' : ` with ${names.join(', ')}`
}

function count(n: number): string {
  return n.toLocaleString('en-US')
}

function foreignNote(cores: number): string {
  return cores > FOREIGN_LIMIT ? ` — **other load on the machine: ${cores.toFixed(2)} cores**` : ''
}

function summary(runs: readonly ServerRun[]): { rps: number; p50: number; p99: number } {
  const mean = (f: (r: ServerRun) => number) => runs.reduce((a, r) => a + f(r), 0) / runs.length
  return { rps: mean((r) => r.wrk.requestsPerSec), p50: mean((r) => r.wrk.p50Ms), p99: mean((r) => r.wrk.p99Ms) }
}

function rate(rps: number): string {
  return rps >= 1e3 ? `${(rps / 1e3).toFixed(1)} k req/s` : `${rps.toFixed(0)} req/s`
}

function ms(x: number): string {
  return x >= 100 ? `${x.toLocaleString('en-US', { maximumFractionDigits: 0 })} ms` : `${x.toFixed(x >= 10 ? 1 : 2)} ms`
}

function bytes(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} B`
}

/** Server CPU time per response over a run, the feeds' share included (µs). */
function cpuPerRequest(r: ServerRun): string {
  return `${((r.serverCores * 1e6) / r.wrk.requestsPerSec).toFixed(1)} µs`
}

/** The bare runs with the boost off (wrk alone on its CPU) and the service's ratio to them: reported, not judged. */
function quietBare(t: ThroughputResult): string {
  const q = t.quietBare
  if (q === undefined || q.bare.length === 0) return ''
  const runs = summary(q.bare)
  return (
    `. Against the bare server with the boost off (not judged: wrk then has CPU 1 to itself; SameBackground in bench/http.bench.ts): ${mean(q.pairRatios).toFixed(2)} × bare (pairs ${q.pairRatios.map((x) => x.toFixed(2)).join(', ')}); ` +
    `bare ${rate(runs.rps)}, p50 ${ms(runs.p50)}, p99 ${ms(runs.p99)}, wrk ${q.bare.map((r) => pct(r.wrk.wrkCpu)).join(', ')} of its CPU, the bare server ${q.bare.map((r) => pct(r.serverCores)).join(', ')} of CPU 0, ` +
    `server CPU per request ${q.bare.map(cpuPerRequest).join(', ')}`
  )
}
