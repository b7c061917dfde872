import type { CatalogEvent, Outcome, PlatformMarket } from '../model/types.js'

/**
 * The records of a venue view (venue-view.ts): one per market, outcome and event of its catalog, under the event's
 * service slug. A view of a refreshed catalog keeps the entries of the events that did not change, their cached
 * JSON included (venue-view-lookups.ts).
 */
/** A market as a venue view lists it, with its JSON cached until one of its outcomes' quotes changes. */
export interface MarketEntry {
  readonly id: string
  readonly status: string
  readonly category: string
  readonly market: PlatformMarket
  readonly event: CatalogEvent
  readonly eventSlug: string
  /** Bumped by every published quote of one of this market's outcomes. */
  version: number
  fragment: string | undefined
  fragmentVersion: number
}

/** One outcome (a price row), ordered by its own volume (the market's when the venue gives none). */
export interface OutcomeEntry {
  readonly id: string
  readonly status: string
  readonly category: string
  readonly outcome: Outcome
  readonly market: MarketEntry
}

/** An event as a venue view lists it: its markets' entries. */
export interface EventEntry {
  readonly id: string
  readonly status: string
  readonly category: string
  readonly event: CatalogEvent
  readonly eventSlug: string
  readonly markets: readonly MarketEntry[]
}
