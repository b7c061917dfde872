import type { CatalogEvent, Outcome, PlatformMarket, Quote } from '../model/types.js'

/**
 * What the read models need to know about one venue beyond its catalog and quotes: how its events are named in the
 * service's slugs and how its market records read. Each venue module gives one (src/venues/<venue>/module.ts).
 */
export interface VenueViewRules {
  /**
   * The service event slug of one of the venue's events when it stands alone (stable across restarts: sitemaps and
   * clients keep it). A linked event takes the slug of its member on the earliest registered venue and keeps the
   * others as aliases.
   */
  eventSlug(event: Pick<CatalogEvent, 'eventId' | 'title'>): string
  /** The market record of the venue's market lists, with its outcomes (cached as JSON until a quote changes). */
  marketRecord(
    market: PlatformMarket,
    eventSlug: string,
    quoteOf: (instrumentId: string) => Quote | undefined,
    outcomeVolume: (o: Outcome) => number | undefined,
  ): Record<string, unknown>
  /** The text a market list's `search` matches; the event title when absent. */
  marketSearchText?(event: CatalogEvent, market: PlatformMarket): string
  /** Keys a market is also found by besides its outcomes' ids (`VenueView.marketByOutcomeKey`), e.g. condition ids. */
  outcomeKeys?(outcome: Outcome): readonly string[]
  /** The feed pushes traded volume per instrument (`stats` events): records show it over the catalog's. */
  readonly liveVolume?: boolean
}
