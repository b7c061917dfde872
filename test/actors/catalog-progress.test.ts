import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PROGRESS_LOG_MS, VenueActor } from '../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { createLogger } from '../../src/core/logger.js'
import type { Reply } from '../../src/http/reply.js'
import { healthRoutes } from '../../src/http/routes/health.js'
import type { Catalog, CatalogEvent } from '../../src/model/types.js'
import type { CatalogProgress, VenueAdapter } from '../../src/venues/types.js'
import { venuepProbability } from '../../src/venues/venuep/probability.js'
import { assertReplyMatchesSchema } from '../helpers/contract.js'
import { lineProblems } from '../helpers/checked-logger.js'
import { settle, waitFor } from '../helpers/wait.js'
import { TEST_ANCHOR_MS } from '../helpers/service.js'
import { loadConfig } from '../../src/config/load.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { createVenuekAdapter } from '../../src/venues/venuek/adapter.js'
import { simulatorCredentials } from '../../src/venues/venuek/credentials.js'
import { quietFeedStatus } from '../helpers/gated-venue.js'

/**
 * A catalog sync is observable while it runs: the venue status (and so /readyz `catalog.loading`) shows pages,
 * events listed, the rate and, once a sync has completed, an estimate based on its size; the first sync logs a
 * progress line every PROGRESS_LOG_MS of the actor's clock (not one per page), refreshes do not. A failed first
 * sync is retried with backoff, each failure logged with its error. The venue here is scripted page by page on a
 * simulated clock, so every figure is exact.
 */
const T0 = 1_700_000_000_000

function event(id: string): CatalogEvent {
  return {
    venue: 'venuep',
    eventId: id,
    title: id,
    category: 'other',
    status: 'active',
    rawStatus: 'active',
    url: 'u',
    createdAt: undefined,
    updatedAt: undefined,
    endTime: undefined,
    volumeTotal: undefined,
    volume24h: undefined,
    liquidity: undefined,
    openInterest: undefined,
    subtitle: undefined,
    mutuallyExclusive: false,
    markets: [],
  }
}

/** A venue whose catalog sync the test drives: pages, then success or failure. */
class ScriptedVenue {
  progress: CatalogProgress | undefined
  #settle: { resolve: (c: Catalog) => void; reject: (e: Error) => void } | undefined
  syncs = 0
  readonly adapter: VenueAdapter = {
    id: 'venuep',
    fetchCatalog: (_signal, progress) => {
      this.syncs++
      this.progress = progress
      return new Promise<Catalog>((resolve, reject) => {
        this.#settle = { resolve, reject }
      })
    },
    createFeed: () => ({
      setInstruments() {},
      close() {},
      status: () => quietFeedStatus(0, 0),
    }),
    probability: venuepProbability,
    instrumentsOf: () => [],
  }
  page(list: string, events: number): void {
    this.progress?.page(list, events)
  }
  succeed(events: number): void {
    this.#settle?.resolve({
      venue: 'venuep',
      events: Array.from({ length: events }, (_, i) => event(`e${i}`)),
      fetchedAt: 0,
    })
  }
  fail(message: string): void {
    this.#settle?.reject(new Error(message))
  }
}

function capturedLog(venue = 'venuep'): {
  log: ReturnType<typeof createLogger>
  lines: () => Record<string, unknown>[]
} {
  const lines: Record<string, unknown>[] = []
  const log = createLogger('debug', 'predmkt', {
    write(line: string) {
      assert.deepEqual(lineProblems(line), [], line)
      const { time: _t, pid: _p, name: _n, ...rest } = JSON.parse(line) as Record<string, unknown>
      // A sync's process CPU is the machine's (catalog-load.ts), not the simulated clock's: checked, then left out.
      if ('processCpuMs' in rest) {
        const { processCpuMs, ...kept } = rest
        assert.ok(typeof processCpuMs === 'number' && processCpuMs >= 0, line)
        lines.push(kept)
      } else lines.push(rest)
    },
  })
  return { log: log.child({ venue }), lines: () => lines }
}

