import type { VkMarket } from './types.js'

/** One trade on the venue (its REST and WebSocket trade records). */
export interface VkTrade {
  readonly tradeId: string
  readonly market: VkMarket
  readonly ts: number
  /** YES price in dollars. */
  readonly yesPrice: number
  readonly count: number
  readonly takerOutcomeSide: 'yes' | 'no'
  readonly takerBookSide: 'bid' | 'ask'
}

/**
 * Append-only trade history of the venue, indexed the ways its REST API queries it. Historical rows are loaded
 * sorted by time; live rows arrive in time order, so every index stays sorted ascending.
 */
export class TradeStore {
  /** Every trade, ascending by time. */
  readonly rows: VkTrade[] = []
  readonly #tradesByTicker = new Map<string, VkTrade[]>()
  /** Live notional traded per market ticker since the world's anchor (USD). */
  readonly liveNotional = new Map<string, number>()

  add(t: VkTrade, live: boolean): void {
    this.rows.push(t)
    const list = this.#tradesByTicker.get(t.market.ticker)
    if (list === undefined) this.#tradesByTicker.set(t.market.ticker, [t])
    else list.push(t)
    if (live)
      this.liveNotional.set(t.market.ticker, (this.liveNotional.get(t.market.ticker) ?? 0) + t.count * t.yesPrice)
  }

  tradesOf(ticker: string): readonly VkTrade[] {
    return this.#tradesByTicker.get(ticker) ?? []
  }
}
