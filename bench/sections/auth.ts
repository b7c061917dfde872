import { benchAuthHttp, benchAuthMicro, benchAuthUws, type MicroResult } from '../auth.bench.js'
import { medianAveraged } from '../harness.js'
import { log, measuredLead, ns, type Row, type SectionDef } from './section.js'

/**
 * Issue 4: an authenticated read costs ≤ 5% more than the same read with AUTH_REQUIRED=false (same run). Judged on
 * the service figures (two services, same reads); the in-process figures price the guard on its own.
 */
const MAX_EXTRA = 0.05

export const authSection: SectionDef = {
  name: 'auth',
  title: 'Auth (issue 4)',
  method: [
    '- **Auth, service** (`bench/auth.bench.ts` `benchAuthHttp`): two services against one standalone simulator (default',
    '  world), one with `AUTH_REQUIRED=false`, one with auth on and limits out of reach, servers on CPU 0, wrk (`-c64`) and',
    '  the simulator on CPU 1; the same read through wrk in 6 alternating (ABBA) pairs of 5 s; medians over the pairs of',
    '  the on/off ratios of req/s and of server CPU time per request (/proc).',
    '  The background is quiet in both (the simulator at 20 quote changes/s, no catalog refresh during the bench): at the',
    '  defaults a refresh or a feed burst landing in one 5 s run and not the other moved single ratios by ±15%.',
    '- **Auth, in process**: the HTTP layer alone (`benchAuthUws`: our HttpServer, a 2 kB reply behind each stage of the keyed',
    '  path: no guard, key header captured, cached key looked up, the real guard; wrk `-c32`, 8 rounds of 3 s in alternating',
    "  order, this process's CPU per request) and the route wrapper alone (`benchAuthMicro`: register.ts around a handler",
    '  returning a cached reply, with and without the key guard; tinybench, no socket, the same key string every call, so',
    "  its lookup never hashes a fresh string as a request's does).",
  ],
  async run() {
    log('auth: route wrapper with and without the key guard (tinybench)')
    const micro = await benchAuthMicro()
    log('auth: HTTP layer in this process, open vs keyed route (wrk)')
    const uws = await benchAuthUws()
    log('auth: two services, AUTH_REQUIRED=false vs keyed (wrk, ABBA)')
    const http = await benchAuthHttp()
    const rows: Row[] = []
    for (const r of http) {
      const offRps = medianAveraged(r.pairs.map((p) => p.off.rps))
      const onRps = medianAveraged(r.pairs.map((p) => p.on.rps))
      const offCpu = medianAveraged(r.pairs.map((p) => p.off.cpuUsPerRequest))
      const onCpu = medianAveraged(r.pairs.map((p) => p.on.cpuUsPerRequest))
      rows.push({
        measure: `Auth: \`GET ${r.path}\` (${kb(r.bodyBytes)}) with an API key vs \`AUTH_REQUIRED=false\`, two services, ${r.pairs.length} ABBA pairs`,
        result:
          `server CPU per request **× ${r.cpuRatio.toFixed(3)}**, req/s **× ${r.throughputRatio.toFixed(3)}** (medians of the pairs' keyed/open ratios; CPU ratio per pair ` +
          `${r.pairs.map((p) => (p.on.cpuUsPerRequest / p.off.cpuUsPerRequest).toFixed(2)).join(', ')}); medians open → keyed: ${offCpu.toFixed(1)} → ${onCpu.toFixed(1)} µs CPU per request, ` +
          `${Math.round(offRps).toLocaleString('en-US')} → ${Math.round(onRps).toLocaleString('en-US')} req/s`,
        target: `≤ ${MAX_EXTRA * 100}% more: CPU per request ≤ ${1 + MAX_EXTRA} ×, req/s ≥ ${(1 / (1 + MAX_EXTRA)).toFixed(3)} ×`,
        ok: r.cpuRatio <= 1 + MAX_EXTRA && r.throughputRatio >= 1 / (1 + MAX_EXTRA),
      })
    }
    const m = uws.medianUs
    const step = (a: number, b: number) => `+${(b - a).toFixed(2)} µs`
    rows.push({
      measure: `Auth, HTTP layer in process: ${kb(uws.bodyBytes)} reply behind each stage of the keyed path (uWS, ${uws.rounds.length} rounds), server CPU per request`,
      result:
        `open ${m.open.toFixed(2)} µs; key header captured ${step(m.open, m.header)}; cached key looked up ${step(m.header, m.lookup)}; ` +
        `clock, token bucket, usage count and rate-limit headers ${step(m.lookup, m.keyed)}; keyed ${m.keyed.toFixed(2)} µs in all (${pct(m.keyed / m.open - 1)})`,
      target: "— (where a key's cost goes, on a trivial route)",
      ok: undefined,
    })
    const [open, keyed] = micro as [MicroResult, MicroResult]
    rows.push({
      measure:
        'Auth, route wrapper in process (no socket): cached reply with and without the key guard (cached key, token bucket, usage count, headers)',
      result: `open ${ns(open.nsPerRequest)} (±${open.rmePercent.toFixed(1)}%), keyed ${ns(keyed.nsPerRequest)} (±${keyed.rmePercent.toFixed(1)}%): the guard adds ${ns(keyed.nsPerRequest - open.nsPerRequest)}`,
      target: '— (the guard alone)',
      ok: undefined,
    })
    return { lead: [measuredLead()], rows }
  },
}

function kb(n: number): string {
  return n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} B`
}

function pct(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`
}
