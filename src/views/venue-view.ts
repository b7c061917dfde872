import type { CatalogSnapshot } from '../actors/catalog-snapshot.js'
import { money } from '../core/money.js'
import { PatchedList } from '../core/patched-list.js'
import type { VenueActor } from '../actors/venue-actor.js'
import { runToEnd, type Steps } from '../core/slices.js'
import type { CatalogEvent, Outcome, PlatformMarket, Quote, VenueId } from '../model/types.js'
import { VIEW_CHECKPOINT_EVERY, type EventDirectory } from './event-directory.js'
import type { ViewSeeds } from './list-file.js'
import { ListIndex, type SortKeys } from './list-index.js'
import { venueEventRecord } from './records.js'
import type { VenueViewRules } from './venue-rules.js'
import type { EventEntry, MarketEntry, OutcomeEntry } from './venue-entries.js'
import { patchedLookups, type VenueViewLookups } from './venue-view-lookups.js'

export type { EventEntry, MarketEntry, OutcomeEntry } from './venue-entries.js'

/** A venue as the read models see it: its actor (catalog, quotes, feed statistics) and its rules. */
export interface ViewedVenue {
  readonly actor: VenueActor
  readonly rules: VenueViewRules
}

/** Money keys sort on the printed (cent) value, so records showing equal volumes are ordered by id as documented. */
const cents = (x: number | undefined): number | undefined => money(x) ?? undefined

const SORT_KEYS: SortKeys<{ market: PlatformMarket } | { event: CatalogEvent }> = {
  volume: (e) => cents(('market' in e ? e.market : e.event).volumeTotal),
  volume_24h: (e) => cents(('market' in e ? e.market : e.event).volume24h),
  liquidity: (e) => cents(('market' in e ? e.market : e.event).liquidity),
  updated_at: (e) => ('market' in e ? e.market : e.event).updatedAt,
  end_time: (e) => ('market' in e ? e.market : e.event).endTime,
  created_at: (e) => ('market' in e ? e.market : e.event).createdAt,
}

/** Outcomes by their own volume, the market's when the venue gives none. One object: a rebuilt list reuses its
 * predecessor's orderings only over the same keys (ListIndex.prepareSteps). */
const OUTCOME_SORT_KEYS: SortKeys<OutcomeEntry> = {
  volume: (e) => cents(e.outcome.volume ?? e.market.market.volumeTotal),
}

/** The lookups of a VenueView being built whole (filled in slices by `VenueView.build`). */
interface BuildingLookups {
  readonly marketEntries: MarketEntry[]
  readonly eventEntries: EventEntry[]
  readonly outcomeEntries: OutcomeEntry[]
  readonly marketById: Map<string, MarketEntry>
  readonly marketBySlug: Map<string, MarketEntry>
  readonly outcomeById: Map<string, OutcomeEntry>
  readonly eventById: Map<string, EventEntry>
  readonly marketByOutcomeKey: Map<string, MarketEntry>
  readonly byInstrument: Map<string, MarketEntry | MarketEntry[]>
  /** A key of a lookup was claimed by two entries: listing order settled it (the lookups are not `exact`). */
  claimedTwice: boolean
}

let generations = 0

/**
 * Past this share of a catalog's events changed (or given a new slug) since the view it replaces, a view is built
 * whole instead of patched from that one.
 */
const MAX_PATCHED_SHARE = 1 / 16

/**
 * One venue's catalog as the API reads it, made anew per catalog version (or event-directory version): list
 * indexes over markets and events, id lookups for the filters, and a JSON fragment per record, serialized once
 * and reused until a quote of one of its outcomes changes (the venue actor's quote stream bumps `version`). A view
 * of a refresh that changed few events is patched from the one it replaces, in time proportional to the changes
 * (`build`); otherwise built whole, keeping the entries of unchanged events.
 */
