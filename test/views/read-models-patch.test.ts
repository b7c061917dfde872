import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import type { VenueActor } from '../../src/actors/venue-actor.js'
import { runToEnd } from '../../src/core/slices.js'
import type { CatalogEvent, VenueId } from '../../src/model/types.js'
import type { Simulator } from '../../src/sim/simulator.js'
import { Rng } from '../../src/sim/world/random.js'
import { CollapsedView } from '../../src/views/collapsed-view.js'
import { linksChanged } from '../../src/views/directory-patch.js'
import { EventDirectory, type EventLink, type ServiceEvent } from '../../src/views/event-directory.js'
import { SitemapView } from '../../src/views/sitemap-view.js'
import { VenueView } from '../../src/views/venue-view.js'
import { VENUEK } from '../../src/venues/venuek/module.js'
import { VENUEP } from '../../src/venues/venuep/module.js'
import { simulatorCatalogs } from '../helpers/catalogs.js'
import { refreshed } from '../helpers/refreshes.js'

/**
 * The cross-venue read models of a refresh are patched from the ones they replace when few events changed: the event
 * directory regroups only the changed events and the ends of links made or undone (directory-patch.ts), and the
 * collapsed list and the sitemap replace only the service events the directory replaced. Along random chains of
 * refreshes of both simulated venues and of the matcher's links (one to one, made and undone; now and then a link
 * that would put two events of one venue together, which the whole build refuses), each patched model serves what
 * one built whole from the same catalogs and links serves: every slug and alias, every venue event's service slug,
 * every collapsed page in every order and status, searches, rows, and the sitemap's bytes.
 */
let world: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
before(async () => {
  world = await simulatorCatalogs(400, 9)
})
after(async () => {
  await world?.sim.close()
})

const actorOf = (venue: VenueId) => ({ venue, quote: () => undefined, stats: () => undefined }) as unknown as VenueActor
const VIEWED = [
  { actor: actorOf('venuep'), rules: VENUEP.view },
  { actor: actorOf('venuek'), rules: VENUEK.view },
]

interface Models {
  directory: EventDirectory
  views: Map<VenueId, VenueView>
  collapsed: CollapsedView
  sitemap: SitemapView
}

/** As ReadModels builds them: the directory, each venue's view, the collapsed list and the sitemap, from `previous`. */
function build(catalogs: readonly CatalogSnapshot[], links: readonly EventLink[], version: number, previous?: Models) {
  const venues = catalogs.map((catalog, i) => ({
    venue: catalog.venue,
    catalog,
    eventSlug: (VIEWED[i] as (typeof VIEWED)[0]).rules.eventSlug,
  }))
  const directory = runToEnd(EventDirectory.build(venues, links, version, previous?.directory))
  const views = new Map<VenueId, VenueView>()
  catalogs.forEach((catalog, i) =>
    views.set(
      catalog.venue,
      runToEnd(VenueView.build(VIEWED[i]!, catalog, directory, previous?.views.get(catalog.venue))),
    ),
  )
  const collapsed = runToEnd(CollapsedView.build(directory, views, previous?.collapsed))
  const sitemap = runToEnd(SitemapView.build(directory, previous?.sitemap))
  return { directory, views, collapsed, sitemap }
}

const described = (e: ServiceEvent | undefined) =>
  e === undefined
    ? undefined
    : {
        slug: e.slug,
        aliases: e.aliases,
        members: e.members.map((m) => `${m.venue}:${m.eventId}`),
        title: e.title,
        status: e.status,
        platforms: e.platforms,
        volumeTotal: e.volumeTotal,
        createdAt: e.createdAt,
        updatedAt: e.updatedAt,
        endTime: e.endTime,
      }

function assertServesAsWhole(patched: Models, whole: Models, catalogs: readonly CatalogSnapshot[], what: string) {
  // Each venue's view (kept, patched, or built: the other venue's refresh moves its slugs): every market's row.
  for (const c of catalogs) {
    const rows = (v: VenueView | undefined) =>
      v?.markets
        .query({ status: 'all', sort: 'volume', order: 'desc', offset: 0, limit: 100_000 })
        .items.map((e) => v.marketJson(e))
    assert.deepEqual(rows(patched.views.get(c.venue)), rows(whole.views.get(c.venue)), `${what}: ${c.venue} markets`)
  }
  const slugs = (d: EventDirectory) => d.events.map((e) => e.slug).sort()
  assert.deepEqual(slugs(patched.directory), slugs(whole.directory), `${what}: service events`)
  for (const e of whole.directory.events)
    for (const key of [e.slug, ...e.aliases])
      assert.deepEqual(
        described(patched.directory.bySlug(key)),
        described(whole.directory.bySlug(key)),
        `${what}: ${key}`,
      )
  for (const c of catalogs)
    for (const e of c.events)
      assert.equal(
        patched.directory.slugOf(c.venue, e.eventId),
        whole.directory.slugOf(c.venue, e.eventId),
        `${what}: slug of ${e.eventId}`,
      )
  for (const sort of ['volume', 'volume_24h', 'updated_at', 'end_time', 'created_at'])
    for (const order of ['asc', 'desc'] as const)
      for (const status of ['all', 'active', 'closed', 'resolved']) {
        const q = { status, sort, order, offset: 0, limit: 100_000 }
        const got = patched.collapsed.index.query(q)
        const want = whole.collapsed.index.query(q)
        assert.deepEqual(
          got.items.map((e) => patched.collapsed.json(e)),
          want.items.map((e) => whole.collapsed.json(e)),
          `${what}: collapsed ${status} by ${sort} ${order}`,
        )
      }
  for (const search of ['will', 'v3', 'anew', 'the'])
    assert.deepEqual(
      patched.collapsed.index
        .query({ status: 'all', search, sort: 'volume', order: 'desc', offset: 0, limit: 100_000 })
        .items.map((e) => e.id),
      whole.collapsed.index
        .query({ status: 'all', search, sort: 'volume', order: 'desc', offset: 0, limit: 100_000 })
        .items.map((e) => e.id),
      `${what}: collapsed search ${search}`,
    )
  const render = (rows: readonly string[], total: number) => `{"total":${total},"data":[${rows.join(',')}]}`
  assert.equal(
    Buffer.from(patched.sitemap.page(0, 100_000, render)).toString(),
    Buffer.from(whole.sitemap.page(0, 100_000, render)).toString(),
    `${what}: sitemap`,
  )
}

