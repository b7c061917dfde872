import assert from 'node:assert/strict'
import { after, afterEach, before, describe, test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { booksOutOfSync, startTestService, type TestService } from '../helpers/service.js'
import { settle } from '../helpers/wait.js'

/**
 * The fault matrix (docs/reliability/faults.md): the whole service in-process against the simulator, with the
 * venues' PRODUCTION feed timings (config/default.json: stale thresholds, ping cadence, reconnect backoff, snapshot
 * timeouts), one test per fault. Every figure is measured on the simulated clock, in 50 ms steps with the sockets'
 * frames delivered between steps, so the runs are fast and the figures do not depend on the machine:
 *
 * - detect: from the fault until the venue's quotes are marked stale (REST `is_stale`);
 * - recover: from the venue being well again until every book equals the simulator's and no quote is stale;
 * - the stale spreads leave /spreads/top and come back, /readyz says `degraded` for the venue then `ok` (staying
 *   200), and /metrics counts the event.
 *
 * The figures are printed (`fault matrix:` lines) and recorded in docs/reliability/faults.md.
 */
type VenueId = 'venuep' | 'venuek'
const VENUES: readonly VenueId[] = ['venuep', 'venuek']
const STEP_MS = 50

const production = loadConfig({ env: {} })
const FEED = {
  venuep: production.venues.venuep.feed as { staleAfterMs: number },
  venuek: production.venues.venuek.feed as { staleAfterMs: number },
}

let s: TestService
const figures: Record<string, Record<string, number>> = {}

before(async () => {
  s = await startTestService({
    questions: 120,
    config: {
      venues: {
        venuep: { feed: production.venues.venuep.feed },
        venuek: { feed: production.venues.venuek.feed },
      },
    },
  })
  // A few seconds of live activity: every book synced and moving, every spread priced from fresh quotes.
  await run(2_000)
  await untilOk('start', 5_000)
})

after(async () => {
  console.log(`fault matrix: ${JSON.stringify(figures)}`)
  await s?.close()
})

/** One step of simulated time (the engine moves books), then the frames it caused are delivered. */
async function step(): Promise<void> {
  s.advance(STEP_MS)
  await settle(3)
}

async function run(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += STEP_MS) await step()
}

/** Steps until `condition` holds; returns the simulated ms it took. */
async function until(condition: () => boolean | Promise<boolean>, limitMs: number, what: string): Promise<number> {
  const start = s.clock.now()
  for (;;) {
    if (await condition()) return s.clock.now() - start
    if (s.clock.now() - start > limitMs) assert.fail(`${what}: not within ${limitMs} ms of simulated time`)
    await step()
  }
}

function staleQuotes(venue: VenueId): number {
  let n = 0
  for (const q of s.app.venues[venue].quotes()) if (q.stale) n++
  return n
}

function inSync(venue: VenueId): boolean {
  return staleQuotes(venue) === 0 && booksOutOfSync(s, venue).length === 0
}

