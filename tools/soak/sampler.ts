import { childPids, rssMiB } from '../../bench/process.js'
import type { Sample } from './verdict.js'

/**
 * One reading of the service every SAMPLE_EVERY_MS: its /metrics (prom-client's process and Node defaults,
 * prefixed `predmkt_`; the event-loop delay percentiles are reset at each scrape, so each sample covers the 10 s
 * since the last) and the embedded store's process RSS from /proc (the service's child; absent with Postgres).
 */
export const SAMPLE_EVERY_MS = 10_000

/** The series a sample holds, with the metric each one comes from. */
export const SERIES = {
  rssMiB: 'predmkt_process_resident_memory_bytes',
  heapUsedMiB: 'predmkt_nodejs_heap_size_used_bytes',
  handles: 'predmkt_nodejs_active_handles_total',
  eldP99Ms: 'predmkt_nodejs_eventloop_lag_p99_seconds',
  /** Reported, not judged: one long stall is one sample among thousands, and the p99 does not show it. */
  eldMaxMs: 'predmkt_nodejs_eventloop_lag_max_seconds',
  storeRssMiB: '/proc/<store pid>/status VmRSS',
} as const

/** Reads one unlabelled (or summed over labels) value from Prometheus text; NaN when absent. */
export function metricValue(text: string, name: string): number {
  const re = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm')
  let sum = Number.NaN
  for (const m of text.matchAll(re)) sum = (Number.isNaN(sum) ? 0 : sum) + Number(m[1])
  return sum
}

export function sampleOfMetrics(text: string, storeRssMiB: number | undefined): Record<string, number> {
  const mib = (bytes: number): number => bytes / 2 ** 20
  const values: Record<string, number> = {
    rssMiB: mib(metricValue(text, SERIES.rssMiB)),
    heapUsedMiB: mib(metricValue(text, SERIES.heapUsedMiB)),
    handles: metricValue(text, SERIES.handles),
    eldP99Ms: metricValue(text, SERIES.eldP99Ms) * 1000,
    eldMaxMs: metricValue(text, SERIES.eldMaxMs) * 1000,
  }
  if (storeRssMiB !== undefined) values.storeRssMiB = storeRssMiB
  return values
}

/** The store process's RSS: the service's only child process (pglite-process-db.ts forks it). */
export function storeRss(servicePid: number): { pid: number; rssMiB: number } | undefined {
  const [pid] = childPids(servicePid)
  if (pid === undefined) return undefined
  try {
    return { pid, rssMiB: rssMiB(pid) }
  } catch {
    return undefined
  }
}

export async function takeSample(port: number, servicePid: number, atMs: number): Promise<Sample> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5_000) })
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`)
  const text = await res.text()
  return { atMs, values: sampleOfMetrics(text, storeRss(servicePid)?.rssMiB) }
}
