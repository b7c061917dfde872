import { Bench } from 'tinybench'

/**
 * Shared bench plumbing: each task processes a whole batch per call (so per-call timer overhead is
 * negligible), and results are reported as operations per second of the batch's unit.
 */
export interface Measured {
  readonly name: string
  /** Units per second (level updates, frames...). */
  readonly perSecond: number
  /** Relative margin of error of the mean, percent. */
  readonly rmePercent: number
  readonly samples: number
}

export async function measureBatches(
  name: string,
  tasks: readonly { name: string; unitsPerCall: number; fn: () => void }[],
  timeMs = 1_500,
): Promise<Measured[]> {
  const bench = new Bench({ name, time: timeMs, warmupTime: 300 })
  for (const t of tasks) bench.add(t.name, t.fn)
  await bench.run()
  return bench.tasks.map((task, i) => {
    const r = task.result
    if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state}`)
    const unitsPerCall = (tasks[i] as { unitsPerCall: number }).unitsPerCall
    return {
      name: task.name,
      perSecond: (unitsPerCall * 1000) / r.latency.mean,
      rmePercent: r.latency.rme,
      samples: r.latency.samplesCount,
    }
  })
}

export function fmtRate(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} M/s` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k/s` : `${n.toFixed(0)}/s`
}

/*
 * The statistics the benches report, defined once so that a "median" or a "p99" means the same in every section.
 * Two medians are kept because the sections always used two: most take the middle sample (the upper of the two
 * middle ones for an even count); the auth section's ABBA pairs (an even count) average the two middle ones.
 */

/** The sample at rank ⌊q·n⌋ of ascending samples, clamped to the last (so q = 0.5 is the upper middle). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number
}

/** Nearest-rank percentile of ascending samples: the one at rank ⌈q·n⌉ − 1 (with 50 samples, p99 is the slowest). */
export function nearestRank(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number
}

/** The middle sample of `xs` (any order): `quantile(sorted, 0.5)`, the upper of the two middle ones for an even count. */
export function median(xs: readonly number[]): number {
  return quantile(ascending(xs), 0.5)
}

/** The median of `xs` (any order) with the two middle samples of an even count averaged. */
export function medianAveraged(xs: readonly number[]): number {
  const s = ascending(xs)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

export function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length
}

function ascending(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b)
}