async function get<T>(path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${s.baseUrl}${path}`, { headers: s.authHeaders })
  return { status: res.status, body: (await res.json()) as T }
}

interface Readiness {
  status: string
  degraded_venues: string[]
  venues: Record<
    string,
    {
      health: string
      degraded_reason: string | null
      catalog: { version: number; failures: number; last_error: string | null }
    }
  >
}

async function readiness(): Promise<{ status: number; body: Readiness }> {
  return get<Readiness>('/readyz')
}

/** The REST quotes of a venue (one page of the busiest): their `is_stale` flags. */
async function restStale(venue: VenueId): Promise<boolean[]> {
  const r = await get<{ prices: { is_stale: boolean }[] }>(`/api/v2/${venue}/prices?limit=100`)
  assert.equal(r.status, 200)
  assert.ok(r.body.prices.length > 0)
  return r.body.prices.map((q) => q.is_stale)
}

async function topCount(): Promise<number> {
  const r = await get<{ data: { is_stale: boolean }[]; count: number }>('/api/v2/spreads/top?limit=50')
  assert.equal(r.status, 200)
  assert.ok(
    r.body.data.every((x) => !x.is_stale),
    'no stale spread is ranked',
  )
  return r.body.count
}

async function metric(name: string, venue: VenueId): Promise<number> {
  const text = await (await fetch(`${s.baseUrl}/metrics`)).text()
  const m = new RegExp(`^${name}\\{venue="${venue}"\\} (\\d+)`, 'm').exec(text)
  assert.ok(m !== null, `${name}{venue="${venue}"} in /metrics`)
  return Number(m[1])
}

/** Every venue in sync, /readyz 200 with every venue `ok`, /spreads/top full of fresh spreads. */
async function untilOk(what: string, limitMs: number): Promise<number> {
  return until(
    async () => {
      if (!VENUES.every(inSync)) return false
      const r = await readiness()
      return r.status === 200 && r.body.degraded_venues.length === 0 && (await topCount()) > 0
    },
    limitMs,
    `${what}: every venue back in sync, ok in /readyz, spreads listed`,
  )
}

/** /readyz stays 200 and names `venue` degraded; every REST quote of it is stale; no spread is listed. */
async function assertDegraded(venue: VenueId): Promise<void> {
  const r = await readiness()
  assert.equal(r.status, 200, '/readyz stays 200 while a venue is degraded')
  assert.deepEqual(r.body.degraded_venues, [venue])
  assert.equal(r.body.venues[venue]?.health, 'degraded')
  assert.match(r.body.venues[venue]?.degraded_reason ?? '', /books stale/)
  assert.ok(
    (await restStale(venue)).every((stale) => stale),
    `every ${venue} quote served stale`,
  )
  // Every matched pair has a quote on each venue: with one venue stale, nothing is fresh to rank.
  assert.equal(await topCount(), 0, 'stale spreads left /spreads/top')
}

function record(fault: string, values: Record<string, number>): void {
  figures[fault] = values
  console.log(`fault matrix: ${fault} ${JSON.stringify(values)}`)
}

describe('fault matrix (production feed timings, simulated clock)', () => {
  // A failed test must not leave its fault behind for the next one.
  afterEach(() => {
    for (const venue of VENUES) {
      s.sim[venue].faults.resume()
      s.sim[venue].faults.clearHttpFaults()
    }
  })

  for (const venue of VENUES) {
    test(`${venue}: silent stall (socket open, nothing sent) flagged at its threshold, recovered within 2 s of resuming`, async () => {
      const threshold = FEED[venue].staleAfterMs
      const timeouts = await metric('predmkt_feed_stale_timeouts_total', venue)
      s.sim[venue].faults.stall()
      // Quotes stay fresh up to the threshold (a quiet venue is not a stalled one) ...
      const detect = await until(() => staleQuotes(venue) > 0, threshold + 2_000, `${venue} quotes marked stale`)
      assert.ok(detect >= threshold - 1_000, `not flagged early (${detect} ms < ${threshold} ms)`)
      assert.ok(detect <= threshold + 1_000, `flagged within 1 s of the ${threshold} ms threshold (${detect} ms)`)
      const leaveTop = await until(async () => (await topCount()) === 0, 1_000, 'stale spreads leave /spreads/top')
      await assertDegraded(venue)
      assert.ok((await metric('predmkt_feed_stale_timeouts_total', venue)) > timeouts, 'stale timeout counted')
      // ... and the venue stays silent long enough for several replacement sockets to go stale too.
      await run(3 * threshold)
      await assertDegraded(venue)
      s.sim[venue].faults.resume()
      const recover = await untilOk(`${venue} after the stall`, 5_000)
      assert.ok(recover <= 2_000, `recovered within 2 s of the venue resuming (${recover} ms)`)
      record(`${venue} stall`, {
        threshold_ms: threshold,
        detect_ms: detect,
        leave_top_ms: detect + leaveTop,
        recover_ms: recover,
      })
    })
  }

  test('venuep: a short stall (under the threshold) still ends in a resync: books dropped meanwhile are refetched', async () => {
    s.sim.venuep.faults.stall()
    await run(3_000)
    assert.equal(staleQuotes('venuep'), 0, 'under the threshold: not flagged')
    s.sim.venuep.faults.resume()
    const recover = await untilOk('venuep after a 3 s stall', 5_000)
    assert.ok(recover <= 2_000, `in sync within 2 s of resuming (${recover} ms)`)
    record('venuep stall 3 s', { recover_ms: recover })
  })

  for (const venue of VENUES) {
    test(`${venue}: socket drop`, async () => {
      const reconnects = await metric('predmkt_feed_reconnects_total', venue)
      s.sim[venue].faults.dropSockets()
      const detect = await until(() => staleQuotes(venue) > 0, 1_000, `${venue} quotes marked stale`)
      assert.ok(
        (await restStale(venue)).some((stale) => stale),
        'the dropped quotes are served stale',
      )
      const recover = await untilOk(`${venue} after a drop`, 5_000)
      assert.ok(recover <= 2_000, `quotes flow again within 2 s (${recover} ms)`)
      assert.ok((await metric('predmkt_feed_reconnects_total', venue)) > reconnects, 'reconnect counted')
      record(`${venue} socket drop`, { detect_ms: detect, recover_ms: detect + recover })
    })
  }

  test('venuek: sequence gap', async () => {
    const gaps = await metric('predmkt_feed_sequence_gaps_total', 'venuek')
    s.sim.venuek.faults.skipSequence()
    const detect = await until(() => staleQuotes('venuek') > 0, 2_000, 'the gapped group marked stale')
    const degraded = (await readiness()).body
    assert.equal(degraded.venues.venuek?.health, 'degraded', 'degraded while the group resyncs')
    const recover = await untilOk('venuek after a gap', 5_000)
    assert.ok(recover <= 2_000, `quotes flow again within 2 s (${recover} ms)`)
    assert.ok((await metric('predmkt_feed_sequence_gaps_total', 'venuek')) > gaps, 'gap counted')
    record('venuek sequence gap', { detect_ms: detect, recover_ms: detect + recover })
  })

  for (const venue of VENUES) {
    test(`${venue}: malformed frame`, async () => {
      const malformed = await metric('predmkt_feed_malformed_frames_total', venue)
      s.sim[venue].faults.sendMalformedFrame()
      const detect = await until(() => staleQuotes(venue) > 0, 1_000, `${venue} quotes marked stale`)
      const recover = await untilOk(`${venue} after a malformed frame`, 5_000)
      assert.ok(recover <= 2_000, `quotes flow again within 2 s (${recover} ms)`)
      assert.ok((await metric('predmkt_feed_malformed_frames_total', venue)) > malformed, 'malformed frame counted')
      record(`${venue} malformed frame`, { detect_ms: detect, recover_ms: detect + recover })
    })
  }

  test('REST 429 and 5xx on the catalog sync, then latency: the installed catalog is kept, quotes never go stale', async () => {
    const before = (await readiness()).body.venues
    const failures = { venuep: await metric('predmkt_catalog_sync_failures', 'venuep') }
    s.sim.venuep.faults.failHttp({ status: 429, count: Number.POSITIVE_INFINITY, host: 'gamma' })
    s.sim.venuek.faults.failHttp({ status: 503, count: Number.POSITIVE_INFINITY, host: 'rest' })
    // Up to the next catalog refresh (every 60 s), in 250 ms chunks: the feeds keep streaming throughout.
    const failed = await untilChunked(async () => {
      const v = (await readiness()).body.venues
      return (v.venuep?.catalog.failures ?? 0) > 0 && (v.venuek?.catalog.failures ?? 0) > 0
    }, 'both catalog refreshes failed')
    const r = await readiness()
    assert.equal(r.status, 200)
    assert.deepEqual(r.body.degraded_venues, [], 'a failing catalog refresh does not degrade the feed')
    assert.match(r.body.venues.venuep?.catalog.last_error ?? '', /429/)
    assert.match(r.body.venues.venuek?.catalog.last_error ?? '', /503/)
    assert.equal(r.body.venues.venuep?.catalog.version, before.venuep?.catalog.version, 'the installed catalog is kept')
    assert.ok((await metric('predmkt_catalog_sync_failures', 'venuep')) > failures.venuep, 'failure counted')
    assert.ok(
      VENUES.every((v) => staleQuotes(v) === 0),
      'quotes stayed fresh',
    )
    assert.ok((await topCount()) > 0, 'spreads still listed')
    // The venue answers again, slowly (300 ms per response, wall clock): the next refresh installs.
    s.sim.venuep.faults.clearHttpFaults()
    s.sim.venuek.faults.clearHttpFaults()
    s.sim.venuep.faults.latencyMs = 300
    s.sim.venuek.faults.latencyMs = 300
    const recovered = await untilChunked(async () => {
      const v = (await readiness()).body.venues
      return v.venuep?.catalog.failures === 0 && v.venuek?.catalog.failures === 0
    }, 'both catalogs synced again')
    const after = (await readiness()).body.venues
    assert.ok((after.venuep?.catalog.version ?? 0) > (before.venuep?.catalog.version ?? 0))
    assert.equal(after.venuep?.catalog.last_error, null)
    await untilOk('after the catalog faults', 2_000)
    record('REST 429/503 on catalog sync, then 300 ms latency', {
      first_failure_ms: failed,
      synced_again_after_clear_ms: recovered,
      stale_quotes_meanwhile: 0,
    })
  })
})

/**
 * Steps in 250 ms chunks (the engine moving books in 50 ms steps, frames delivered after each chunk) until
 * `condition`, for at most two catalog refresh periods; returns the simulated ms it took. Quotes must stay fresh.
 */
async function untilChunked(condition: () => Promise<boolean>, what: string): Promise<number> {
  const start = s.clock.now()
  for (;;) {
    if (await condition()) return s.clock.now() - start
    if (s.clock.now() - start > 130_000) assert.fail(`${what}: not within 130 s of simulated time`)
    s.advance(250)
    await settle(5)
    for (const v of VENUES) assert.equal(staleQuotes(v), 0, `${v} quotes stay fresh during REST faults`)
  }
}
