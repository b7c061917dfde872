import { chartSvg } from './svg-chart.js'
import type { Sample } from './verdict.js'

/** bench/soak.svg: one panel per judged series over the run, the end of the warm-up dashed. */
const PANELS: readonly { series: string; title: string; unit: string }[] = [
  { series: 'rssMiB', title: 'Service RSS', unit: 'MiB' },
  { series: 'heapUsedMiB', title: 'Service heap used', unit: 'MiB' },
  { series: 'handles', title: 'Service active handles', unit: 'handles' },
  { series: 'eldP99Ms', title: 'Service event-loop delay p99 (per 10 s)', unit: 'ms' },
  { series: 'storeRssMiB', title: 'Embedded store process RSS', unit: 'MiB' },
]

export function soakChart(samples: readonly Sample[], warmUpMs: number, startedAt: Date): string {
  return chartSvg({
    title: `Soak ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    xLabel: 'time since the load started (s)',
    panels: PANELS.map((p) => ({
      title: p.title,
      unit: p.unit,
      markX: warmUpMs / 1000,
      points: samples
        .filter((s) => Number.isFinite(s.values[p.series]))
        .map((s) => ({ x: s.atMs / 1000, y: s.values[p.series] as number })),
    })).filter((p) => p.points.length > 0),
  })
}