function setup() {
  const venue = new ScriptedVenue()
  const clock = new SimulatedClock(T0)
  const { log, lines } = capturedLog()
  const actor = new VenueActor({ adapter: venue.adapter, clock, log, catalogRefreshMs: 60_000 })
  const catalogLines = () => catalogLinesOf(lines())
  return { venue, clock, actor, catalogLines, readyz: () => readyzOf(actor, clock) }
}

function catalogLinesOf(lines: Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('catalog'))
}

/** The actor's part of /readyz, through the route's handler, checked against the published schema. */
function readyzOf(actor: VenueActor, clock: SimulatedClock): { catalog: Record<string, unknown>; credentials: string } {
  const route = healthRoutes({
    venues: [actor],
    views: { serving: true },
    spreads: { ready: true, pairCount: 0 },
    source: { simulated: false, description: 'live venues' },
    startedAt: T0,
    now: () => clock.now(),
  }).find((r) => r.path === '/readyz')!
  const reply = route.handler({} as never, {} as never) as Reply
  assertReplyMatchesSchema(route, reply)
  const body = JSON.parse(typeof reply.body === 'string' ? reply.body : Buffer.from(reply.body).toString('utf8')) as {
    venues: Record<string, { catalog: Record<string, unknown>; credentials: string }>
  }
  return body.venues[actor.venue]!
}

test('the first sync: progress in the status and /readyz, a log line every 5 s of paging, then the install with its totals', async () => {
  const { venue, clock, actor, catalogLines, readyz } = setup()
  assert.equal(PROGRESS_LOG_MS, 5_000)
  actor.start()
  try {
    assert.deepEqual(actor.venueStatus().catalog.loading, {
      startedAt: T0,
      elapsedMs: 0,
      phase: 'listing',
      list: undefined,
      pages: 0,
      events: 0,
      eventsPerSec: undefined,
      expectedEvents: undefined,
      estimatedRemainingMs: undefined,
    })
    venue.page('open', 100)
    clock.increment(1_000)
    venue.page('open', 100)
    assert.deepEqual(readyz().catalog, {
      loaded: false,
      version: 0,
      events: 0,
      markets: 0,
      outcomes: 0,
      synced_at: null,
      from_file: false,
      last_error: null,
      truncated: false,
      max_events: null,
      failures: 0,
      loading: {
        started_at: new Date(T0).toISOString(),
        elapsed_ms: 1_000,
        phase: 'listing',
        list: 'open',
        pages: 2,
        events: 200,
        events_per_sec: 200,
        expected_events: null,
        estimated_remaining_ms: null,
        estimate_basis: 'none',
      },
    })
    assert.equal(readyz().credentials, 'not_required')
    clock.increment(3_999)
    venue.page('open', 100)
    assert.deepEqual(
      catalogLines(),
      [{ level: 30, venue: 'venuep', attempt: 1, msg: 'catalog sync started' }],
      'no progress line before 5 s',
    )
    clock.increment(1)
    venue.page('open', 40)
    clock.increment(1_000)
    venue.page('closed', 60)
    clock.increment(4_000)
    venue.page('closed', 0)
    clock.increment(500)
    venue.succeed(3)
    await waitFor(() => actor.catalog() !== undefined)
    assert.deepEqual(catalogLines(), [
      { level: 30, venue: 'venuep', attempt: 1, msg: 'catalog sync started' },
      {
        level: 30,
        venue: 'venuep',
        list: 'open',
        pages: 4,
        listed: 340,
        elapsedMs: 5_000,
        eventsPerSec: 68,
        expectedEvents: null,
        estimatedRemainingMs: null,
        msg: 'catalog loading',
      },
      {
        level: 30,
        venue: 'venuep',
        list: 'closed',
        pages: 6,
        listed: 400,
        elapsedMs: 10_000,
        eventsPerSec: 40,
        expectedEvents: null,
        estimatedRemainingMs: null,
        msg: 'catalog loading',
      },
      {
        level: 30,
        venue: 'venuep',
        pages: 6,
        listed: 400,
        elapsedMs: 10_500,
        msg: 'catalog listed; building the snapshot',
      },
      {
        level: 30,
        venue: 'venuep',
        version: 1,
        events: 3,
        instruments: 0,
        pages: 6,
        listed: 400,
        elapsedMs: 10_500,
        msg: 'catalog installed',
      },
    ])
    assert.equal(readyz().catalog.loading, null)
    assert.equal(readyz().catalog.events, 3)
  } finally {
    actor.stop()
  }
})

