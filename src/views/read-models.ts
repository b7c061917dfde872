import type { VenueActor } from '../actors/venue-actor.js'
import type { Logger } from '../core/logger.js'
import { runInSlices, runToEnd, type Steps } from '../core/slices.js'
import type { Quote, VenueId } from '../model/types.js'
import { CollapsedView } from './collapsed-view.js'
import { EventDirectory, type EventLink } from './event-directory.js'
import { PageCache } from './page-cache.js'
import { SitemapView } from './sitemap-view.js'
import { VenueView } from './venue-view.js'

/**
 * Keeps the API's read models in step with the venue actors. The cross-venue matching calls `setLinks` after
 * every catalog change (with the links for the new catalogs, changed or not), so each change rebuilds the views
 * once, with its links, instead of once for the catalog and again for the links. A rebuild runs in event-loop
 * slices (~0.5 s of CPU at 20,000 markets per venue) and installs the new views in one step; until then requests
 * read the previous, consistent views. Quote changes only bump the versions of the records they price.
 */
export class ReadModels {
  readonly #actors: Readonly<Record<VenueId, VenueActor>>
  readonly #log: Logger
  #links: readonly EventLink[] = []
  #directoryVersion = 0
  #views: Partial<Record<VenueId, VenueView>> = {}
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

  constructor(actors: Readonly<Record<VenueId, VenueActor>>, log: Logger) {
    this.#actors = actors
    this.#log = log
  }

  start(): void {
    for (const actor of Object.values(this.#actors)) {
      this.#unsubscribe.push(actor.subscribeQuotes((quotes: readonly Quote[]) => this.#views[actor.venue]?.onQuotes(quotes)))
    }
  }

  stop(): void {
    this.#stopped = true
    for (const u of this.#unsubscribe.splice(0)) u()
  }

  /** The catalogs changed: cross-venue links for them from the matcher (issue 5). Triggers a rebuild. */
  setLinks(links: readonly EventLink[]): void {
    this.#links = links
    this.#scheduleRebuild()
  }

  /**
   * Every read the views serve answers: each venue has its view, and the cross-venue directory, collapsed list
   * and sitemap are built. False until the first build after both catalogs (and their links) are in, which runs
   * in slices after the venues report ready; /readyz waits for it so a client told "ready" never meets a 503.
   */
  get serving(): boolean {
    if (this.#directory === undefined || this.#collapsed === undefined || this.#sitemap === undefined) return false
    return Object.values(this.#actors).every((actor) => this.#views[actor.venue] !== undefined)
  }

  /** No rebuild is scheduled or running: the views are those of the current catalogs and links. */
  get settled(): boolean {
    return !this.#rebuildScheduled && !this.#rebuilding
  }

  view(venue: VenueId): VenueView | undefined {
    return this.#views[venue]
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
    setImmediate(() => {
      this.#rebuildScheduled = false
      this.#rebuildInSlices()
    })
  }

  #rebuildInSlices(): void {
    if (this.#stopped) return
    this.#rebuilding = true
    const started = Date.now()
    runInSlices(this.#build())
      .then(
        (built) => {
          if (built === undefined || this.#stopped) return
          this.#install(built)
          this.#log.debug({ ms: Date.now() - started, events: built.directory.events.length }, 'read models rebuilt')
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
    const p = this.#actors.venuep.catalog()
    const k = this.#actors.venuek.catalog()
    if (p === undefined && k === undefined) return undefined
    const directory = yield* EventDirectory.build(p, k, this.#links, ++this.#directoryVersion)
    const views: Partial<Record<VenueId, VenueView>> = {}
    // The current views pass on what requests made them build on demand (orderings, search indexes).
    if (p !== undefined) views.venuep = yield* VenueView.build(this.#actors.venuep, p, directory, this.#views.venuep)
    if (k !== undefined) views.venuek = yield* VenueView.build(this.#actors.venuek, k, directory, this.#views.venuek)
    const collapsed = yield* CollapsedView.build(directory, views, this.#collapsed)
    const sitemap = yield* SitemapView.build(directory)
    return { directory, views, collapsed, sitemap }
  }

  /** One synchronous step: requests see either every old view or every new one. */
  #install(built: Built): void {
    const replaced = new Set<object>()
    for (const [venue, view] of Object.entries(this.#views)) if (view !== undefined && built.views[venue as VenueId] !== view) replaced.add(view)
    if (this.#collapsed !== undefined && this.#collapsed !== built.collapsed) replaced.add(this.#collapsed)
    this.#views = built.views
    this.#directory = built.directory
    this.#collapsed = built.collapsed
    this.#sitemap = built.sitemap
    // Their pages can never be served again (pages are valid for their view only); drop them with the views.
    this.pages.forget(replaced)
  }
}

interface Built {
  readonly directory: EventDirectory
  readonly views: Partial<Record<VenueId, VenueView>>
  readonly collapsed: CollapsedView
  readonly sitemap: SitemapView
}
