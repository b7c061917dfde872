import { monitorEventLoopDelay } from 'node:perf_hooks'
import { collectDefaultMetrics, Gauge, type Registry } from 'prom-client'

/**
 * How often the event-loop delay is sampled: a native timer of this period, whose lateness is the delay. Each
 * firing wakes an idle process: at 1 ms (what this service used before) that alone cost 17–29 ms of CPU a second on
 * the bench machine, a quarter or more of the whole service's steady-state CPU at the venues' real size; at 10 ms
 * 8–10 ms, at 20 ms 4–5 ms (an idle node process with nothing else, alternated runs of 10 s).
 * 50 samples a second still give a p99 over 1,500 samples in a 30 s scrape interval.
 */
export const LOOP_DELAY_SAMPLE_MS = 20

const PREFIX = 'predmkt_'

/** prom-client's own event-loop delay gauges, replaced below by ones that report the delay, not the timer's period. */
const LAG_STATS = ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'] as const

/**
 * prom-client's default process metrics (CPU, memory, heap spaces, handles, GC, event-loop delay), with the event-loop
 * delay as the delay itself.
 *
 * prom-client's delay gauges read Node's delay histogram as is, and that histogram records the whole interval
 * between two firings of its timer: an idle loop reads the timer's period, so at its default of 10 ms every
 * percentile read at least 10 ms, and a precise reading needed a 1 ms timer (and its cost, above). Here the
 * histogram times a 20 ms timer and each gauge reports what exceeded it, under prom-client's names
 * (`predmkt_nodejs_eventloop_lag_p99_seconds` and the rest), reset at every scrape as prom-client's are: each value
 * is over the interval since the scrape before. `predmkt_nodejs_eventloop_lag_seconds` (one `setImmediate` timed at
 * each scrape) is prom-client's.
 */
export function collectProcessMetrics(registry: Registry): void {
  // prom-client's own histogram is left with a 1 s timer: its gauges are removed, and nothing else reads it.
  collectDefaultMetrics({ register: registry, prefix: PREFIX, eventLoopMonitoringPrecision: 1_000 })
  for (const stat of LAG_STATS) registry.removeSingleMetric(`${PREFIX}nodejs_eventloop_lag_${stat}_seconds`)

  const histogram = monitorEventLoopDelay({ resolution: LOOP_DELAY_SAMPLE_MS })
  histogram.enable()
  const periodNs = LOOP_DELAY_SAMPLE_MS * 1e6
  /** A reading of the histogram (ns, a whole interval) as the delay beyond the timer's period, in seconds. */
  const delay = (ns: number): number => Math.max(0, ns - periodNs) / 1e9
  const read: Record<(typeof LAG_STATS)[number], () => number> = {
    min: () => delay(histogram.min),
    max: () => delay(histogram.max),
    mean: () => delay(histogram.mean),
    stddev: () => (Number.isFinite(histogram.stddev) ? histogram.stddev / 1e9 : 0), // NaN with one sample
    p50: () => delay(histogram.percentile(50)),
    p90: () => delay(histogram.percentile(90)),
    p99: () => delay(histogram.percentile(99)),
  }
  // As prom-client does: the first gauge's collect sets all seven and resets the histogram. A registry collects its
  // metrics in the order they were registered, each collect run before the next metric is read.
  const gauges = LAG_STATS.map(
    (stat, k) =>
      new Gauge({
        name: `${PREFIX}nodejs_eventloop_lag_${stat}_seconds`,
        help: `The ${stat} event-loop delay since the last scrape, in seconds: how late a ${LOOP_DELAY_SAMPLE_MS} ms timer fired.`,
        registers: [registry],
        ...(k === 0 ? { collect: () => setAll() } : {}),
      }),
  )
  const setAll = (): void => {
    // No firing since the last scrape (two scrapes within one period): the histogram's min reads 2^63 ns and its
    // mean NaN, so every statistic is 0 instead: no delay was measured.
    const empty = histogram.count === 0
    for (const [k, stat] of LAG_STATS.entries()) gauges[k]?.set(empty ? 0 : read[stat]())
    histogram.reset()
  }
}
