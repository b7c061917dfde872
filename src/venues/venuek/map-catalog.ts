import { parseDecimal } from '../../core/numbers.js'
import { parseTimestampMs } from '../../core/time.js'
import { canonicalCategory } from '../../model/categories.js'
import type { CatalogEvent, FeeModel, Outcome, ServiceStatus } from '../../model/types.js'
import { distinctPart, nonEmpty, withoutWords } from '../outcome-title.js'
import { serviceStatusOf } from './status.js'
import { eventTickerFacts, marketTickerCode } from './ticker-facts.js'
import type { KEvent, KMarket, KSeries } from './wire.js'
import { maxOf, minOf } from '../../core/arrays.js'

/**
 * venuek events (with nested markets) → normalized records: one PlatformMarket per event, one Outcome per
 * binary market, priced by the market's YES book.
 *
 * venuek reports "no quote" as a zero price (legacy cents used 0 for "no quote", and the dollar fields kept
 * the convention), so a bid of 0, an ask of 0 or 1, or a last price of 0 is read as unknown, not as a price.
 * `liquidity_dollars` is deprecated and always "0.0000", so liquidity is unknown. Volumes are in contracts;
 * a contract pays $1, so we report them as dollars of notional.
 */
export interface VenuekLinks {
  eventUrl(eventTicker: string): string
}

/** venuek's taker fee: 0.07 × contracts × p × (1 − p), times the series' multiplier (quadratic fee type). */
export const VENUEK_QUADRATIC_FEE_RATE = 0.07

/**
 * Every property `mapVenuekEvent` reads from an event or its markets: an event's fingerprint covers these alone
 * (mapped-records.ts), so fields the service never maps (`previous_*` prices, `no_bid_dollars`, …) moving between
 * two listings do not make the event "changed". test/venues/mapped-fields.test.ts maps real captured events whole
 * and cut to this list and expects the same records.
 */
export const VENUEK_MAPPED_FIELDS: readonly string[] = [
  // event
  'event_ticker',
  'series_ticker',
  'title',
  'sub_title',
  'category',
  'mutually_exclusive',
  'strike_date',
  'strike_period',
  'last_updated_ts',
  'markets',
  // market (`title` above)
  'ticker',
  'subtitle',
  'yes_sub_title',
  'no_sub_title',
  'status',
  'result',
  'created_time',
  'updated_time',
  'close_time',
  'expected_expiration_time',
  'yes_bid_dollars',
  'yes_ask_dollars',
  'last_price_dollars',
  'volume_fp',
  'volume_24h_fp',
  'open_interest_fp',
  'strike_type',
  'floor_strike',
  'cap_strike',
  'rules_primary',
]

/** What `mapVenuekEvent` reads of an event's series (its category and fees): a series changed in nothing else maps alike. */
export const VENUEK_SERIES_MAPPED_FIELDS: readonly string[] = ['category', 'fee_type', 'fee_multiplier']

export function mapVenuekEvent(
  e: KEvent,
  series: ReadonlyMap<string, KSeries>,
  links: VenuekLinks,
): CatalogEvent | undefined {
  const eventTicker = e.event_ticker
  if (eventTicker === undefined || eventTicker.length === 0) return undefined
  const s = e.series_ticker === undefined ? undefined : series.get(e.series_ticker)
  const category = canonicalCategory([e.category, s?.category])
  const venueCategory = nonEmpty(e.category ?? s?.category)
  const markets = (e.markets ?? []).filter((m) => m.ticker !== undefined && m.ticker.length > 0)
  if (markets.length === 0) return undefined
  const fees = feesOf(s)
  const siblingTitles = markets.map((m) => m.title ?? '')
  const outcomes = markets.map((m) => outcome(m, eventTicker, fees, outcomeTitle(m, siblingTitles, e.title)))
  const status: ServiceStatus = outcomes.some((o) => o.status === 'active')
    ? 'active'
    : outcomes.every((o) => o.status === 'resolved')
      ? 'resolved'
      : 'closed'
  const rawStatus = outcomes.find((o) => o.status === status)?.rawStatus ?? status
  const title = nonEmpty(e.title) ?? eventTicker
  const url = links.eventUrl(eventTicker)
  const closeTimes = markets.map((m) => parseTimestampMs(m.close_time)).filter((t): t is number => t !== undefined)
  const createdTimes = markets.map((m) => parseTimestampMs(m.created_time)).filter((t): t is number => t !== undefined)
  const updatedTimes = markets.map((m) => parseTimestampMs(m.updated_time)).filter((t): t is number => t !== undefined)
  const times = {
    createdAt: minOf(createdTimes),
    updatedAt: parseTimestampMs(e.last_updated_ts) ?? maxOf(updatedTimes),
    endTime: parseTimestampMs(e.strike_date ?? undefined) ?? maxOf(closeTimes),
  }
  const totals = {
    volumeTotal: sum(outcomes.map((o) => o.volume)),
    volume24h: sum(outcomes.map((o) => o.volume24h)),
    liquidity: undefined,
    openInterest: sum(outcomes.map((o) => o.openInterest)),
  }
  return {
    venue: 'venuek',
    eventId: eventTicker,
    title,
    subtitle: e.sub_title,
    category,
    status,
    rawStatus,
    url,
    mutuallyExclusive: e.mutually_exclusive === true,
    ...times,
    ...totals,
    markets: [
      {
        venue: 'venuek',
        marketId: eventTicker,
        eventId: eventTicker,
        title,
        category,
        status,
        rawStatus,
        url,
        ...times,
        ...totals,
        outcomes,
      },
    ],
    details: {
      seriesTicker: nonEmpty(e.series_ticker),
      strikeDate: parseTimestampMs(e.strike_date ?? undefined),
      strikePeriod: e.strike_period ?? undefined,
      tags: venueCategory === undefined ? undefined : [venueCategory],
      negRisk: undefined,
      description: undefined,
      ...optional('identifier', eventTickerFacts(eventTicker, nonEmpty(e.series_ticker))),
    },
  }
}