test('a refresh: the estimate is based on the last completed sync; no progress lines (the catalog is already served)', async () => {
  const { venue, clock, actor, catalogLines, readyz } = setup()
  actor.start()
  try {
    venue.page('open', 300)
    venue.page('open', 100)
    venue.succeed(4)
    await waitFor(() => actor.catalog() !== undefined)
    const linesBefore = catalogLines().length
    clock.increment(60_000)
    assert.equal(venue.syncs, 2, 'the refresh started')
    venue.page('open', 100)
    clock.increment(1_000)
    assert.deepEqual(readyz().catalog.loading, {
      started_at: new Date(T0 + 60_000).toISOString(),
      elapsed_ms: 1_000,
      phase: 'listing',
      list: 'open',
      pages: 1,
      events: 100,
      events_per_sec: 100,
      expected_events: 400,
      estimated_remaining_ms: 3_000,
      estimate_basis: 'previous_sync',
    })
    clock.increment(9_000)
    venue.page('open', 400)
    assert.equal(
      readyz().catalog.loading && (readyz().catalog.loading as Record<string, unknown>).estimated_remaining_ms,
      0,
      'past the expected size: nothing left to estimate',
    )
    venue.succeed(5)
    await waitFor(() => actor.catalog()?.version === 2)
    assert.deepEqual(catalogLines().slice(linesBefore), [
      {
        level: 30,
        venue: 'venuep',
        version: 2,
        events: 5,
        instruments: 0,
        pages: 2,
        listed: 500,
        elapsedMs: 10_000,
        msg: 'catalog installed',
      },
    ])
    assert.equal(readyz().catalog.loading, null)
  } finally {
    actor.stop()
  }
})

test('a failing first sync: the error in last_error and the log, retried after 2 s, 4 s …; a failing refresh keeps the catalog', async () => {
  const { venue, clock, actor, catalogLines, readyz } = setup()
  const error = 'GET https://gamma.example/events: DNS lookup failed (ENOTFOUND gamma.example)'
  actor.start()
  try {
    venue.page('open', 100)
    venue.fail(error)
    await waitFor(() => actor.venueStatus().catalog.failures === 1)
    assert.deepEqual(readyz().catalog, {
      loaded: false,
      version: 0,
      events: 0,
      markets: 0,
      outcomes: 0,
      synced_at: null,
      from_file: false,
      last_error: error,
      truncated: false,
      max_events: null,
      loading: null,
      failures: 1,
    })
    clock.increment(1_999)
    assert.equal(venue.syncs, 1)
    clock.increment(1)
    assert.equal(venue.syncs, 2, 'retried after 2 s')
    venue.fail(error)
    await waitFor(() => actor.venueStatus().catalog.failures === 2)
    clock.increment(3_999)
    assert.equal(venue.syncs, 2)
    clock.increment(1)
    assert.equal(venue.syncs, 3, 'then after 4 s')
    venue.succeed(2)
    await waitFor(() => actor.catalog() !== undefined)
    assert.deepEqual([readyz().catalog.last_error, readyz().catalog.failures], [null, 0])
    clock.increment(60_000 - 1)
    assert.equal(venue.syncs, 3)
    clock.increment(1)
    assert.equal(venue.syncs, 4, 'the refresh, 60 s after the sync ended')
    venue.fail(error)
    await waitFor(() => actor.venueStatus().catalog.failures === 1)
    await settle()
    assert.equal(actor.catalog()?.version, 1, 'still serving the installed catalog')
    assert.deepEqual(
      catalogLines().filter((l) => l.level === 40),
      [
        { level: 40, venue: 'venuep', error, failures: 1, retryInMs: 2_000, msg: 'catalog sync failed' },
        { level: 40, venue: 'venuep', error, failures: 2, retryInMs: 4_000, msg: 'catalog sync failed' },
        {
          level: 40,
          venue: 'venuep',
          error,
          failures: 1,
          servedVersion: 1,
          msg: 'catalog sync failed; still serving the installed catalog',
        },
      ],
    )
    assert.deepEqual(
      catalogLines()
        .filter((l) => l.msg === 'catalog sync started')
        .map((l) => l.attempt),
      [1, 2, 3],
      'the start of each first-sync attempt is logged; refreshes are not',
    )
  } finally {
    actor.stop()
  }
})

