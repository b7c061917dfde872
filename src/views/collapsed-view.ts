import { PatchedList } from '../core/patched-list.js'
import { patchedMap } from '../core/delta-map.js'
import { money } from '../core/money.js'
import type { VenueId } from '../model/types.js'
import { runToEnd, type Steps } from '../core/slices.js'
import { VIEW_CHECKPOINT_EVERY, type EventDirectory, type ServiceEvent } from './event-directory.js'
import { leadingIndex, type LeadCandidate } from './leading.js'
import { ListIndex, type SortKeys } from './list-index.js'
import type { OfferedSeed } from './list-seed.js'
import { outcomePrice } from './outcome-price.js'
import { iso } from './records.js'
import type { MarketEntry, VenueView } from './venue-view.js'

/**
 * The collapsed cross-venue event list (`GET /api/v2/events`): one row per service event with its leading
 * outcome (leading.ts: the highest probability among its open outcomes on any venue, ties by volume, then by
 * outcome id), aggregated volume and platforms.
 * Rows are cached as JSON until a quote of one of the event's outcomes changes.
 */
export interface CollapsedEntry {
  readonly id: string
  readonly status: string
  readonly category: string
  readonly event: ServiceEvent
  /** Its markets' entries in their venue's view (the view itself is the collapsed view's: `views`). */
  readonly markets: readonly { readonly venue: VenueId; readonly entry: MarketEntry }[]
  fragment: string | undefined
  fragmentVersion: number
}

const SORT_KEYS: SortKeys<CollapsedEntry> = {
  // Money keys sort on the printed (cent) value, so rows showing equal volumes are ordered by id as documented.
  volume: (e) => money(e.event.volumeTotal) ?? undefined,
  volume_24h: (e) => money(e.event.volume24h) ?? undefined,
  updated_at: (e) => e.event.updatedAt,
  end_time: (e) => e.event.endTime,
  created_at: (e) => e.event.createdAt,
}

/** Past this share of service events changed since the view it replaces, the collapsed view is built whole. */
const MAX_PATCHED_SHARE = 1 / 16
/** Past this share of the slug lookup changed since it was built whole, the collapsed view is built whole. */
const MAX_DELTA_SHARE = 1 / 8

export class CollapsedView {
  readonly directory: EventDirectory
  readonly index: ListIndex<CollapsedEntry>
  /** The venue views the entries' market entries belong to. */
  readonly #views: ReadonlyMap<VenueId, VenueView>
  /** A version of its predecessor's list until read whole (patched-list.ts). */
  readonly #entries: PatchedList<CollapsedEntry>
  /** Entry by service event slug (its id): the list index's id lookup, and what a patch replaces entries in. */
  readonly #bySlug: ReadonlyMap<string, CollapsedEntry>

  private constructor(
    directory: EventDirectory,
    entries: PatchedList<CollapsedEntry>,
    views: ReadonlyMap<VenueId, VenueView>,
    bySlug: ReadonlyMap<string, CollapsedEntry>,
  ) {
    this.directory = directory
    this.index = new ListIndex(entries, SORT_KEYS, searchTitle, bySlug)
    this.#views = views
    this.#entries = entries
    this.#bySlug = bySlug
  }

  static create(directory: EventDirectory, views: ReadonlyMap<VenueId, VenueView>): CollapsedView {
    return runToEnd(CollapsedView.build(directory, views))
  }

