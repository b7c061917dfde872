import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { buildCatalogSnapshot, catalogSnapshotSteps } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import type { Config } from '../../src/config/schema.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { runInSlices } from '../../src/core/slices.js'
import type { Catalog, CatalogEvent } from '../../src/model/types.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { HttpClient } from '../../src/venues/http-client.js'
import { createVenuekAdapter } from '../../src/venues/venuek/adapter.js'
import { mapVenuekEvent } from '../../src/venues/venuek/map-catalog.js'
import type { KEvent, KSeries } from '../../src/venues/venuek/wire.js'
import { createVenuepAdapter } from '../../src/venues/venuep/adapter.js'
import { mapGammaEvent } from '../../src/venues/venuep/map-catalog.js'
import type { GammaEvent } from '../../src/venues/venuep/wire.js'
import { TEST_ANCHOR_MS } from '../helpers/service.js'

/**
 * Catalog sync maps each page as it arrives, in slices, and builds the snapshot in slices. The result must be
 * exactly what mapping every raw event at the end and building the snapshot in one go gives: the references here
 * fetch the same raw pages from the simulator and map them the old way. Small pages make many page boundaries.
 */
const DAY_MS = 86_400_000
let sim: Simulator
let config: Config
const clock = new SimulatedClock(TEST_ANCHOR_MS)
const ctx = { clock, log: silentLogger }
const signal = new AbortController().signal

before(async () => {
  const base = loadConfig({ env: { NODE_ENV: 'test' } })
  sim = await startSimulator({ config: { ...base.sim, questions: 400, venuekAuth: false }, clock, anchorMs: TEST_ANCHOR_MS, startEngine: false })
  config = {
    ...base,
    venues: {
      ...base.venues,
      venuep: { ...base.venues.venuep, gammaUrl: sim.venuep.urls.gamma, catalog: { ...base.venues.venuep.catalog, pageSize: 7 } },
      venuek: { ...base.venues.venuek, restUrl: sim.venuek.urls.rest, wsUrl: sim.venuek.urls.ws, catalog: { ...base.venues.venuek.catalog, pageSize: 9 } },
    },
  }
})

after(async () => {
  await sim?.close()
})

/** Every raw page of a Gamma listing, offset paging until a short page. */
async function gammaPages(query: Record<string, string>): Promise<GammaEvent[]> {
  const gamma = new HttpClient({ baseUrl: sim.venuep.urls.gamma, timeoutMs: 10_000 })
  const out: GammaEvent[] = []
  const size = config.venues.venuep.catalog.pageSize
  for (let offset = 0; ; offset += size) {
    const page = await gamma.getJson<GammaEvent[]>('/events', { limit: size, offset, order: 'id', ascending: true, ...query })
    out.push(...page)
    if (page.length < size) return out
  }
}

async function venuekPages(status: string, extra: Record<string, string | number>): Promise<KEvent[]> {
  const rest = new HttpClient({ baseUrl: sim.venuek.urls.rest, timeoutMs: 10_000 })
  const out: KEvent[] = []
  let cursor: string | undefined
  for (;;) {
    const body = await rest.getJson<{ events?: KEvent[] | null; cursor?: string | null }>('/events', { limit: config.venues.venuek.catalog.pageSize, status, with_nested_markets: true, cursor, ...extra })
    out.push(...(body.events ?? []))
    if (!body.cursor || (body.events ?? []).length === 0) return out
    cursor = body.cursor
  }
}

describe('catalog sync in slices', () => {
  test('venuep: per-page mapping gives the catalog that mapping every raw event at the end gives', async () => {
    const c = config.venues.venuep
    const links = { eventUrl: (slug: string) => c.eventUrlTemplate.replace('{slug}', encodeURIComponent(slug)) }
    const raw = [...(await gammaPages({ closed: 'false' })), ...(await gammaPages({ closed: 'true', end_date_min: new Date(clock.now() - c.catalog.closedLookbackDays * DAY_MS).toISOString() }))]
    const events = new Map<string, CatalogEvent>()
    for (const e of raw) {
      const mapped = mapGammaEvent(e, links)
      if (mapped !== undefined) events.set(mapped.eventId, mapped)
    }
    const got = await createVenuepAdapter(c, ctx).fetchCatalog(signal)
    assert.ok(raw.length > 5 * c.catalog.pageSize, `many pages (${raw.length} events)`)
    assert.deepEqual(got, { venue: 'venuep', events: [...events.values()], fetchedAt: clock.now() })
  })

  test('venuek: per-page mapping gives the catalog that mapping every raw event at the end gives', async () => {
    const c = config.venues.venuek
    const links = { eventUrl: (t: string) => c.eventUrlTemplate.replace('{event_ticker}', encodeURIComponent(t)) }
    const rest = new HttpClient({ baseUrl: sim.venuek.urls.rest, timeoutMs: 10_000 })
    const series = new Map<string, KSeries>()
    for (const s of (await rest.getJson<{ series?: KSeries[] | null }>('/series')).series ?? []) if (s.ticker !== undefined) series.set(s.ticker, s)
    const minCloseTs = Math.floor((clock.now() - c.catalog.closedLookbackDays * DAY_MS) / 1000)
    const raw = [...(await venuekPages('open', {})), ...(await venuekPages('closed', { min_close_ts: minCloseTs })), ...(await venuekPages('settled', { min_close_ts: minCloseTs }))]
    const events = new Map<string, CatalogEvent>()
    for (const e of raw) {
      if (e.event_ticker !== undefined && events.has(e.event_ticker)) continue
      const mapped = mapVenuekEvent(e, series, links)
      if (mapped !== undefined) events.set(mapped.eventId, mapped)
    }
    const got = await createVenuekAdapter(c, ctx).fetchCatalog(signal)
    assert.ok(raw.length > 5 * c.catalog.pageSize, `many pages (${raw.length} events)`)
    assert.deepEqual(got, { venue: 'venuek', events: [...events.values()], fetchedAt: clock.now() })
  })

  test('a snapshot built in slices (a turn at every checkpoint) equals one built in one go', async () => {
    for (const catalog of [await createVenuepAdapter(config.venues.venuep, ctx).fetchCatalog(signal), await createVenuekAdapter(config.venues.venuek, ctx).fetchCatalog(signal)] as Catalog[]) {
      assert.deepEqual(await runInSlices(catalogSnapshotSteps(catalog, 3), 0), buildCatalogSnapshot(catalog, 3))
    }
  })
})
