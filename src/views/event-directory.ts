import type { CatalogSnapshot } from '../actors/catalog-snapshot.js'
import { runToEnd, type Steps } from '../core/slices.js'
import { PatchedList } from '../core/patched-list.js'
import type { CatalogEvent, VenueId } from '../model/types.js'
import { patchedDirectorySteps, type DirectoryChanges, type DirectoryParts } from './directory-patch.js'
import { serviceEvent, type DirectoryVenue, type EventLink, type EventRef, type ServiceEvent } from './service-event.js'

/**
 * Service events: the cross-venue Event of the model. Each venue event belongs to exactly one service event;
 * events linked as the same question (by the matcher, issue 5) share one. Slugs are stable across restarts
 * and catalog refreshes because sitemaps and clients keep them:
 * - an event alone takes its venue's slug for it (`VenueViewRules.eventSlug`: the venue's own event slug, or its
 *   title slugified plus its ticker where tickers are the venue's keys);
 * - linked events take the slug of their member on the earliest registered venue and keep the others' slugs as
 *   aliases, so old links still resolve.
 */
export type { DirectoryVenue, EventLink, EventRef, LinksDelta, ServiceEvent } from './service-event.js'
export { eventOn } from './service-event.js'

/** A slug made of a title and a ticker: the title slugified (at most 80 characters) then the ticker lowercased. */
export function titleTickerSlug(e: Pick<CatalogEvent, 'eventId' | 'title'>): string {
  const title = e.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '')
  const ticker = e.eventId.toLowerCase().replace(/[^a-z0-9.]+/g, '-')
  return title.length === 0 ? ticker : `${title}-${ticker}`
}

/**
 * Items between two slice checkpoints while building views (src/core/slices.ts). Small: an item costs up to
 * ~0.1 ms on a busy machine, and a slice overshoots its budget by up to one checkpoint's worth.
 */
export const VIEW_CHECKPOINT_EVERY = 32

export class EventDirectory {
  readonly version: number
  #events: PatchedList<ServiceEvent> = PatchedList.of([])
  #bySlug: ReadonlyMap<string, ServiceEvent> = new Map<string, ServiceEvent>()
  #slugOf: ReadonlyMap<VenueId, ReadonlyMap<string, string>> = new Map<VenueId, Map<string, string>>()
  /** What it was built from: a directory of the next catalogs and links is patched from this one (`#patchedSteps`). */
  #catalogs: ReadonlyMap<VenueId, CatalogSnapshot | undefined> = new Map()
  #links: readonly EventLink[] = []
  /**
   * No slug or alias claimed by two service events and no link refused: what the build made depends on no order,
   * so a patch can make the same (directory-patch.ts). Set by each build.
   */
  #exact = true
  #changes: DirectoryChanges | undefined

  private constructor(version: number, venues: readonly DirectoryVenue[]) {
    this.version = version
    const slugOf = new Map<VenueId, Map<string, string>>()
    for (const v of venues) slugOf.set(v.venue, new Map())
    this.#slugOf = slugOf
  }

  static create(venues: readonly DirectoryVenue[], links: readonly EventLink[], version: number): EventDirectory {
    return runToEnd(EventDirectory.build(venues, links, version))
  }

