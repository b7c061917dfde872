import { MICROS_PER_UNIT } from '../../core/numbers.js'
import { rebalance, SimBook } from '../world/book-model.js'
import type { VpActivity } from './ledger.js'
import { hashString, type Rng } from '../world/random.js'
import { openForTheDay, printTime, round2 } from '../world/recent-prints.js'
import { sortByTime } from '../world/time-sort.js'
import type { VpMarket } from './types.js'
import type { World } from '../world/world.js'
import { episode, generateWallets, takerPrice, type ActivityContext } from './wallets.js'
import { venuepOf } from './state.js'
import { pushAll } from '../../core/arrays.js'

/**
 * What a generated world starts with on venuep besides its listing (world/generate.ts calls these through the
 * peer): a book at the fair-value ladder for every active market (empty for an inactive placeholder), wallets with
 * their trading history, and each open market's last day of trades (world/recent-prints.ts).
 */
const HOUR = 3_600_000

export function buildVenuepBooks(world: World, rng: Rng): void {
  const t = world.anchorMs
  const depth = world.options.bookDepth
  for (const m of venuepOf(world).markets) {
    if (m.canonical.lifecycle !== 'active') continue
    const book = new SimBook(Math.round(m.tickSize * MICROS_PER_UNIT), t)
    // A placeholder is listed inactive with no orders: its book exists (the CLOB serves it) and stays empty.
    if (m.contract.walks)
      rebalance(
        book,
        {
          fair: world.venueFair(m.contract, 'venuep', t),
          halfSpread: m.contract.halfSpread,
          depthLevels: depth,
          depthSize: m.contract.depthSize,
        },
        rng,
        [],
      )
    venuepOf(world).books.set(m.conditionId, book)
  }
}

export function buildVenuepHistory(world: World, rng: Rng): void {
  const vp = venuepOf(world)
  const wallets = generateWallets(rng.fork(1), world.options.wallets, world.anchorMs)
  for (const w of wallets) {
    vp.wallets.push(w)
    vp.walletsByAddress.set(w.address, w)
  }
  const eligible = vp.markets.filter((m) => m.contract.walks && m.event.createdAt < world.anchorMs - 2 * HOUR)
  if (eligible.length === 0) return
  const ctx = { anchorMs: world.anchorMs, dislocations: world.dislocations }
  const rows: VpActivity[] = []
  for (const w of wallets) {
    const wr = rng.fork(hashString(w.address))
    const n = wr.int(2, 14)
    const chosen = new Set<VpMarket>()
    for (let i = 0; i < n * 3 && chosen.size < n; i++) chosen.add(wr.pick(eligible))
    for (const m of chosen) pushAll(rows, episode(wr, w.address, m, ctx))
  }
  pushAll(
    rows,
    venuepRecentPrints(
      world,
      wallets.map((w) => w.address),
      rng.fork(2),
      ctx,
    ),
  )
  sortByTime(rows)
  for (const a of rows) {
    vp.ledger.apply(a)
    vp.activity.add(a, false)
  }
}

/**
 * The last day's prints (world/recent-prints.ts): BUYs by random wallets (a BUY never needs a holding, so every
 * wallet's ledger stays sound), up to 8% of the market's all-time volume.
 */
export function venuepRecentPrints(
  world: World,
  wallets: readonly string[],
  rng: Rng,
  ctx: ActivityContext,
): VpActivity[] {
  const rows: VpActivity[] = []
  if (wallets.length === 0) return rows
  for (const m of venuepOf(world).markets) {
    if (!openForTheDay(m.canonical, m.contract, m.event.createdAt, world.anchorMs)) continue
    const r = rng.fork(hashString(m.conditionId))
    const day = m.baseVolume * r.next() * 0.08
    const k = r.int(1, 3)
    for (let i = 0; i < k; i++) {
      const ts = printTime(world.anchorMs, r)
      const tokenIndex: 0 | 1 = r.chance(0.6) ? 0 : 1
      const price = takerPrice(m, tokenIndex, 'BUY', ts, ctx)
      const size = Math.max(1, round2(day / k / price))
      rows.push({
        ts,
        wallet: r.pick(wallets),
        type: 'TRADE',
        market: m,
        size,
        usdcSize: round2(size * price),
        price,
        side: 'BUY',
        tokenIndex,
        txHash: `0x${r.hex(64)}`,
      })
    }
  }
  return rows
}
