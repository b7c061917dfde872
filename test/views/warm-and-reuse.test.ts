import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import type { VenueActor } from '../../src/actors/venue-actor.js'
import { runToEnd } from '../../src/core/slices.js'
import type { Quote } from '../../src/model/types.js'
import type { Simulator } from '../../src/sim/simulator.js'
import { Rng } from '../../src/sim/world/random.js'
import { CollapsedView } from '../../src/views/collapsed-view.js'
import { EventDirectory, type EventLink } from '../../src/views/event-directory.js'
import { ListIndex } from '../../src/views/list-index.js'
import { SitemapView } from '../../src/views/sitemap-view.js'
import { VenueView } from '../../src/views/venue-view.js'
import { VENUEK } from '../../src/venues/venuek/module.js'
import { VENUEP } from '../../src/venues/venuep/module.js'
import { simulatorCatalogs } from '../helpers/catalogs.js'

/**
 * What a read-model rebuild carries over: a rebuilt list index is warmed (in slices) with the orderings and search
 * index its predecessor was asked for, so no request after a rebuild sorts or indexes the whole list; a venue view
 * whose catalog and slugs did not change is kept, caches included, instead of rebuilt.
 */
interface Rec {
  id: string
  status: string
  category: string
  title: string
  volume: number | undefined
  created: number | undefined
}

function records(rng: Rng, n: number): Rec[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `r${String(i).padStart(5, '0')}`,
    status: rng.pick(['active', 'closed', 'resolved']),
    category: rng.pick(['a', 'b', 'c']),
    title: `${rng.pick(['alpha', 'beta', 'gamma'])} ${i}`,
    volume: rng.chance(0.1) ? undefined : rng.int(0, 50) * 10,
    created: rng.chance(0.1) ? undefined : rng.int(0, 500),
  }))
}

function counting(): {
  keys: { volume: (r: Rec) => number | undefined; created: (r: Rec) => number | undefined }
  text: (r: Rec) => string
  calls: { n: number }
} {
  const calls = { n: 0 }
  return {
    keys: {
      volume: (r) => (calls.n++, r.volume),
      created: (r) => (calls.n++, r.created),
    },
    text: (r) => (calls.n++, r.title),
    calls,
  }
}

const QUERIES = [
  { status: 'active', sort: 'volume', order: 'desc' as const },
  { status: 'all', category: 'b', sort: 'created', order: 'asc' as const },
  { status: 'closed', sort: 'volume', order: 'asc' as const },
]

describe('list index warm-up', () => {
  test('a warmed index answers its predecessor’s queries without sorting or indexing, with the same pages', () => {
    const rng = new Rng(3)
    const before = counting()
    const old = new ListIndex(records(rng, 3_000), before.keys, before.text)
    for (const q of QUERIES) old.query({ ...q, offset: 0, limit: 10 })
    old.query({ status: 'all', search: 'alp', sort: 'volume', order: 'desc', offset: 0, limit: 10 })

    const items = records(new Rng(4), 3_000)
    const warmFns = counting()
    const warmed = new ListIndex(items, warmFns.keys, warmFns.text)
    runToEnd(warmed.warmSteps(old))
    const cold = new ListIndex(items, counting().keys, (r) => r.title)
    warmFns.calls.n = 0
    for (const q of QUERIES) {
      for (const offset of [0, 37, 2_000]) {
        assert.deepEqual(
          warmed.query({ ...q, offset, limit: 25 }),
          cold.query({ ...q, offset, limit: 25 }),
          JSON.stringify(q),
        )
      }
    }
    assert.equal(warmFns.calls.n, 0, 'no sort key read: every ordering was built by the warm-up')
    const search = { status: 'all', search: 'gamma 1', sort: 'volume', order: 'desc' as const, offset: 0, limit: 20 }
    const total = warmed.query(search).total
    assert.deepEqual(warmed.query(search), cold.query(search))
    assert.ok(total > 0 && total < 3_000)
    assert.equal(
      warmFns.calls.n,
      2 * total,
      'the search index existed: no title was read, only the matches’ sort keys (two queries)',
    )
  })
})

