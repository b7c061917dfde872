import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../../src/actors/catalog-snapshot.js'
import { runToEnd } from '../../../src/core/slices.js'
import type { CatalogEvent } from '../../../src/model/types.js'
import type { Simulator } from '../../../src/sim/simulator.js'
import { LinkState } from '../../../src/spreads/matching/link-state.js'
import { eventLinks, matchEvents, MatchState, type EventMatch } from '../../../src/spreads/matching/matcher.js'
import { PairSpecState, pairSpecs } from '../../../src/spreads/matching/pair-specs.js'
import type { SpreadPairSpec } from '../../../src/spreads/engine/types.js'
import type { EventLink } from '../../../src/views/event-directory.js'
import { replayedCatalogs, simulatorCatalogs } from '../../helpers/catalogs.js'
import { SHORT_DATED_DIR } from '../../helpers/fixtures.js'

/**
 * The matcher keeps its state between catalog versions and judges only what changed (MatchState). Whatever the
 * changes, an update must give exactly what a full run from nothing gives on the same catalogs: the same event
 * matches, outcome pairs, grades and evidence, in the same order; the links and spread specs made from them by
 * changes must be those made whole. Checked over random sequences of the changes a
 * refresh brings (events listed, delisted, relisted, retitled, re-dated, refreshed with only numbers moved), on a
 * simulated world and on the real captured catalogs, long-dated and the short-dated week (head-to-heads and hourly
 * ladders, blocked by their own indexes).
 */
type Venue = 'venuep' | 'venuek'

type Change =
  | { readonly kind: 'delist' | 'touch' | 'redate'; readonly venue: Venue; readonly at: number }
  | { readonly kind: 'relist'; readonly venue: Venue; readonly at: number }
  | { readonly kind: 'retitle'; readonly venue: Venue; readonly at: number; readonly from: number }

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('delist' as const, 'touch' as const, 'redate' as const, 'relist' as const),
    venue: fc.constantFrom<Venue>('venuep', 'venuek'),
    at: fc.nat(),
  }),
  fc.record({
    kind: fc.constant('retitle' as const),
    venue: fc.constantFrom<Venue>('venuep', 'venuek'),
    at: fc.nat(),
    from: fc.nat(),
  }),
)

/** A refresh: the same events as new objects (what every catalog fetch gives), with `change` applied. */
function apply(events: CatalogEvent[], gone: CatalogEvent[], c: Change): void {
  if (c.kind === 'relist') {
    if (gone.length > 0) events.push(gone.splice(c.at % gone.length, 1)[0] as CatalogEvent)
    return
  }
  if (events.length === 0) return
  const i = c.at % events.length
  const e = events[i] as CatalogEvent
  if (c.kind === 'delist') gone.push(...events.splice(i, 1))
  else if (c.kind === 'touch')
    // Only numbers moved: the event's and its outcomes' volumes (new objects, as a refresh maps them).
    events[i] = {
      ...e,
      volumeTotal: (e.volumeTotal ?? 0) + 1,
      markets: e.markets.map((m) => ({
        ...m,
        outcomes: m.outcomes.map((o) => ({ ...o, volume: (o.volume ?? 0) + 1 })),
      })),
    }
  else if (c.kind === 'redate')
    events[i] = {
      ...e,
      markets: e.markets.map((m) => ({
        ...m,
        outcomes: m.outcomes.map((o) => ({ ...o, closeTime: (o.closeTime ?? e.endTime ?? 0) + 3 * 86_400_000 })),
      })),
    }
  else if (c.kind === 'retitle') events[i] = { ...e, title: (events[c.from % events.length] as CatalogEvent).title }
}

/**
 * `patched`: as the venue actors install a refresh, unchanged events keep their objects and each snapshot is patched
 * from the one before, saying what changed (`CatalogSnapshot.changes`), which the update then reads alone; else every
 * event is a new object and the snapshot is built whole, so the update reads every event. A venue with no change in a
 * refresh keeps its snapshot.
 */
