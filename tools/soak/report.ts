import { cpus, release, totalmem } from 'node:os'
import type { InjectedFault } from './fault-rotation.js'
import type { LogCounter } from './log-counter.js'
import type { RestStats } from './rest-load.js'
import { SERIES } from './sampler.js'
import type { StreamStats } from './stream-load.js'
import type { Sample, Verdict } from './verdict.js'

/** bench/SOAK.md: what ran, the load it got through, every sample, and the verdict with its reasons. */
export interface SoakReport {
  readonly command: string
  readonly startedAt: Date
  readonly durationMs: number
  readonly setup: readonly string[]
  readonly rest: RestStats
  readonly stream: StreamStats & { readonly clients: number; readonly openAtEnd: number }
  readonly faults: readonly InjectedFault[]
  readonly simCounters: Readonly<Record<string, Readonly<Record<string, number>>>>
  readonly log: LogCounter
  readonly samples: readonly Sample[]
  readonly verdict: Verdict
  readonly rules: readonly string[]
  readonly shutdown: string
}

export function soakMarkdown(r: SoakReport): string {
  const seconds = r.durationMs / 1000
  const restTotal = [...r.rest.byStatus.values()].reduce((a, n) => a + n, 0)
  const lat = percentiles(r.rest.latenciesMs)
  const lines: string[] = []
  lines.push('# Soak: the service under steady load and rotating faults')
  lines.push('')
  lines.push(
    'Written by `npm run soak` (tools/soak.ts; the judgement is tools/soak/verdict.ts). The service runs as users run it, `node dist/src/main.js` in its own process on the embedded store (PGlite), against the simulator with a boost of market activity; REST loops and stream clients read from it while a fault is injected into a simulated venue every minute, and its `/metrics` are sampled every 10 s.',
  )
  lines.push('')
  lines.push(`- **Command**: \`${r.command}\``)
  lines.push(`- **Date**: ${r.startedAt.toISOString().replace(/\.\d+Z$/, 'Z')}`)
  lines.push(`- **Machine**: ${machine()}`)
  lines.push(`- **Duration**: ${(seconds / 60).toFixed(1)} min (${r.samples.length} samples)`)
  for (const s of r.setup) lines.push(`- ${s}`)
  lines.push('')
  const unjudged = r.verdict.series.filter((s) => s.unjudged === true).map((s) => s.series)
  lines.push(
    `## Verdict: ${r.verdict.pass ? 'PASS' : 'FAIL'}${unjudged.length === 0 ? '' : ` (not judged: ${unjudged.join(', ')})`}`,
  )
  lines.push('')
  lines.push(
    `Warm-up: the first ${(r.verdict.warmUpMs / 1000).toFixed(0)} s (2 min, or 20% of a shorter run) are not judged; ${r.verdict.judged} samples are.`,
  )
  lines.push('')
  for (const rule of r.rules) lines.push(`- ${rule}`)
  lines.push('')
  lines.push('| series | judged by | result | figures |')
  lines.push('|---|---|---|---|')
  for (const s of r.verdict.series)
    lines.push(
      `| ${s.series} | ${s.judgedBy} | ${s.unjudged === true ? 'not judged' : s.pass ? 'pass' : '**FAIL**'} | ${s.detail} |`,
    )
  lines.push(
    `| error log lines | none allowed | ${r.log.errors === 0 ? 'pass' : '**FAIL**'} | ${r.log.errors} lines at level ≥ 50 |`,
  )
  lines.push('')
  if (r.verdict.reasons.length > 0) {
    lines.push('Failed because:')
    lines.push('')
    for (const reason of r.verdict.reasons) lines.push(`- ${reason}`)
    lines.push('')
  }
  lines.push('## Load achieved')
  lines.push('')
  lines.push(
    `REST: ${restTotal.toLocaleString('en-US')} requests, ${(restTotal / seconds).toFixed(1)} req/s; latency p50 ${lat.p50.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms, max ${lat.max.toFixed(0)} ms.`,
  )
  lines.push('')
  const statuses = [...r.rest.byStatus.keys()].sort()
  lines.push(`| route | ${statuses.join(' | ')} |`)
  lines.push(`|---|${statuses.map(() => '---:').join('|')}|`)
  for (const [route, by] of r.rest.byRoute)
    lines.push(`| \`${route}\` | ${statuses.map((s) => (by.get(s) ?? 0).toLocaleString('en-US')).join(' | ')} |`)
  lines.push(
    `| **all** (req/s) | ${statuses.map((s) => `${((r.rest.byStatus.get(s) ?? 0) / seconds).toFixed(1)}`).join(' | ')} |`,
  )
  lines.push('')
  if (r.rest.failures.size > 0) {
    lines.push("Answers other than 200, by status and route (the first one's body):")
    lines.push('')
    for (const f of r.rest.failures.values())
      lines.push(
        `- ${f.status} \`${f.route}\` × ${f.count.toLocaleString('en-US')}, from ${f.firstSec} s to ${f.lastSec} s: \`${f.sample.replace(/`/g, "'")}\``,
      )
    lines.push('')
  }
  const st = r.stream
  lines.push(
    `Stream: ${st.clients} clients (${st.openAtEnd} open at the end): ${st.frames.toLocaleString('en-US')} frames (${(st.frames / seconds).toFixed(0)}/s: ${st.snapshots.toLocaleString('en-US')} snapshots, ${st.deltas.toLocaleString('en-US')} deltas, ${st.markers.toLocaleString('en-US')} markers); **${st.gaps} gaps, ${st.crcMismatches} checksum mismatches**, ${st.reconnects} reconnects, ${st.heartbeatTimeouts} heartbeat timeouts (and ${st.reconnectsWhileMeasuring} reconnects during the two forced full collections, the measurement's), ${st.staleMarks} streams marked stale, ${st.errors} error frames.`,
  )
  lines.push('')
  if (st.notes.length > 0) {
    for (const n of st.notes) lines.push(`- ${n}`)
    lines.push('')
  }
  lines.push(`Faults injected (${r.faults.length}):`)
  lines.push('')
  for (const f of r.faults) lines.push(`- ${(f.atMs / 1000).toFixed(0)} s: ${f.kind} on ${f.venue}`)
  lines.push('')
  lines.push(
    `What the simulator did: ${Object.entries(r.simCounters)
      .map(
        ([venue, c]) =>
          `${venue} ${Object.entries(c)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
      )
      .join('; ')}.`,
  )
  lines.push('')
  lines.push("## The service's log")
  lines.push('')
  lines.push(
    `Lines by level: ${[...r.log.byLevel.entries()].map(([level, n]) => `${level} ${n.toLocaleString('en-US')}`).join(', ') || 'none'}.`,
  )
  lines.push('')
  if (r.log.warnByMsg.size > 0) {
    lines.push('Warnings by message (faults cause these):')
    lines.push('')
    lines.push('| count | msg |')
    lines.push('|---:|---|')
    for (const [msg, n] of [...r.log.warnByMsg.entries()].sort((a, b) => b[1] - a[1]))
      lines.push(`| ${n} | ${msg.replace(/\|/g, '\\|')} |`)
    lines.push('')
  }
  if (r.log.errorLines.length > 0) {
    lines.push('Error lines:')
    lines.push('')
    lines.push('```')
    for (const l of r.log.errorLines) lines.push(l)
    lines.push('```')
    lines.push('')
  }
  if (r.log.unparsedLines.length > 0) {
    lines.push('Lines that are not JSON log entries:')
    lines.push('')
    lines.push('```')
    for (const l of r.log.unparsedLines) lines.push(l)
    lines.push('```')
    lines.push('')
  }
  lines.push(`Shutdown: ${r.shutdown}`)
  lines.push('')
  lines.push('## Samples')
  lines.push('')
  lines.push(
    `Every 10 s from \`/metrics\` (${SERIES.rssMiB}, ${SERIES.heapUsedMiB}, ${SERIES.handles}, ${SERIES.eldP99Ms} and ${SERIES.eldMaxMs}, both reset at each scrape) and the store process's /proc status; "driver ELD" is the soak driver's own event-loop delay (the simulator, the stream clients and the REST loops share that loop, so a client-side latency tail may be the driver's); CPU is from /proc over each 10 s window, "foreign" being what processes other than the service, its store and the driver took (bench/http/server-run.ts \`foreignLoad\`). Chart: [soak.svg](soak.svg).`,
  )
  lines.push('')
  lines.push(
    '| t (s) | RSS (MiB) | heap used (MiB) | handles | ELD p99 / max (ms) | store RSS (MiB) | REST req/s | stream frames/s | driver ELD p99 (ms) | CPU service / store / foreign (cores) |',
  )
  lines.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|')
  for (const s of r.samples) {
    const v = s.values
    lines.push(
      `| ${(s.atMs / 1000).toFixed(0)}${s.atMs < r.verdict.warmUpMs ? ' (warm-up)' : ''} | ${f1(v.rssMiB)} | ${f1(v.heapUsedMiB)} | ${f0(v.handles)} | ${f1(v.eldP99Ms)} / ${f0(v.eldMaxMs)} | ${f1(v.storeRssMiB)} | ${f0(v.restPerSec)} | ${f0(v.framesPerSec)} | ${f1(v.driverEldP99Ms)} | ${f2(v.serviceCores)} / ${f2(v.storeCores)} / ${f2(v.foreignCores)} |`,
    )
  }
  lines.push('')
  return lines.join('\n')
}

function f1(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(1)
}

function f2(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(2)
}

function f0(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(0)
}

function machine(): string {
  const c = cpus()
  return `${c.length} × ${c[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Linux ${release()}, Node ${process.version}`
}

export function percentiles(xs: readonly number[]): { p50: number; p99: number; max: number } {
  if (xs.length === 0) return { p50: Number.NaN, p99: Number.NaN, max: Number.NaN }
  const sorted = [...xs].sort((a, b) => a - b)
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] as number }
}
