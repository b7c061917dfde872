import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../../src/actors/catalog-snapshot.js'
import type { VenueActor } from '../../../src/actors/venue-actor.js'
import { silentLogger } from '../../../src/core/logger.js'
import type { CatalogEvent, VenueId } from '../../../src/model/types.js'
import type { Simulator } from '../../../src/sim/simulator.js'
import { CrossVenueMatching } from '../../../src/spreads/matching/cross-venue.js'
import { pairSpecs } from '../../../src/spreads/matching/pair-specs.js'
import { matchEvents } from '../../../src/spreads/matching/matcher.js'
import type { SpecsChange, SpreadEngine, SpreadPairSpec } from '../../../src/spreads/engine/spread-engine.js'
import type { EventLink } from '../../../src/views/event-directory.js'
import { simulatorCatalogs } from '../../helpers/catalogs.js'
import { engineWithoutQuotes } from '../../helpers/spread-engines.js'
import { waitFor } from '../../helpers/wait.js'

/**
 * A catalog refresh that keeps the same events (the usual case: prices and volumes moved) must judge nothing again,
 * yet must hand fresh outcome records to the engine; a refresh that lists or delists an event re-judges that event
 * only. Everything is computed in slices; the end state must equal the one-go computation.
 */
let world: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }

before(async () => {
  world = await simulatorCatalogs(300)
})
after(async () => {
  await world?.sim.close()
})

/** The same events as new objects with new volumes: what a refresh of an unchanged catalog looks like. */
function refreshed(c: CatalogSnapshot, version: number): CatalogSnapshot {
  const events = c.events.map((e) => ({
    ...e,
    volumeTotal: (e.volumeTotal ?? 0) + 1,
    markets: e.markets.map((m) => ({ ...m, outcomes: m.outcomes.map((o) => ({ ...o, volume: (o.volume ?? 0) + 1 })) })),
  }))
  return buildCatalogSnapshot({ venue: c.venue, events, fetchedAt: c.fetchedAt + 1 }, version)
}

/**
 * The two venues' matching over `catalogs` (read at each refresh, so a test swaps them), feeding `engine` (one
 * without quotes by default) and `onLinks`.
 */
function twoVenueMatching(
  catalogs: { venuep: CatalogSnapshot; venuek: CatalogSnapshot },
  engine: SpreadEngine = engineWithoutQuotes(),
  onLinks: (links: readonly EventLink[]) => void = () => {},
): { engine: SpreadEngine; matching: CrossVenueMatching } {
  const actor = (venue: 'venuep' | 'venuek') =>
    ({ venue, catalog: () => catalogs[venue], subscribeCatalog: () => () => {} }) as unknown as VenueActor
  const matching = new CrossVenueMatching({
    venues: [actor('venuep'), actor('venuek')],
    engine,
    onLinks,
    overrides: () => ({}),
    log: silentLogger,
  })
  return { engine, matching }
}

describe('cross-venue matching across refreshes', () => {
  test('unchanged events are not judged again; specs are re-resolved; a delisted event is the only change', async () => {
    const catalogs = { venuep: world.venuep, venuek: world.venuek }
    const links: (readonly EventLink[])[] = []
    const { engine, matching } = twoVenueMatching(catalogs, undefined, (l) => links.push(l))
    const expectSpecs = () => {
      const expected = pairSpecs(matchEvents(catalogs.venuep, catalogs.venuek), catalogs.venuep, catalogs.venuek)
      assert.ok(expected.length > 50)
      assert.equal(engine.pairCount, expected.length)
      for (const s of expected) assert.deepEqual(engine.spec(s.key), s)
    }

    await matching.refresh()
    assert.equal(matching.runs, 1)
    assert.equal(matching.lastUpdate?.mode, 'full')
    expectSpecs()

    catalogs.venuep = refreshed(catalogs.venuep, 2)
    catalogs.venuek = refreshed(catalogs.venuek, 2)
    await matching.refresh()
    assert.deepEqual(
      matching.lastUpdate,
      { mode: 'incremental', changedEvents: 0, judged: 0 },
      'same events on both venues: nothing judged',
    )
    expectSpecs()
    const anyKey = pairSpecs(matching.matches, catalogs.venuep, catalogs.venuek)[0]!.key
    assert.equal(
      engine.spec(anyKey)?.a.outcome,
      catalogs.venuep.outcomesById.get(engine.spec(anyKey)!.a.outcome.outcomeId),
      'specs hold the new outcome records',
    )
    assert.equal(links.length, 2, 'links are handed over after every refresh')
    assert.deepEqual(links[1], links[0])

    catalogs.venuek = buildCatalogSnapshot(
      { venue: 'venuek', events: catalogs.venuek.events.slice(1), fetchedAt: 3 },
      3,
    )
    await matching.refresh()
    assert.equal(matching.lastUpdate?.mode, 'incremental')
    assert.equal(matching.lastUpdate?.changedEvents, 1, 'an event left: the only change')
    expectSpecs()

    // One venuep event changed (a new object), every other the same object: the other matches' specs are given back
    // whole (SpecMemo), the changed one's made again, and the result is still the one-go computation's.
    const before = new Map(
      pairSpecs(matching.matches, catalogs.venuep, catalogs.venuek).map((x) => [x.key, engine.spec(x.key)]),
    )
    const changedAt = catalogs.venuep.events.findIndex((e) => matching.matches.some((m) => m.a.eventId === e.eventId))
    const changed = catalogs.venuep.events[changedAt]!
    const events = [...catalogs.venuep.events]
    // New volumes, the same texts (what a refresh of one traded event looks like): nothing to judge again.
    events[changedAt] = {
      ...changed,
      markets: changed.markets.map((m) => ({
        ...m,
        outcomes: m.outcomes.map((o) => ({ ...o, volume: (o.volume ?? 0) + 1 })),
      })),
    }
    catalogs.venuep = buildCatalogSnapshot({ venue: 'venuep', events, fetchedAt: 4 }, 4, catalogs.venuep)
    await matching.refresh()
    expectSpecs()
    for (const [key, spec] of before) {
      const now = engine.spec(key)
      if (spec?.a.outcome.eventId === changed.eventId) assert.notEqual(now, spec, `${key}: made again`)
      else if (now !== undefined) assert.equal(now, spec, `${key}: the same spec object`)
    }
    await waitFor(() => engine.pendingRecomputes === 0)
    engine.stop()
  })
})

