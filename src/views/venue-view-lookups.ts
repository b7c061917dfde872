import { patchedMap } from '../core/delta-map.js'
import type { PatchedList } from '../core/patched-list.js'
import type { EventEntry, MarketEntry, OutcomeEntry } from './venue-entries.js'
import type { VenueViewRules } from './venue-rules.js'

/**
 * A venue view's id lookups, and how a view of a refreshed catalog makes them from its predecessor's in time
 * proportional to the events that changed: the old events' keys taken out and the new ones' put in (DeltaMap, MAX_DELTA_SHARE), the
 * records' lists filtered and appended to.
 *
 * A patch is exactly the whole build (venue-view.ts) only while no key is claimed by two market entries: the whole
 * build settles such a key by listing order ("last wins", or "first wins" for a child market's slug), which a patch
 * cannot see. So a view knows whether its lookups are `exact` (every key one entry's) and is patched only then; a
 * patch that would make a key claimed twice gives up, and the view is built whole.
 */
export interface VenueViewLookups {
  /** The records' lists, each a version of its predecessor's until read whole (patched-list.ts). */
  readonly marketEntries: PatchedList<MarketEntry>
  readonly eventEntries: PatchedList<EventEntry>
  readonly outcomeEntries: PatchedList<OutcomeEntry>
  readonly marketById: ReadonlyMap<string, MarketEntry>
  readonly marketBySlug: ReadonlyMap<string, MarketEntry>
  readonly outcomeById: ReadonlyMap<string, OutcomeEntry>
  readonly eventById: ReadonlyMap<string, EventEntry>
  readonly marketByOutcomeKey: ReadonlyMap<string, MarketEntry>
  /** Instrument → the market entry it prices (a list in the rare case of several: one object per instrument saved). */
  readonly byInstrument: ReadonlyMap<string, MarketEntry | MarketEntry[]>
  /** No key of any lookup is claimed by two entries: the lookups can be patched. */
  readonly exact: boolean
}

/** Past this share of a lookup's keys set or removed since it was built whole, the view is built whole again. */
const MAX_DELTA_SHARE = 1 / 8

/** The keys a market entry files itself under in each lookup, each once. */
interface MarketKeys {
  readonly slugs: readonly string[]
  readonly outcomeKeys: readonly string[]
  readonly instruments: readonly string[]
}

export function marketKeys(entry: MarketEntry, outcomeKeys: VenueViewRules['outcomeKeys']): MarketKeys {
  const slugs = new Set([entry.market.marketId])
  const keys = new Set<string>()
  const instruments = new Set<string>()
  for (const o of entry.market.outcomes) {
    if (outcomeKeys !== undefined) for (const key of outcomeKeys(o)) keys.add(key)
    keys.add(o.outcomeId)
    if (o.childMarketSlug !== undefined) slugs.add(o.childMarketSlug)
    instruments.add(o.instrumentId)
  }
  return { slugs: [...slugs], outcomeKeys: [...keys], instruments: [...instruments] }
}

/**
 * `previous` without the entries of `removed` events and with those of `added` ones, or undefined when the view is
 * better built whole (a key claimed twice, or the lookups' deltas grown large).
 */
export function patchedLookups(
  previous: VenueViewLookups,
  removed: readonly EventEntry[],
  added: readonly EventEntry[],
  outcomeKeys: VenueViewRules['outcomeKeys'],
): VenueViewLookups | undefined {
  if (!previous.exact) return undefined
  const goneMarkets = removed.flatMap((e) => e.markets)
  const newMarkets = added.flatMap((e) => e.markets)
  const goneOutcomes = new Set<OutcomeEntry>()
  for (const m of goneMarkets)
    for (const o of m.market.outcomes) {
      const entry = previous.outcomeById.get(o.outcomeId)
      if (entry === undefined || entry.market !== m) return undefined
      goneOutcomes.add(entry)
    }
  const newOutcomes = newMarkets.flatMap((m) =>
    m.market.outcomes.map((o): OutcomeEntry => ({
      id: o.outcomeId,
      status: o.status,
      category: m.category,
      outcome: o,
      market: m,
    })),
  )
  const byKeys = (markets: readonly MarketEntry[], keysOf: (k: MarketKeys) => readonly string[]) =>
    markets.flatMap((m) => keysOf(marketKeys(m, outcomeKeys)).map((key) => [key, m] as const))
  const eventById = patchedMap(
    previous.eventById,
    removed.map((e) => [e.id, e] as const),
    added.map((e) => [e.id, e] as const),
    MAX_DELTA_SHARE,
  )
  const marketById = patchedMap(
    previous.marketById,
    goneMarkets.map((m) => [m.id, m] as const),
    newMarkets.map((m) => [m.id, m] as const),
    MAX_DELTA_SHARE,
  )
  const outcomeById = patchedMap(
    previous.outcomeById,
    [...goneOutcomes].map((o) => [o.id, o] as const),
    newOutcomes.map((o) => [o.id, o] as const),
    MAX_DELTA_SHARE,
  )
  const marketBySlug = patchedMap(
    previous.marketBySlug,
    byKeys(goneMarkets, (k) => k.slugs),
    byKeys(newMarkets, (k) => k.slugs),
    MAX_DELTA_SHARE,
  )
  const marketByOutcomeKey = patchedMap(
    previous.marketByOutcomeKey,
    byKeys(goneMarkets, (k) => k.outcomeKeys),
    byKeys(newMarkets, (k) => k.outcomeKeys),
    MAX_DELTA_SHARE,
  )
  const byInstrument = patchedMap<string, MarketEntry | MarketEntry[]>(
    previous.byInstrument,
    byKeys(goneMarkets, (k) => k.instruments),
    byKeys(newMarkets, (k) => k.instruments),
    MAX_DELTA_SHARE,
  )
  if (
    eventById === undefined ||
    marketById === undefined ||
    outcomeById === undefined ||
    marketBySlug === undefined ||
    marketByOutcomeKey === undefined ||
    byInstrument === undefined
  )
    return undefined
  const goneEvents = new Set(removed)
  const goneMarketSet = new Set(goneMarkets)
  return {
    eventEntries: previous.eventEntries.edited(goneEvents, added),
    marketEntries: previous.marketEntries.edited(goneMarketSet, newMarkets),
    outcomeEntries: previous.outcomeEntries.edited(goneOutcomes, newOutcomes),
    eventById,
    marketById,
    outcomeById,
    marketBySlug,
    marketByOutcomeKey,
    byInstrument,
    exact: true,
  }
}
