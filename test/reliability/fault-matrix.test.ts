import assert from 'node:assert/strict'
import { after, afterEach, before, describe, test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { degradedReason } from '../../src/http/routes/health.js'
import { booksOutOfSync, outcomesByInstrument, startTestService, type TestService } from '../helpers/service.js'
import type { Outcome } from '../../src/model/types.js'
import { settle } from '../helpers/wait.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import type { Question } from '../../src/sim/world/types.js'

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
      // Production feeds; catalogs refreshed every 15 s instead of 60 s, and venuep listed whole every 60 s instead of
      // 10 minutes (between them, only its new and due events: venuep/catalog-changes.ts), so the catalog tests wait less.
      venues: {
        venuep: {
          feed: production.venues.venuep.feed,
          catalog: { refreshMs: 15_000, fullListingEveryMs: 60_000 },
        },
        venuek: { feed: production.venues.venuek.feed, catalog: { refreshMs: 15_000 } },
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

/** No stale quote, and every streamed book (closed outcomes are listed, not streamed) equals the simulator's. */
/**
 * Once some of the venue's quotes are stale: /readyz's verdict on it, read in the same turn from the status /readyz
 * is built from (a resync that takes no simulated time can end before an HTTP round trip). Undefined before.
 */
function staleDegraded(venue: VenueId): string | undefined {
  if (staleQuotes(venue) === 0) return undefined
  return degradedReason(s.app.venues[venue].venueStatus()) ?? 'stale quotes, yet not degraded'
}

function inSync(venue: VenueId): boolean {
  if (staleQuotes(venue) > 0) return false
  const catalog = s.app.venues[venue].catalog()
  const byInstrument = catalog === undefined ? new Map() : outcomesByInstrument(catalog)
  return booksOutOfSync(s, venue).every(
    (id) => !((byInstrument.get(id) ?? []) as Outcome[]).some((o) => o.status === 'active'),
  )
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
      catalog: {
        version: number
        failures: number
        last_error: string | null
        loading: unknown
        synced_at: string | null
      }
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
    const resyncs = await metric('predmkt_feed_stall_resyncs_total', 'venuep')
    s.sim.venuep.faults.stall()
    await run(3_000)
    assert.equal(staleQuotes('venuep'), 0, 'under the threshold: not flagged')
    s.sim.venuep.faults.resume()
    const recover = await untilOk('venuep after a 3 s stall', 5_000)
    assert.ok(recover <= 2_000, `in sync within 2 s of resuming (${recover} ms)`)
    assert.ok((await metric('predmkt_feed_stall_resyncs_total', 'venuep')) > resyncs, 'the ended stall counted')
    record('venuep stall 3 s', { recover_ms: recover })
  })

  for (const venue of VENUES) {
    test(`${venue}: socket drop`, async () => {
      const reconnects = await metric('predmkt_feed_reconnects_total', venue)
      s.sim[venue].faults.dropSockets()
      let degraded: string | undefined
      const detect = await until(() => (degraded = staleDegraded(venue)) !== undefined, 1_000, `${venue} quotes stale`)
      assert.match(degraded ?? '', /books stale/, '/readyz: degraded')
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
    // The resync takes no simulated time (unsubscribe, subscribe, snapshots): /readyz's verdict is read in the same
    // turn as the stale marks, from the status it is built from.
    let degraded: string | undefined
    const detect = await until(
      () => (degraded = staleDegraded('venuek')) !== undefined,
      2_000,
      'the gapped group marked stale',
    )
    assert.match(degraded ?? '', /books stale/, 'degraded while the group resyncs')
    const recover = await untilOk('venuek after a gap', 5_000)
    assert.ok(recover <= 2_000, `quotes flow again within 2 s (${recover} ms)`)
    assert.ok((await metric('predmkt_feed_sequence_gaps_total', 'venuek')) > gaps, 'gap counted')
    record('venuek sequence gap', { detect_ms: detect, recover_ms: detect + recover })
  })

  for (const venue of VENUES) {
    test(`${venue}: malformed frame`, async () => {
      const malformed = await metric('predmkt_feed_malformed_frames_total', venue)
      s.sim[venue].faults.sendMalformedFrame()
      let degraded: string | undefined
      const detect = await until(() => (degraded = staleDegraded(venue)) !== undefined, 1_000, `${venue} quotes stale`)
      assert.match(degraded ?? '', /books stale/, '/readyz: degraded')
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
    // The venue answers again: the next refresh installs.
    s.sim.venuep.faults.clearHttpFaults()
    s.sim.venuek.faults.clearHttpFaults()
    const recovered = await untilChunked(async () => {
      const v = (await readiness()).body.venues
      return v.venuep?.catalog.failures === 0 && v.venuek?.catalog.failures === 0
    }, 'both catalogs synced again')
    const synced = (await readiness()).body.venues
    assert.ok((synced.venuep?.catalog.version ?? 0) > (before.venuep?.catalog.version ?? 0))
    assert.equal(synced.venuep?.catalog.last_error, null)
    // Then slowly: 300 ms (wall clock) on every response. Up to the next refresh in chunks, then simulated time
    // paced to real time (the venue's latency is real, the service's request timeouts simulated).
    for (const v of VENUES) s.sim[v].faults.latencyMs = 300
    const calls = s.sim.venuep.faults.counters.httpFailed
    await untilChunked(async () => (await readiness()).body.venues.venuep?.catalog.loading !== null, 'a refresh starts')
    const t0 = Date.now()
    for (;;) {
      const v = (await readiness()).body.venues
      if (v.venuep?.catalog.loading === null && v.venuek?.catalog.loading === null) break
      assert.ok(Date.now() - t0 < 30_000, 'the slow refresh ends')
      s.advance(50)
      await settle(50)
      for (const venue of VENUES) assert.equal(staleQuotes(venue), 0, `${venue} quotes stay fresh during a slow sync`)
    }
    const slowSyncMs = Date.now() - t0
    const slow = (await readiness()).body.venues
    assert.equal(slow.venuep?.catalog.failures, 0, 'the slow refresh succeeded')
    // Synced (a listing of changes that found none installs nothing: the version stays, `synced_at` moves).
    const syncedAt = (v: typeof slow) => Date.parse(v.venuep?.catalog.synced_at ?? '')
    assert.ok(syncedAt(slow) > syncedAt(synced), 'and synced')
    assert.equal(s.sim.venuep.faults.counters.httpFailed, calls)
    await untilOk('after the catalog faults', 2_000)
    record('REST 429/503 on catalog sync, then 300 ms latency', {
      first_failure_ms: failed,
      synced_again_after_clear_ms: recovered,
      slow_sync_wall_ms: slowSyncMs,
      stale_quotes_meanwhile: 0,
    })
  })

  test('venuep restarts with a changed catalog: down 5 s (sockets dropped, silent, HTTP 503), back with 3 questions closed', async () => {
    // Three questions whose spreads are on the top list now.
    const top = (await get<{ data: { id: string }[] }>('/api/v2/spreads/top?limit=50')).body.data.map((r) => r.id)
    const records = new Map<string, string>()
    s.app.spreads.bySpread(0, (r) => void records.set(r.id, r.key))
    const closing = new Map<string, Question>()
    for (const id of top) {
      const spec = s.app.spreads.spec(records.get(id) ?? '')
      const leg = spec?.a.venue === 'venuep' ? spec.a : spec?.b
      const q =
        leg === undefined ? undefined : venuepOf(s.sim.world).tokens.get(leg.outcome.instrumentId)?.market.canonical
      if (q !== undefined && q.lifecycle === 'active') closing.set(q.id, q)
      if (closing.size === 3) break
    }
    assert.equal(closing.size, 3, 'three listed questions to close')
    const version = (await readiness()).body.venues.venuep?.catalog.version ?? 0
    const streamed = s.app.venues.venuep.venueStatus().books.instruments
    // The restart: every socket dropped, new ones answered by a venue that says nothing, every HTTP request 503.
    s.sim.venuep.faults.dropSockets()
    s.sim.venuep.faults.stall()
    s.sim.venuep.faults.failHttp({ status: 503, count: Number.POSITIVE_INFINITY })
    const detect = await until(() => staleQuotes('venuep') > 0, 1_000, 'venuep quotes marked stale')
    await run(5_000)
    await assertDegraded('venuep')
    // Back, with the questions closed (both venues list them closed from now on: a question's lifecycle is shared).
    for (const q of closing.values()) (q as { lifecycle: Question['lifecycle'] }).lifecycle = 'closed'
    s.sim.venuep.faults.clearHttpFaults()
    s.sim.venuep.faults.resume()
    const flowing = await until(() => staleQuotes('venuep') === 0, 5_000, 'venuep quotes flow again')
    assert.ok(flowing <= 2_000, `quotes flow again within 2 s of the venue's return (${flowing} ms)`)
    // The closures come before the questions' ends (not due: venuep/catalog-changes.ts), so the next whole listing
    // installs them (within `fullListingEveryMs`, 60 s here): the closed outcomes leave the feed and their spreads the
    // top list.
    const installed = await untilChunked(
      async () => ((await readiness()).body.venues.venuep?.catalog.version ?? 0) > version,
      'the changed catalog installed',
    )
    const closedIds = new Set(
      [...closing.values()].flatMap((q) =>
        [...venuepOf(s.sim.world).tokens.values()]
          .filter((t) => t.market.canonical === q)
          .map((t) => t.market.tokenIds[t.index]),
      ),
    )
    const catalog = s.app.venues.venuep.catalog()
    const byInstrument = catalog === undefined ? new Map<string, Outcome[]>() : outcomesByInstrument(catalog)
    for (const id of closedIds)
      assert.ok(!(byInstrument.get(id) ?? []).some((o) => o.status === 'active'), `${id} closed`)
    assert.ok(
      s.app.venues.venuep.venueStatus().books.instruments < streamed,
      'the closed outcomes are no longer streamed',
    )
    const settled = await untilOk('after the restart', 5_000)
    const listed = (await get<{ data: { id: string }[] }>('/api/v2/spreads/top?limit=200&window=720')).body.data
    for (const row of listed) {
      const spec = s.app.spreads.spec(records.get(row.id) ?? '')
      const leg = spec?.a.venue === 'venuep' ? spec.a : spec?.b
      assert.ok(
        leg === undefined || !closedIds.has(leg.outcome.instrumentId),
        `a closed outcome's spread listed: ${row.id}`,
      )
    }
    record('venuep restart with a changed catalog', {
      detect_ms: detect,
      down_ms: 5_000,
      quotes_flow_after_return_ms: flowing,
      catalog_installed_after_return_ms: flowing + installed,
      all_ok_after_install_ms: settled,
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
