import { MICROS_PER_UNIT } from '../../core/numbers.js'
import { rebalance, SimBook } from './book-model.js'
import type { World } from './world.js'
import { hashString, type Rng } from './random.js'
import { venuekPrint, venuekRecentPrints, venuepRecentPrints } from './recent-prints.js'
import { sortByTime } from './time-sort.js'
import type { VpMarket } from './types.js'
import { episode, generateWallets } from './wallets.js'

/**
 * What a new world starts with besides its listings: a book at the fair-value ladder for every active market (empty
 * for an inactive placeholder), venuep wallets with their trading history, venuek's trade prints of the last week,
 * and each open market's last day of trades on both venues (recent-prints.ts).
 */

const DAY = 86_400_000
const HOUR = 3_600_000

// --------------------------------------------------------------------------------------------- books

export function buildBooks(world: World, rng: Rng): void {
  const t = world.anchorMs
  const depth = world.options.bookDepth
  for (const m of world.vpMarkets) {
    if (m.canonical.lifecycle !== 'active') continue
    const book = new SimBook(Math.round(m.tickSize * MICROS_PER_UNIT), t)
    // A placeholder is listed inactive with no orders: its book exists (the CLOB serves it) and stays empty.
    if (m.contract.walks) rebalance(book, { fair: world.venueFair(m.contract, 'venuep', t), halfSpread: m.contract.halfSpread, depthLevels: depth, depthSize: m.contract.depthSize }, rng, [])
    world.vpBooks.set(m.conditionId, book)
  }
  for (const m of world.vkMarkets) {
    if (m.canonical.lifecycle !== 'active') continue
    const book = new SimBook(Math.round(m.tickSize * MICROS_PER_UNIT), t)
    rebalance(book, { fair: world.venueFair(m.contract, 'venuek', t), halfSpread: m.contract.halfSpread, depthLevels: depth, depthSize: m.contract.depthSize }, rng, [])
    world.vkBooks.set(m.ticker, book)
  }
}

// --------------------------------------------------------------------------------------------- history

export function buildVenuepHistory(world: World, rng: Rng): void {
  const wallets = generateWallets(rng.fork(1), world.options.wallets, world.anchorMs)
  for (const w of wallets) {
    world.vpWallets.push(w)
    world.vpWalletsByAddress.set(w.address, w)
  }
  const eligible = world.vpMarkets.filter((m) => m.contract.walks && m.event.createdAt < world.anchorMs - 2 * HOUR)
  if (eligible.length === 0) return
  const ctx = { anchorMs: world.anchorMs, dislocations: world.dislocations }
  const rows = []
  for (const w of wallets) {
    const wr = rng.fork(hashString(w.address))
    const n = wr.int(2, 14)
    const chosen = new Set<VpMarket>()
    for (let i = 0; i < n * 3 && chosen.size < n; i++) chosen.add(wr.pick(eligible))
    for (const m of chosen) rows.push(...episode(wr, w.address, m, ctx))
  }
  rows.push(...venuepRecentPrints(world, wallets.map((w) => w.address), rng.fork(2), ctx))
  sortByTime(rows)
  for (const a of rows) {
    world.ledger.apply(a)
    world.trades.addVp(a, false)
  }
}

export function buildVenuekHistory(world: World, rng: Rng): void {
  const rows = []
  for (const m of world.vkMarkets) {
    const q = m.canonical
    const end = Math.min(world.anchorMs - 60_000, q.lifecycle === 'active' ? world.anchorMs : q.endTime)
    const start = Math.max(m.openTime, end - 7 * DAY)
    if (end <= start) continue
    const count = Math.min(30, Math.floor((end - start) / (m.contract.tradeIntervalSec * 1000)))
    const mr = rng.fork(hashString(m.ticker))
    for (let i = 0; i < count; i++) {
      const ts = Math.floor(start + mr.next() * (end - start))
      const size = Math.max(1, Math.round(mr.logNormal(40, 1.1) * 100) / 100)
      rows.push(venuekPrint(world, m, ts, size, mr))
    }
  }
  rows.push(...venuekRecentPrints(world, rng.fork(0x5eed)))
  sortByTime(rows)
  for (const t of rows) world.trades.addVk(t, false)
}