test('a refresh that changed no matched event installs no pairs; one that changed a matched event does', async () => {
  const catalogs = { venuep: world.venuep, venuek: world.venuek }
  const { engine, matching } = twoVenueMatching(catalogs)
  await matching.refresh()
  await waitFor(() => engine.pendingRecomputes === 0)
  const keys = pairSpecs(matching.matches, catalogs.venuep, catalogs.venuek).map((s) => s.key)
  const specsNow = () => new Map(keys.map((k) => [k, engine.spec(k)]))
  const first = specsNow()
  const recomputed = engine.recomputed

  // A venuek event no match uses is delisted: the matcher updates, the spreads are the same objects, nothing installs.
  const matchedB = new Set(matching.matches.map((m) => m.b.eventId))
  const unmatched = catalogs.venuek.events.find((e) => !matchedB.has(e.eventId))!
  catalogs.venuek = buildCatalogSnapshot(
    { venue: 'venuek', events: catalogs.venuek.events.filter((e) => e !== unmatched), fetchedAt: 2 },
    2,
  )
  await matching.refresh()
  assert.equal(matching.lastUpdate?.changedEvents, 1)
  await waitFor(() => engine.pendingRecomputes === 0)
  assert.equal(engine.recomputed, recomputed, 'no pair recomputed: nothing was installed')
  for (const [k, spec] of specsNow()) assert.equal(spec, first.get(k), `${k}: the same spec`)

  // A matched venuep event comes back as new objects (its volumes moved): its spreads are new and installed.
  const matchedA = catalogs.venuep.events.find((e) => matching.matches.some((m) => m.a.eventId === e.eventId))!
  const moved = {
    ...matchedA,
    markets: matchedA.markets.map((m) => ({
      ...m,
      outcomes: m.outcomes.map((o) => ({ ...o, volume: (o.volume ?? 0) + 1 })),
    })),
  }
  catalogs.venuep = buildCatalogSnapshot(
    { venue: 'venuep', events: catalogs.venuep.events.map((e) => (e === matchedA ? moved : e)), fetchedAt: 3 },
    3,
  )
  await matching.refresh()
  await waitFor(() => engine.pendingRecomputes === 0)
  assert.ok(engine.recomputed > recomputed, 'the new plan was installed and recomputed')
  for (const [k, spec] of specsNow()) {
    if (spec?.a.outcome.eventId === matchedA.eventId)
      assert.notEqual(spec, first.get(k), `${k}: a new spec for the moved event`)
    else assert.equal(spec, first.get(k), `${k}: unchanged`)
  }
  engine.stop()
})

