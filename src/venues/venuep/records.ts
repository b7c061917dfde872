import { money } from '../../core/money.js'
import type { Outcome, PlatformMarket, Quote } from '../../model/types.js'
import { iso, outcomeCore, priceFields, type QuoteOf } from '../../views/records.js'

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

/** venuep price row (spec 2.5) of one outcome of a market record; `now` dates the quote. */
export function venuepPriceRow(
  o: Outcome,
  m: PlatformMarket,
  eventSlug: string,
  eventTitle: string,
  quote: Quote | undefined,
  now: number,
): Record<string, unknown> {
  return {
    market_slug: m.marketId,
    event_slug: eventSlug,
    event_title: eventTitle,
    ...priceFields(o, m, quote, now),
    token_id: o.instrumentId,
    condition_id: o.conditionId ?? null,
  }
}