export class VenueView {
  /** Tells views apart without holding on to them: each view has its own. */
  readonly generation = ++generations
  /**
   * The generation of the view this one was made from, keeping the entries of every event that kept its object and
   * slug (patched from it, or built whole with it): whoever holds those entries can keep them (collapsed-view.ts).
   */
  readonly predecessor: number | undefined
  /** How it was made from its predecessor: kept whole (same catalog and slugs), patched by the changes, or built. */
  readonly made: 'kept' | 'patched' | 'built'
  readonly venue: VenueId
  readonly catalog: CatalogSnapshot
  readonly directory: EventDirectory
  readonly markets: ListIndex<MarketEntry>
  readonly events: ListIndex<EventEntry>
  readonly outcomes: ListIndex<OutcomeEntry>
  readonly marketById: ReadonlyMap<string, MarketEntry>
  /** Market ids and child-market slugs (of a grouped market's children) → market. */
  readonly marketBySlug: ReadonlyMap<string, MarketEntry>
  /** Outcome id → its entry in `outcomes` (filters must hand the index its own entries). */
  readonly outcomeById: ReadonlyMap<string, OutcomeEntry>
  readonly eventById: ReadonlyMap<string, EventEntry>
  /** Outcome ids, and the venue's other market keys (`VenueViewRules.outcomeKeys`, e.g. condition ids) → market. */
  readonly marketByOutcomeKey: ReadonlyMap<string, MarketEntry>
  readonly #byInstrument: ReadonlyMap<string, MarketEntry | MarketEntry[]>
  readonly #actor: VenueActor
  readonly #rules: VenueViewRules
  readonly #parts: VenueViewLookups

  /** `lists`: the list indexes of a view over the same catalog and slugs (see `build`), shared with their caches. */
  private constructor(
    venue: ViewedVenue,
    catalog: CatalogSnapshot,
    directory: EventDirectory,
    parts: VenueViewLookups,
    predecessor: VenueView | undefined,
    made: VenueView['made'],
    lists?: VenueView,
  ) {
    const { actor, rules } = venue
    this.venue = actor.venue
    this.predecessor = predecessor?.generation
    this.made = made
    this.#actor = actor
    this.#rules = rules
    this.catalog = catalog
    this.directory = directory
    this.marketById = parts.marketById
    this.marketBySlug = parts.marketBySlug
    this.outcomeById = parts.outcomeById
    this.eventById = parts.eventById
    this.marketByOutcomeKey = parts.marketByOutcomeKey
    this.#byInstrument = parts.byInstrument
    this.#parts = parts
    // Markets are searched by the venue's search text (e.g. event title and market slug), else by event title.
    const searchText = rules.marketSearchText
    // Each list reads the view's own id map of its records (filled in the same order) instead of building a copy.
    this.markets =
      lists?.markets ??
      new ListIndex(
        parts.marketEntries,
        SORT_KEYS,
        searchText === undefined ? (e) => e.event.title : (e) => searchText(e.event, e.market),
        parts.marketById,
      )
    this.events = lists?.events ?? new ListIndex(parts.eventEntries, SORT_KEYS, (e) => e.event.title, parts.eventById)
    this.outcomes =
      lists?.outcomes ??
      new ListIndex(parts.outcomeEntries, OUTCOME_SORT_KEYS, (e) => e.outcome.title, parts.outcomeById)
  }

  static create(venue: ViewedVenue, catalog: CatalogSnapshot, directory: EventDirectory): VenueView {
    return runToEnd(VenueView.build(venue, catalog, directory))
  }

