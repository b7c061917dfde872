import type { CatalogSnapshot } from '../actors/catalog-snapshot.js'
import { runToEnd, type Steps } from '../core/slices.js'
import type { CatalogEvent, ServiceStatus, VenueId } from '../model/types.js'

/**
 * Service events: the cross-venue Event of the model. Each venue event belongs to exactly one service event;
 * events linked as the same question (by the matcher, issue 5) share one. Slugs are stable across restarts
 * and catalog refreshes because sitemaps and clients keep them:
 * - a venuep event's slug is its own event slug;
 * - a venuek event's slug is its title slugified plus its ticker (tickers never change and keep it unique);
 * - a linked pair uses the venuep slug and keeps the venuek slug as an alias, so old links still resolve.
 */
/** Two venue events linked by the matcher (src/spreads/matching/matcher.ts `eventLinks`): A's and B's. */
export interface EventLink {
  readonly a: { readonly venue: VenueId; readonly eventId: string }
  readonly b: { readonly venue: VenueId; readonly eventId: string }
}

export interface ServiceEvent {
  readonly slug: string
  readonly aliases: readonly string[]
  readonly venuep: CatalogEvent | undefined
  readonly venuek: CatalogEvent | undefined
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

export function venuekEventSlug(e: Pick<CatalogEvent, 'eventId' | 'title'>): string {
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
  readonly #slugOf: Record<VenueId, Map<string, string>> = { venuep: new Map(), venuek: new Map() }

  private constructor(version: number) {
    this.version = version
  }

  static create(venuep: CatalogSnapshot | undefined, venuek: CatalogSnapshot | undefined, links: readonly EventLink[], version: number): EventDirectory {
    return runToEnd(EventDirectory.build(venuep, venuek, links, version))
  }

  /** The directory, built in slices. */
  static *build(venuep: CatalogSnapshot | undefined, venuek: CatalogSnapshot | undefined, links: readonly EventLink[], version: number): Steps<EventDirectory> {
    const d = new EventDirectory(version)
    const events: ServiceEvent[] = []
    const linkedK = new Map<string, string>()
    let n = 0
    for (const l of links) {
      if (l.a.venue === venuep?.venue && l.b.venue === venuek?.venue && venuep.eventsById.has(l.a.eventId) && venuek.eventsById.has(l.b.eventId)) linkedK.set(l.b.eventId, l.a.eventId)
      if (++n % VIEW_CHECKPOINT_EVERY === 0) yield
    }
    const pairedP = new Map<string, CatalogEvent>()
    for (const [k, p] of linkedK) {
      pairedP.set(p, venuek?.eventsById.get(k) as CatalogEvent)
      if (++n % VIEW_CHECKPOINT_EVERY === 0) yield
    }
    yield
    for (const e of venuep?.events ?? []) {
      events.push(d.#add(e, pairedP.get(e.eventId)))
      if (events.length % VIEW_CHECKPOINT_EVERY === 0) yield
    }
    n = 0
    for (const e of venuek?.events ?? []) {
      if (!linkedK.has(e.eventId)) events.push(d.#add(undefined, e))
      if (++n % VIEW_CHECKPOINT_EVERY === 0) yield
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
    return this.#slugOf[venue].get(eventId)
  }

  #add(p: CatalogEvent | undefined, k: CatalogEvent | undefined): ServiceEvent {
    const kSlug = k === undefined ? undefined : venuekEventSlug(k)
    const slug = p?.eventId ?? (kSlug as string)
    const aliases = p !== undefined && kSlug !== undefined ? [kSlug] : []
    const both = [p, k].filter((e): e is CatalogEvent => e !== undefined)
    const status: ServiceStatus = both.some((e) => e.status === 'active') ? 'active' : both.every((e) => e.status === 'resolved') ? 'resolved' : 'closed'
    const event: ServiceEvent = {
      slug,
      aliases,
      venuep: p,
      venuek: k,
      title: (p ?? k)?.title ?? slug,
      category: p?.category ?? k?.category ?? 'other',
      status,
      platforms: both.map((e) => e.venue),
      volumeTotal: sum(both.map((e) => e.volumeTotal)),
      volume24h: sum(both.map((e) => e.volume24h)),
      createdAt: min(both.map((e) => e.createdAt)),
      updatedAt: max(both.map((e) => e.updatedAt)),
      endTime: max(both.map((e) => e.endTime)),
    }
    this.#bySlug.set(slug, event)
    for (const a of aliases) if (!this.#bySlug.has(a)) this.#bySlug.set(a, event)
    if (p !== undefined) this.#slugOf.venuep.set(p.eventId, slug)
    if (k !== undefined) this.#slugOf.venuek.set(k.eventId, slug)
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
  return k.length === 0 ? undefined : Math.min(...k)
}

function max(values: readonly (number | undefined)[]): number | undefined {
  const k = known(values)
  return k.length === 0 ? undefined : Math.max(...k)
}
