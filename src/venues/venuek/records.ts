import { money } from '../../core/money.js'
import type { Outcome, PlatformMarket, Quote } from '../../model/types.js'
import { iso, outcomeCore, priceFields, type QuoteOf } from '../../views/records.js'

/** venuek market record (spec 2.3) with its binary markets as outcomes (2.4). */
export function venuekMarketRecord(
  m: PlatformMarket,
  eventSlug: string,
  quoteOf: QuoteOf,
  liveVolume: (o: Outcome) => number | undefined,
): Record<string, unknown> {
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
    outcomes: m.outcomes.map((o) => ({
      market_ticker: o.instrumentId,
      ...outcomeCore(o, quoteOf, liveVolume(o)),
      status: o.status,
    })),
  }
}

/** venuek price row: one binary market with its tickers and status. */
export function venuekPriceRow(
  o: Outcome,
  m: PlatformMarket,
  eventSlug: string,
  eventTitle: string,
  quote: Quote | undefined,
  now: number,
): Record<string, unknown> {
  return {
    market_ticker: o.outcomeId,
    event_ticker: m.marketId,
    event_slug: eventSlug,
    event_title: eventTitle,
    ...priceFields(o, m, quote, now),
    status: o.status,
  }
}
