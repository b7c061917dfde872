import type { Logger } from '../core/logger.js'
import { runInSlices, runToEnd, type Steps } from '../core/slices.js'
import type { Quote, VenueId } from '../model/types.js'
import { CollapsedView } from './collapsed-view.js'
import { EventDirectory, type EventLink, type LinksDelta } from './event-directory.js'
import { linksChanged } from './directory-patch.js'
import type { ViewSeeds } from './list-file.js'
import type { StartSeeds } from './list-file-keeper.js'
import type { ListSeed } from './list-seed.js'
import { PageCache } from './page-cache.js'
import { SitemapView } from './sitemap-view.js'
import { VenueView, type ViewedVenue } from './venue-view.js'

/** Builds after the service is first serving that are still offered the cross-venue list's seed. */
const EVENTS_SEED_TRIES = 3

/**
 * Keeps the API's read models in step with the venue actors. The cross-venue matching calls `setLinks` after
 * every catalog change (with the links for the new catalogs, changed or not), so each change rebuilds the views
 * once, with its links, instead of once for the catalog and again for the links. A rebuild runs in event-loop
 * slices and installs the new views in one step; until then requests read the previous, consistent views. Each
 * view is made from its predecessor: patched by the changes when few events changed (the snapshots' `changes`,
 * then the directory's), else built whole (~0.5 s of CPU at 20,000 markets per venue) keeping unchanged events'
 * records. Quote changes only bump the versions of the records they price.
 */
export class ReadModels {
  readonly #venues: readonly ViewedVenue[]
  readonly #log: Logger
  readonly #files: ListFiles | undefined
  /**
   * The list files' seeds, each until the first view it is for is installed (the cross-venue list's until taken, or
   * EVENTS_SEED_TRIES builds after the service is first serving); `#seedsRead` resolves once they are read.
   */
  #seeds: ReadonlyMap<VenueId, ViewSeeds> | undefined
  #eventsSeed: ListSeed | undefined
  #eventsSeedTries = EVENTS_SEED_TRIES
  #seedsRead: Promise<void> | undefined
  #links: readonly EventLink[] = []
  #directoryVersion = 0
  #views: ReadonlyMap<VenueId, VenueView> = new Map()
  #directory: EventDirectory | undefined
  #collapsed: CollapsedView | undefined
  #sitemap: SitemapView | undefined
  #rebuildScheduled = false
  #rebuilding = false
  #rebuildAgain = false
  #stopped = false
  readonly #unsubscribe: (() => void)[] = []
  /** Serialized pages, shared by every list endpoint (keys are prefixed by route). */
  readonly pages = new PageCache()

  /**
   * `venues` in registry order: the order of a service event's members and of its detail's `venues`. `files`: the
   * list files a restart seeds its first build from, and that are written from the views installed (list-file-keeper.ts).
   */
  constructor(venues: readonly ViewedVenue[], log: Logger, files?: ListFiles) {
    this.#venues = venues
    this.#log = log
    this.#files = files
  }

  /** The venues' ids, in registry order. */
  get venueIds(): readonly VenueId[] {
    return this.#venues.map((v) => v.actor.venue)
  }