const linkKey = (l: EventLink) => `${l.a.eventId}|${l.b.eventId}`
/** The links that left and came between two arrays, by their events. */
function linkDiff(before: readonly EventLink[], after: readonly EventLink[]): { removed: string[]; added: string[] } {
  const was = new Set(before.map(linkKey))
  const is = new Set(after.map(linkKey))
  return { removed: [...was].filter((k) => !is.has(k)).sort(), added: [...is].filter((k) => !was.has(k)).sort() }
}
const keysOf = (d: { removed: readonly EventLink[]; added: readonly EventLink[] }) => ({
  removed: d.removed.map(linkKey).sort(),
  added: d.added.map(linkKey).sort(),
})
/**
 * A match with its outcomes named by id: the matcher reads texts, so a refresh that moved only numbers keeps the
 * outcome objects it read (the spreads read each outcome anew from the catalog: pair-specs.ts).
 */
const byIds = (m: EventMatch) => ({
  ...m,
  outcomes: m.outcomes.map((o) => ({ ...o, a: o.a.outcomeId, b: o.b.outcomeId })),
})
/** Specs in key order: made by changes, new specs come after the ones kept (nothing reads them in an order). */
const byKey = (specs: readonly SpreadPairSpec[]) => [...specs].sort((x, y) => (x.key < y.key ? -1 : 1))

