import type { TradeStore, VkTrade } from './trade-store.js'
import { countAtOrBefore } from '../world/time-sort.js'
import { hundredthsOf } from './format.js'

/**
 * Per-market trade aggregates (volume, last price) answered in O(log n). The world's trade store keeps each
 * market's trades ascending by time and only ever appends, so a cumulative-count array per market can be
 * extended lazily and any "volume up to t" becomes a binary search plus one subtraction. Counts are kept in
 * hundredths of a contract (the venue's `_fp` granularity), so sums are exact integers.
 */
export class TradeStats {
  readonly #store: TradeStore
  readonly #cumulative = new Map<string, number[]>()

  constructor(store: TradeStore) {
    this.#store = store
  }

  /** Trades of `ticker`, ascending by time. */
  tradesOf(ticker: string): readonly VkTrade[] {
    return this.#store.tradesOf(ticker)
  }

  /** Contracts traded (hundredths) in trades with `ts <= t`. */
  volumeThrough(ticker: string, t: number): number {
    const trades = this.#store.tradesOf(ticker)
    const n = countAtOrBefore(trades, t)
    if (n === 0) return 0
    return this.#cumulativeOf(ticker, trades)[n - 1] as number
  }

  /** Contracts traded (hundredths) in trades with `from < ts <= to`. */
  volumeBetween(ticker: string, from: number, to: number): number {
    return this.volumeThrough(ticker, to) - this.volumeThrough(ticker, from)
  }

  /** The last trade at or before `t`. */
  lastAtOrBefore(ticker: string, t: number): VkTrade | undefined {
    const trades = this.#store.tradesOf(ticker)
    const n = countAtOrBefore(trades, t)
    return n === 0 ? undefined : trades[n - 1]
  }

  #cumulativeOf(ticker: string, trades: readonly VkTrade[]): number[] {
    let cum = this.#cumulative.get(ticker)
    if (cum === undefined) {
      cum = []
      this.#cumulative.set(ticker, cum)
    }
    for (let i = cum.length; i < trades.length; i++) {
      cum.push((i === 0 ? 0 : (cum[i - 1] as number)) + hundredthsOf((trades[i] as VkTrade).count))
    }
    return cum
  }
}
