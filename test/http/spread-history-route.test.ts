import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { registerRoutes } from '../../src/http/register.js'
import { spreadHistoryRoutes, type HistoryReader } from '../../src/http/routes/spread-history.js'
import { HttpServer } from '../../src/http/server.js'
import type { BucketQuery, HistoryBucket } from '../../src/store/spread-history-repo.js'
import { assertMatchesResponseSchema } from '../helpers/contract.js'

/**
 * The history route's answers that the end-to-end suite cannot provoke: a known pair without samples in the range,
 * a pair known only from its stored history, and a store that cannot be read (503, no internals).
 */
const NOW = Date.UTC(2026, 10, 21, 12, 7, 13)

class FakeHistory implements HistoryReader {
  readonly queries: BucketQuery[] = []
  readonly stored = new Map<string, HistoryBucket[]>()
  failure: Error | undefined
  async buckets(eventSlug: string, outcomeKey: string, q: BucketQuery): Promise<HistoryBucket[]> {
    if (this.failure !== undefined) throw this.failure
    this.queries.push(q)
    return this.stored.get(`${eventSlug}|${outcomeKey}`) ?? []
  }
  async hasHistory(eventSlug: string, outcomeKey: string): Promise<boolean> {
    if (this.failure !== undefined) throw this.failure
    return this.stored.has(`${eventSlug}|${outcomeKey}`)
  }
}

const history = new FakeHistory()
const matched = new Set(['fed-cut|text:yes'])
const routes = spreadHistoryRoutes({
  history,
  isMatched: (e, o) => matched.has(`${e}|${o}`),
  clock: new SimulatedClock(NOW),
  log: silentLogger,
  sampling: { minChangeBps: 10, minIntervalMs: 60_000, heartbeatMs: 3_600_000, flushMs: 1_000, retentionDays: 35 },
})
let server: HttpServer
let base: string

before(async () => {
  server = new HttpServer({ log: silentLogger })
  registerRoutes(server, routes)
  base = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}`
})
after(() => server.close())

async function get(query: string): Promise<{ status: number; body: unknown; retryAfter: string | null }> {
  const res = await fetch(`${base}/api/v2/spreads/history?${query}`, { headers: { connection: 'close' } })
  const body: unknown = await res.json()
  assertMatchesResponseSchema(routes[0]!, res.status, body)
  return { status: res.status, body, retryAfter: res.headers.get('retry-after') }
}

describe('GET /api/v2/spreads/history (route)', () => {
  test('a matched pair without samples in the range: 200 with empty data', async () => {
    assert.deepEqual(await get('event_slug=fed-cut&outcome_key=text%3Ayes&range=1d'), {
      status: 200,
      body: { event_slug: 'fed-cut', outcome_key: 'text:yes', range: '1d', bucket_seconds: 300, data: [] },
      retryAfter: null,
    })
    assert.deepEqual(
      history.queries.at(-1),
      { source: 'raw', bucketMs: 300_000, fromMs: Date.UTC(2026, 10, 20, 12, 5) },
      'from the bucket holding now − 24 h',
    )
  })

  test('a pair no longer matched but with stored history is served; timestamps are bucket starts without a zone', async () => {
    history.stored.set('old-event|text:no', [
      {
        bucketStart: Date.UTC(2026, 9, 1),
        at: Date.UTC(2026, 9, 1, 23, 59),
        spreadBps: 310.5,
        priceA: 0.2,
        priceB: 0.23105,
      },
      { bucketStart: Date.UTC(2026, 9, 2), at: Date.UTC(2026, 9, 2, 8), spreadBps: 0, priceA: 0.5, priceB: 0.5 },
    ])
    assert.deepEqual(await get('event_slug=old-event&outcome_key=text%3Ano&range=all'), {
      status: 200,
      body: {
        event_slug: 'old-event',
        outcome_key: 'text:no',
        range: 'all',
        bucket_seconds: 86_400,
        data: [
          { timestamp: '2026-10-01T00:00:00.000', spread_bps: 310.5, price_a: 0.2, price_b: 0.23105 },
          { timestamp: '2026-10-02T00:00:00.000', spread_bps: 0, price_a: 0.5, price_b: 0.5 },
        ],
      },
      retryAfter: null,
    })
    assert.deepEqual(history.queries.at(-1), { source: 'daily', bucketMs: 86_400_000, fromMs: undefined })
  })

  test('neither matched nor ever sampled: 404 not_found', async () => {
    assert.deepEqual(await get('event_slug=nope&outcome_key=text%3Ayes'), {
      status: 404,
      body: { detail: 'no spread history for event_slug nope and outcome_key text:yes', code: 'not_found' },
      retryAfter: null,
    })
  })

  test('a store that cannot be read: 503 history_unavailable with Retry-After, and nothing of the error', async () => {
    history.failure = new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2')
    try {
      for (const q of ['event_slug=fed-cut&outcome_key=text%3Ayes', 'event_slug=nope&outcome_key=x']) {
        assert.deepEqual(await get(q), {
          status: 503,
          body: { detail: 'Spread history cannot be read right now; retry shortly.', code: 'history_unavailable' },
          retryAfter: '1',
        })
      }
    } finally {
      history.failure = undefined
    }
  })
})
