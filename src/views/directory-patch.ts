import { addTo } from '../core/multimap.js'
import type { CatalogSnapshot } from '../actors/catalog-snapshot.js'
import type { PatchedList } from '../core/patched-list.js'
import { DeltaMap, patchedMap } from '../core/delta-map.js'
import type { Steps } from '../core/slices.js'
import type { CatalogEvent, VenueId } from '../model/types.js'
import {
  serviceEvent,
  type DirectoryVenue,
  type EventLink,
  type LinksDelta,
  type ServiceEvent,
} from './service-event.js'

/**
 * How the event directory of the next catalogs and links is made from the current one in time proportional to what
 * changed, not to the catalogs (event-directory.ts builds it whole, MAX_DELTA_SHARE): the venue events that changed (the snapshots'
 * `changes`) and the ends of the links made or undone are regrouped, with every event once grouped with them, and
 * only their service events are replaced.
 *
 * The result is the whole build's, up to the order of `events` (which no reader relies on: the collapsed list and
 * the sitemap sort), only while the whole build's result depends on no order: no slug or alias claimed twice and no
 * link refused (`exact`). A patch that would break that gives up, and the directory is built whole.
 */
export interface DirectoryParts {
  /** A version of the previous directory's list until read whole (patched-list.ts). */
  readonly events: PatchedList<ServiceEvent>
  readonly bySlug: ReadonlyMap<string, ServiceEvent>
  readonly slugOf: ReadonlyMap<VenueId, ReadonlyMap<string, string>>
  readonly catalogs: ReadonlyMap<VenueId, CatalogSnapshot | undefined>
  readonly links: readonly EventLink[]
  readonly exact: boolean
}

/** The service events that differ from the previous directory's (compared as objects). */
export interface DirectoryChanges {
  /** The directory version these are the changes since. */
  readonly since: number
  readonly removed: readonly ServiceEvent[]
  readonly added: readonly ServiceEvent[]
}

/** Past this share of the catalogs' events regrouped, the directory is built whole. */
const MAX_PATCHED_SHARE = 1 / 16
/** Past this share of a lookup's keys changed since it was built whole, the directory is built whole. */
const MAX_DELTA_SHARE = 1 / 8
const CHECKPOINT_EVERY = 4096

const keyOf = (venue: VenueId, eventId: string) => `${venue}\u0000${eventId}`
/** A link's two ends' keys. */
const endsOf = (l: EventLink) => [keyOf(l.a.venue, l.a.eventId), keyOf(l.b.venue, l.b.eventId)] as const

/** A links array's ends by key: each link's two ends (by its pair's key) and, per event, the events linked with it. */
interface LinkIndex {
  readonly pairs: ReadonlyMap<string, readonly [string, string]>
  /** Cross-venue links only (a link within one venue joins nothing). */
  readonly linked: ReadonlyMap<string, readonly string[]>
  /** When made from the index of the links before (`linksChanged`): that index, and the ends of the links changed. */
  readonly from?: { readonly index: LinkIndex; readonly ends: readonly string[] }
}

const NONE: readonly string[] = []
/** Per links array (the matcher hands a new one per run; a patch reads the previous array's from here). */
const linkIndexes = new WeakMap<readonly EventLink[], LinkIndex>()

