import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Supervisor } from '../../../src/actors/supervisor.js'
import { createMetrics } from '../../../src/metrics.js'
import type { SpreadEngine } from '../../../src/spreads/engine/spread-engine.js'
import type { StreamStatsSnapshot } from '../../../src/stream/server/stream-stats.js'
import type { PageCache } from '../../../src/views/page-cache.js'

/** The stream's series in /metrics, as an operator scrapes them: read from the server's counters at scrape time. */
test('stream connections, subscriptions, frames by channel, drops, re-snapshots and closes by code', async () => {
  const stream: StreamStatsSnapshot = {
    connections: 3,
    subscriptions: 7,
    streams: 5,
    framesPublished: new Map([
      ['quote', 120],
      ['book', 40],
    ]),
    drops: new Map([['quote', 9]]),
    resnapshots: 2,
    closes: new Map([
      [1001, 4],
      [4008, 1],
    ]),
  }
  const registry = createMetrics({
    venues: [],
    supervisor: { snapshot: () => [] } as unknown as Supervisor,
    spreads: { pairCount: 0, recomputed: 0 } as unknown as SpreadEngine,
    pages: { hits: 0, misses: 0 } as unknown as PageCache,
    http: () => ({ responses: new Map(), aborted: 0, buckets: [], sum: 0, count: 0 }),
    stream: () => stream,
  })
  const text = await registry.metrics()
  const lines = text.split('\n').filter((l) => l.startsWith('predmkt_stream_'))
  assert.deepEqual(lines, [
    'predmkt_stream_connections 3',
    'predmkt_stream_subscriptions 7',
    'predmkt_stream_open_streams 5',
    'predmkt_stream_frames_published_total{channel="quote"} 120',
    'predmkt_stream_frames_published_total{channel="book"} 40',
    'predmkt_stream_drops_total{channel="quote"} 9',
    'predmkt_stream_closes_total{code="1001"} 4',
    'predmkt_stream_closes_total{code="4008"} 1',
    'predmkt_stream_resnapshots_total 2',
  ])
})