test('installed as the actors install (snapshots patched): an unmatched event changed keeps the specs made, a matched one remakes its own and tells the engine so', async () => {
  const catalogs = { venuep: world.venuep, venuek: world.venuek }
  const engine = engineWithoutQuotes()
  const asked: (readonly SpreadPairSpec[])[] = []
  const told: (SpecsChange | undefined)[] = []
  const install = engine.setPairsInSlices.bind(engine)
  engine.setPairsInSlices = (specs, change) => (asked.push(specs), told.push(change), install(specs, change))
  const { matching } = twoVenueMatching(catalogs, engine)
  await matching.refresh()
  const patched = (c: CatalogSnapshot, events: CatalogEvent[]) =>
    buildCatalogSnapshot({ venue: c.venue, events, fetchedAt: c.fetchedAt + 1 }, c.version + 1, c)
  const touched = (e: CatalogEvent): CatalogEvent => ({ ...e, volumeTotal: (e.volumeTotal ?? 0) + 1 })
  // Made by changes, the new specs come after the kept ones: compared in key order.
  const byKey = (specs: readonly SpreadPairSpec[] | undefined) =>
    [...(specs ?? [])].sort((x, y) => (x.key < y.key ? -1 : 1))
  const expectSpecs = (specs: readonly SpreadPairSpec[] | undefined) => {
    const whole = pairSpecs(matchEvents(catalogs.venuep, catalogs.venuek), catalogs.venuep, catalogs.venuek)
    assert.deepEqual(byKey(specs), byKey(whole))
    for (const s of whole) assert.deepEqual(engine.spec(s.key), s, `${s.key} installed`)
    assert.equal(engine.pairCount, whole.length)
  }

  // An event no match uses changes: the specs are the array made before, whole.
  const matchedB = new Set(matching.matches.map((m) => m.b.eventId))
  const unmatched = catalogs.venuek.events.find((e) => !matchedB.has(e.eventId))!
  catalogs.venuek = patched(
    catalogs.venuek,
    catalogs.venuek.events.map((e) => (e === unmatched ? touched(e) : e)),
  )
  await matching.refresh()
  assert.equal(asked.length, 2)
  assert.equal(asked[1], asked[0], 'the same specs, not made again')
  expectSpecs(asked[1])

  // A matched event changes (its outcomes' volumes moved): its specs made again, with its new objects.
  const matchedA = catalogs.venuep.events.find((e) => matching.matches.some((m) => m.a.eventId === e.eventId))!
  const moved: CatalogEvent = {
    ...matchedA,
    markets: matchedA.markets.map((m) => ({
      ...m,
      outcomes: m.outcomes.map((o) => ({ ...o, volume: (o.volume ?? 0) + 1 })),
    })),
  }
  catalogs.venuep = patched(
    catalogs.venuep,
    catalogs.venuep.events.map((e) => (e === matchedA ? moved : e)),
  )
  await matching.refresh()
  assert.notEqual(asked[2], asked[1], 'made again')
  const own = (specs: readonly SpreadPairSpec[]) =>
    specs.map((s) => [s.a.outcome.eventId, s.key]).sort((x, y) => (x[1]! < y[1]! ? -1 : 1))
  const was = asked[1]!.filter((s) => s.a.outcome.eventId === matchedA.eventId)
  assert.ok(was.length > 0)
  assert.equal(told[2]?.from, asked[1], 'the change is from the specs installed')
  assert.deepEqual(own(told[2]!.removed), own(was), "the event's specs left")
  assert.deepEqual(own(told[2]!.added), own(was), 'and came back as new objects')
  await waitFor(() => engine.pendingRecomputes === 0)
  expectSpecs(asked[2])
  engine.stop()
})

/** `c` as another venue's catalog: the same events under the venue id `venue`. */
function asVenue(c: CatalogSnapshot, name: string): CatalogSnapshot {
  // A venue id is any registered name (the cast: until VenueId is a plain string).
  const venue = name as VenueId
  const events = c.events.map((e) => ({
    ...e,
    venue,
    markets: e.markets.map((m) => ({ ...m, venue, outcomes: m.outcomes.map((o) => ({ ...o, venue })) })),
  }))
  return buildCatalogSnapshot({ venue, events, fetchedAt: c.fetchedAt }, 1)
}

test('every two venues of the list are matched, A the earlier: three venues give three pairs, each a full run of its own', async () => {
  const third = asVenue(world.venuek, 'venuex')
  const catalogs: Record<string, CatalogSnapshot> = { venuep: world.venuep, venuek: world.venuek, venuex: third }
  const actor = (venue: string) =>
    ({ venue, catalog: () => catalogs[venue], subscribeCatalog: () => () => {} }) as unknown as VenueActor
  const engine = { setPairsInSlices: async () => {} } as unknown as SpreadEngine
  const links: (readonly EventLink[])[] = []
  const matching = new CrossVenueMatching({
    venues: ['venuep', 'venuek', 'venuex'].map(actor),
    engine,
    onLinks: (l) => links.push(l),
    overrides: () => ({}),
    log: silentLogger,
  })
  await matching.refresh()
  const expected = [
    matchEvents(world.venuep, world.venuek),
    matchEvents(world.venuep, third),
    matchEvents(world.venuek, third),
  ]
  assert.ok(expected.every((m) => m.length > 20))
  assert.deepStrictEqual(matching.matches, expected.flat())
  const venues = (m: { a: { venue: string }; b: { venue: string } }) => `${m.a.venue}~${m.b.venue}`
  assert.deepEqual([...new Set(matching.matches.map(venues))], ['venuep~venuek', 'venuep~venuex', 'venuek~venuex'])
  assert.deepEqual([...new Set(links[0]!.map(venues))], ['venuep~venuek', 'venuep~venuex', 'venuek~venuex'])
})
