import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Registry } from 'prom-client'
import { collectProcessMetrics, LOOP_DELAY_SAMPLE_MS } from '../../src/metrics-defaults.js'

/**
 * The event-loop delay gauges report the delay itself: an idle loop reads well under the sampling timer's period
 * (prom-client's own gauges read the whole period, 20 ms here, at every percentile), a stall of ours shows in `max`,
 * and each scrape covers only the time since the one before.
 */
function value(text: string, stat: string): number {
  const m = new RegExp(`^predmkt_nodejs_eventloop_lag_${stat}_seconds (\\S+)$`, 'm').exec(text)
  assert.ok(m, `predmkt_nodejs_eventloop_lag_${stat}_seconds in the scrape`)
  return Number(m[1])
}

const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('event-loop delay: the delay beyond the sampling timer, a stall in max, reset at each scrape', async () => {
  const registry = new Registry()
  collectProcessMetrics(registry)
  const period = LOOP_DELAY_SAMPLE_MS / 1000
  await registry.metrics()

  await idle(300)
  const quiet = await registry.metrics()
  assert.ok(value(quiet, 'min') < period / 2, `idle min ${value(quiet, 'min')} s, not the timer's period`)
  for (const stat of ['p50', 'p90', 'p99', 'max']) assert.ok(value(quiet, stat) >= value(quiet, 'min'))
  // Exactly one of each, and none of prom-client's own delay gauges left beside them.
  assert.equal(quiet.match(/^predmkt_nodejs_eventloop_lag_p99_seconds /gm)?.length, 1)
  assert.match(quiet, /^predmkt_nodejs_eventloop_lag_seconds /m, "prom-client's setImmediate lag is kept")

  // The first firing after a reset only starts the next interval (Node's histogram records intervals between firings).
  await idle(60)
  const until = Date.now() + 120
  while (Date.now() < until); // a 120 ms stall of our own loop
  await idle(60)
  const stalled = await registry.metrics()
  assert.ok(value(stalled, 'max') >= 0.1, `the stall shows in max: ${value(stalled, 'max')} s`)

  await idle(300)
  const after = await registry.metrics()
  assert.ok(value(after, 'max') < 0.1, `the next scrape covers only its own interval: max ${value(after, 'max')} s`)

  // A scrape right after another (no firing between them) measured nothing: zeros, not the empty histogram's 2^63 ns.
  const again = await registry.metrics()
  for (const stat of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99']) assert.equal(value(again, stat), 0, stat)
})
