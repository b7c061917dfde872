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
}

/** Events between two checkpoints of the sliced build. */
const CHECKPOINT_EVERY = 64

export function buildCatalogSnapshot(catalog: Catalog, version: number): CatalogSnapshot {
  return runToEnd(catalogSnapshotSteps(catalog, version))
}

/** The snapshot built in event-loop slices (~0.1 s of CPU at 20,000 events; src/core/slices.ts). */
export function* catalogSnapshotSteps(catalog: Catalog, version: number): Steps<CatalogSnapshot> {
  const eventsById = new Map<string, CatalogEvent>()
  const marketsById = new Map<string, PlatformMarket>()
  const outcomesById = new Map<string, Outcome>()
  let n = 0
  for (const e of catalog.events) {
    eventsById.set(e.eventId, e)
    for (const m of e.markets) {
      marketsById.set(m.marketId, m)
      for (const o of m.outcomes) outcomesById.set(o.outcomeId, o)
    }
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  return Object.freeze({
    venue: catalog.venue,
    version,
    fetchedAt: catalog.fetchedAt,
    events: catalog.events,
    eventsById,
    marketsById,
    outcomesById,
    marketCount: marketsById.size,
    outcomeCount: outcomesById.size,
    truncation: catalog.truncation,
  })
}
