import type { VkTrade } from './trade-store.js'
import type { VkMarket } from './types.js'
import { validationFailed } from './errors.js'
import { dollars, dollarsOf, fpHundredths, hundredthsOf } from './format.js'
import type { PathQuote, VenuekState } from './market-state.js'
import { countAtOrBefore } from '../world/time-sort.js'

/**
 * Market candlesticks (venuek.md §3.7). Bid/ask blocks come from the market's price path (the same function
 * the live book tracks), sampled at fixed points in each period; the price block and volume come from the
 * market's recorded trades. Periods end on multiples of the interval; a candle is returned when its end falls in
 * [start_ts, end_ts] and the market was trading during it, up to the simulator's now (the current period is
 * returned in progress, like the venue's latest candle).
 */
export const PERIOD_INTERVALS_MIN: readonly number[] = [1, 60, 1440]

/** Upper bound on candles per request, so one request cannot make the simulator sample for minutes. */
export const MAX_CANDLES = 5_000

/** Path samples per candle, including both ends: enough to give highs and lows that differ from open/close. */
const SAMPLES = 12

interface Ohlc {
  open: number
  high: number
  low: number
  close: number
}

export function candlesticks(
  state: VenuekState,
  m: VkMarket,
  startTs: number,
  endTs: number,
  periodMin: number,
  operation: string,
): object[] {
  const periodMs = periodMin * 60_000
  const now = state.clock.now()
  const tradingEnd = m.canonical.lifecycle === 'active' ? now : Math.min(now, m.closeTime)
  const firstEnd = Math.ceil((startTs * 1000) / periodMs) * periodMs
  const lastEnd = endTs * 1000
  if (lastEnd >= firstEnd && (lastEnd - firstEnd) / periodMs + 1 > MAX_CANDLES) {
    throw validationFailed(operation, 'end_ts', 'max_candlesticks')
  }
  const out: object[] = []
  // The first period that holds any trading time ends strictly after the open.
  const firstTrading = (Math.floor(m.openTime / periodMs) + 1) * periodMs
  for (let end = Math.max(firstEnd, firstTrading); end <= lastEnd; end += periodMs) {
    const start = end - periodMs
    if (start >= tradingEnd) break
    const bid = { open: 0, high: 0, low: 0, close: 0 }
    const ask = { open: 0, high: 0, low: 0, close: 0 }
    if (!samplePath(state, m, Math.max(start, m.openTime), Math.min(end, tradingEnd), bid, ask)) continue
    out.push({
      end_period_ts: end / 1000,
      yes_bid: ohlcBlock(bid),
      yes_ask: ohlcBlock(ask),
      price: priceBlock(state.trades.tradesOf(m.ticker), start, Math.min(end, now)),
      volume_fp: fpHundredths(state.trades.volumeBetween(m.ticker, start, Math.min(end, now))),
      open_interest_fp: fpHundredths(state.openInterest(m, Math.min(end, now))),
    })
  }
  return out
}

/** Fills OHLC of the path's bid and ask over [from, to]; false when the market had no quote in the window. */
function samplePath(state: VenuekState, m: VkMarket, from: number, to: number, bid: Ohlc, ask: Ohlc): boolean {
  let seen = false
  // A non-active market stops quoting at its close: sample strictly before it.
  const last = m.canonical.lifecycle === 'active' ? to : Math.min(to, m.closeTime - 1)
  for (let i = 0; i <= SAMPLES; i++) {
    const t = Math.floor(from + ((last - from) * i) / SAMPLES)
    const quote: PathQuote | undefined = state.quoteAt(m, t)
    if (quote === undefined) continue
    accumulate(bid, quote.bid, !seen)
    accumulate(ask, quote.ask, !seen)
    seen = true
  }
  return seen
}

function accumulate(o: Ohlc, value: number, first: boolean): void {
  if (first) {
    o.open = o.high = o.low = o.close = value
    return
  }
  if (value > o.high) o.high = value
  if (value < o.low) o.low = value
  o.close = value
}

function ohlcBlock(o: Ohlc): object {
  return {
    open_dollars: dollars(o.open),
    low_dollars: dollars(o.low),
    high_dollars: dollars(o.high),
    close_dollars: dollars(o.close),
  }
}

/** Trade prices in (from, to]; every value is null without trades except `previous_dollars` (last earlier trade). */
function priceBlock(trades: readonly VkTrade[], from: number, to: number): object {
  const lo = countAtOrBefore(trades, from)
  const hi = countAtOrBefore(trades, to)
  const previous = lo > 0 ? dollarsOf((trades[lo - 1] as VkTrade).yesPrice) : null
  if (hi <= lo) {
    return {
      open_dollars: null,
      low_dollars: null,
      high_dollars: null,
      close_dollars: null,
      mean_dollars: null,
      previous_dollars: previous,
      min_dollars: null,
      max_dollars: null,
    }
  }
  let high = -Infinity
  let low = Infinity
  let weighted = 0
  let count = 0
  for (let i = lo; i < hi; i++) {
    const t = trades[i] as VkTrade
    const c = hundredthsOf(t.count)
    high = Math.max(high, t.yesPrice)
    low = Math.min(low, t.yesPrice)
    weighted += t.yesPrice * c
    count += c
  }
  const open = dollarsOf((trades[lo] as VkTrade).yesPrice)
  const close = dollarsOf((trades[hi - 1] as VkTrade).yesPrice)
  return {
    open_dollars: open,
    low_dollars: dollarsOf(low),
    high_dollars: dollarsOf(high),
    close_dollars: close,
    // Count-weighted, so one large print moves the mean more than a small one.
    mean_dollars: dollarsOf(count > 0 ? weighted / count : low),
    previous_dollars: previous,
    min_dollars: dollarsOf(low),
    max_dollars: dollarsOf(high),
  }
}
