import type { World } from './world.js'
import type { VpActivity } from './ledger.js'
import { hashString, uuid, type Rng } from './random.js'
import type { VkTrade } from './trade-store.js'
import type { VkMarket, VpMarket } from './types.js'
import { takerPrice, type ActivityContext } from './wallets.js'

/**
 * The last day's trades of every open market, printed before the simulator starts. A venue's 24 h volume is the sum
 * of the trades it reports for the last 24 hours (market-stats.ts, venuek/market-state.ts), so a market's day of
 * volume must be trades one can list: each open, trading market gets one to three taker prints in the 24 hours
 * before the anchor, sized to the day's volume drawn for it (venuep: up to 8% of its all-time volume; venuek: a few
 * hundred to a few thousand contracts), at the price its path had then. Thin markets and long shots get small days,
 * as on the real venues.
 */
const DAY = 86_400_000
const MINUTE = 60_000

/** venuep BUYs by random wallets (a BUY never needs a holding, so every wallet's ledger stays sound). */
export function venuepRecentPrints(world: World, wallets: readonly string[], rng: Rng, ctx: ActivityContext): VpActivity[] {
  const rows: VpActivity[] = []
  if (wallets.length === 0) return rows
  for (const m of world.vpMarkets) {
    if (!isOpenAndTrading(m, world.anchorMs)) continue
    const r = rng.fork(hashString(m.conditionId))
    const day = m.baseVolume * r.next() * 0.08
    const k = r.int(1, 3)
    for (let i = 0; i < k; i++) {
      const ts = printTime(world.anchorMs, r)
      const tokenIndex: 0 | 1 = r.chance(0.6) ? 0 : 1
      const price = takerPrice(m, tokenIndex, 'BUY', ts, ctx)
      const size = Math.max(1, round2(day / k / price))
      rows.push({ ts, wallet: r.pick(wallets), type: 'TRADE', market: m, size, usdcSize: round2(size * price), price, side: 'BUY', tokenIndex, txHash: `0x${r.hex(64)}` })
    }
  }
  return rows
}

/** venuek taker prints at the book its path implied then (the history's rule, initial-state.ts). */
export function venuekRecentPrints(world: World, rng: Rng): VkTrade[] {
  const rows: VkTrade[] = []
  for (const m of world.vkMarkets) {
    if (!isOpenAndTrading(m, world.anchorMs)) continue
    const r = rng.fork(hashString(m.ticker))
    const day = r.logNormal(1_200, 1.4)
    const k = r.int(1, 3)
    for (let i = 0; i < k; i++) {
      const ts = printTime(world.anchorMs, r)
      rows.push(venuekPrint(world, m, ts, Math.max(1, round2(day / k)), r))
    }
  }
  return rows
}

/** One venuek taker trade at `ts` against the quote the market's path implied: YES takers lift the ask. */
export function venuekPrint(world: World, m: VkMarket, ts: number, count: number, rng: Rng): VkTrade {
  const fair = world.venueFair(m.contract, 'venuek', ts)
  const takerYes = rng.chance(0.5)
  const raw = takerYes ? fair + m.contract.halfSpread : fair - m.contract.halfSpread
  const yesPrice = Math.min(1 - m.tickSize, Math.max(m.tickSize, Math.round(raw / m.tickSize) * m.tickSize))
  return {
    tradeId: uuid(rng),
    market: m,
    ts,
    yesPrice: Number(yesPrice.toFixed(4)),
    count,
    takerOutcomeSide: takerYes ? 'yes' : 'no',
    takerBookSide: takerYes ? 'bid' : 'ask',
  }
}

/** Open at the anchor, with a price path, and open for the whole last day (a market listed an hour ago has no day). */
function isOpenAndTrading(m: VpMarket | VkMarket, anchorMs: number): boolean {
  // A placeholder (`active: false`) does not walk: it has never traded.
  if (m.canonical.lifecycle !== 'active' || !m.contract.walks) return false
  const opened = 'openTime' in m ? m.openTime : m.event.createdAt
  return opened < anchorMs - DAY
}

/** A whole millisecond within the day before the anchor, at least a minute before it (the history's margin). */
function printTime(anchorMs: number, rng: Rng): number {
  return Math.floor(anchorMs - DAY + rng.next() * (DAY - MINUTE))
}

function round2(x: number): number {
  return Math.round(x * 100) / 100
}