test('against the simulator, its pages slowed down: the real venuek adapter reports each page, /readyz and the log follow', async () => {
  const clock = new SimulatedClock(TEST_ANCHOR_MS)
  const base = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({
    config: { ...base.sim, questions: 120, wallets: 5, venuekAuth: false },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  const { log, lines } = capturedLog('venuek')
  const c = base.venues.venuek
  const adapter = createVenuekAdapter(
    // The open list alone (no closed lookback): the lists are paged side by side, and this test follows one.
    {
      ...c,
      restUrl: sim.venuek.urls.rest,
      wsUrl: sim.venuek.urls.ws,
      catalog: { ...c.catalog, pageSize: 5, closedLookbackDays: 0 },
    },
    { clock, log },
    simulatorCredentials(undefined),
  )
  const actor = new VenueActor({ adapter, clock, log, catalogRefreshMs: 600_000 })
  // Every response of the simulated venuek takes 40 ms (the `latencyMs` fault knob): pages arrive one by one.
  sim.venuek.faults.latencyMs = 40
  actor.start()
  try {
    // The actor's clock moves 2.5 s per page seen, so a progress line falls due every second page.
    for (let n = 1; n <= 4; n++) {
      await waitFor(() => (actor.venueStatus().catalog.loading?.pages ?? 0) >= n, 5_000, `page ${n}`)
      clock.increment(2_500)
    }
    const loading = readyzOf(actor, clock).catalog.loading as Record<string, unknown> & { pages: number }
    assert.ok(loading.pages >= 4)
    assert.deepEqual(
      loading,
      {
        started_at: new Date(TEST_ANCHOR_MS).toISOString(),
        elapsed_ms: 10_000,
        phase: 'listing',
        list: 'open',
        pages: loading.pages,
        events: 5 * loading.pages,
        events_per_sec: loading.pages / 2,
        expected_events: null,
        estimated_remaining_ms: null,
        estimate_basis: 'none',
      },
      'full pages of the open list so far; no estimate on a first sync',
    )
    const [progress] = catalogLinesOf(lines()).filter((l) => l.msg === 'catalog loading') as (Record<
      string,
      unknown
    > & { pages: number })[]
    assert.ok(progress !== undefined && progress.pages >= 3, 'a progress line once 5 s had passed')
    assert.deepEqual(progress, {
      level: 30,
      venue: 'venuek',
      list: 'open',
      pages: progress.pages,
      listed: 5 * progress.pages,
      elapsedMs: 5_000,
      eventsPerSec: progress.pages,
      expectedEvents: null,
      estimatedRemainingMs: null,
      msg: 'catalog loading',
    })
    sim.venuek.faults.latencyMs = 0
    await waitFor(() => actor.catalog() !== undefined, 10_000, 'catalog installed')
    const installed = catalogLinesOf(lines()).find((l) => l.msg === 'catalog installed') as Record<string, number>
    assert.ok(
      installed.pages! > loading.pages &&
        installed.listed! >= installed.events! &&
        installed.events === actor.catalog()?.events.length,
      JSON.stringify(installed),
    )
    assert.equal(readyzOf(actor, clock).catalog.loading, null)
  } finally {
    actor.stop()
    await sim.close()
  }
})
