import type { SimRequest, SimResponse } from '../http-router.js'
import type { VkTrade } from './trade-store.js'
import { bidsOnly, type Level } from './book-view.js'
import { candlesticks, PERIOD_INTERVALS_MIN } from './candles.js'
import { decodeCursor, encodeCursor } from './cursor.js'
import { MARKET_NOT_FOUND, validationFailed } from './errors.js'
import { dollars, fpMicros } from './format.js'
import type { VenuekState } from './market-state.js'
import { Query } from './query.js'
import { serializeTrade } from './serialize.js'
import { countAtOrBefore } from '../world/time-sort.js'
import { venuekOf } from './state.js'

/**
 * venuek's market-data endpoints (venuek.md §3.5–3.7): order book, public trades, candlesticks and exchange
 * status. The order book is bids only on both legs, ascending with the best bid last; `depth` keeps the N best
 * levels without changing that order. The venue's spec marks the order book auth-required, but public probes got
 * 200 without auth, so the simulator serves it either way.
 */
export class MarketDataRoutes {
  readonly #state: VenuekState

  constructor(state: VenuekState) {
    this.#state = state
  }

  orderbook(req: SimRequest): SimResponse {
    const q = new Query(req.query, 'GetMarketOrderbook')
    const depth = q.int('depth', { max: 100 }) ?? 0
    const m = venuekOf(this.#state.world).marketsByTicker.get(req.params['ticker'] ?? '')
    if (m === undefined) return { status: 404, body: MARKET_NOT_FOUND }
    const book = bidsOnly(this.#state.book(m))
    // 0 or negative = every level.
    const best = (levels: readonly Level[]) =>
      depth > 0 && levels.length > depth ? levels.slice(levels.length - depth) : levels
    const wire = (levels: readonly Level[]) => best(levels).map(([p, s]) => [dollars(p), fpMicros(s)])
    return { status: 200, body: { orderbook_fp: { yes_dollars: wire(book.yes), no_dollars: wire(book.no) } } }
  }

  /**
   * `GET /markets/trades`, newest first. The cursor holds the index of the next older trade in the list being
   * walked (one market's trades or all of them), so trades printed between two page requests can neither
   * repeat nor shift a page; they show up on the next first page.
   */
  trades(req: SimRequest): SimResponse {
    const q = new Query(req.query, 'GetTrades')
    const limit = q.int('limit', { min: 1, max: 1000 }) ?? 100
    const ticker = q.string('ticker')
    const minTs = q.int('min_ts', { min: 0 })
    const maxTs = q.int('max_ts', { min: 0 })
    const blockOnly = q.bool('is_block_trade') ?? false
    const trades = ticker === undefined ? venuekOf(this.#state.world).trades.rows : this.#state.trades.tradesOf(ticker)
    // Exclusive upper index: the cursor's position, the max_ts bound and the clock, whichever is lowest.
    let hi = countAtOrBefore(
      trades,
      Math.min(this.#state.clock.now(), maxTs === undefined ? Infinity : maxTs * 1000 + 999),
    )
    const resume = decodeCursor(q.string('cursor'), 'trades')
    if (resume !== undefined) hi = Math.min(hi, resume)
    const minMs = minTs === undefined ? -Infinity : minTs * 1000
    const page: Record<string, unknown>[] = []
    // The simulator prints no block trades, so `is_block_trade=true` selects nothing.
    let i = blockOnly ? -1 : hi - 1
    for (; i >= 0 && page.length < limit; i--) {
      const t = trades[i] as VkTrade
      if (t.ts < minMs) {
        i = -1
        break
      }
      page.push(serializeTrade(t))
    }
    const more = i >= 0 && (trades[i] as VkTrade).ts >= minMs
    return { status: 200, body: { cursor: more ? encodeCursor('trades', i + 1) : '', trades: page } }
  }

  candlesticks(req: SimRequest): SimResponse {
    const operation = 'GetMarketCandlesticks'
    const q = new Query(req.query, operation)
    const startTs = q.requiredInt('start_ts', { min: 0 })
    const endTs = q.requiredInt('end_ts', { min: 0 })
    const period = q.requiredInt('period_interval')
    if (!PERIOD_INTERVALS_MIN.includes(period)) throw validationFailed(operation, 'period_interval', 'oneof')
    const m = venuekOf(this.#state.world).marketsByTicker.get(req.params['ticker'] ?? '')
    if (m === undefined || m.event.series.ticker !== req.params['series_ticker'])
      return { status: 404, body: MARKET_NOT_FOUND }
    return {
      status: 200,
      body: { ticker: m.ticker, candlesticks: candlesticks(this.#state, m, startTs, endTs, period, operation) },
    }
  }

  exchangeStatus(): SimResponse {
    return { status: 200, body: { exchange_active: true, trading_active: true } }
  }
}
