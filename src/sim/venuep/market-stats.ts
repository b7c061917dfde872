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

const oiCache = new WeakMap<World, { readonly rows: number; readonly oi: Map<string, number> }>()

/**
 * Open interest per condition id in USD: the complete sets the simulated wallets still hold, i.e. the larger
 * of the two tokens' outstanding shares. The ledger only changes together with the activity store, so the
 * result is reused until a new activity row arrives.
 */
export function openInterestByCondition(world: World): Map<string, number> {
  const rows = venuepOf(world).activity.rows.length
  const cached = oiCache.get(world)
  if (cached !== undefined && cached.rows === rows) return cached.oi
  const oi = computeOpenInterest(world)
  oiCache.set(world, { rows, oi })
  return oi
}

function computeOpenInterest(world: World): Map<string, number> {
  const perToken = new Map<string, number>()
  for (const book of venuepOf(world).ledger.wallets.values()) {
    for (const [tokenId, pos] of book.tokens)
      if (pos.shares > 0) perToken.set(tokenId, (perToken.get(tokenId) ?? 0) + pos.shares)
  }
  const out = new Map<string, number>()
  for (const [tokenId, shares] of perToken) {
    const ref = venuepOf(world).tokens.get(tokenId)
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
export function eventTotals(world: World, e: VpEvent, oi: ReadonlyMap<string, number>, now: number): EventTotals {
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
