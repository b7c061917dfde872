import { MS_PER_DAY } from '../../core/time.js'
import type { World } from '../world/world.js'
import type { VpEvent, VpMarket } from './types.js'
import { num } from './format.js'
import { venuepOf } from './state.js'

/**
 * Catalog numbers for Gamma (volume, liquidity, open interest), derived from the world so they move with the
 * simulation: volume is the listing's base (what traded before the reported trades) plus the notional of every
 * trade the Data API reports up to now; the 24 h volume is exactly the notional of the trades it reports in the
 * 24 hours before now; liquidity is the listing's resting-liquidity figure while the market trades and 0 once it is
 * closed.
 */
export function volumeOf(world: World, m: VpMarket, now: number): number {
  return num(m.baseVolume + venuepOf(world).activity.notionalCentsThrough(m.conditionId, now) / 100, 6)
}

/**
 * Notional (USD) of the trades in (now − 24 h, now]. A replayed market has no history to list: it serves its
 * captured figure plus what the simulation traded since (gamma-captured.ts), and filters and sorts by the same.
 */
export function volume24hOf(world: World, m: VpMarket, now: number): number {
  const vp = venuepOf(world)
  if (m.capture !== undefined)
    return num((m.capture.volume24hr ?? 0) + (vp.activity.liveNotional.get(m.conditionId) ?? 0), 6)
  const cents =
    vp.activity.notionalCentsThrough(m.conditionId, now) -
    vp.activity.notionalCentsThrough(m.conditionId, now - MS_PER_DAY)
  return num(cents / 100, 6)
}

/** Resting liquidity (USD) while the market trades; a closed market has none. */
export function liquidityOf(m: VpMarket): number {
  return m.canonical.lifecycle === 'active' ? m.liquidity : 0
}

/** Closed and resolved markets are both `closed` on Gamma; only active ones have a book. */
export function isClosed(m: VpMarket): boolean {
  return m.canonical.lifecycle !== 'active'
}

/**
 * An event's own `closed` flag: a generated event closes with its question; a replayed one keeps the captured
 * flag, which real captures show false while some of its markets are closed.
 */
export function isEventClosed(e: VpEvent): boolean {
  if (e.capture !== undefined) return e.capture.closed
  return e.question?.lifecycle !== 'active'
}

/** Open interest of a market, by its condition id (undefined: none held). */
export interface OpenInterest {
  get(conditionId: string): number | undefined
}

/**
 * Open interest per condition id in USD: the complete sets the simulated wallets still hold, i.e. the larger of the
 * two tokens' outstanding shares. Read from the ledger's running totals (`Ledger.outstanding`), per market asked:
 * summing every wallet's positions for each catalog page made a listing at real size quadratic (20 s of the
 * simulator's CPU in one bench run while the engine traded).
 */
export function openInterestByCondition(world: World): OpenInterest {
  const vp = venuepOf(world)
  return {
    get: (conditionId) => {
      const market = vp.marketsByCondition.get(conditionId)
      if (market === undefined) return undefined
      const [yes, no] = market.tokenIds
      const held = Math.max(vp.ledger.outstanding.get(yes) ?? 0, vp.ledger.outstanding.get(no) ?? 0)
      return held > 0 ? held : undefined
    },
  }
}

export interface EventTotals {
  readonly volume: number
  readonly volume24hr: number
  readonly liquidity: number
  readonly openInterest: number
}

/** Event-level numbers are sums over the event's markets (Gamma sends them as JSON numbers, §1.6). */
export function eventTotals(world: World, e: VpEvent, oi: OpenInterest, now: number): EventTotals {
  let volume = 0
  let volume24hr = 0
  let liquidity = 0
  let openInterest = 0
  for (const m of e.markets) {
    volume += volumeOf(world, m, now)
    volume24hr += volume24hOf(world, m, now)
    liquidity += liquidityOf(m)
    openInterest += oi.get(m.conditionId) ?? 0
  }
  return {
    volume: num(volume),
    volume24hr: num(volume24hr),
    liquidity: num(liquidity),
    openInterest: num(openInterest, 2),
  }
}