function checkSequences(
  catalogs: () => { venuep: CatalogSnapshot; venuek: CatalogSnapshot },
  runs: number,
  patched = false,
): { specsByChanges: number } {
  let specsByChanges = 0
  fc.assert(
    fc.property(
      fc.array(fc.array(change, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
      (refreshes) => {
        const start = catalogs()
        const events = { venuep: [...start.venuep.events], venuek: [...start.venuek.events] }
        const gone: Record<Venue, CatalogEvent[]> = { venuep: [], venuek: [] }
        const state = new MatchState()
        const first = runToEnd(state.updateSteps(start.venuep, start.venuek, {}))
        assert.equal(first.mode, 'full')
        // The links drawn by changes (link-state.ts) alongside, against a whole draw of the full run's matches.
        const links = new LinkState()
        let drawn = links.update(first.matches, first.changedMatches).links
        // The spread specs made by changes (pair-specs.ts) alongside, against the whole making from the full run's.
        const specState = new PairSpecState()
        let specs = runToEnd(
          specState.updateSteps(first.matches, first.changedMatches, start.venuep, start.venuek),
        ).specs
        let version = 1
        let held = { venuep: start.venuep, venuek: start.venuek }
        for (const changes of refreshes) {
          for (const c of changes) apply(events[c.venue], gone[c.venue], c)
          version++
          const next = (venue: Venue): CatalogSnapshot => {
            if (!patched) {
              const copies = events[venue].map((e) => ({ ...e }))
              return buildCatalogSnapshot({ venue, events: copies, fetchedAt: version }, version)
            }
            if (!changes.some((c) => c.venue === venue)) return held[venue]
            const catalog = { venue, events: [...events[venue]], fetchedAt: version }
            return buildCatalogSnapshot(catalog, version, held[venue])
          }
          held = { venuep: next('venuep'), venuek: next('venuek') }
          const update = runToEnd(state.updateSteps(held.venuep, held.venuek, {}))
          assert.equal(update.mode, 'incremental')
          const full = matchEvents(held.venuep, held.venuek)
          assert.deepStrictEqual(update.matches.map(byIds), full.map(byIds))
          const redrawn = links.update(update.matches, update.changedMatches)
          assert.deepStrictEqual(redrawn.links, eventLinks(full))
          if (redrawn.delta !== undefined) assert.deepStrictEqual(linkDiff(drawn, redrawn.links), keysOf(redrawn.delta))
          drawn = redrawn.links
          const made = runToEnd(specState.updateSteps(update.matches, update.changedMatches, held.venuep, held.venuek))
          assert.deepStrictEqual(byKey(made.specs), byKey(pairSpecs(full, held.venuep, held.venuek)))
          if (made.change !== undefined) {
            specsByChanges++
            assert.equal(made.change.from, specs, 'the change is from the specs made last')
            const gone = new Set(made.change.removed)
            const expected = [...specs.filter((x) => !gone.has(x)), ...made.change.added]
            assert.deepStrictEqual(new Set(made.specs), new Set(expected), 'the specs are the last ones changed so')
          }
          specs = made.specs
        }
      },
    ),
    { numRuns: runs, seed: 18 },
  )
  return { specsByChanges }
}

describe('incremental matching equals a full run', () => {
  let world: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
  let real: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
  let short: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }

  before(async () => {
    world = await simulatorCatalogs(300)
    const snapshots = async (dir?: string) => {
      const r = await replayedCatalogs(dir)
      return { sim: r.sim, venuep: buildCatalogSnapshot(r.venuep, 1), venuek: buildCatalogSnapshot(r.venuek, 1) }
    }
    real = await snapshots()
    short = await snapshots(SHORT_DATED_DIR)
  })
  after(async () => {
    await world?.sim.close()
    await real?.sim.close()
    await short?.sim.close()
  })

  test('over random refreshes of a simulated world', () => {
    const full = matchEvents(world.venuep, world.venuek)
    assert.ok(full.length > 50, `enough matches to disturb (${full.length})`)
    checkSequences(() => world, 12)
  })

  test('over random refreshes of the real captured catalogs', () => {
    const full = matchEvents(real.venuep, real.venuek)
    const pairs = full.reduce((n, m) => n + m.outcomes.length, 0)
    assert.ok(pairs >= 20, `the real pairs are there to disturb (${pairs})`)
    checkSequences(() => real, 12)
  })

  test('over random refreshes of the real short-dated week', () => {
    const full = matchEvents(short.venuep, short.venuek)
    const pairs = full.reduce((n, m) => n + m.outcomes.length, 0)
    assert.ok(pairs >= 200, `the short-dated pairs are there to disturb (${pairs})`)
    checkSequences(() => short, 12)
  })

  test('over random refreshes installed as the actors install them (unchanged events kept, snapshots patched)', () => {
    const byChanges = [world, real, short].map((c) => checkSequences(() => c, 12, true).specsByChanges)
    for (const n of byChanges) assert.ok(n > 12, `most refreshes' specs were made by changes (${byChanges.join(', ')})`)
  })

  test('a refresh that changes nothing judges nothing; one delisted event is one change', () => {
    const state = new MatchState()
    runToEnd(state.updateSteps(world.venuep, world.venuek, {}))
    const same = buildCatalogSnapshot(
      { venue: 'venuek', events: world.venuek.events.map((e) => ({ ...e })), fetchedAt: 2 },
      2,
    )
    const quiet = runToEnd(state.updateSteps(world.venuep, same, {}))
    assert.deepEqual(
      { mode: quiet.mode, changedEvents: quiet.changedEvents, judged: quiet.judged },
      { mode: 'incremental', changedEvents: 0, judged: 0 },
    )
    const fewer = buildCatalogSnapshot({ venue: 'venuek', events: world.venuek.events.slice(1), fetchedAt: 3 }, 3)
    const one = runToEnd(state.updateSteps(world.venuep, fewer, {}))
    assert.equal(one.changedEvents, 1)
    assert.deepStrictEqual(one.matches, matchEvents(world.venuep, fewer))
  })

  test('changed overrides rebuild from nothing', () => {
    const state = new MatchState()
    runToEnd(state.updateSteps(world.venuep, world.venuek, {}))
    const pair = matchEvents(world.venuep, world.venuek).find((m) => m.strategy !== 'manual_override')!
    const deny = [{ a: pair.a, b: pair.b }]
    const update = runToEnd(state.updateSteps(world.venuep, world.venuek, { deny }))
    assert.equal(update.mode, 'full')
    assert.deepStrictEqual(update.matches, matchEvents(world.venuep, world.venuek, { deny }))
    assert.ok(!update.matches.some((m) => m.a.eventId === pair.a.eventId && m.b.eventId === pair.b.eventId))
  })
})