  /**
   * The view, built in slices. `previous` is the view it replaces: when it is over the same catalog and the new
   * directory gives every event the same slug (the other venue's catalog changed, not this one), its entries,
   * indexes and cached JSON are all still right and are kept; otherwise the new view is warmed with what
   * requests made `previous` build on demand, and the entries of every event it shares with `previous` (the same
   * event object under the same slug) are `previous`'s, cached JSON included.
   */
  static *build(
    viewed: ViewedVenue,
    catalog: CatalogSnapshot,
    directory: EventDirectory,
    previous?: VenueView,
    seeds?: ViewSeeds,
  ): Steps<VenueView> {
    if (previous !== undefined && previous.catalog === catalog && (yield* sameSlugsSteps(previous, directory))) {
      return new VenueView(viewed, catalog, directory, previous.#parts, previous, 'kept', previous)
    }
    if (previous !== undefined) {
      const view = yield* VenueView.#patchedSteps(viewed, catalog, directory, previous)
      if (view !== undefined) return view
    }
    const venue = viewed.actor.venue
    const outcomeKeys = viewed.rules.outcomeKeys
    const parts: BuildingLookups = {
      marketEntries: [],
      eventEntries: [],
      outcomeEntries: [],
      marketById: new Map(),
      marketBySlug: new Map(),
      outcomeById: new Map(),
      eventById: new Map(),
      marketByOutcomeKey: new Map(),
      byInstrument: new Map(),
      claimedTwice: false,
    }
    let n = 0
    for (const event of catalog.events) {
      if (++n % VIEW_CHECKPOINT_EVERY === 0) yield
      const eventSlug = directory.slugOf(venue, event.eventId) ?? event.eventId
      const kept = previous?.eventById.get(event.eventId)
      if (kept !== undefined && kept.event === event && kept.eventSlug === eventSlug) {
        // The same event object (a refresh gives an unchanged event back: mapped-records.ts) under the same slug:
        // its entries are still right, and keep their cached JSON and quote versions.
        for (const entry of kept.markets) addMarket(parts, entry, outcomeKeys, previous?.outcomeById)
        if (parts.eventById.has(event.eventId)) parts.claimedTwice = true
        parts.eventById.set(event.eventId, kept)
        parts.eventEntries.push(kept)
        continue
      }
      const entry = eventEntry(event, eventSlug)
      for (const market of entry.markets) addMarket(parts, market, outcomeKeys, undefined)
      if (parts.eventById.has(event.eventId)) parts.claimedTwice = true
      parts.eventById.set(event.eventId, entry)
      parts.eventEntries.push(entry)
    }
    const lookups: VenueViewLookups = {
      ...parts,
      marketEntries: PatchedList.of(parts.marketEntries),
      eventEntries: PatchedList.of(parts.eventEntries),
      outcomeEntries: PatchedList.of(parts.outcomeEntries),
      exact: !parts.claimedTwice,
    }
    const view = new VenueView(viewed, catalog, directory, lookups, previous, 'built')
    // Every ordering and search index a first request could need, before the view is installed; a restart's first
    // view takes what checks out of its list file (list-file.ts).
    const offered = (name: string) => {
      const seed = seeds?.lists.get(name)
      return seed && { seed, sameRecords: seeds?.fetchedAt === catalog.fetchedAt }
    }
    yield* view.markets.prepareSteps(previous?.markets, undefined, offered('markets'))
    yield* view.events.prepareSteps(previous?.events, undefined, offered('events'))
    yield* view.outcomes.prepareSteps(previous?.outcomes, undefined, offered('outcomes'))
    yield* view.markets.warmSteps(previous?.markets)
    yield* view.events.warmSteps(previous?.events)
    yield* view.outcomes.warmSteps(previous?.outcomes)
    return view
  }

  /**
   * The view of a refreshed catalog made from `previous` (the view of the catalog it replaced, or of the same catalog
   * when only slugs moved) and the events that changed (`CatalogSnapshot.changes`) or were given another slug by the
   * new directory: their entries replaced in
   * the lookups and lists, the orderings merged and the search index patched. Undefined when it is better built
   * whole (no changes known, many changed, or lookups a patch cannot keep exact: venue-view-lookups.ts).
   */
  static *#patchedSteps(
    viewed: ViewedVenue,
    catalog: CatalogSnapshot,
    directory: EventDirectory,
    previous: VenueView,
  ): Steps<VenueView | undefined> {
    // The same catalog (the other venue's changed, and the links with it): only slugs moved.
    const same = previous.catalog === catalog
    const changes = same ? undefined : catalog.changes
    if (!previous.#parts.exact || (!same && (changes === undefined || changes.since !== previous.catalog.version)))
      return undefined
    const venue = viewed.actor.venue
    const changed = new Set<string>()
    for (const e of changes?.removed ?? []) changed.add(e.eventId)
    for (const e of changes?.added ?? []) changed.add(e.eventId)
    // The directory may give an unchanged event another slug (a link made or undone): its entries carry the slug.
    // Patched from the view's directory, it names the events it regrouped; else every event is looked at.
    const slugMoved = (id: string) =>
      !changed.has(id) && previous.eventById.get(id)?.eventSlug !== (directory.slugOf(venue, id) ?? id)
    const regrouped = regroupedEventIds(previous, directory)
    if (regrouped !== undefined) {
      for (const id of regrouped) if (catalog.eventsById.has(id) && slugMoved(id)) changed.add(id)
    } else {
      let n = 0
      for (const event of catalog.events) {
        if (++n % (VIEW_CHECKPOINT_EVERY * 64) === 0) yield
        if (slugMoved(event.eventId)) changed.add(event.eventId)
      }
    }
    if (changed.size > MAX_PATCHED_SHARE * Math.max(catalog.events.length, 1)) return undefined
    const removed: EventEntry[] = []
    const added: EventEntry[] = []
    for (const id of changed) {
      const old = previous.eventById.get(id)
      if (old !== undefined) removed.push(old)
      const event = catalog.eventsById.get(id)
      if (event !== undefined) added.push(eventEntry(event, directory.slugOf(venue, id) ?? id))
    }
    const parts = patchedLookups(previous.#parts, removed, added, viewed.rules.outcomeKeys)
    if (parts === undefined) return undefined
    const view = new VenueView(viewed, catalog, directory, parts, previous, 'patched')
    const markets = { removed: new Set(removed.flatMap((e) => e.markets)), added: added.flatMap((e) => e.markets) }
    const events = { removed: new Set(removed), added }
    const outcomesOf = (entries: readonly EventEntry[], lookups: VenueViewLookups) =>
      entries.flatMap((e) =>
        e.markets.flatMap((m) => m.market.outcomes.map((o) => lookups.outcomeById.get(o.outcomeId) as OutcomeEntry)),
      )
    const outcomes = { removed: new Set(outcomesOf(removed, previous.#parts)), added: outcomesOf(added, parts) }
    yield* view.markets.prepareSteps(previous.markets, markets)
    yield* view.events.prepareSteps(previous.events, events)
    yield* view.outcomes.prepareSteps(previous.outcomes, outcomes)
    yield* view.markets.warmSteps(previous.markets, markets)
    yield* view.events.warmSteps(previous.events, events)
    yield* view.outcomes.warmSteps(previous.outcomes, outcomes)
    return view
  }

  /** The view's lists by the names a list file keeps them under (list-file.ts). */
  lists(): readonly (readonly [string, ListIndex<MarketEntry> | ListIndex<EventEntry> | ListIndex<OutcomeEntry>])[] {
    return [
      ['markets', this.markets],
      ['events', this.events],
      ['outcomes', this.outcomes],
    ]
  }

  /** Marks the markets priced by these quotes as changed (their cached fragments are rebuilt on next read). */
  onQuotes(quotes: readonly Quote[]): void {
    for (const q of quotes) {
      const entries = this.#byInstrument.get(q.instrumentId)
      if (entries === undefined) continue
      if (Array.isArray(entries)) for (const e of entries) e.version++
      else entries.version++
    }
  }

  quoteOf = (instrumentId: string): Quote | undefined => this.#actor.quote(instrumentId)

  /** The market record's JSON, cached until one of its quotes changes. */
  marketJson(entry: MarketEntry): string {
    if (entry.fragment === undefined || entry.fragmentVersion !== entry.version) {
      entry.fragmentVersion = entry.version
      entry.fragment = JSON.stringify(this.marketRecord(entry))
    }
    return entry.fragment
  }

  marketRecord(entry: MarketEntry): Record<string, unknown> {
    return this.#rules.marketRecord(entry.market, entry.eventSlug, this.quoteOf, this.outcomeVolume)
  }

  /** The outcome volume a market record shows: the live traded volume when the venue's feed pushes one, else the catalog's. */
  outcomeVolume = (o: Outcome): number | undefined =>
    this.#rules.liveVolume === true ? (this.#actor.stats(o.instrumentId)?.volume ?? o.volume) : o.volume

  /** An event row: the event's fields followed by its markets' cached fragments. */
  eventJson(entry: EventEntry): string {
    const head = JSON.stringify(venueEventRecord(entry.event, entry.eventSlug, []))
    return `${head.slice(0, -'[]}'.length)}[${entry.markets.map((m) => this.marketJson(m)).join(',')}]}`
  }

  /** Market versions of an event, for page-cache validation. */
  eventVersion(entry: EventEntry): number {
    let v = 0
    for (const m of entry.markets) v += m.version
    return v
  }
}

/** A new event's entries (no cached JSON yet), under its service event's slug. */
function eventEntry(event: CatalogEvent, eventSlug: string): EventEntry {
  return {
    id: event.eventId,
    status: event.status,
    category: event.category,
    event,
    eventSlug,
    markets: event.markets.map((market) => ({
      id: market.marketId,
      status: market.status,
      category: market.category,
      market,
      event,
      eventSlug,
      version: 0,
      fragment: undefined,
      fragmentVersion: -1,
    })),
  }
}

/**
 * Files a market entry and its outcomes in the view's lookups. `kept`: the previous view's outcome entries, reused
 * for a kept market entry (the same outcome objects under it).
 */
function addMarket(
  parts: BuildingLookups,
  entry: MarketEntry,
  outcomeKeys: VenueViewRules['outcomeKeys'],
  kept: ReadonlyMap<string, OutcomeEntry> | undefined,
): void {
  const market = entry.market
  /** Files `key` → `entry`, noting a key another entry claimed already (the lookups are then not `exact`). */
  const file = (map: Map<string, MarketEntry>, key: string, firstWins: boolean) => {
    const held = map.get(key)
    if (held === entry) return
    if (held !== undefined) parts.claimedTwice = true
    if (held === undefined || !firstWins) map.set(key, entry)
  }
  if (parts.marketById.has(market.marketId)) parts.claimedTwice = true
  parts.marketById.set(market.marketId, entry)
  file(parts.marketBySlug, market.marketId, false)
  for (const o of market.outcomes) {
    if (outcomeKeys !== undefined) for (const key of outcomeKeys(o)) file(parts.marketByOutcomeKey, key, false)
    file(parts.marketByOutcomeKey, o.outcomeId, false)
    if (o.childMarketSlug !== undefined) file(parts.marketBySlug, o.childMarketSlug, true)
    const previous = kept?.get(o.outcomeId)
    const oe: OutcomeEntry =
      previous !== undefined && previous.market === entry && previous.outcome === o
        ? previous
        : { id: o.outcomeId, status: o.status, category: market.category, outcome: o, market: entry }
    parts.outcomeEntries.push(oe)
    if (parts.outcomeById.has(o.outcomeId)) parts.claimedTwice = true
    parts.outcomeById.set(o.outcomeId, oe)
    // An instrument pricing two outcomes of one market (both sides of a binary) lists the market once.
    const priced = parts.byInstrument.get(o.instrumentId)
    if (priced === undefined) parts.byInstrument.set(o.instrumentId, entry)
    else if (priced === entry) continue
    else if (Array.isArray(priced)) {
      if (!priced.includes(entry)) priced.push(entry)
    } else {
      parts.claimedTwice = true
      parts.byInstrument.set(o.instrumentId, [priced, entry])
    }
  }
  parts.marketEntries.push(entry)
}

/** Whether `directory` gives every event of `view` the slug the view's entries carry. */
function* sameSlugsSteps(view: VenueView, directory: EventDirectory): Steps<boolean> {
  const regrouped = regroupedEventIds(view, directory)
  if (regrouped !== undefined) {
    for (const id of regrouped) {
      const e = view.eventById.get(id)
      if (e !== undefined && (directory.slugOf(view.venue, id) ?? id) !== e.eventSlug) return false
    }
    return true
  }
  let n = 0
  for (const e of view.eventById.values()) {
    if ((directory.slugOf(view.venue, e.id) ?? e.id) !== e.eventSlug) return false
    if (++n % 1024 === 0) yield
  }
  return true
}

/**
 * The ids of `view`'s venue events that `directory` may have given another slug than the view's directory did: when
 * it was patched from that one (event-directory.ts `changes`), only the members of the service events it replaced or
 * added; undefined when it was built otherwise (every event must then be looked at).
 */
function regroupedEventIds(view: VenueView, directory: EventDirectory): Set<string> | undefined {
  if (directory === view.directory) return new Set()
  const changes = directory.changes
  if (changes === undefined || changes.since !== view.directory.version) return undefined
  const ids = new Set<string>()
  for (const list of [changes.removed, changes.added])
    for (const e of list) for (const m of e.members) if (m.venue === view.venue) ids.add(m.eventId)
  return ids
}
