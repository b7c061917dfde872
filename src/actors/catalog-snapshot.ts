import { DeltaMap } from '../core/delta-map.js'
import { runToEnd, type Steps } from '../core/slices.js'
import type { Catalog, CatalogEvent, CatalogTruncation, Outcome, PlatformMarket, VenueId } from '../model/types.js'

/**
 * An immutable, versioned view of one venue's catalog with the lookups readers need. Built once per catalog
 * sync (off the actor's hot path) and swapped in atomically; readers holding an older snapshot keep a
 * consistent view. Only lookups something reads: each is a map of the whole catalog, built at every install and
 * held for as long as the snapshot (the instruments' own map is the actor's, instrument-plan.ts).
 */
export interface CatalogSnapshot {
  readonly venue: VenueId
  /** Increases with every catalog the actor installs. */
  readonly version: number
  readonly fetchedAt: number
  readonly events: readonly CatalogEvent[]
  readonly eventsById: ReadonlyMap<string, CatalogEvent>
  readonly marketsById: ReadonlyMap<string, PlatformMarket>
  readonly outcomesById: ReadonlyMap<string, Outcome>
  readonly marketCount: number
  readonly outcomeCount: number
  /** Set when the sync stopped at the `maxEvents` guard while the venue listed more (Catalog.truncation). */
  readonly truncation: CatalogTruncation | undefined
  /**
   * What changed since the snapshot installed before it, when it was made from that one (a refresh): the read
   * models then update their lookups by the changes instead of rebuilding them (venue-view.ts).
   */
  readonly changes: CatalogChanges | undefined
  /** Every event, market and outcome id is listed once, so the lookups hold every record (a patch relies on it). */
  readonly idsOnce: boolean
}

/** The events that differ between two versions of a venue's catalog, compared as objects (mapped-records.ts gives
 * back an unchanged event as the same object). */
export interface CatalogChanges {
  /** The version these are the changes since. */
  readonly since: number
  /** Its events this version does not hold: gone from the venue, or replaced by a new object under the same id. */
  readonly removed: readonly CatalogEvent[]
  /** This version's events it did not hold: new at the venue, or the new objects of changed events. */
  readonly added: readonly CatalogEvent[]
}

/** Events between two checkpoints of the sliced build (a patch looks up sixteen times as many between two). */
const CHECKPOINT_EVERY = 64

export function buildCatalogSnapshot(
  catalog: Catalog,
  version: number,
  previous?: CatalogSnapshot,
  known?: KnownChanges,
): CatalogSnapshot {
  return runToEnd(catalogSnapshotSteps(catalog, version, previous, known))
}

/**
 * The events a catalog holds that the previous snapshot did not (`added`: new, or new objects of changed events) and
 * the previous snapshot's it does not (`removed`), when whoever made the catalog knows them (a refresh of changes,
 * catalog-changed-events.ts): the patch then skips its pass over every event to find them.
 */
export interface KnownChanges {
  readonly removed: readonly CatalogEvent[]
  readonly added: readonly CatalogEvent[]
}

/**
 * Past this share of a lookup's entries set or removed since it was last built whole, a snapshot is built whole
 * again (its lookups then read one map each; DeltaMap).
 */
const MAX_DELTA_SHARE = 1 / 8

/**
 * The snapshot built in event-loop slices (~0.1 s of CPU at 20,000 events; src/core/slices.ts). Given `previous`
 * (the installed snapshot this one follows), its lookups are `previous`'s with the changed events' entries
 * replaced, in time proportional to the changes but for one lookup per event to find them; it is built whole when
 * many changed, or when ids collide (an id listed twice: the whole build's "last listed wins" then decides).
 */
export function* catalogSnapshotSteps(
  catalog: Catalog,
  version: number,
  previous?: CatalogSnapshot,
  known?: KnownChanges,
): Steps<CatalogSnapshot> {
  const patched = previous === undefined ? undefined : yield* patchedLookupsSteps(catalog, previous, known)
  const lookups = patched ?? (yield* wholeLookupsSteps(catalog))
  return Object.freeze({
    venue: catalog.venue,
    version,
    fetchedAt: catalog.fetchedAt,
    events: catalog.events,
    ...lookups,
    marketCount: lookups.marketsById.size,
    outcomeCount: lookups.outcomesById.size,
    truncation: catalog.truncation,
  })
}

interface Lookups {
  readonly eventsById: ReadonlyMap<string, CatalogEvent>
  readonly marketsById: ReadonlyMap<string, PlatformMarket>
  readonly outcomesById: ReadonlyMap<string, Outcome>
  readonly changes: CatalogChanges | undefined
  readonly idsOnce: boolean
}

