import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { withChangedEvents } from '../../src/actors/catalog-changed-events.js'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import type { Catalog, CatalogEvent } from '../../src/model/types.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { isEventClosed } from '../../src/sim/venuep/market-stats.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import type { VpEvent } from '../../src/sim/venuep/types.js'
import type { Question } from '../../src/sim/world/types.js'
import type { VenueAdapter } from '../../src/venues/types.js'
import { createVenuepAdapter } from '../../src/venues/venuep/adapter.js'
import { DueIndex } from '../../src/venues/venuep/due-index.js'
import type { VenuepConfig } from '../../src/venues/venuep/config.js'
import { VENUEP } from '../../src/venues/venuep/module.js'
import { TEST_ANCHOR_MS } from '../helpers/service.js'

/**
 * venuep's refreshes between whole listings (catalog-changes.ts) against the simulator: new events (the open list by
 * id descending) and installed events whose markets end about now (read again by slug), applied to the installed
 * catalog, give what a whole listing gives at that time; with nothing new or due they are the installed objects.
 */
const MINUTE_MS = 60_000
const clock = new SimulatedClock(TEST_ANCHOR_MS)
const signal = new AbortController().signal
let sim: Simulator
let config: VenuepConfig

before(async () => {
  const base = loadConfig({ env: { NODE_ENV: 'test' } })
  sim = await startSimulator({
    config: { ...base.sim, questions: 400, venuekAuth: false },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  // The venue's own rule for pointing at the simulator (module.ts), with small pages.
  const atSim = VENUEP.config.atSimulator!(base.venues.venuep, sim)
  config = { ...atSim, catalog: { ...atSim.catalog, pageSize: 50 } }
})

after(async () => {
  await sim?.close()
})

const adapter = (): VenueAdapter => createVenuepAdapter(config, { clock, log: silentLogger })
const byId = (c: Catalog | CatalogSnapshot): Map<string, CatalogEvent> => new Map(c.events.map((e) => [e.eventId, e]))
/** An event as plain data, without its rolling 24-hour volumes (they move with the clock, not with the venue). */
const plain = (e: CatalogEvent | undefined): unknown =>
  JSON.parse(JSON.stringify(e, (key, value: unknown) => (key === 'volume24h' ? undefined : value)) ?? 'null')

/** The installed catalog with `changed` applied, checked against a whole listing of the venue now. */
async function applyAndCompare(venue: VenueAdapter, installed: CatalogSnapshot): Promise<CatalogSnapshot> {
  const changed = await venue.fetchChangedEvents!(clock.now() - MINUTE_MS, signal, undefined, installed)
  assert.ok(changed !== undefined, 'the changes apply alone')
  const merged = withChangedEvents(installed, changed)
  const next = merged === undefined ? installed : buildCatalogSnapshot(merged.catalog, installed.version + 1)
  const whole = byId(await adapter().fetchCatalog(signal))
  const mine = byId(next)
  assert.deepEqual([...mine.keys()].sort(), [...whole.keys()].sort(), 'the events a whole listing holds')
  for (const [id, e] of whole)
    assert.deepEqual(plain(mine.get(id)), plain(e), `event ${id} as the whole listing maps it`)
  return next
}

test('new events: listed by id descending until a known one, added as a whole listing maps them', async () => {
  const listing = venuepOf(sim.world).events
  // The three newest open events are not listed yet when the catalog is installed.
  const newest = listing
    .filter((e) => !isEventClosed(e))
    .sort((a, b) => Number(b.id) - Number(a.id))
    .slice(0, 3)
  const withheld: VpEvent[] = []
  for (const e of newest) withheld.push(...listing.splice(listing.indexOf(e), 1))
  const venue = adapter()
  const installed = buildCatalogSnapshot(await venue.fetchCatalog(signal), 1)
  for (const e of newest) assert.equal(installed.eventsById.has(e.slug), false)
  listing.push(...withheld)
  const next = await applyAndCompare(venue, installed)
  for (const e of newest) assert.ok(next.eventsById.has(e.slug), `${e.slug} added`)
  // The events that did not change are the installed objects.
  for (const e of installed.events) assert.equal(next.eventsById.get(e.eventId), e)
  // Asked again with nothing new: nothing to install.
  const again = await venue.fetchChangedEvents!(clock.now(), signal, undefined, next)
  assert.ok(again !== undefined)
  assert.equal(withChangedEvents(next, again), undefined)
})

test('due events: a market that ends and closes is closed at the next refresh, as a whole listing has it', async () => {
  const world = venuepOf(sim.world)
  // An event of one question (its markets close with it), open, ending after the anchor: the soonest to end.
  const single = world.events
    .filter((e) => e.question !== undefined && world.markets.every((m) => m.event !== e || m.canonical === e.question))
    .filter((e) => e.question?.lifecycle === 'active' && (e.question?.endTime ?? 0) > clock.now())
    .sort((a, b) => (a.question?.endTime ?? 0) - (b.question?.endTime ?? 0))
  const ending = single[0]
  assert.ok(ending?.question !== undefined, 'an open event ends after the anchor')
  const venue = adapter()
  let installed = buildCatalogSnapshot(await venue.fetchCatalog(signal), 1)
  assert.equal(installed.eventsById.get(ending.slug)?.status, 'active')

  // Its end passes: due, read again, still open at the venue (not resolved yet).
  clock.set(ending.question.endTime + MINUTE_MS)
  assert.ok(new DueIndex().due(installed, clock.now() - 10 * MINUTE_MS, clock.now()).includes(ending.slug))
  const open = await venue.fetchChangedEvents!(clock.now() - MINUTE_MS, signal, undefined, installed)
  assert.equal(open?.events.find((c) => c.eventId === ending.slug)?.event?.status, 'active')

  // The venue closes it: the next refresh installs it closed.
  ;(ending.question as { lifecycle: Question['lifecycle'] }).lifecycle = 'closed'
  clock.increment(MINUTE_MS)
  installed = await applyAndCompare(venue, installed)
  assert.notEqual(installed.eventsById.get(ending.slug)?.status, 'active')

  // Past the window (a whole listing's period), it is no longer due.
  clock.increment(config.catalog.fullListingEveryMs)
  assert.ok(
    !new DueIndex().due(installed, clock.now() - config.catalog.fullListingEveryMs, clock.now()).includes(ending.slug),
  )
})

test('without the installed catalog the changes cannot be found: undefined, the venue is listed whole', async () => {
  assert.equal(await adapter().fetchChangedEvents!(clock.now(), signal), undefined)
})

test('due events: the index, patched along installs, gives what a pass over every open outcome gives', () => {
  // Mostly open, and ends close together: most changes move what is due.
  const status = fc.constantFrom<CatalogEvent['status']>('active', 'active', 'active', 'closed', 'resolved')
  const outcome = fc.record({ status, closeTime: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }) })
  const event = fc.record({ status, outcomes: fc.array(outcome, { maxLength: 4 }) })
  // Each install: some events replaced by new drawings (a changed event is a new object), some dropped, some new.
  const install = fc.record({
    replaced: fc.array(fc.tuple(fc.nat(), event), { maxLength: 2 }),
    dropped: fc.array(fc.nat(), { maxLength: 1 }),
    added: fc.array(event, { maxLength: 2 }),
    window: fc.tuple(fc.nat(20), fc.nat(10)),
  })
  let n = 0
  // Ids listed once (market and outcome ids of their event's), so an install is patched as the actor's are.
  const made = (e: { status: CatalogEvent['status']; outcomes: object[] }, eventId = `e${n++}`) =>
    ({
      eventId,
      status: e.status,
      markets: [
        { marketId: `m-${eventId}`, outcomes: e.outcomes.map((o, i) => ({ ...o, outcomeId: `o-${eventId}-${i}` })) },
      ],
    }) as unknown as CatalogEvent
  const pass = (events: readonly CatalogEvent[], from: number, to: number) =>
    events
      .filter(
        (e) =>
          e.status === 'active' &&
          e.markets.some((m) =>
            m.outcomes.some(
              (o) => o.status === 'active' && o.closeTime !== undefined && o.closeTime >= from && o.closeTime <= to,
            ),
          ),
      )
      .map((e) => e.eventId)
      .sort()
  let patched = 0
  fc.assert(
    fc.property(
      fc.array(event, { minLength: 40, maxLength: 50 }),
      fc.array(install, { maxLength: 6 }),
      (first, installs) => {
        const index = new DueIndex()
        let snapshot = buildCatalogSnapshot({ venue: 'venuep', events: first.map((e) => made(e)), fetchedAt: 0 }, 1)
        for (const [k, step] of installs.entries()) {
          const events = [...snapshot.events]
          for (const [at, drawn] of step.replaced)
            if (events.length > 0) {
              const i = at % events.length
              events[i] = made(drawn, (events[i] as CatalogEvent).eventId)
            }
          for (const at of step.dropped) if (events.length > 0) events.splice(at % events.length, 1)
          for (const drawn of step.added) events.push(made(drawn))
          // Patched from the one before (what it says came and went), as the actor installs; now and then built whole.
          const previous = k % 3 === 2 ? undefined : snapshot
          snapshot = buildCatalogSnapshot({ venue: 'venuep', events, fetchedAt: k + 1 }, k + 2, previous)
          if (previous !== undefined) patched += snapshot.changes === undefined ? 0 : 1
          const [from, width] = step.window
          assert.deepEqual(index.due(snapshot, from, from + width).sort(), pass(events, from, from + width))
        }
      },
    ),
    { seed: 35 },
  )
  assert.ok(patched > 50, `installs patched: ${patched}`)
})
