import { money } from '../core/money.js'
import { isoNoZone } from '../core/time.js'
import type { CatalogEvent, Outcome, PlatformMarket, Quote } from '../model/types.js'
import { num, outcomePrice } from './outcome-price.js'

/**
 * The API's JSON records (spec part 2) every venue shares, built from catalog records and quotes; a venue's own
 * market and price records are in its folder (src/venues/<venue>/records.ts). Field names and types follow
 * the spec exactly; fields the spec marks "not shown" or leaves open are additions documented in the OpenAPI
 * schemas (src/http/schemas). Unknown values are null. Money and volume figures go through `money` (cents);
 * prices and probabilities keep the venue's tick precision.
 */
export type QuoteOf = (instrumentId: string) => Quote | undefined

export function iso(ms: number | undefined): string | null {
  return ms === undefined ? null : isoNoZone(ms)
}

/** The fields every venue's outcome record starts with: title, price, volume, freshness. */
export function outcomeCore(o: Outcome, quoteOf: QuoteOf, volume: number | undefined) {
  const p = outcomePrice(o, quoteOf(o.instrumentId))
  return {
    title: o.title,
    probability: num(p.probability),
    best_bid: num(p.bestBid),
    best_ask: num(p.bestAsk),
    spread: num(p.spread),
    volume: money(volume),
    updated_at: iso(p.updatedAt),
    is_stale: p.stale,
  }
}

/** An event row of the per-venue event lists: the event and its market records. */
export function venueEventRecord(
  e: CatalogEvent,
  eventSlug: string,
  markets: readonly Record<string, unknown>[],
): Record<string, unknown> {
  return {
    event_slug: eventSlug,
    event_id: e.eventId,
    title: e.title,
    subtitle: e.subtitle ?? null,
    category: e.category,
    status: e.status,
    market_status: e.rawStatus,
    platform_url: e.url,
    mutually_exclusive: e.mutuallyExclusive,
    volume_total: money(e.volumeTotal),
    volume_24h: money(e.volume24h),
    liquidity: money(e.liquidity),
    open_interest: money(e.openInterest),
    end_time: iso(e.endTime),
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
    market_count: e.markets.length,
    outcome_count: e.markets.reduce((n, m) => n + m.outcomes.length, 0),
    markets,
  }
}

/** Seconds since the quote's venue time, or null without a live quote. Computed per request. */
export function quoteAgeSeconds(p: { updatedAt: number | undefined }, now: number): number | null {
  return p.updatedAt === undefined ? null : Math.max(0, Math.round((now - p.updatedAt) / 100) / 10)
}

/** The fields every venue's price row has, from the outcome's title to `is_stale` (spec 2.5, 2.6), in that order. */
export function priceFields(o: Outcome, m: PlatformMarket, quote: Quote | undefined, now: number) {
  const p = outcomePrice(o, quote)
  return {
    title: o.title,
    probability: num(p.probability),
    best_bid: num(p.bestBid),
    best_ask: num(p.bestAsk),
    spread: num(p.spread),
    volume: money(o.volume),
    platform_url: m.url,
    quote_age_seconds: quoteAgeSeconds(p, now),
    is_stale: p.stale,
  }
}
