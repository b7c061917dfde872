import type { CatalogSnapshot } from '../actors/catalog-snapshot.js'
import { maxOf, minOf } from '../core/arrays.js'
import type { CatalogEvent, ServiceStatus, VenueId } from '../model/types.js'

/**
 * The service event, the cross-venue Event of the model (event-directory.ts keeps them): the venue events judged
 * the same question, one per venue, with a slug, aliases and totals made of its members alone.
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

/** What changed from one links array to the next: the links that left and came (every other is the same object). */
export interface LinksDelta {
  readonly removed: readonly EventLink[]
  readonly added: readonly EventLink[]
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

/** The service event of `members` (one event per venue, in registry order): slug, aliases and totals from them alone. */
export function serviceEvent(members: readonly CatalogEvent[], venues: readonly DirectoryVenue[]): ServiceEvent {
  const slugs = members.map((e) => (venues.find((v) => v.venue === e.venue) as DirectoryVenue).eventSlug(e))
  const slug = slugs[0] as string
  const aliases = slugs.slice(1)
  const lead = members[0] as CatalogEvent
  const status: ServiceStatus = members.some((e) => e.status === 'active')
    ? 'active'
    : members.every((e) => e.status === 'resolved')
      ? 'resolved'
      : 'closed'
  return {
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