/**
 * `withDelta`: each links array comes with what changed from the one before (as the matcher hands them on,
 * link-state.ts), so the directory's patch reads those ends alone (`linksChanged`).
 */
function patchChain(withDelta: boolean): void {
  const rng = new Rng(31)
  let catalogs = [world.venuep, world.venuek]
  // One-to-one links between the venues' events, made and undone.
  let links: EventLink[] = []
  const linkBetween = (p: CatalogEvent, k: CatalogEvent): EventLink => ({
    a: { venue: 'venuep', eventId: p.eventId },
    b: { venue: 'venuek', eventId: k.eventId },
  })
  for (let i = 0; i < 40; i++) links.push(linkBetween(catalogs[0]!.events[i]!, catalogs[1]!.events[i]!))
  let models = build(catalogs, links, 1)
  models.collapsed.index.query({ status: 'active', sort: 'volume', order: 'desc', offset: 0, limit: 5 })
  const reserves: CatalogEvent[][] = [[], []]
  let patchedDirectories = 0
  // Every few refreshes a linked event leaves its venue's listing while the matcher's link to it stays: its partner
  // is alone again.
  const delistLinked = (step: number, venue: number, events: CatalogEvent[]) => {
    if (step % 4 !== 2) return events
    const side = venue === 0 ? 'a' : 'b'
    const linked = events.find((e) => links.some((l) => l[side].eventId === e.eventId))
    return events.filter((e) => e !== linked)
  }
  let conflicting: EventLink | undefined
  let previousLinks: readonly EventLink[] = links
  for (let step = 1; step <= 14; step++) {
    catalogs = catalogs.map((c, i) =>
      i === step % 3
        ? c
        : buildCatalogSnapshot(
            {
              venue: c.venue,
              events: delistLinked(step, i, refreshed(rng, c.events, reserves[i]!, step)),
              fetchedAt: step,
            },
            c.version + 1,
            c,
          ),
    )
    links = links.filter(() => !rng.chance(0.05))
    for (let j = 0; j < 3; j++) {
      const used = new Set(links.flatMap((l) => [l.a.eventId, l.b.eventId]))
      const p = rng.pick(catalogs[0]!.events)
      const k = rng.pick(catalogs[1]!.events)
      if (!used.has(p.eventId) && !used.has(k.eventId)) links.push(linkBetween(p, k))
    }
    // Once, for a while, a second link for an event already linked: the whole build refuses one of the two by their
    // order, so the models are built whole until it is gone.
    if (step === 12) links = links.filter((l) => l !== conflicting)
    if (step === 9) {
      const linked = catalogs[1]!.events.find((e) => links.some((l) => l.b.eventId === e.eventId))!
      conflicting = linkBetween(rng.pick(catalogs[0]!.events), linked)
      links.push(conflicting)
    }
    if (withDelta) {
      const before = new Set(previousLinks)
      const now = new Set(links)
      const delta = { removed: previousLinks.filter((l) => !now.has(l)), added: links.filter((l) => !before.has(l)) }
      linksChanged(previousLinks, links, delta)
    }
    previousLinks = links
    const patched = build(catalogs, links, step + 1, models)
    if (patched.directory.changes !== undefined) patchedDirectories++
    assertServesAsWhole(patched, build(catalogs, links, step + 1), catalogs, `step ${step}`)
    models = patched
  }
  assert.ok(patchedDirectories >= 8, `most refreshes patched the directory (${patchedDirectories} of 14)`)
}

test('the directory, collapsed list and sitemap patched along a chain of refreshes serve what whole builds serve', () => {
  patchChain(false)
})

test('the same with the links’ changes handed on: the directory patch reads the changed links alone', () => {
  patchChain(true)
})
