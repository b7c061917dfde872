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

export async function measureBatches(name: string, tasks: readonly { name: string; unitsPerCall: number; fn: () => void }[], timeMs = 1_500): Promise<Measured[]> {
  const bench = new Bench({ name, time: timeMs, warmupTime: 300 })
  for (const t of tasks) bench.add(t.name, t.fn)
  await bench.run()
  return bench.tasks.map((task, i) => {
    const r = task.result
    if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state}`)
    const unitsPerCall = (tasks[i] as { unitsPerCall: number }).unitsPerCall
    return { name: task.name, perSecond: (unitsPerCall * 1000) / r.latency.mean, rmePercent: r.latency.rme, samples: r.latency.samplesCount }
  })
}

export function fmtRate(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} M/s` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k/s` : `${n.toFixed(0)}/s`
}