function* linkIndexSteps(links: readonly EventLink[]): Steps<LinkIndex> {
  const cached = linkIndexes.get(links)
  if (cached !== undefined) return cached
  const pairs = new Map<string, readonly [string, string]>()
  const linked = new Map<string, string[]>()
  const link = (from: string, to: string) => addTo(linked, from, to)
  let n = 0
  for (const l of links) {
    const ends = endsOf(l)
    pairs.set(`${ends[0]}\u0000${ends[1]}`, ends)
    if (l.a.venue !== l.b.venue) (link(ends[0], ends[1]), link(ends[1], ends[0]))
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  const index = { pairs, linked }
  linkIndexes.set(links, index)
  return index
}

/**
 * `links` replaced `previous` with the changes `delta`: when `previous` is indexed, `links`'s index is made from it in
 * time proportional to the changes (the maps are versions of the previous ones, delta-map.ts), and remembers which
 * ends changed, so a patch from a directory of `previous` reads those instead of comparing every link.
 */
export function linksChanged(previous: readonly EventLink[], links: readonly EventLink[], delta: LinksDelta): void {
  const before = linkIndexes.get(previous)
  if (before === undefined || links === previous || linkIndexes.has(links)) return
  const pairs = DeltaMap.over(before.pairs)
  const linked = DeltaMap.over(before.linked)
  if (Math.max(pairs.deltaSize, linked.deltaSize) > MAX_DELTA_SHARE * Math.max(pairs.size, 1)) return
  const ends: string[] = []
  const gonePairs: string[] = []
  const newPairs: (readonly [string, readonly [string, string]])[] = []
  const lists = new Map<string, string[]>()
  const listOf = (key: string): string[] => {
    let list = lists.get(key)
    if (list === undefined) lists.set(key, (list = [...(linked.get(key) ?? NONE)]))
    return list
  }
  for (const l of delta.removed) {
    const e = endsOf(l)
    ends.push(e[0], e[1])
    gonePairs.push(`${e[0]}\u0000${e[1]}`)
    if (l.a.venue === l.b.venue) continue
    for (const [from, to] of [e, [e[1], e[0]]] as const) {
      const list = listOf(from)
      const i = list.indexOf(to)
      if (i >= 0) list.splice(i, 1)
    }
  }
  for (const l of delta.added) {
    const e = endsOf(l)
    ends.push(e[0], e[1])
    newPairs.push([`${e[0]}\u0000${e[1]}`, e])
    if (l.a.venue !== l.b.venue) (listOf(e[0]).push(e[1]), listOf(e[1]).push(e[0]))
  }
  const emptied = [...lists].filter(([, list]) => list.length === 0).map(([key]) => key)
  const filled = [...lists].filter(([, list]) => list.length > 0)
  linkIndexes.set(links, {
    pairs: pairs.with(gonePairs, newPairs),
    linked: linked.with(emptied, filled),
    from: { index: before, ends },
  })
}

/** The parts of the directory of `venues` and `links` made from `previous`'s, or undefined to build it whole. */
export function* patchedDirectorySteps(
  previous: DirectoryParts,
  venues: readonly DirectoryVenue[],
  links: readonly EventLink[],
  previousVersion: number,
): Steps<(Omit<DirectoryParts, 'catalogs' | 'links' | 'exact'> & { changes: DirectoryChanges }) | undefined> {
  if (!previous.exact || previous.catalogs.size !== venues.length) return undefined
  const catalogOf = new Map<VenueId, CatalogSnapshot | undefined>()
  /** Venue event keys whose grouping may have changed: where regrouping starts. */
  const seeds: string[] = []
  let listed = 0
  for (const v of venues) {
    const before = previous.catalogs.get(v.venue)
    const now = v.catalog
    catalogOf.set(v.venue, now)
    listed += now?.events.length ?? 0
    if (now === before) continue
    if (now === undefined || before === undefined || now.changes?.since !== before.version || !now.idsOnce)
      return undefined
    for (const e of now.changes.removed) seeds.push(keyOf(v.venue, e.eventId))
    for (const e of now.changes.added) seeds.push(keyOf(v.venue, e.eventId))
  }
  const eventOf = (key: string): CatalogEvent | undefined => {
    const at = key.indexOf('\u0000')
    return catalogOf.get(key.slice(0, at) as VenueId)?.eventsById.get(key.slice(at + 1))
  }
  // The links made or undone: each links array's ends are indexed once (the previous array's by the patch before).
  const before = yield* linkIndexSteps(previous.links)
  const now = yield* linkIndexSteps(links)
  if (now.from?.index === before) for (const key of now.from.ends) seeds.push(key)
  else if (now !== before) {
    let n = 0
    for (const [pair, ends] of now.pairs) {
      if (!before.pairs.has(pair)) seeds.push(ends[0], ends[1])
      if (++n % CHECKPOINT_EVERY === 0) yield
    }
    for (const [pair, ends] of before.pairs) {
      if (!now.pairs.has(pair)) seeds.push(ends[0], ends[1])
      if (++n % CHECKPOINT_EVERY === 0) yield
    }
  }
  /** The events linked with a listed event now, both ends listed (the whole build joins only those). */
  const linkedWith = (key: string): readonly string[] => {
    const others = now.linked.get(key)
    if (others === undefined || eventOf(key) === undefined) return NONE
    return others.filter((other) => eventOf(other) !== undefined)
  }
  // Everything grouped with a seed, before or now: the old service events' members and the linked events, to closure.
  const serviceOf = (key: string): ServiceEvent | undefined => {
    const at = key.indexOf('\u0000')
    const slug = previous.slugOf.get(key.slice(0, at) as VenueId)?.get(key.slice(at + 1))
    return slug === undefined ? undefined : previous.bySlug.get(slug)
  }
  const regrouped = new Set<string>()
  const touched = new Set<ServiceEvent>()
  const queue = [...seeds]
  while (queue.length > 0) {
    const key = queue.pop() as string
    if (regrouped.has(key)) continue
    regrouped.add(key)
    const old = serviceOf(key)
    if (old !== undefined) {
      touched.add(old)
      for (const e of old.members) queue.push(keyOf(e.venue, e.eventId))
    }
    for (const other of linkedWith(key)) queue.push(other)
    if (regrouped.size > MAX_PATCHED_SHARE * Math.max(listed, 1)) return undefined
  }
  // The new groups: the listed regrouped events, joined along the links (no venue twice in a group, else refused
  // by the whole build, which depends on order: built whole).
  const rank = new Map(venues.map((v, i) => [v.venue, i]))
  const placed = new Set<string>()
  const groups: CatalogEvent[][] = []
  for (const key of regrouped) {
    if (placed.has(key) || eventOf(key) === undefined) continue
    const members: CatalogEvent[] = []
    const pending = [key]
    placed.add(key)
    while (pending.length > 0) {
      const k = pending.pop() as string
      members.push(eventOf(k) as CatalogEvent)
      for (const other of linkedWith(k)) if (!placed.has(other)) (placed.add(other), pending.push(other))
    }
    members.sort((x, y) => (rank.get(x.venue) ?? 0) - (rank.get(y.venue) ?? 0))
    for (let i = 1; i < members.length; i++)
      if ((members[i] as CatalogEvent).venue === (members[i - 1] as CatalogEvent).venue) return undefined
    groups.push(members)
  }
  yield
  // A group of the same members as its old service event keeps it; the others are new.
  const kept = new Set<ServiceEvent>()
  const added: ServiceEvent[] = []
  for (const members of groups) {
    const lead = members[0] as CatalogEvent
    const old = serviceOf(keyOf(lead.venue, lead.eventId))
    if (old !== undefined && old.members.length === members.length && old.members.every((e, i) => e === members[i]))
      kept.add(old)
    else added.push(serviceEvent(members, venues))
  }
  const removed = [...touched].filter((e) => !kept.has(e))
  // The lookups: the removed service events' keys out, the added ones' in, each key one event's.
  const bySlug = patchedMap(
    previous.bySlug,
    removed.flatMap((e) => [e.slug, ...e.aliases].map((k) => [k, e] as const)),
    added.flatMap((e) => [e.slug, ...e.aliases].map((k) => [k, e] as const)),
    MAX_DELTA_SHARE,
  )
  if (bySlug === undefined) return undefined
  const slugOf = new Map<VenueId, ReadonlyMap<string, string>>()
  for (const v of venues) {
    const map = previous.slugOf.get(v.venue) ?? new Map<string, string>()
    const out = removed.flatMap((e) =>
      e.members.filter((m) => m.venue === v.venue).map((m) => [m.eventId, e.slug] as const),
    )
    const into = added.flatMap((e) =>
      e.members.filter((m) => m.venue === v.venue).map((m) => [m.eventId, e.slug] as const),
    )
    if (out.length === 0 && into.length === 0) slugOf.set(v.venue, map)
    else {
      const next = patchedMap(map, out, into, MAX_DELTA_SHARE)
      if (next === undefined) return undefined
      slugOf.set(v.venue, next)
    }
  }
  const events = previous.events.edited(new Set(removed), added)
  return { events, bySlug, slugOf, changes: { since: previousVersion, removed, added } }
}