  start(): void {
    // The first build waits for the list files to be read (a fraction of the catalog files' time).
    this.#seedsRead = this.#files?.read(this.venueIds).then(
      (seeds) => {
        this.#seeds = seeds.views
        this.#eventsSeed = seeds.events
      },
      (err: unknown) => this.#log.warn({ error: String(err) }, 'list files unreadable; lists built anew'),
    )
    for (const { actor } of this.#venues) {
      this.#unsubscribe.push(
        actor.subscribeQuotes((quotes: readonly Quote[]) => this.#views.get(actor.venue)?.onQuotes(quotes)),
      )
    }
  }

  stop(): void {
    this.#stopped = true
    for (const u of this.#unsubscribe.splice(0)) u()
  }

  /**
   * The catalogs changed: cross-venue links for them from the matcher (issue 5). Triggers a rebuild. `delta`: what
   * changed since the last links, when known: the directory's patch then reads only those (directory-patch.ts).
   */
  setLinks(links: readonly EventLink[], delta?: LinksDelta): void {
    if (delta !== undefined) linksChanged(this.#links, links, delta)
    this.#links = links
    this.#scheduleRebuild()
  }

  /**
   * Every read the views serve answers: each venue has its view, and the cross-venue directory, collapsed list
   * and sitemap are built. False until the first build after every catalog (and their links) is in, which runs
   * in slices after the venues report ready; /readyz waits for it so a client told "ready" never meets a 503.
   */
  get serving(): boolean {
    if (this.#directory === undefined || this.#collapsed === undefined || this.#sitemap === undefined) return false
    return this.#venues.every(({ actor }) => this.#views.has(actor.venue))
  }

  /** No rebuild is scheduled or running: the views are those of the current catalogs and links. */
  get settled(): boolean {
    return !this.#rebuildScheduled && !this.#rebuilding
  }

  view(venue: VenueId): VenueView | undefined {
    return this.#views.get(venue)
  }

  directory(): EventDirectory | undefined {
    return this.#directory
  }

  collapsed(): CollapsedView | undefined {
    return this.#collapsed
  }

  sitemap(): SitemapView | undefined {
    return this.#sitemap
  }

  /** Builds the views now, in one go (tests). */
  rebuild(): void {
    const built = runToEnd(this.#build())
    if (built !== undefined) this.#install(built)
  }

  #scheduleRebuild(): void {
    if (this.#rebuilding) {
      this.#rebuildAgain = true
      return
    }
    if (this.#rebuildScheduled) return
    this.#rebuildScheduled = true
    const run = () =>
      setImmediate(() => {
        this.#rebuildScheduled = false
        this.#rebuildInSlices()
      })
    if (this.#seedsRead === undefined) run()
    else void this.#seedsRead.then(run)
  }

  #rebuildInSlices(): void {
    if (this.#stopped) return
    this.#rebuilding = true
    const started = Date.now()
    // Until the first build is installed nothing is served, so a first build whose inputs changed meanwhile (a start:
    // one venue's catalog, then the other's, then the links) is dropped for the next one instead of finished. Later
    // builds always finish: under changes faster than a build, dropping them would never install anything.
    const first = this.#directory === undefined
    runInSlices(first ? untilStale(this.#build(), () => this.#rebuildAgain) : this.#build())
      .then(
        (built) => {
          if (built === undefined || this.#stopped) return
          this.#install(built)
          const made = Object.fromEntries([...built.views].map(([venue, view]) => [venue, view.made]))
          this.#log.debug({ ms: Date.now() - started, events: built.directory.eventCount, made }, 'read models rebuilt')
        },
        (err: unknown) => this.#log.error({ err }, 'read model rebuild failed'),
      )
      .finally(() => {
        this.#rebuilding = false
        if (this.#rebuildAgain) {
          this.#rebuildAgain = false
          this.#scheduleRebuild()
        }
      })
  }

  /** Every view of the current catalogs and links, or undefined before the first catalog. */
  *#build(): Steps<Built | undefined> {
    const catalogs = this.#venues.map((v) => ({
      venue: v.actor.venue,
      catalog: v.actor.catalog(),
      eventSlug: v.rules.eventSlug,
    }))
    if (catalogs.every((c) => c.catalog === undefined)) return undefined
    const directory = yield* EventDirectory.build(catalogs, this.#links, ++this.#directoryVersion, this.#directory)
    const views = new Map<VenueId, VenueView>()
    // The current views pass on what requests made them build on demand (orderings, search indexes).
    for (const [i, v] of this.#venues.entries()) {
      const catalog = catalogs[i]?.catalog
      const venue = v.actor.venue
      if (catalog !== undefined)
        views.set(venue, yield* VenueView.build(v, catalog, directory, this.#views.get(venue), this.#seeds?.get(venue)))
    }
    // The cross-venue list's seed is of every venue's events: not offered to a list of some venues only.
    const eventsSeed = views.size === this.#venues.length ? this.#eventsSeed : undefined
    const collapsed = yield* CollapsedView.build(
      directory,
      views,
      this.#collapsed,
      eventsSeed && { seed: eventsSeed, sameRecords: false },
    )
    const sitemap = yield* SitemapView.build(directory, this.#sitemap)
    return { directory, views, collapsed, sitemap }
  }

  /** One synchronous step: requests see either every old view or every new one. */
  #install(built: Built): void {
    const replaced = new Set<object>()
    for (const [venue, view] of this.#views) if (built.views.get(venue) !== view) replaced.add(view)
    if (this.#collapsed !== undefined && this.#collapsed !== built.collapsed) replaced.add(this.#collapsed)
    this.#views = built.views
    this.#directory = built.directory
    this.#collapsed = built.collapsed
    this.#sitemap = built.sitemap
    // Each venue's seed is offered to its first view only (a start may install one venue's view before the other's).
    const seeds = this.#seeds
    if ((seeds !== undefined && seeds.size > 0) || this.#eventsSeed !== undefined) this.#logSeeded(built, seeds)
    this.#seeds = seeds === undefined ? undefined : new Map([...seeds].filter(([venue]) => !built.views.has(venue)))
    // The cross-venue list's seed fits once the matcher's links are in (a restart's first views may come before the
    // kept matches are): offered until taken, or for a few builds once serving.
    if ((built.collapsed.index.seeded?.taken ?? 0) > 0 || (this.serving && --this.#eventsSeedTries <= 0))
      this.#eventsSeed = undefined
    this.#seedsRead = undefined
    this.#files?.viewsInstalled(built.views, built.collapsed)
    // Their pages can never be served again (pages are valid for their view only); drop them with the views.
    this.pages.forget(replaced)
  }

  /** What the first views took from the list files: per venue and list, the parts taken and refused. */
  #logSeeded(built: Built, seeds: ReadonlyMap<VenueId, ViewSeeds> | undefined): void {
    const seeded: Record<string, unknown> = {}
    if (built.collapsed.index.seeded !== undefined) seeded.events = built.collapsed.index.seeded
    for (const [venue, view] of built.views) {
      if (seeds?.has(venue) !== true) continue
      seeded[venue] = Object.fromEntries(view.lists().map(([name, list]) => [name, list.seeded ?? 'no seed']))
    }
    if (Object.keys(seeded).length > 0) this.#log.info({ seeded }, 'read models seeded from the list files')
  }
}

/** The list files as the read models use them (list-file-keeper.ts). */
export interface ListFiles {
  read(venues: readonly VenueId[]): Promise<StartSeeds>
  viewsInstalled(views: ReadonlyMap<VenueId, VenueView>, collapsed: CollapsedView): void
}

interface Built {
  readonly directory: EventDirectory
  readonly views: ReadonlyMap<VenueId, VenueView>
  readonly collapsed: CollapsedView
  readonly sitemap: SitemapView
}

/** `steps`, abandoned (undefined) at the first checkpoint at which `stale()` holds. */
function* untilStale<T>(steps: Steps<T>, stale: () => boolean): Steps<T | undefined> {
  for (;;) {
    const step = steps.next()
    if (step.done === true) return step.value
    if (stale()) return undefined
    yield
  }
}
