import type { VpActivity } from './ledger.js'
import type { VkMarket } from './types.js'

/**
 * Append-only trade history for both venues, indexed the ways the venues' REST APIs query it. Historical rows
 * are loaded sorted by time; live rows arrive in time order, so every index stays sorted ascending.
 */
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

export class TradeStore {
  /** Every venuep activity row (trades, splits, merges, redeems), ascending by time. */
  readonly vpActivity: VpActivity[] = []
  readonly #vpTradesByCondition = new Map<string, VpActivity[]>()
  readonly #vpActivityByWallet = new Map<string, VpActivity[]>()
  readonly #vkTradesByTicker = new Map<string, VkTrade[]>()
  readonly vkTrades: VkTrade[] = []
  /** Live notional traded per venuep condition id / venuek ticker since the world's anchor (USD). */
  readonly liveNotional = new Map<string, number>()

  addVp(a: VpActivity, live: boolean): void {
    this.vpActivity.push(a)
    push(this.#vpActivityByWallet, a.wallet, a)
    if (a.type === 'TRADE') {
      push(this.#vpTradesByCondition, a.market.conditionId, a)
      if (live) this.liveNotional.set(a.market.conditionId, (this.liveNotional.get(a.market.conditionId) ?? 0) + a.usdcSize)
    }
  }

  addVk(t: VkTrade, live: boolean): void {
    this.vkTrades.push(t)
    push(this.#vkTradesByTicker, t.market.ticker, t)
    if (live) this.liveNotional.set(t.market.ticker, (this.liveNotional.get(t.market.ticker) ?? 0) + t.count * t.yesPrice)
  }

  /** venuep TRADE rows of one market, ascending by time. */
  vpTradesOf(conditionId: string): readonly VpActivity[] {
    return this.#vpTradesByCondition.get(conditionId) ?? []
  }

  vpActivityOf(wallet: string): readonly VpActivity[] {
    return this.#vpActivityByWallet.get(wallet.toLowerCase()) ?? []
  }

  vkTradesOf(ticker: string): readonly VkTrade[] {
    return this.#vkTradesByTicker.get(ticker) ?? []
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}
