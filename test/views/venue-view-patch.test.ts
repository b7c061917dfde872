import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import type { VenueActor } from '../../src/actors/venue-actor.js'
import { DeltaMap } from '../../src/core/delta-map.js'
import { runToEnd } from '../../src/core/slices.js'
import type { CatalogEvent, Quote, VenueId } from '../../src/model/types.js'
import type { Simulator } from '../../src/sim/simulator.js'
import { Rng } from '../../src/sim/world/random.js'
import { EventDirectory, type EventLink } from '../../src/views/event-directory.js'
import { VenueView, type ViewedVenue } from '../../src/views/venue-view.js'
import { VENUEK } from '../../src/venues/venuek/module.js'
import { VENUEP } from '../../src/venues/venuep/module.js'
import { simulatorCatalogs } from '../helpers/catalogs.js'
import { refreshed } from '../helpers/refreshes.js'

/**
 * A venue view of a refreshed catalog is patched from the view it replaces when few events changed (VenueView.build:
 * the changed events' entries replaced in the lookups, lists and orderings merged, search index patched). Along random
 * chains of refreshes of both simulated venues' catalogs (events changed in title, volume or status, delisted, listed
 * again, listed anew; links that give unchanged events another slug), every patched view serves exactly what a view
 * built whole from the same catalog and directory serves: every lookup, every list page in every order and status,
 * every search, every record's JSON, and which records a quote marks.
 */
let world: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
before(async () => {
  world = await simulatorCatalogs(400, 7)
})
after(async () => {
  await world?.sim.close()
})

const actorOf = (venue: VenueId) => ({ venue, quote: () => undefined, stats: () => undefined }) as unknown as VenueActor

function assertServesAsWhole(patched: VenueView, whole: VenueView, what: string): void {
  const ids = (m: ReadonlyMap<string, { readonly id: string }>) => [...m].map(([k, v]) => `${k}→${v.id}`).sort()
  assert.deepEqual(ids(patched.marketById), ids(whole.marketById), `${what}: marketById`)
  assert.deepEqual(ids(patched.marketBySlug), ids(whole.marketBySlug), `${what}: marketBySlug`)
  assert.deepEqual(ids(patched.outcomeById), ids(whole.outcomeById), `${what}: outcomeById`)
  assert.deepEqual(ids(patched.eventById), ids(whole.eventById), `${what}: eventById`)
  assert.deepEqual(ids(patched.marketByOutcomeKey), ids(whole.marketByOutcomeKey), `${what}: marketByOutcomeKey`)
  for (const [id, e] of whole.marketById) {
    assert.equal(patched.marketById.get(id)?.market, e.market, `${what}: ${id} is the catalog's market`)
    assert.equal(patched.marketById.get(id)?.eventSlug, e.eventSlug, `${what}: ${id}'s slug`)
  }
  for (const [name, list] of [
    ['markets', (v: VenueView) => v.markets],
    ['events', (v: VenueView) => v.events],
    ['outcomes', (v: VenueView) => v.outcomes],
  ] as const) {
    for (const sort of name === 'outcomes'
      ? ['volume']
      : ['volume', 'volume_24h', 'liquidity', 'updated_at', 'end_time', 'created_at'])
      for (const order of ['asc', 'desc'] as const)
        for (const status of ['all', 'active', 'closed']) {
          const q = { status, sort, order, offset: 0, limit: 100_000 }
          const got = list(patched).query(q)
          const want = list(whole).query(q)
          assert.equal(got.total, want.total, `${what}: ${name} ${status} by ${sort} ${order}`)
          assert.deepEqual(
            got.items.map((e) => e.id),
            want.items.map((e) => e.id),
            `${what}: ${name} ${status} by ${sort} ${order}`,
          )
        }
    for (const search of ['will', 'v1', 'anew', 'the', 'zz'])
      assert.deepEqual(
        list(patched)
          .query({ status: 'all', search, sort: 'volume', order: 'desc', offset: 0, limit: 100_000 })
          .items.map((e) => e.id),
        list(whole)
          .query({ status: 'all', search, sort: 'volume', order: 'desc', offset: 0, limit: 100_000 })
          .items.map((e) => e.id),
        `${what}: ${name} search ${search}`,
      )
  }
  for (const e of whole.marketById.values())
    assert.equal(patched.marketJson(patched.marketById.get(e.id)!), whole.marketJson(e), `${what}: ${e.id} JSON`)
  // A quote marks the same records in both.
  for (const e of [...whole.marketById.values()].slice(0, 50)) {
    const quote = { instrumentId: e.market.outcomes[0]!.instrumentId } as Quote
    const versions = (v: VenueView) => [...v.marketById.values()].map((m) => `${m.id}:${m.version}`)
    const p0 = new Map([...patched.marketById.values()].map((m) => [m.id, m.version]))
    const w0 = new Map([...whole.marketById.values()].map((m) => [m.id, m.version]))
    patched.onQuotes([quote])
    whole.onQuotes([quote])
    const bumped = (v: VenueView, v0: Map<string, number>) =>
      versions(v)
        .filter((s) => Number(s.slice(s.lastIndexOf(':') + 1)) !== v0.get(s.slice(0, s.lastIndexOf(':'))))
        .map((s) => s.slice(0, s.lastIndexOf(':')))
        .sort()
    assert.deepEqual(bumped(patched, p0), bumped(whole, w0), `${what}: quote on ${quote.instrumentId}`)
  }
}

