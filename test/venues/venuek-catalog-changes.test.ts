import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { withChangedEvents } from '../../src/actors/catalog-changed-events.js'
import { buildCatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import type { Catalog, CatalogEvent } from '../../src/model/types.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { venuekOf } from '../../src/sim/venuek/state.js'
import type { VenueAdapter } from '../../src/venues/types.js'
import { createVenuekAdapter } from '../../src/venues/venuek/adapter.js'
import type { VenuekConfig } from '../../src/venues/venuek/config.js'
import { TEST_ANCHOR_MS } from '../helpers/service.js'

/**
 * venuek's refreshes between whole listings (catalog-changes.ts) against the simulator: the events listed as updated
 * since a time, applied to the installed catalog, give what a whole listing gives at that time (but for the rolling
 * 24-hour volumes), as the hours pass and markets close; with nothing updated they are the installed objects. What a whole listing alone catches up (an event
 * whose every market closed before the lookback window) is the documented difference.
 */
const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const clock = new SimulatedClock(TEST_ANCHOR_MS)
const signal = new AbortController().signal
let sim: Simulator
let config: VenuekConfig

before(async () => {
  const base = loadConfig({ env: { NODE_ENV: 'test' } })
  sim = await startSimulator({
    config: { ...base.sim, questions: 400, venuekAuth: false },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  config = {
    ...base.venues.venuek,
    restUrl: sim.venuek.urls.rest,
    wsUrl: sim.venuek.urls.ws,
    catalog: { ...base.venues.venuek.catalog, pageSize: 50 },
  }
})

after(async () => {
  await sim?.close()
})

const adapter = (): VenueAdapter => createVenuekAdapter(config, { clock, log: silentLogger })
/**
 * An event without its 24-hour volumes: a rolling window moves with the clock, not with the venue's update stamps,
 * and is caught up by the whole listing (the documented difference, catalog-changes.ts).
 */
function withoutRollingStats(e: CatalogEvent): unknown {
  return JSON.parse(JSON.stringify(e, (key, value: unknown) => (key === 'volume24h' ? undefined : value)))
}

const byId = (c: Catalog): Map<string, CatalogEvent> => new Map(c.events.map((e) => [e.eventId, e]))

test('changes since the last sync, applied hour by hour as markets close, give what a whole listing gives', async () => {
  const venue = adapter()
  let installed = buildCatalogSnapshot(await venue.fetchCatalog(signal), 1)
  const closing = venuekOf(sim.world)
    .markets.filter((m) => m.closeTime > clock.now())
    .map((m) => m.closeTime)
    .sort((a, b) => a - b)
  assert.ok(closing.length > 0, 'the world has markets closing after its anchor')
  // Steps that each pass the next market close, so every step has something to list.
  let applied = 0
  for (const closeAt of closing.slice(0, 4)) {
    const syncedFrom = clock.now()
    if (closeAt + 1_000 > clock.now()) clock.set(closeAt + 1_000)
    const changed = await venue.fetchChangedEvents!(syncedFrom - 60_000, signal)
    assert.ok(changed !== undefined, 'no series changed: the changes apply alone')
    const merged = withChangedEvents(installed, changed)
    if (merged !== undefined) {
      applied++
      const next = buildCatalogSnapshot(merged.catalog, installed.version + 1, installed, merged.changes)
      // The changes it knows are those the snapshot would find by its own pass.
      const found = buildCatalogSnapshot(merged.catalog, installed.version + 1, installed)
      const asSets = (c: typeof next.changes) => c && { removed: new Set(c.removed), added: new Set(c.added) }
      assert.equal(next.changes === undefined, found.changes === undefined, 'patched (or built whole) alike')
      assert.deepEqual(asSets(next.changes), asSets(found.changes))
      const lookups = (x: typeof next) => [new Map(x.eventsById), new Map(x.marketsById), new Map(x.outcomesById)]
      assert.deepEqual(lookups(next), lookups(found))
      installed = next
    }
    // An independent whole listing (no records kept: every event mapped afresh) at the same time.
    const whole = byId(await adapter().fetchCatalog(signal))
    const mine = byId({ ...installed, venue: 'venuek' })
    for (const [id, e] of whole) {
      const held = mine.get(id)
      assert.ok(held !== undefined, `event ${id} is held`)
      assert.deepEqual(withoutRollingStats(held), withoutRollingStats(e), `event ${id} as the whole listing maps it`)
    }
    for (const [id, e] of mine) {
      // Held only when it left the lookback window (its markets closed long ago), which the whole listing catches up.
      if (!whole.has(id)) assert.notEqual(e.status, 'active', `event ${id} is listed whole no more`)
    }
  }
  assert.ok(applied > 0, 'some step installed changes')
})

test('with nothing updated since, the changes are the installed objects: nothing to install', async () => {
  const venue = adapter()
  const installed = buildCatalogSnapshot(await venue.fetchCatalog(signal), 1)
  clock.increment(60_000)
  const changed = await venue.fetchChangedEvents!(clock.now() - 30_000, signal)
  assert.ok(changed !== undefined)
  for (const { eventId, event } of changed.events) assert.equal(event, installed.eventsById.get(eventId))
  assert.equal(withChangedEvents(installed, changed), undefined)
  // Asked from before the listing (as after a restart's overlap): events are listed again, still the same objects.
  const again = await venue.fetchChangedEvents!(TEST_ANCHOR_MS - DAY_MS, signal)
  assert.ok(again !== undefined && again.events.length > 0, 'events updated in the day before the anchor')
  assert.equal(withChangedEvents(installed, again), undefined)
})
