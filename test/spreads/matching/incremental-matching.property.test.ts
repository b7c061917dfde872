import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../../src/actors/catalog-snapshot.js'
import { runToEnd } from '../../../src/core/slices.js'
import type { CatalogEvent } from '../../../src/model/types.js'
import type { Simulator } from '../../../src/sim/simulator.js'
import { LinkState } from '../../../src/spreads/matching/link-state.js'
import { eventLinks, matchEvents, MatchState } from '../../../src/spreads/matching/matcher.js'
import type { EventLink } from '../../../src/views/event-directory.js'
import { replayedCatalogs, simulatorCatalogs } from '../../helpers/catalogs.js'
import { SHORT_DATED_DIR } from '../../helpers/fixtures.js'

/**
 * The matcher keeps its state between catalog versions and judges only what changed (MatchState). Whatever the
 * changes, an update must give exactly what a full run from nothing gives on the same catalogs: the same event
 * matches, outcome pairs, grades and evidence, in the same order. Checked over random sequences of the changes a
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
  else if (c.kind === 'touch') events[i] = { ...e, volumeTotal: (e.volumeTotal ?? 0) + 1 }
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

function checkSequences(
  catalogs: () => { venuep: CatalogSnapshot; venuek: CatalogSnapshot },
  runs: number,
  patched = false,
): void {
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
          assert.deepStrictEqual(update.matches, full)
          const redrawn = links.update(update.matches, update.changedMatches)
          assert.deepStrictEqual(redrawn.links, eventLinks(full))
          if (redrawn.delta !== undefined) assert.deepStrictEqual(linkDiff(drawn, redrawn.links), keysOf(redrawn.delta))
          drawn = redrawn.links
        }
      },
    ),
    { numRuns: runs, seed: 18 },
  )
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
    checkSequences(() => world, 12, true)
    checkSequences(() => real, 12, true)
    checkSequences(() => short, 12, true)
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
