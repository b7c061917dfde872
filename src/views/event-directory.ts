import type { CatalogSnapshot } from '../actors/catalog-snapshot.js'
import { runToEnd, type Steps } from '../core/slices.js'
import type { CatalogEvent, ServiceStatus, VenueId } from '../model/types.js'
import { maxOf, minOf } from '../core/arrays.js'

/**
 * Service events: the cross-venue Event of the model. Each venue event belongs to exactly one service event;
 * events linked as the same question (by the matcher, issue 5) share one. Slugs are stable across restarts
 * and catalog refreshes because sitemaps and clients keep them:
 * - an event alone takes its venue's slug for it (`VenueViewRules.eventSlug`: the venue's own event slug, or its
 *   title slugified plus its ticker where tickers are the venue's keys);
 * - linked events take the slug of their member on the earliest registered venue and keep the others' slugs as
 *   aliases, so old links still resolve.
 */
export interface EventRef {
  readonly venue: VenueId
  readonly eventId: string
}

/** Two venue events the matcher judged the same question (`a` on the earlier registered venue). */
export interface EventLink {
  readonly a: EventRef
  readonly b: EventRef
}

export interface ServiceEvent {
  readonly slug: string
  readonly aliases: readonly string[]
  /** Its venue events, at most one per venue, in registry order (`eventOn` finds one venue's). */
  readonly members: readonly CatalogEvent[]
  readonly title: string
  readonly category: string
  readonly status: ServiceStatus
  readonly platforms: readonly VenueId[]
  readonly volumeTotal: number | undefined
  readonly volume24h: number | undefined
  readonly createdAt: number | undefined
  readonly updatedAt: number | undefined
  readonly endTime: number | undefined
}

/** The service event's member on `venue`, if it is listed there. */
export function eventOn(event: ServiceEvent | undefined, venue: VenueId): CatalogEvent | undefined {
  return event?.members.find((e) => e.venue === venue)
}

/** One registered venue's part of a directory build: its installed catalog (if any) and its slug rule. */
export interface DirectoryVenue {
  readonly venue: VenueId
  readonly catalog: CatalogSnapshot | undefined
  readonly eventSlug: (event: Pick<CatalogEvent, 'eventId' | 'title'>) => string
}

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
  #events: readonly ServiceEvent[] = []
  readonly #bySlug = new Map<string, ServiceEvent>()
  readonly #slugOf = new Map<VenueId, Map<string, string>>()

  private constructor(version: number, venues: readonly DirectoryVenue[]) {
    this.version = version
    for (const v of venues) this.#slugOf.set(v.venue, new Map())
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
    const d = new EventDirectory(version, venues)
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
      if (ga === gb || [...gb.keys()].some((venue) => ga.has(venue))) continue
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
    d.#events = events
    return d
  }

  get events(): readonly ServiceEvent[] {
    return this.#events
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
    const slugs = members.map((e) => (venues.find((v) => v.venue === e.venue) as DirectoryVenue).eventSlug(e))
    const slug = slugs[0] as string
    const aliases = slugs.slice(1)
    const lead = members[0] as CatalogEvent
    const status: ServiceStatus = members.some((e) => e.status === 'active')
      ? 'active'
      : members.every((e) => e.status === 'resolved')
        ? 'resolved'
        : 'closed'
    const event: ServiceEvent = {
      slug,
      aliases,
      members,
      title: lead.title,
      category: lead.category,
      status,
      platforms: members.map((e) => e.venue),
      volumeTotal: sum(members.map((e) => e.volumeTotal)),
      volume24h: sum(members.map((e) => e.volume24h)),
      createdAt: min(members.map((e) => e.createdAt)),
      updatedAt: max(members.map((e) => e.updatedAt)),
      endTime: max(members.map((e) => e.endTime)),
    }
    return this.#register(event)
  }

  /** Makes `event` findable by its slug, its aliases and each member's venue event id. */
  #register(event: ServiceEvent): ServiceEvent {
    this.#bySlug.set(event.slug, event)
    for (const a of event.aliases) if (!this.#bySlug.has(a)) this.#bySlug.set(a, event)
    for (const e of event.members) this.#slugOf.get(e.venue)?.set(e.eventId, event.slug)
    return event
  }
}

function known(values: readonly (number | undefined)[]): number[] {
  return values.filter((v): v is number => v !== undefined)
}

function sum(values: readonly (number | undefined)[]): number | undefined {
  const k = known(values)
  return k.length === 0 ? undefined : k.reduce((a, b) => a + b, 0)
}

function min(values: readonly (number | undefined)[]): number | undefined {
  const k = known(values)
  return minOf(k)
}

function max(values: readonly (number | undefined)[]): number | undefined {
  const k = known(values)
  return maxOf(k)
}
