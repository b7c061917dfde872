import { MS_PER_DAY } from '../../core/time.js'
import type { VkTrade } from './trade-store.js'
import type { VkEvent, VkMarket, VkSeries } from './types.js'
import { topOfBook } from './book-view.js'
import { dollars, dollarsOf, fpHundredths, fpMicros, hundredthsOf, ONE_DOLLAR, rfc3339 } from './format.js'
import { SETTLEMENT_TIMER_SECONDS, type VenuekState } from './market-state.js'
import { serializeCapturedEvent, serializeCapturedMarket } from './serialize-captured.js'

/**
 * World records → venuek REST records, current field names only (venuek.md §3: `_dollars` 4-dp strings,
 * `_fp` 2-dp strings, no legacy integer fields). Everything a human might read says it is simulated: settlement
 * sources name the venue simulator and contract URLs use the reserved `.invalid` domain.
 */
export const SIM_SETTLEMENT_SOURCE = { name: 'Venue simulator', url: 'https://venue-simulator.invalid' } as const
const SIM_ORIGIN = 'https://venue-simulator.invalid'
const RULES_SECONDARY =
  'Simulated market served by the venue simulator: prices, trades and outcomes come from a seeded model, not from real-world events.'

/** The venue's usual latest-expiration window after close. */
const LATEST_EXPIRATION_AFTER_CLOSE_MS = 7 * MS_PER_DAY

/** `events` are the series' events (the caller indexes them once; the world's listings never change). */
export function serializeSeries(
  series: VkSeries,
  events: readonly VkEvent[],
  state: VenuekState,
  options: { includeVolume: boolean; productMetadata: boolean },
): Record<string, unknown> {
  const body: Record<string, unknown> = series.fromCapture ? capturedSeries(series) : generatedSeries(series, events)
  if (options.productMetadata) body['product_metadata'] = null
  if (options.includeVolume) {
    const now = state.clock.now()
    let volume = 0
    for (const e of events) for (const m of e.markets) volume += state.volume(m, now)
    body['volume_fp'] = fpHundredths(volume)
  }
  return body
}

/** A replayed series: its ticker and its events' category are all the captures say about it. */
function capturedSeries(series: VkSeries): Record<string, unknown> {
  return { ticker: series.ticker, category: series.category }
}

function generatedSeries(series: VkSeries, events: readonly VkEvent[]): Record<string, unknown> {
  const lastUpdated = events.reduce((t, e) => Math.max(t, e.lastUpdated), 0)
  return {
    ticker: series.ticker,
    frequency: series.frequency,
    title: series.title,
    category: series.category,
    categories: [series.category],
    tags: [series.category],
    settlement_sources: [SIM_SETTLEMENT_SOURCE],
    contract_url: `${SIM_ORIGIN}/contracts/${series.ticker}`,
    contract_terms_url: `${SIM_ORIGIN}/terms/${series.ticker}`,
    fee_type: series.feeType,
    fee_multiplier: series.feeMultiplier,
    additional_prohibitions: [],
    last_updated_ts: rfc3339(lastUpdated),
  }
}

/**
 * EventData (venuek.md §3.2). `collateral_return_type` follows the WS lifecycle vocabulary: `MECNET` for
 * mutually exclusive events, `""` otherwise (what the §3.2 sample shows for a threshold ladder).
 */
export function serializeEvent(event: VkEvent, state: VenuekState, nested: boolean): Record<string, unknown> {
  if (event.capture !== undefined) return serializeCapturedEvent(event, event.capture, state, nested)
  const body: Record<string, unknown> = {
    event_ticker: event.eventTicker,
    series_ticker: event.series.ticker,
    title: event.title,
    sub_title: event.subTitle,
    collateral_return_type: event.mutuallyExclusive ? 'MECNET' : '',
    mutually_exclusive: event.mutuallyExclusive,
    category: event.series.category,
    // A long-dated event states no strike date: its date is in `sub_title` (shapes/venue-dates.ts).
    strike_date: event.strikeDate === undefined ? null : rfc3339(event.strikeDate),
    strike_period: null,
    settlement_sources: [SIM_SETTLEMENT_SOURCE],
    last_updated_ts: rfc3339(event.lastUpdated),
    product_metadata: null,
  }
  if (nested) {
    const now = state.clock.now()
    body['markets'] = event.markets.map((m) => serializeMarket(m, state, now))
  }
  return body
}

/**
 * The Market object (venuek.md §3.4). Markets without a live book (closed, determined, finalized) show an
 * empty book: bids `"0.0000"`, asks `"1.0000"`, sizes `"0.00"`, because resting orders are cancelled at close
 * and `yes_ask = 1 − best_no_bid` with no NO bids is one dollar. `updated_time` is metadata time (listing,
 * close, determination or settlement), not quote time, as on the real venue.
 */
