import { benchListener, benchStore } from '../history.bench.js'
import { log, measuredLead, ns, OBSERVATION, type Row, type SectionDef } from './section.js'

/** Issue 5's spread history: the sampler's cost on the engine's hot path, batch writes and range reads. No targets set. */
export const historySection: SectionDef = {
  name: 'history',
  title: 'Spread history (issue 5)',
  method: [
    "- **Spread history** (`bench/history.bench.ts`): the sampler's listener timed alone over 10,000 pairs in rounds of 1,000",
    '  changes (medians and p90 of ns per change, first tenth of rounds as warm-up) for sub-threshold changes, meaningful ones',
    '  held back by the per-pair rate limit, and meaningful ones queued; batch inserts of 50,000 points into an in-memory PGlite',
    '  (raw point plus daily-close upsert each); bucketed range reads of one pair holding 30 days of one point a minute (median of 12).',
  ],
  async run() {
    log('spread history: listener per change')
    const listener = await benchListener()
    log('spread history: batch writes and range reads (in-memory PGlite)')
    const store = await benchStore()
    const rows: Row[] = [
      ...listener.map((l) => ({
        measure: `History sampler, per spread change on the engine's path: ${l.scenario}`,
        result: `median ${ns(l.medianNsPerChange)}, p90 ${ns(l.p90NsPerChange)}`,
        ...OBSERVATION,
      })),
      ...store.writes.map((w) => ({
        measure: `History batch writes, ${w.batchSize.toLocaleString('en-US')} points a batch (in-memory PGlite; raw point + daily close per point)`,
        result: `${Math.round(w.pointsPerSecond).toLocaleString('en-US')} points/s (${w.points.toLocaleString('en-US')} points)`,
        ...OBSERVATION,
      })),
      ...store.reads.map((r) => ({
        measure: `History range read \`${r.range}\`: one pair with 43,200 raw points (30 days, one a minute), in-memory PGlite`,
        result: `${r.medianMs.toFixed(2)} ms median, ${r.buckets.toLocaleString('en-US')} buckets`,
        ...OBSERVATION,
      })),
    ]
    return { lead: [measuredLead()], rows }
  },
}
