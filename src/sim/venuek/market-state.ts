import type { Clock } from '../../core/clock.js'
import { MICROS_PER_UNIT } from '../../core/numbers.js'
import { MS_PER_DAY } from '../../core/time.js'
import type { SimBook } from '../world/book-model.js'
import type { World } from '../world/world.js'
import type { VkMarket } from './types.js'
import { TradeStats } from './trade-stats.js'
import { venuekOf } from './state.js'

/**
 * What venuek would say about a simulated market at a given time: its lifecycle status, result, settlement
 * time, the quote its price path implies (for `previous_*` fields and candles) and its volume figures. The
 * REST serializers and the WS ticker channel both read these, so the numbers agree across transports.
 */
export type VkMarketStatus = 'initialized' | 'active' | 'closed' | 'determined' | 'finalized'

/** `status` query values. They differ from the response values (venuek.md §3.3). */
export type VkStatusFilter = 'unopened' | 'open' | 'paused' | 'closed' | 'settled'

export const STATUS_FILTER_MATCHES: Readonly<Record<VkStatusFilter, ReadonlySet<VkMarketStatus>>> = {
  unopened: new Set(['initialized']),
  open: new Set(['active']),
  // The simulator never pauses a market, so `paused` (response status `inactive`) matches nothing.
  paused: new Set(),
  closed: new Set(['closed', 'determined']),
  settled: new Set(['finalized']),
}

/**
 * The simulator shows a resolved market as `determined` for one day after resolution and `finalized` after
 * that, so the settlement timer it reports is that day (the real venue's timers are often minutes; the value
 * only has to be consistent with the status transitions it describes).
 */
export const SETTLEMENT_TIMER_SECONDS = 86_400

export interface PathQuote {
  /** YES bid and ask in micro-units, on the market's tick grid. */
  readonly bid: number
  readonly ask: number
}

export class VenuekState {
  readonly world: World
  readonly clock: Clock
  readonly trades: TradeStats

  constructor(world: World, clock: Clock) {
    this.world = world
    this.clock = clock
    this.trades = new TradeStats(venuekOf(world).trades)
  }

  /** The live book; closed and resolved markets have none (their resting orders are gone). */
  book(m: VkMarket): SimBook | undefined {
    return venuekOf(this.world).books.get(m.ticker)
  }

  /** A replayed market keeps its captured status; a generated one follows its question's lifecycle. */
  status(m: VkMarket, now: number): VkMarketStatus {
    if (m.capture !== undefined) return m.capture.status
    const q = m.canonical
    if (q.lifecycle === 'active') return now < m.openTime ? 'initialized' : 'active'
    if (q.lifecycle === 'closed' || q.resolvedAt === undefined) return 'closed'
    return now < q.resolvedAt + SETTLEMENT_TIMER_SECONDS * 1000 ? 'determined' : 'finalized'
  }

  /** A replayed market's result is unknown (captures do not hold it): '' like an undetermined market. */
  result(m: VkMarket): 'yes' | 'no' | '' {
    if (m.capture !== undefined) return ''
    const q = m.canonical
    if (q.lifecycle !== 'resolved') return ''
    return m.contract.won === true ? 'yes' : 'no'
  }

  /** When the market settled (paid out), if it has. */
  settledAt(m: VkMarket, now: number): number | undefined {
    if (m.capture !== undefined) return undefined // not captured
    const resolvedAt = m.canonical.resolvedAt
    if (resolvedAt === undefined) return undefined
    const at = resolvedAt + SETTLEMENT_TIMER_SECONDS * 1000
    return at <= now ? at : undefined
  }

  /** Whether the market had a live book at time `t` (between its open and its close for non-active questions). */
  tradingAt(m: VkMarket, t: number): boolean {
    if (t < m.openTime) return false
    return m.canonical.lifecycle === 'active' || t < m.closeTime
  }

  /**
   * The top of book the market's price path implies at `t`, computed exactly as the book model places its top
   * levels (book-model.ts `rebalance`), so history and the live book line up. Undefined when not trading.
   */
  quoteAt(m: VkMarket, t: number): PathQuote | undefined {
    if (!m.contract.walks || !this.tradingAt(m, t)) return undefined
    const tick = Math.round(m.tickSize * MICROS_PER_UNIT)
    const minP = tick
    const maxP = MICROS_PER_UNIT - tick
    const halfTicks = Math.max(1, Math.round((m.contract.halfSpread * MICROS_PER_UNIT) / tick))
    const fairTicks = (this.world.venueFair(m.contract, 'venuek', t) * MICROS_PER_UNIT) / tick
    let bid = Math.floor(fairTicks - halfTicks + 0.5) * tick
    let ask = Math.ceil(fairTicks + halfTicks - 0.5) * tick
    bid = Math.min(maxP - tick, Math.max(minP, bid))
    ask = Math.max(bid + tick, Math.min(maxP, ask))
    return { bid, ask }
  }

  /** All-time contracts traded (hundredths): the pre-simulation base plus every recorded trade up to `t`. */
  volume(m: VkMarket, t: number): number {
    return m.baseVolume * 100 + this.trades.volumeThrough(m.ticker, t)
  }

  /** Contracts traded in the 24 h before `t` (hundredths): exactly the trades `GET /markets/trades` lists then. */
  volume24h(m: VkMarket, t: number): number {
    return this.trades.volumeBetween(m.ticker, t - MS_PER_DAY, t)
  }

  /**
   * Open interest (hundredths). The simulator does not track positions per venuek account, so it models open
   * interest as the listing's base plus half of the contracts traded live (since the world's anchor): every
   * trade either opens or closes exposure, and half is the neutral assumption.
   */
  openInterest(m: VkMarket, t: number): number {
    const anchor = this.world.anchorMs
    const live = t < anchor ? 0 : this.trades.volumeBetween(m.ticker, anchor - 1, t)
    return m.baseOpenInterest * 100 + Math.floor(live / 2)
  }
}