/**
 * An outcome's title: its `yes_sub_title`; without one, its subtitle; without that, what its title says that its
 * siblings' titles do not (outcome-title.ts), else its title without the event title's words, else its title.
 */
function outcomeTitle(m: KMarket, siblingTitles: readonly string[], eventTitle: string | undefined): string {
  const own = nonEmpty(m.yes_sub_title) ?? nonEmpty(m.subtitle)
  if (own !== undefined) return own
  const title = nonEmpty(m.title)
  if (title === undefined) return m.ticker as string
  return (
    distinctPart(title, siblingTitles) ??
    (eventTitle === undefined ? undefined : withoutWords(title, eventTitle)) ??
    title
  )
}

function feesOf(s: KSeries | undefined): FeeModel | undefined {
  if (s?.fee_type === undefined || !s.fee_type.startsWith('quadratic')) return undefined
  return { kind: 'curve', rate: VENUEK_QUADRATIC_FEE_RATE * (s.fee_multiplier ?? 1), exponent: 1 }
}

/** A quoted price, or undefined for venuek's "no quote" sentinels (0, or 1 for an ask). */
export function quotedPrice(value: string | undefined, isAsk = false): number | undefined {
  const p = parseDecimal(value)
  if (p === undefined || p <= 0 || (isAsk && p >= 1)) return undefined
  return p
}

function outcome(m: KMarket, eventTicker: string, fees: FeeModel | undefined, title: string): Outcome {
  const ticker = m.ticker as string
  const rawStatus = m.status ?? 'unknown'
  const status = serviceStatusOf(m.status)
  return {
    venue: 'venuek',
    outcomeId: ticker,
    marketId: eventTicker,
    eventId: eventTicker,
    title,
    instrumentId: ticker,
    complementInstrumentId: undefined,
    conditionId: undefined,
    childMarketSlug: undefined,
    outcomeIndex: undefined,
    marketTicker: ticker,
    status,
    rawStatus,
    volume: parseDecimal(m.volume_fp),
    volume24h: parseDecimal(m.volume_24h_fp),
    // Each venuek outcome is a market of its own: its volume is the market's.
    marketVolume: parseDecimal(m.volume_fp),
    openInterest: parseDecimal(m.open_interest_fp),
    liquidity: undefined,
    catalogBestBid: quotedPrice(m.yes_bid_dollars),
    catalogBestAsk: quotedPrice(m.yes_ask_dollars, true),
    catalogLastPrice: quotedPrice(m.last_price_dollars),
    closeTime: parseTimestampMs(m.close_time),
    createdAt: parseTimestampMs(m.created_time),
    won: status === 'resolved' && (m.result === 'yes' || m.result === 'no') ? m.result === 'yes' : undefined,
    strike: m.strike_type === undefined ? undefined : { type: m.strike_type, floor: m.floor_strike, cap: m.cap_strike },
    fees,
    details: {
      question: m.title,
      groupItemTitle: undefined,
      groupItemThreshold: undefined,
      yesSubTitle: m.yes_sub_title,
      noSubTitle: m.no_sub_title,
      negRisk: undefined,
      rules: nonEmpty(m.rules_primary),
      expectedExpiration: parseTimestampMs(m.expected_expiration_time),
      ...optional('code', marketTickerCode(ticker, eventTicker)),
    },
  }
}

function sum(values: readonly (number | undefined)[]): number | undefined {
  let total: number | undefined
  for (const v of values) if (v !== undefined) total = (total ?? 0) + v
  return total
}

/** `{ [key]: value }` when the value is known, else nothing: optional model fields are absent, not undefined. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}