  /**
   * The view, built in slices. An event of `previous` that is the same service event over the same market entries
   * (the directory and the venue views keep those of unchanged events) keeps its entry, cached row included, and
   * the list index then takes over `previous`'s orderings (ListIndex.prepareSteps); it is also warmed with what
   * requests made `previous` build on demand. A restart's first view is offered `seed`, its list file's (list-file.ts).
   */
  static *build(
    directory: EventDirectory,
    views: ReadonlyMap<VenueId, VenueView>,
    previous?: CollapsedView,
    seed?: OfferedSeed,
  ): Steps<CollapsedView> {
    if (previous !== undefined) {
      const view = yield* CollapsedView.#patchedSteps(directory, views, previous)
      if (view !== undefined) return view
    }
    const before = new Map<ServiceEvent, CollapsedEntry>()
    for (const e of previous === undefined ? [] : previous.#entries.array()) before.set(e.event, e)
    yield
    const entries: CollapsedEntry[] = []
    const bySlug = new Map<string, CollapsedEntry>()
    for (const event of directory.events) {
      const entry = entryOf(event, views, before.get(event))
      entries.push(entry)
      bySlug.set(entry.id, entry)
      if (entries.length % VIEW_CHECKPOINT_EVERY === 0) yield
    }
    const view = new CollapsedView(directory, PatchedList.of(entries), views, bySlug)
    yield* view.index.prepareSteps(previous?.index, undefined, seed)
    yield* view.index.warmSteps(previous?.index)
    return view
  }

  /**
   * The view made from `previous` and the service events the directory replaced since `previous`'s
   * (EventDirectory.changes), when every venue view is `previous`'s or was made from it (so the market entries of
   * every other event are the same objects): only those events' entries are replaced, the orderings merged and the
   * search index patched. Undefined when it is better built whole.
   */
  static *#patchedSteps(
    directory: EventDirectory,
    views: ReadonlyMap<VenueId, VenueView>,
    previous: CollapsedView,
  ): Steps<CollapsedView | undefined> {
    const changes = directory.changes
    if (changes === undefined || changes.since !== previous.directory.version) return undefined
    if (changes.removed.length + changes.added.length > MAX_PATCHED_SHARE * Math.max(previous.#entries.length, 1))
      return undefined
    for (const [venue, view] of views) {
      const before = previous.#views.get(venue)
      if (before === undefined || (view !== before && view.predecessor !== before.generation)) return undefined
    }
    if (views.size !== previous.#views.size) return undefined
    const removed: CollapsedEntry[] = []
    for (const event of changes.removed) {
      const entry = previous.#bySlug.get(event.slug)
      if (entry === undefined || entry.event !== event) return undefined
      removed.push(entry)
    }
    const added = changes.added.map((event) => entryOf(event, views, undefined))
    const bySlug = patchedMap(
      previous.#bySlug,
      removed.map((e) => [e.id, e] as const),
      added.map((e) => [e.id, e] as const),
      MAX_DELTA_SHARE,
    )
    if (bySlug === undefined) return undefined
    const gone = new Set(removed)
    const entries = previous.#entries.edited(gone, added)
    yield
    const view = new CollapsedView(directory, entries, views, bySlug)
    const known = { removed: gone, added }
    yield* view.index.prepareSteps(previous.index, known)
    yield* view.index.warmSteps(previous.index, known)
    return view
  }

  version(e: CollapsedEntry): number {
    let v = 0
    for (const m of e.markets) v += m.entry.version
    return v
  }

  json(e: CollapsedEntry): string {
    const v = this.version(e)
    if (e.fragment === undefined || e.fragmentVersion !== v) {
      e.fragmentVersion = v
      e.fragment = JSON.stringify(this.record(e))
    }
    return e.fragment
  }

  record(e: CollapsedEntry): Record<string, unknown> {
    const ev = e.event
    return {
      event_slug: ev.slug,
      title: ev.title,
      category: ev.category,
      status: ev.status,
      leading_outcome: this.#leading(e),
      volume_total: money(ev.volumeTotal),
      volume_24h: money(ev.volume24h),
      platform_count: ev.platforms.length,
      platforms: ev.platforms,
      end_time: iso(ev.endTime),
      created_at: iso(ev.createdAt),
      updated_at: iso(ev.updatedAt),
    }
  }

  #leading(e: CollapsedEntry): Record<string, unknown> | null {
    const found: { venue: VenueId; title: string }[] = []
    const candidates: LeadCandidate[] = []
    for (const m of e.markets) {
      const view = this.#views.get(m.venue) as VenueView
      for (const o of m.entry.market.outcomes) {
        found.push({ venue: m.venue, title: o.title })
        candidates.push({
          open: o.status === 'active',
          probability: outcomePrice(o, view.quoteOf(o.instrumentId)).probability,
          volume: view.outcomeVolume(o),
          id: o.outcomeId,
        })
      }
    }
    const i = leadingIndex(candidates)
    const best = candidates[i]
    // An unknown probability ranks last: when it leads, no outcome has a price to show.
    if (best === undefined || best.probability === undefined) return null
    const { venue, title } = found[i] as { venue: VenueId; title: string }
    return { title, probability: best.probability, platform: venue, outcome_id: best.id }
  }
}

/** The entry of `event`: its markets' entries in the venue views; `kept` (its previous entry) if they are the same. */
function entryOf(
  event: ServiceEvent,
  views: ReadonlyMap<VenueId, VenueView>,
  kept: CollapsedEntry | undefined,
): CollapsedEntry {
  const markets: { venue: VenueId; entry: MarketEntry }[] = []
  for (const ce of event.members) {
    const venue = ce.venue
    const view = views.get(venue)
    if (view === undefined) continue
    for (const m of ce.markets) {
      const entry = view.marketById.get(m.marketId)
      if (entry !== undefined) markets.push({ venue, entry })
    }
  }
  if (kept !== undefined && sameMarkets(kept.markets, markets)) return kept
  return {
    id: event.slug,
    status: event.status,
    category: event.category,
    event,
    markets,
    fragment: undefined,
    fragmentVersion: -1,
  }
}

/** One function for every index (a rebuilt list index takes over its predecessor's over the same text). */
const searchTitle = (e: CollapsedEntry): string => e.event.title

function sameMarkets(
  a: readonly { readonly venue: VenueId; readonly entry: MarketEntry }[],
  b: readonly { readonly venue: VenueId; readonly entry: MarketEntry }[],
): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if ((a[i] as (typeof a)[0]).entry !== (b[i] as (typeof b)[0]).entry) return false
  return true
}