function* wholeLookupsSteps(catalog: Catalog): Steps<Lookups> {
  const eventsById = new Map<string, CatalogEvent>()
  const marketsById = new Map<string, PlatformMarket>()
  const outcomesById = new Map<string, Outcome>()
  let n = 0
  let markets = 0
  let outcomes = 0
  for (const e of catalog.events) {
    eventsById.set(e.eventId, e)
    for (const m of e.markets) {
      marketsById.set(m.marketId, m)
      markets++
      for (const o of m.outcomes) outcomesById.set(o.outcomeId, o)
      outcomes += m.outcomes.length
    }
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  const idsOnce = eventsById.size === n && marketsById.size === markets && outcomesById.size === outcomes
  return { eventsById, marketsById, outcomesById, changes: undefined, idsOnce }
}

/** `previous`'s lookups with the changes to `catalog`, or undefined when they are better built whole. */
function* patchedLookupsSteps(
  catalog: Catalog,
  previous: CatalogSnapshot,
  known?: KnownChanges,
): Steps<Lookups | undefined> {
  if (!previous.idsOnce) return undefined
  const { removed, added } = known === undefined ? yield* changesSteps(catalog, previous) : known
  if (removed === undefined) return undefined
  const limit = MAX_DELTA_SHARE * Math.max(catalog.events.length, 1)
  const events = DeltaMap.over(previous.eventsById)
  if (events.deltaSize + removed.length + added.length > limit) return undefined
  const markets = DeltaMap.over(previous.marketsById)
  const outcomes = DeltaMap.over(previous.outcomesById)
  const goneMarkets: string[] = []
  const goneOutcomes: string[] = []
  for (const e of removed) {
    for (const m of e.markets) {
      // Each id is the removed event's own (not another event's under a colliding id), else built whole.
      if (markets.get(m.marketId) !== m) return undefined
      goneMarkets.push(m.marketId)
      for (const o of m.outcomes) {
        if (outcomes.get(o.outcomeId) !== o) return undefined
        goneOutcomes.push(o.outcomeId)
      }
    }
  }
  const goneEvents = removed.map((e) => e.eventId)
  const eventsById = events.with(
    goneEvents,
    added.map((e) => [e.eventId, e] as const),
  )
  const marketsById = markets.with(
    goneMarkets,
    added.flatMap((e) => e.markets.map((m) => [m.marketId, m] as const)),
  )
  const outcomesById = outcomes.with(
    goneOutcomes,
    added.flatMap((e) => e.markets.flatMap((m) => m.outcomes.map((o) => [o.outcomeId, o] as const))),
  )
  // Every id once: as many events, markets and outcomes in the lookups as listed (else an id collides).
  let marketCount = 0
  let outcomeCount = 0
  for (const e of added) for (const m of e.markets) (marketCount++, (outcomeCount += m.outcomes.length))
  for (const e of removed) for (const m of e.markets) (marketCount--, (outcomeCount -= m.outcomes.length))
  if (
    eventsById.size !== catalog.events.length ||
    marketsById.size !== previous.marketsById.size + marketCount ||
    outcomesById.size !== previous.outcomesById.size + outcomeCount ||
    marketsById.deltaSize > MAX_DELTA_SHARE * Math.max(marketsById.size, 1) ||
    outcomesById.deltaSize > MAX_DELTA_SHARE * Math.max(outcomesById.size, 1)
  )
    return undefined
  return { eventsById, marketsById, outcomesById, changes: { since: previous.version, removed, added }, idsOnce: true }
}

/** What `catalog` holds that `previous` did not and vice versa, by a pass over both; undefined for an id listed twice. */
function* changesSteps(
  catalog: Catalog,
  previous: CatalogSnapshot,
): Steps<{ removed: CatalogEvent[] | undefined; added: CatalogEvent[] }> {
  const before = previous.eventsById
  const removed: CatalogEvent[] = []
  const added: CatalogEvent[] = []
  const listed = new Set<string>()
  let n = 0
  for (const e of catalog.events) {
    listed.add(e.eventId)
    const old = before.get(e.eventId)
    if (old !== e) {
      added.push(e)
      if (old !== undefined) removed.push(old)
    }
    if (++n % (CHECKPOINT_EVERY * 16) === 0) yield
  }
  // An id listed twice: the whole build's "last listed wins" decides.
  if (listed.size !== n) return { removed: undefined, added }
  if (listed.size - added.length + removed.length < before.size) {
    // Some of `previous`'s events are not listed any more.
    yield
    for (const e of previous.events) if (!listed.has(e.eventId)) removed.push(e)
  }
  return { removed, added }
}

/**
 * Whether a listed catalog is the installed one: the same events (by identity: an unchanged raw event is mapped to
 * the same object, mapped-records.ts) in the same order, cut at the same guard. O(events), no allocation.
 */
export function listsInstalledCatalog(catalog: Catalog, installed: CatalogSnapshot): boolean {
  const a = catalog.events
  const b = installed.events
  if (a.length !== b.length) return false
  const ta = catalog.truncation
  const tb = installed.truncation
  if (ta?.maxEvents !== tb?.maxEvents || ta?.cut !== tb?.cut) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