export function serializeMarket(m: VkMarket, state: VenuekState, now: number): Record<string, unknown> {
  if (m.capture !== undefined) return serializeCapturedMarket(m, m.capture, state, now)
  const status = state.status(m, now)
  const top = topOfBook(state.book(m))
  const last = state.trades.lastAtOrBefore(m.ticker, now)
  const dayAgo = now - MS_PER_DAY
  const prevQuote = state.quoteAt(m, dayAgo)
  const prevTrade = state.trades.lastAtOrBefore(m.ticker, dayAgo)
  const q = m.canonical
  const result = state.result(m)
  const settledAt = state.settledAt(m, now)
  const body: Record<string, unknown> = {
    ticker: m.ticker,
    event_ticker: m.event.eventTicker,
    market_type: 'binary',
    title: m.title,
    subtitle: m.subtitle,
    yes_sub_title: m.yesSubTitle,
    no_sub_title: m.noSubTitle,
    created_time: rfc3339(m.createdTime as number),
    updated_time: rfc3339(updatedTime(m, status, state)),
    open_time: rfc3339(m.openTime),
    close_time: rfc3339(m.closeTime),
    // Optional (§3.4): many long-dated markets state no expected date (undefined leaves the field out of the JSON).
    expected_expiration_time: m.expectedExpiration === undefined ? undefined : rfc3339(m.expectedExpiration),
    latest_expiration_time: rfc3339(m.closeTime + LATEST_EXPIRATION_AFTER_CLOSE_MS),
    settlement_timer_seconds: SETTLEMENT_TIMER_SECONDS,
    status,
    yes_bid_dollars: dollars(top.yesBid),
    yes_bid_size_fp: fpMicros(top.yesBidSize),
    yes_ask_dollars: dollars(top.yesAsk),
    yes_ask_size_fp: fpMicros(top.yesAskSize),
    no_bid_dollars: dollars(ONE_DOLLAR - top.yesAsk),
    no_ask_dollars: dollars(ONE_DOLLAR - top.yesBid),
    last_price_dollars: last === undefined ? '0.0000' : dollarsOf(last.yesPrice),
    previous_yes_bid_dollars: dollars(prevQuote?.bid ?? 0),
    previous_yes_ask_dollars: dollars(prevQuote?.ask ?? ONE_DOLLAR),
    previous_price_dollars: prevTrade === undefined ? '0.0000' : dollarsOf(prevTrade.yesPrice),
    volume_fp: fpHundredths(state.volume(m, now)),
    volume_24h_fp: fpHundredths(state.volume24h(m, now)),
    open_interest_fp: fpHundredths(state.openInterest(m, now)),
    notional_value_dollars: '1.0000',
    liquidity_dollars: '0.0000',
    result,
    can_close_early: q.kind !== 'ladder',
    expiration_value: expirationValue(m, result),
    strike_type: m.strikeType,
    rules_primary: m.rulesPrimary,
    rules_secondary: RULES_SECONDARY,
    price_level_structure: m.priceLevelStructure,
    price_ranges: [
      { start: '0.0000', end: '1.0000', step: m.priceLevelStructure === 'deci_cent' ? '0.0010' : '0.0100' },
    ],
  }
  if (m.floorStrike !== undefined) body['floor_strike'] = m.floorStrike
  if (m.capStrike !== undefined) body['cap_strike'] = m.capStrike
  if (result !== '') body['settlement_value_dollars'] = result === 'yes' ? '1.0000' : '0.0000'
  if (settledAt !== undefined) body['settlement_ts'] = rfc3339(settledAt)
  return body
}

/**
 * When an event last changed as a listing shows it: its own update, or its markets' (`updated_time`: a close or a
 * settlement), whichever is later. The `min_updated_ts` filter of `/events` matches on it (the simulator's reading of
 * the filter: the docs do not say whether a market's change counts; a listing of changes that missed closes and
 * settlements would be of little use).
 */
export function eventUpdatedTime(e: VkEvent, state: VenuekState, now: number): number {
  let t = e.lastUpdated
  for (const m of e.markets) t = Math.max(t, Math.min(now, updatedTime(m, state.status(m, now), state)))
  return t
}

function updatedTime(m: VkMarket, status: string, state: VenuekState): number {
  const q = m.canonical
  if (status === 'closed') return Math.max(m.event.lastUpdated, m.closeTime)
  if (q.resolvedAt !== undefined) return state.settledAt(m, state.clock.now()) ?? q.resolvedAt
  return m.event.lastUpdated
}

/**
 * `expiration_value` is `""` until determined. Afterwards the simulator reports the winning outcome's label
 * when the question has exactly one winner (candidates, head-to-heads), else this market's own result: it has
 * no observed underlying value (a rate, a temperature) to print.
 */
function expirationValue(m: VkMarket, result: string): string {
  if (result === '') return ''
  const winners = m.canonical.contracts.filter((c) => c.won === true)
  return winners.length === 1 ? (winners[0]?.label ?? result) : result
}

/** Trade (venuek.md §3.6). The simulator has no block trades. */
export function serializeTrade(t: VkTrade): Record<string, unknown> {
  const yes = Math.round(t.yesPrice * ONE_DOLLAR)
  return {
    trade_id: t.tradeId,
    ticker: t.market.ticker,
    count_fp: fpHundredths(hundredthsOf(t.count)),
    yes_price_dollars: dollars(yes),
    no_price_dollars: dollars(ONE_DOLLAR - yes),
    taker_side: t.takerOutcomeSide,
    taker_outcome_side: t.takerOutcomeSide,
    taker_book_side: t.takerBookSide,
    created_time: rfc3339(t.ts),
    is_block_trade: false,
  }
}
