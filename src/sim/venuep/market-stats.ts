import type { World } from '../world/generate.js'
import type { VpEvent, VpMarket } from '../world/types.js'
import { num } from './format.js'

/**
 * Catalog numbers for Gamma (volume, liquidity, open interest), derived from the world so they move with the
 * simulation: volume is the pre-simulation base plus every live trade's notional; liquidity is the listing's
 * resting-liquidity figure while the market trades and 0 once it is closed.
 */
export function volumeOf(world: World, m: VpMarket): number {
  return num(m.baseVolume + (world.trades.liveNotional.get(m.conditionId) ?? 0), 6)
}

/** 24h volume: the base figure plus live notional (a simulator run is assumed to be shorter than a day). */
export function volume24hOf(world: World, m: VpMarket): number {
  return num(m.baseVolume24h + (world.trades.liveNotional.get(m.conditionId) ?? 0), 6)
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

const oiCache = new WeakMap<World, { readonly rows: number; readonly oi: Map<string, number> }>()

/**
 * Open interest per condition id in USD: the complete sets the simulated wallets still hold, i.e. the larger
 * of the two tokens' outstanding shares. The ledger only changes together with the activity store, so the
 * result is reused until a new activity row arrives.
 */
export function openInterestByCondition(world: World): Map<string, number> {
  const rows = world.trades.vpActivity.length
  const cached = oiCache.get(world)
  if (cached !== undefined && cached.rows === rows) return cached.oi
  const oi = computeOpenInterest(world)
  oiCache.set(world, { rows, oi })
  return oi
}

function computeOpenInterest(world: World): Map<string, number> {
  const perToken = new Map<string, number>()
  for (const book of world.ledger.wallets.values()) {
    for (const [tokenId, pos] of book.tokens) if (pos.shares > 0) perToken.set(tokenId, (perToken.get(tokenId) ?? 0) + pos.shares)
  }
  const out = new Map<string, number>()
  for (const [tokenId, shares] of perToken) {
    const ref = world.vpTokens.get(tokenId)
    if (ref === undefined) continue
    const cid = ref.market.conditionId
    out.set(cid, Math.max(out.get(cid) ?? 0, shares))
  }
  return out
}

export interface EventTotals {
  readonly volume: number
  readonly volume24hr: number
  readonly liquidity: number
  readonly openInterest: number
}

/** Event-level numbers are sums over the event's markets (Gamma sends them as JSON numbers, §1.6). */
export function eventTotals(world: World, e: VpEvent, oi: ReadonlyMap<string, number>): EventTotals {
  let volume = 0
  let volume24hr = 0
  let liquidity = 0
  let openInterest = 0
  for (const m of e.markets) {
    volume += volumeOf(world, m)
    volume24hr += volume24hOf(world, m)
    liquidity += liquidityOf(m)
    openInterest += oi.get(m.conditionId) ?? 0
  }
  return { volume: num(volume), volume24hr: num(volume24hr), liquidity: num(liquidity), openInterest: num(openInterest, 2) }
}
