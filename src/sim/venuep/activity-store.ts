import type { VpActivity } from './ledger.js'
import { countAtOrBefore } from '../world/time-sort.js'

/**
 * Append-only wallet activity of the venue, indexed the ways its REST APIs query it. Historical rows are loaded
 * sorted by time; live rows arrive in time order, so every index stays sorted ascending.
 */
export class ActivityStore {
  /** Every activity row (trades, splits, merges, redeems), ascending by time. */
  readonly rows: VpActivity[] = []
  readonly #tradesByCondition = new Map<string, VpActivity[]>()
  /** Per condition id, the notional (cents) of its TRADE rows up to and including each one (volumes by bisection). */
  readonly #notionalCents = new Map<string, number[]>()
  readonly #activityByWallet = new Map<string, VpActivity[]>()
  /** Live notional (USD) traded per condition id since the world's anchor: what a replay adds to captured volumes. */
  readonly liveNotional = new Map<string, number>()

  add(a: VpActivity, live: boolean): void {
    this.rows.push(a)
    push(this.#activityByWallet, a.wallet, a)
    if (a.type === 'TRADE') {
      push(this.#tradesByCondition, a.market.conditionId, a)
      const cumulative = this.#notionalCents.get(a.market.conditionId)
      const cents = Math.round(a.usdcSize * 100)
      if (cumulative === undefined) this.#notionalCents.set(a.market.conditionId, [cents])
      else cumulative.push((cumulative[cumulative.length - 1] as number) + cents)
      if (live)
        this.liveNotional.set(a.market.conditionId, (this.liveNotional.get(a.market.conditionId) ?? 0) + a.usdcSize)
    }
  }

  /** TRADE rows of one market, ascending by time. */
  tradesOf(conditionId: string): readonly VpActivity[] {
    return this.#tradesByCondition.get(conditionId) ?? []
  }

  /** Notional (cents) of the market's TRADE rows with `ts <= t`: every trade the Data API lists up to `t`. */
  notionalCentsThrough(conditionId: string, t: number): number {
    const trades = this.#tradesByCondition.get(conditionId)
    if (trades === undefined) return 0
    const n = countAtOrBefore(trades, t)
    return n === 0 ? 0 : ((this.#notionalCents.get(conditionId) as number[])[n - 1] as number)
  }

  activityOf(wallet: string): readonly VpActivity[] {
    return this.#activityByWallet.get(wallet.toLowerCase()) ?? []
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}
