import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * GET /metrics: the Prometheus text an operator scrapes. The figures must be the service's real counters: the
 * responses this test caused are counted under their status codes, the latency histogram is cumulative and ends
 * at the request count, and each venue reports ready.
 */
let s: TestService

before(async () => {
  s = await startTestService({ questions: 60 })
})

after(async () => {
  await s?.close()
})

/** `name{labels} value` lines → value, keyed by `name{labels}` as written. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    out.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return out
}

async function scrape(): Promise<{ text: string; values: Map<string, number> }> {
  const res = await fetch(`${s.baseUrl}/metrics`)
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8')
  const text = await res.text()
  return { text, values: samples(text) }
}

describe('GET /metrics', () => {
  test('counts the responses it served by status code, with a consistent latency histogram', async () => {
    const before = (await scrape()).values
    const code = (v: Map<string, number>, c: number) => v.get(`predmkt_http_responses_total{code="${c}"}`) ?? 0
    for (let i = 0; i < 3; i++)
      assert.equal((await fetch(`${s.baseUrl}/api/v2/venuep/markets?limit=2`, { headers: s.authHeaders })).status, 200)
    assert.equal((await fetch(`${s.baseUrl}/api/v2/venuep/markets?limit=0`, { headers: s.authHeaders })).status, 422)
    assert.equal((await fetch(`${s.baseUrl}/api/v2/no-such-route`)).status, 404)
    assert.equal((await fetch(`${s.baseUrl}/api/v2/venuep/markets`)).status, 401)

    const { text, values } = await scrape()
    // The first scrape's own 200 is counted too: it was written before the second scrape began.
    assert.equal(code(values, 200) - code(before, 200), 3 + 1)
    assert.equal(code(values, 422) - code(before, 422), 1)
    assert.equal(code(values, 404) - code(before, 404), 1)
    assert.equal(code(values, 401) - code(before, 401), 1)

    assert.match(text, /# TYPE predmkt_http_responses_total counter/)
    assert.match(text, /# TYPE predmkt_http_request_duration_seconds histogram/)
    const buckets = [...values].filter(([k]) => k.startsWith('predmkt_http_request_duration_seconds_bucket'))
    assert.ok(buckets.length > 5)
    for (let i = 1; i < buckets.length; i++)
      assert.ok((buckets[i]?.[1] ?? 0) >= (buckets[i - 1]?.[1] ?? 0), 'cumulative buckets never decrease')
    assert.equal(buckets.at(-1)?.[0], 'predmkt_http_request_duration_seconds_bucket{le="+Inf"}')
    const count = values.get('predmkt_http_request_duration_seconds_count') ?? 0
    assert.equal(buckets.at(-1)?.[1], count)
    const responses = [...values]
      .filter(([k]) => k.startsWith('predmkt_http_responses_total'))
      .reduce((n, [, v]) => n + v, 0)
    assert.equal(count, responses, 'one latency observation per response')
  })

  test('reports both venues ready, their catalogs and the spread engine', async () => {
    const { text, values } = await scrape()
    for (const venue of ['venuep', 'venuek']) {
      assert.equal(values.get(`predmkt_venue_ready{venue="${venue}"}`), 1)
      assert.equal(
        values.get(`predmkt_catalog_markets{venue="${venue}"}`),
        s.app.venues[venue as 'venuep' | 'venuek'].venueStatus().catalog.markets,
      )
      assert.ok((values.get(`predmkt_feed_frames_total{venue="${venue}"}`) ?? 0) > 0, `${venue} frames counted`)
      assert.ok(
        (values.get(`predmkt_quotes_published_total{venue="${venue}"}`) ?? 0) > 0,
        `${venue} quote changes counted`,
      )
    }
    assert.match(text, /# TYPE predmkt_feed_frames_total counter/)
    assert.equal(values.get('predmkt_spread_pairs'), s.app.spreads.pairCount)
    // Points the history sampler committed: what a kill test reads as the acknowledged history (test/lifecycle).
    assert.equal(
      values.get('predmkt_spread_history_points_total{outcome="written"}'),
      s.app.history.sampler.stats().written,
    )
    assert.equal(values.get('predmkt_spread_history_points_total{outcome="lost"}'), 0)
    assert.ok(values.has('predmkt_process_resident_memory_bytes'), 'process metrics')
    for (const host of ['gamma', 'clob', 'data'])
      assert.equal(values.get(`predmkt_upstream_breaker_open{host="${host}"}`), 0)
  })
})