describe('venue view reuse', () => {
  let world: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
  const actor = { venue: 'venuek', quote: () => undefined, stats: () => undefined } as unknown as VenueActor

  before(async () => {
    world = await simulatorCatalogs(200)
  })
  after(async () => {
    await world?.sim.close()
  })

  test('kept when only the other venue changed; patched, equal to a cold build, when its slugs change', () => {
    const { venuep, venuek } = world
    const viewed = { actor, rules: VENUEK.view }
    const directory = (p: CatalogSnapshot, links: readonly EventLink[], version: number) =>
      EventDirectory.create(
        [
          { venue: 'venuep', catalog: p, eventSlug: VENUEP.view.eventSlug },
          { venue: 'venuek', catalog: venuek, eventSlug: VENUEK.view.eventSlug },
        ],
        links,
        version,
      )
    const v1 = VenueView.create(viewed, venuek, directory(venuep, [], 1))
    v1.marketJson(v1.markets.query({ status: 'all', sort: 'volume', order: 'desc', offset: 0, limit: 1 }).items[0]!)

    // venuep refreshed (one event fewer): the venuek view is the same view, its caches included.
    const p2 = buildCatalogSnapshot({ venue: 'venuep', events: venuep.events.slice(1), fetchedAt: 1 }, 2)
    const d2 = directory(p2, [], 2)
    const v2 = runToEnd(VenueView.build(viewed, venuek, d2, v1))
    assert.notEqual(v2, v1)
    assert.equal(v2.directory, d2)
    assert.equal(v2.markets, v1.markets, 'list index (and its orderings) kept')
    assert.equal(v2.marketById, v1.marketById, 'entries (and their cached JSON) kept')

    // A link renames one venuek event (it takes the venuep slug): patched (that event's entries made again, the others
    // kept), and equal to a cold build.
    const link = {
      a: { venue: 'venuep', eventId: p2.events[0]!.eventId },
      b: { venue: 'venuek', eventId: venuek.events[0]!.eventId },
    }
    const d3 = directory(p2, [link], 3)
    const v3 = runToEnd(VenueView.build(viewed, venuek, d3, v2))
    const cold = VenueView.create(viewed, venuek, d3)
    assert.notEqual(v3.markets, v2.markets)
    const rows = (v: VenueView) =>
      v.markets
        .query({ status: 'all', sort: 'volume', order: 'desc', offset: 0, limit: 1_000 })
        .items.map((e) => v.marketJson(e))
    assert.deepEqual(rows(v3), rows(cold))
    assert.equal(v3.marketById.get(venuek.events[0]!.eventId)?.eventSlug, link.a.eventId)
    assert.equal(v3.made, 'patched')
    const other = venuek.events[1]!.eventId
    assert.equal(v3.marketById.get(other), v2.marketById.get(other), 'an event whose slug stayed keeps its entry')
  })

  test('a refreshed catalog: events given back unchanged keep their entries and cached JSON; the view equals a cold build', () => {
    const { venuep, venuek } = world
    const viewed = { actor, rules: VENUEK.view }
    const directory = (k: CatalogSnapshot, version: number) =>
      EventDirectory.create(
        [
          { venue: 'venuep', catalog: venuep, eventSlug: VENUEP.view.eventSlug },
          { venue: 'venuek', catalog: k, eventSlug: VENUEK.view.eventSlug },
        ],
        [],
        version,
      )
    const v1 = VenueView.create(viewed, venuek, directory(venuek, 1))
    const rows = (v: VenueView) =>
      v.markets
        .query({ status: 'all', sort: 'volume', order: 'desc', offset: 0, limit: 1_000 })
        .items.map((e) => v.marketJson(e))
    rows(v1)
    // A refresh as mapped-records.ts gives it: event 1 changed (a new object), event 2 delisted, the rest the same
    // objects.
    const [first, changed, , ...rest] = venuek.events
    const renamed = { ...changed!, title: `${changed!.title} (renamed)` }
    const k2 = buildCatalogSnapshot({ venue: 'venuek', events: [first!, renamed, ...rest], fetchedAt: 2 }, 2)
    const v2 = runToEnd(VenueView.build(viewed, k2, directory(k2, 2), v1))
    const cold = VenueView.create(viewed, k2, directory(k2, 2))
    assert.deepEqual(rows(v2), rows(cold), 'what a cold build serves')
    assert.deepEqual(
      v2.events.query({ status: 'all', sort: 'volume', order: 'desc', offset: 0, limit: 1_000 }).items.map((e) => e.id),
      cold.events
        .query({ status: 'all', sort: 'volume', order: 'desc', offset: 0, limit: 1_000 })
        .items.map((e) => e.id),
    )
    for (const e of [first!, ...rest]) {
      assert.equal(v2.eventById.get(e.eventId), v1.eventById.get(e.eventId), `${e.eventId}: entry kept`)
      for (const m of e.markets) {
        const entry = v2.marketById.get(m.marketId)!
        assert.equal(entry, v1.marketById.get(m.marketId))
        for (const o of m.outcomes) assert.equal(v2.outcomeById.get(o.outcomeId), v1.outcomeById.get(o.outcomeId))
      }
    }
    const kept = v2.marketById.get(first!.markets[0]!.marketId)!
    assert.equal(kept.fragmentVersion, kept.version, 'its JSON is cached from before the refresh')
    assert.notEqual(v2.eventById.get(renamed.eventId), v1.eventById.get(renamed.eventId), 'the changed event is new')
    assert.equal(v2.eventById.get(renamed.eventId)?.event, renamed)
    assert.equal(v2.outcomeById.size, cold.outcomeById.size)
    assert.deepEqual([...v2.marketByOutcomeKey.keys()].sort(), [...cold.marketByOutcomeKey.keys()].sort())
    assert.deepEqual([...v2.marketBySlug.keys()].sort(), [...cold.marketBySlug.keys()].sort())
  })

  test('a quote marks every market entry its instrument prices, one or several', () => {
    const { venuek } = world
    const [one, two] = venuek.events
    // The same markets listed under a second event id: each of their instruments prices two entries.
    const twin = { ...two!, eventId: `${two!.eventId}-TWIN` }
    const k = buildCatalogSnapshot({ venue: 'venuek', events: [one!, two!, twin], fetchedAt: 1 }, 1)
    const d = EventDirectory.create([{ venue: 'venuek', catalog: k, eventSlug: VENUEK.view.eventSlug }], [], 1)
    const view = VenueView.create({ actor, rules: VENUEK.view }, k, d)
    const entriesOf = (e: typeof one) => view.eventById.get(e!.eventId)!.markets
    const versions = () => [one, two, twin].map((e) => entriesOf(e).map((m) => m.version))
    const before = versions()
    view.onQuotes([{ instrumentId: two!.markets[0]!.outcomes[0]!.instrumentId } as Quote])
    assert.deepEqual(versions(), [before[0], before[1]!.map((v) => v + 1), before[2]!.map((v) => v + 1)])
    view.onQuotes([{ instrumentId: one!.markets[0]!.outcomes[0]!.instrumentId } as Quote])
    assert.deepEqual(versions(), [
      before[0]!.map((v) => v + 1),
      before[1]!.map((v) => v + 1),
      before[2]!.map((v) => v + 1),
    ])
  })

  test('a rebuilt sitemap keeps the rows of kept events and serves what a cold build serves', () => {
    const { venuep, venuek } = world
    const venues = (k: CatalogSnapshot) => [
      { venue: 'venuep', catalog: venuep, eventSlug: VENUEP.view.eventSlug },
      { venue: 'venuek', catalog: k, eventSlug: VENUEK.view.eventSlug },
    ]
    const d1 = EventDirectory.create(venues(venuek), [], 1)
    const s1 = SitemapView.create(d1)
    // venuek refreshed: one event resolved (its row changes), one delisted, one listed anew, the rest the same objects.
    const [first, changed, gone, ...rest] = venuek.events
    const resolved = { ...changed!, status: 'resolved' as const, updatedAt: (changed!.updatedAt ?? 0) + 60_000 }
    const listedAnew = { ...gone!, eventId: `${gone!.eventId}-NEW`, title: `${gone!.title} again`, createdAt: 1 }
    const k2 = buildCatalogSnapshot(
      { venue: 'venuek', events: [first!, resolved, ...rest, listedAnew], fetchedAt: 2 },
      2,
    )
    const d2 = runToEnd(EventDirectory.build(venues(k2), [], 2, d1))
    const s2 = runToEnd(SitemapView.build(d2, s1))
    const cold = SitemapView.create(EventDirectory.create(venues(k2), [], 2))
    const all = (s: SitemapView) =>
      Buffer.from(s.page(0, 1_000_000, (rows, total) => `${total}:${rows.join('\n')}`)).toString('utf8')
    assert.equal(all(s2), all(cold))
    assert.notEqual(all(s2), all(s1))
    assert.equal(s2.total, s1.total)
  })

  test('the collapsed list keeps the rows of unchanged events, cached JSON included, and equals a cold build', () => {
    const { venuep, venuek } = world
    const pActor = { ...actor, venue: 'venuep' } as unknown as VenueActor
    const venues = (k: CatalogSnapshot) => [
      { venue: 'venuep', catalog: venuep, eventSlug: VENUEP.view.eventSlug },
      { venue: 'venuek', catalog: k, eventSlug: VENUEK.view.eventSlug },
    ]
    const d1 = EventDirectory.create(venues(venuek), [], 1)
    const views1 = new Map([
      ['venuep', VenueView.create({ actor: pActor, rules: VENUEP.view }, venuep, d1)],
      ['venuek', VenueView.create({ actor, rules: VENUEK.view }, venuek, d1)],
    ])
    const c1 = CollapsedView.create(d1, views1)
    const rows = (c: CollapsedView) =>
      c.index
        .query({ status: 'all', sort: 'volume', order: 'desc', offset: 0, limit: 10_000 })
        .items.map((e) => c.json(e))
    rows(c1)
    // venuek refreshed: one event changed, one delisted, the rest the same objects.
    const [first, changed, , ...rest] = venuek.events
    const renamed = { ...changed!, title: `${changed!.title} (renamed)` }
    const k2 = buildCatalogSnapshot({ venue: 'venuek', events: [first!, renamed, ...rest], fetchedAt: 2 }, 2)
    const d2 = runToEnd(EventDirectory.build(venues(k2), [], 2, d1))
    const views2 = new Map([
      ['venuep', runToEnd(VenueView.build({ actor: pActor, rules: VENUEP.view }, venuep, d2, views1.get('venuep')))],
      ['venuek', runToEnd(VenueView.build({ actor, rules: VENUEK.view }, k2, d2, views1.get('venuek')))],
    ])
    const c2 = runToEnd(CollapsedView.build(d2, views2, c1))
    const cold = CollapsedView.create(EventDirectory.create(venues(k2), [], 2), views2)
    assert.deepEqual(rows(c2), rows(cold), 'what a cold build serves')
    const entryOf = (c: CollapsedView, slug: string) =>
      c.index
        .query({
          status: 'all',
          search: undefined,
          only: undefined,
          sort: 'volume',
          order: 'desc',
          offset: 0,
          limit: 10_000,
        })
        .items.find((e) => e.id === slug)
    const keptSlug = d2.slugOf('venuek', first!.eventId)!
    const kept = entryOf(c2, keptSlug)!
    assert.equal(kept, entryOf(c1, keptSlug), 'an unchanged event keeps its row')
    assert.equal(kept.fragmentVersion, c2.version(kept), 'and its cached JSON')
    const renamedSlug = d2.slugOf('venuek', renamed.eventId)!
    assert.notEqual(
      entryOf(c2, renamedSlug),
      entryOf(c1, d1.slugOf('venuek', renamed.eventId)!),
      'the changed one is new',
    )
  })
})
