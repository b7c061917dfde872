import { money } from '../core/money.js'
import { isoNoZone } from '../core/time.js'
import type { CatalogEvent, Outcome, PlatformMarket, Quote } from '../model/types.js'
import { num, outcomePrice } from './outcome-price.js'

/**
 * The API's JSON records (spec part 2), built from catalog records and quotes. Field names and types follow
 * the spec exactly; fields the spec marks "not shown" or leaves open are additions documented in the OpenAPI
 * schemas (src/http/schemas). Unknown values are null. Money and volume figures go through `money` (cents);
 * prices and probabilities keep the venue's tick precision.
 */
type QuoteOf = (instrumentId: string) => Quote | undefined

export function iso(ms: number | undefined): string | null {
  return ms === undefined ? null : isoNoZone(ms)
}

function outcomeCore(o: Outcome, quoteOf: QuoteOf, volume: number | undefined) {
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

/** venuep market record (spec 2.2) with its outcomes (2.4). */
export function venuepMarketRecord(m: PlatformMarket, eventSlug: string, quoteOf: QuoteOf): Record<string, unknown> {
  return {
    market_slug: m.marketId,
    event_slug: eventSlug,
    title: m.title,
    status: m.status,
    market_status: m.rawStatus,
    category: m.category,
    platform_url: m.url,
    volume_total: money(m.volumeTotal),
    volume_24h: money(m.volume24h),
    liquidity: money(m.liquidity),
    open_interest: money(m.openInterest),
    end_time: iso(m.endTime),
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    outcomes: m.outcomes.map((o) => ({
      ...outcomeCore(o, quoteOf, o.volume),
      token_id: o.instrumentId,
      condition_id: o.conditionId ?? null,
      market_slug: o.childMarketSlug ?? m.marketId,
    })),
  }
}

/** venuek market record (spec 2.3) with its binary markets as outcomes (2.4). */
export function venuekMarketRecord(m: PlatformMarket, eventSlug: string, quoteOf: QuoteOf, liveVolume: (o: Outcome) => number | undefined): Record<string, unknown> {
  return {
    event_ticker: m.marketId,
    event_slug: eventSlug,
    title: m.title,
    status: m.status,
    market_status: m.rawStatus,
    category: m.category,
    platform_url: m.url,
    volume_total: money(m.volumeTotal),
    volume_24h: money(m.volume24h),
    open_interest: money(m.openInterest),
    end_time: iso(m.endTime),
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    outcomes: m.outcomes.map((o) => ({ market_ticker: o.instrumentId, ...outcomeCore(o, quoteOf, liveVolume(o)), status: o.status })),
  }
}

/** An event row of the per-venue event lists: the event and its market records. */
export function venueEventRecord(e: CatalogEvent, eventSlug: string, markets: readonly Record<string, unknown>[]): Record<string, unknown> {
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

/** venuep price row (spec 2.5) of one outcome of a market record; `now` dates the quote. */
export function venuepPriceRow(o: Outcome, m: PlatformMarket, eventSlug: string, eventTitle: string, quote: Quote | undefined, now: number): Record<string, unknown> {
  const p = outcomePrice(o, quote)
  return {
    market_slug: m.marketId,
    event_slug: eventSlug,
    event_title: eventTitle,
    title: o.title,
    probability: num(p.probability),
    best_bid: num(p.bestBid),
    best_ask: num(p.bestAsk),
    spread: num(p.spread),
    volume: money(o.volume),
    platform_url: m.url,
    quote_age_seconds: quoteAgeSeconds(p, now),
    is_stale: p.stale,
    token_id: o.instrumentId,
    condition_id: o.conditionId ?? null,
  }
}

/** venuek price row: one binary market with its tickers and status. */
export function venuekPriceRow(o: Outcome, m: PlatformMarket, eventSlug: string, eventTitle: string, quote: Quote | undefined, now: number): Record<string, unknown> {
  const p = outcomePrice(o, quote)
  return {
    market_ticker: o.outcomeId,
    event_ticker: m.marketId,
    event_slug: eventSlug,
    event_title: eventTitle,
    title: o.title,
    probability: num(p.probability),
    best_bid: num(p.bestBid),
    best_ask: num(p.bestAsk),
    spread: num(p.spread),
    volume: money(o.volume),
    platform_url: m.url,
    quote_age_seconds: quoteAgeSeconds(p, now),
    is_stale: p.stale,
    status: o.status,
  }
}

/** Seconds since the quote's venue time, or null without a live quote. Computed per request. */
export function quoteAgeSeconds(p: { updatedAt: number | undefined }, now: number): number | null {
  return p.updatedAt === undefined ? null : Math.max(0, Math.round((now - p.updatedAt) / 100) / 10)
}
