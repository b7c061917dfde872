import type { Outcome } from '../../src/model/types.js'

/**
 * A tradable outcome for tests that build catalogs by hand: `id` is its outcome and instrument id, every optional
 * field unknown; `fields` sets what a test cares about (venue, market, event, volumes).
 */
export function testOutcome(id: string, fields: Partial<Outcome> = {}): Outcome {
  return {
    venue: 'venuep',
    outcomeId: id,
    marketId: 'm',
    eventId: 'e',
    title: id,
    instrumentId: id,
    complementInstrumentId: undefined,
    conditionId: undefined,
    childMarketSlug: undefined,
    outcomeIndex: 0,
    marketTicker: undefined,
    status: 'active',
    rawStatus: 'active',
    volume: undefined,
    volume24h: undefined,
    marketVolume: undefined,
    openInterest: undefined,
    liquidity: undefined,
    catalogBestBid: undefined,
    catalogBestAsk: undefined,
    catalogLastPrice: undefined,
    closeTime: undefined,
    createdAt: undefined,
    won: undefined,
    strike: undefined,
    fees: undefined,
    ...fields,
  }
}
