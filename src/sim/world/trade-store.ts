import type { VpActivity } from '../venuep/ledger.js'
import { countAtOrBefore } from './time-sort.js'
import type { VkMarket } from '../venuek/types.js'

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
  /** Per condition id, the notional (cents) of its TRADE rows up to and including each one: volumes by binary search. */
  readonly #vpNotionalCents = new Map<string, number[]>()
  readonly #vpActivityByWallet = new Map<string, VpActivity[]>()
  readonly #vkTradesByTicker = new Map<string, VkTrade[]>()
  readonly vkTrades: VkTrade[] = []
  /**
   * Live notional traded per venuep condition id / venuek ticker since the world's anchor (USD): what a replay adds to
   * its captured volumes.
   */
  readonly liveNotional = new Map<string, number>()

  addVp(a: VpActivity, live: boolean): void {
    this.vpActivity.push(a)
    push(this.#vpActivityByWallet, a.wallet, a)
    if (a.type === 'TRADE') {
      push(this.#vpTradesByCondition, a.market.conditionId, a)
      const cumulative = this.#vpNotionalCents.get(a.market.conditionId)
      const cents = Math.round(a.usdcSize * 100)
      if (cumulative === undefined) this.#vpNotionalCents.set(a.market.conditionId, [cents])
      else cumulative.push((cumulative[cumulative.length - 1] as number) + cents)
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

  /** Notional (cents) of the market's TRADE rows with `ts <= t`: every trade the Data API lists up to `t`. */
  vpNotionalCentsThrough(conditionId: string, t: number): number {
    const trades = this.#vpTradesByCondition.get(conditionId)
    if (trades === undefined) return 0
    const n = countAtOrBefore(trades, t)
    return n === 0 ? 0 : ((this.#vpNotionalCents.get(conditionId) as number[])[n - 1] as number)
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