  /**
   * The directory, built in slices. Venues are walked in registry order, each catalog in its order; an event
   * linked to one on an earlier venue was placed with it. A link joins two groups only when no venue would then
   * have two events in one (the matcher links one to one; this keeps it so).
   */
  static *build(
    venues: readonly DirectoryVenue[],
    links: readonly EventLink[],
    version: number,
    previous?: EventDirectory,
  ): Steps<EventDirectory> {
    if (previous !== undefined) {
      const parts = yield* patchedDirectorySteps(previous.#parts(), venues, links, previous.version)
      if (parts !== undefined) {
        const d = new EventDirectory(version, venues)
        d.#events = parts.events
        d.#bySlug = parts.bySlug
        d.#slugOf = parts.slugOf
        d.#catalogs = catalogsOf(venues)
        d.#links = links
        d.#changes = parts.changes
        return d
      }
    }
    const d = new EventDirectory(version, venues)
    d.#catalogs = catalogsOf(venues)
    d.#links = links
    d.#exact = venues.every((v) => v.catalog === undefined || v.catalog.idsOnce)
    // A service event of `previous` whose members are the same event objects is the same record: kept, not made
    // again (its slug, aliases and totals come from its members alone).
    const before = new Map<CatalogEvent, ServiceEvent>()
    let k = 0
    for (const e of previous?.events ?? []) {
      before.set(e.members[0] as CatalogEvent, e)
      if (++k % (VIEW_CHECKPOINT_EVERY * 16) === 0) yield
    }
    const kept = (members: readonly CatalogEvent[]): ServiceEvent | undefined => {
      const e = before.get(members[0] as CatalogEvent)
      if (e === undefined || e.members.length !== members.length) return undefined
      for (let i = 0; i < members.length; i++) if (e.members[i] !== members[i]) return undefined
      return e
    }
    const rank = new Map(venues.map((v, i) => [v.venue, i]))
    const catalogOf = new Map(venues.map((v) => [v.venue, v.catalog]))
    const listed = (r: EventRef) => catalogOf.get(r.venue)?.eventsById.get(r.eventId)
    /** Group of a venue event (keyed `venue \0 eventId`) → its members by venue. */
    const groupOf = new Map<string, Map<VenueId, CatalogEvent>>()
    const keyOf = (e: { venue: VenueId; eventId: string }) => `${e.venue}\u0000${e.eventId}`
    let n = 0
    for (const l of links) {
      if (++n % VIEW_CHECKPOINT_EVERY === 0) yield
      const a = listed(l.a)
      const b = listed(l.b)
      if (a === undefined || b === undefined || a.venue === b.venue) continue
      const ga = groupOf.get(keyOf(a)) ?? new Map([[a.venue, a]])
      const gb = groupOf.get(keyOf(b)) ?? new Map([[b.venue, b]])
      if (ga === gb) continue
      if ([...gb.keys()].some((venue) => ga.has(venue))) {
        // Refused: which of two such links joins depends on their order.
        d.#exact = false
        continue
      }
      for (const [venue, e] of gb) ga.set(venue, e)
      for (const e of ga.values()) groupOf.set(keyOf(e), ga)
    }
    yield
    const events: ServiceEvent[] = []
    /** Each group's members in registry order, sorted once (the group is met once per member). */
    const ordered = new Map<Map<VenueId, CatalogEvent>, CatalogEvent[]>()
    const membersOf = (group: Map<VenueId, CatalogEvent>): CatalogEvent[] => {
      let members = ordered.get(group)
      if (members === undefined) {
        members = [...group.values()].sort((x, y) => (rank.get(x.venue) ?? 0) - (rank.get(y.venue) ?? 0))
        ordered.set(group, members)
      }
      return members
    }
    for (const v of venues) {
      n = 0
      for (const e of v.catalog?.events ?? []) {
        if (++n % VIEW_CHECKPOINT_EVERY === 0) yield
        const group = groupOf.get(keyOf(e))
        if (group === undefined) {
          // An event alone: kept when `previous` had it alone too (most events, at every rebuild: no list made).
          const alone = before.get(e)
          events.push(alone !== undefined && alone.members.length === 1 ? d.#register(alone) : d.#add([e], venues))
          continue
        }
        // Placed once, by its member on the earliest venue.
        const members = membersOf(group)
        if (members[0] !== e) continue
        const same = kept(members)
        events.push(same === undefined ? d.#add(members, venues) : d.#register(same))
      }
    }
    d.#events = PatchedList.of(events)
    return d
  }

  /**
   * The service events that differ from those of the directory of version `changes.since`, when this one was patched
   * from it: the collapsed list and the sitemap patch theirs by them.
   */
  get changes(): DirectoryChanges | undefined {
    return this.#changes
  }

  /** Every service event (made into an array on first read after a patch: patched-list.ts). */
  get events(): readonly ServiceEvent[] {
    return this.#events.array()
  }

  /** How many service events (without reading them whole). */
  get eventCount(): number {
    return this.#events.length
  }

  bySlug(slug: string): ServiceEvent | undefined {
    return this.#bySlug.get(slug)
  }

  /** The service event slug of a venue event. */
  slugOf(venue: VenueId, eventId: string): string | undefined {
    return this.#slugOf.get(venue)?.get(eventId)
  }

  /** `members`: one event per venue, in registry order. */
  #add(members: readonly CatalogEvent[], venues: readonly DirectoryVenue[]): ServiceEvent {
    return this.#register(serviceEvent(members, venues))
  }

  /** Makes `event` findable by its slug, its aliases and each member's venue event id (during a whole build). */
  #register(event: ServiceEvent): ServiceEvent {
    const bySlug = this.#bySlug as Map<string, ServiceEvent>
    if (bySlug.has(event.slug)) this.#exact = false
    bySlug.set(event.slug, event)
    for (const a of event.aliases) {
      if (bySlug.has(a)) this.#exact = false
      else bySlug.set(a, event)
    }
    for (const e of event.members)
      (this.#slugOf.get(e.venue) as Map<string, string> | undefined)?.set(e.eventId, event.slug)
    return event
  }

  #parts(): DirectoryParts {
    return {
      events: this.#events,
      bySlug: this.#bySlug,
      slugOf: this.#slugOf,
      catalogs: this.#catalogs,
      links: this.#links,
      exact: this.#exact,
    }
  }
}

function catalogsOf(venues: readonly DirectoryVenue[]): ReadonlyMap<VenueId, CatalogSnapshot | undefined> {
  return new Map(venues.map((v) => [v.venue, v.catalog]))
}
