import { MICROS_PER_UNIT } from '../../core/numbers.js'
import { rebalance, SimBook } from '../world/book-model.js'
import { hashString, uuid, type Rng } from '../world/random.js'
import { openForTheDay, printTime, round2 } from '../world/recent-prints.js'
import { sortByTime } from '../world/time-sort.js'
import type { VkTrade } from './trade-store.js'
import type { VkMarket } from './types.js'
import type { World } from '../world/world.js'
import { venuekOf } from './state.js'

/**
 * What a generated world starts with on venuek besides its listing (world/generate.ts calls these through the
 * peer): a book at the fair-value ladder for every active market, the trade prints of the last week, and each open
 * market's last day of trades (world/recent-prints.ts).
 */
const DAY = 86_400_000

export function buildVenuekBooks(world: World, rng: Rng): void {
  const t = world.anchorMs
  const depth = world.options.bookDepth
  for (const m of venuekOf(world).markets) {
    if (m.canonical.lifecycle !== 'active') continue
    const book = new SimBook(Math.round(m.tickSize * MICROS_PER_UNIT), t)
    rebalance(
      book,
      {
        fair: world.venueFair(m.contract, 'venuek', t),
        halfSpread: m.contract.halfSpread,
        depthLevels: depth,
        depthSize: m.contract.depthSize,
      },
      rng,
      [],
    )
    venuekOf(world).books.set(m.ticker, book)
  }
}

export function buildVenuekHistory(world: World, rng: Rng): void {
  const rows = []
  for (const m of venuekOf(world).markets) {
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
  // One by one: a spread of a real-size world's prints overflows the call stack (issue 35).
  for (const row of venuekRecentPrints(world, rng.fork(0x5eed))) rows.push(row)
  sortByTime(rows)
  for (const t of rows) venuekOf(world).trades.add(t, false)
}

/** The last day's prints (world/recent-prints.ts): a few hundred to a few thousand contracts, at the history's rule. */
export function venuekRecentPrints(world: World, rng: Rng): VkTrade[] {
  const rows: VkTrade[] = []
  for (const m of venuekOf(world).markets) {
    if (!openForTheDay(m.canonical, m.contract, m.openTime, world.anchorMs)) continue
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

/** One taker trade at `ts` against the quote the market's path implied: YES takers lift the ask. */
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