for (const venue of ['venuep', 'venuek'] as const) {
  test(`${venue}: a view patched along a chain of refreshes serves what a view built whole serves`, () => {
    const rng = new Rng(venue === 'venuep' ? 11 : 12)
    const viewed: ViewedVenue = { actor: actorOf(venue), rules: venue === 'venuep' ? VENUEP.view : VENUEK.view }
    const other = venue === 'venuep' ? world.venuek : world.venuep
    const directory = (catalog: CatalogSnapshot, links: readonly EventLink[], version: number) => {
      const [p, k] = venue === 'venuep' ? [catalog, other] : [other, catalog]
      return EventDirectory.create(
        [
          { venue: 'venuep', catalog: p, eventSlug: VENUEP.view.eventSlug },
          { venue: 'venuek', catalog: k, eventSlug: VENUEK.view.eventSlug },
        ],
        links,
        version,
      )
    }
    let catalog = world[venue]
    let links: EventLink[] = []
    let view = VenueView.create(viewed, catalog, directory(catalog, links, 1))
    // A client's filtered orderings and searches, which a rebuilt view warms.
    view.markets.query({ status: 'active', sort: 'volume', order: 'desc', offset: 0, limit: 5 })
    view.markets.query({ status: 'all', search: 'will', sort: 'volume', order: 'desc', offset: 0, limit: 5 })
    const reserve: CatalogEvent[] = []
    let patchedViews = 0
    for (let step = 1; step <= 12; step++) {
      const events = refreshed(rng, catalog.events, reserve, step)
      const next = buildCatalogSnapshot({ venue, events, fetchedAt: step }, catalog.version + 1, catalog)
      // Now and then a link made or undone: the linked event on the later venue takes the other's slug.
      if (rng.chance(0.3)) {
        const e = rng.pick(next.events)
        const o = rng.pick(other.events)
        const link =
          venue === 'venuep'
            ? {
                a: { venue: 'venuep' as const, eventId: e.eventId },
                b: { venue: 'venuek' as const, eventId: o.eventId },
              }
            : {
                a: { venue: 'venuep' as const, eventId: o.eventId },
                b: { venue: 'venuek' as const, eventId: e.eventId },
              }
        links = rng.chance(0.5) || links.length === 0 ? [...links, link] : links.slice(1)
      }
      const d = directory(next, links, step + 1)
      const built = runToEnd(VenueView.build(viewed, next, d, view))
      if (built.marketById instanceof DeltaMap) patchedViews++
      assertServesAsWhole(built, VenueView.create(viewed, next, d), `${venue} step ${step}`)
      catalog = next
      view = built
    }
    assert.ok(patchedViews >= 8, `most refreshes patched the view (${patchedViews} of 12)`)
  })
}
