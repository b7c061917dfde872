import { MICROS_PER_UNIT } from '../../core/numbers.js'
import type { Rng } from './random.js'

/**
 * The simulator's authoritative book for one binary contract on one venue, YES side, in integer micro-units.
 * A venue's second token or its NO bids are mirror images of it (price → 1 − price), derived by the
 * protocol servers, so the two views can never disagree.
 */
export interface LevelChange {
  readonly side: 'bid' | 'ask'
  readonly price: number
  /** New absolute size (0 = level removed). */
  readonly size: number
  readonly prevSize: number
}

export class SimBook {
  tickMicros: number
  readonly bids = new Map<number, number>()
  readonly asks = new Map<number, number>()
  lastTradePrice: number | undefined
  lastTradeSide: 'BUY' | 'SELL' | undefined
  updatedAt: number

  constructor(tickMicros: number, now: number) {
    this.tickMicros = tickMicros
    this.updatedAt = now
  }

  bestBid(): number | undefined {
    let best: number | undefined
    for (const p of this.bids.keys()) if (best === undefined || p > best) best = p
    return best
  }

  bestAsk(): number | undefined {
    let best: number | undefined
    for (const p of this.asks.keys()) if (best === undefined || p < best) best = p
    return best
  }

  /** Levels sorted ascending by price. */
  sorted(side: 'bid' | 'ask'): [number, number][] {
    return [...(side === 'bid' ? this.bids : this.asks).entries()].sort((a, b) => a[0] - b[0])
  }

  set(side: 'bid' | 'ask', price: number, size: number, out: LevelChange[]): void {
    const levels = side === 'bid' ? this.bids : this.asks
    const prev = levels.get(price) ?? 0
    if (prev === size) return
    if (size <= 0) levels.delete(price)
    else levels.set(price, size)
    out.push({ side, price, size: Math.max(0, size), prevSize: prev })
  }
}

export interface LadderParams {
  /** Fair value in [0, 1]. */
  readonly fair: number
  readonly halfSpread: number
  readonly depthLevels: number
  /** Typical shares per level. */
  readonly depthSize: number
}

const MICRO = MICROS_PER_UNIT

function roundSize(shares: number): number {
  // Venue sizes carry two decimals.
  return Math.max(1, Math.round(shares * 100)) * (MICRO / 100)
}

/**
 * Moves `book` toward a ladder centred on `fair`: clears levels that would cross the new top, fills the
 * levels between the new top and the old book, keeps `depthLevels` levels a side, and re-sizes one level near
 * the top (ordinary order churn). Appends every level change to `out`.
 */
export function rebalance(book: SimBook, params: LadderParams, rng: Rng, out: LevelChange[]): void {
  const tick = book.tickMicros
  const minP = tick
  const maxP = MICRO - tick
  const halfTicks = Math.max(1, Math.round((params.halfSpread * MICRO) / tick))
  const fairTicks = (params.fair * MICRO) / tick
  let bidTop = Math.floor(fairTicks - halfTicks + 0.5) * tick
  let askTop = Math.ceil(fairTicks + halfTicks - 0.5) * tick
  bidTop = Math.min(maxP - tick, Math.max(minP, bidTop))
  askTop = Math.max(bidTop + tick, Math.min(maxP, askTop))

  // Off-grid levels (after a tick-size change) and levels through the new top go.
  for (const p of [...book.bids.keys()]) if (p > bidTop || p % tick !== 0 || p < minP) book.set('bid', p, 0, out)
  for (const p of [...book.asks.keys()]) if (p < askTop || p % tick !== 0 || p > maxP) book.set('ask', p, 0, out)

  fillSide(book, 'bid', bidTop, -tick, minP, params, rng, out)
  fillSide(book, 'ask', askTop, tick, maxP, params, rng, out)

  // Churn: one level near the top changes size.
  const side = rng.chance(0.5) ? 'bid' : 'ask'
  const top = side === 'bid' ? bidTop : askTop
  const price = top + (side === 'bid' ? -1 : 1) * tick * rng.int(0, 2)
  const levels = side === 'bid' ? book.bids : book.asks
  if (levels.has(price)) book.set(side, price, roundSize(params.depthSize * (0.2 + rng.next() * 1.6)), out)
}

function fillSide(
  book: SimBook,
  side: 'bid' | 'ask',
  top: number,
  step: number,
  limit: number,
  params: LadderParams,
  rng: Rng,
  out: LevelChange[],
): void {
  const levels = side === 'bid' ? book.bids : book.asks
  let count = 0
  let lastKept = top
  for (let p = top; count < params.depthLevels && (step < 0 ? p >= limit : p <= limit); p += step) {
    if (!levels.has(p)) {
      // Occasional holes make the ladder look like a real book.
      if (count > 0 && rng.chance(0.12)) continue
      book.set(side, p, roundSize(params.depthSize * (0.3 + rng.next()) * (1 + (count + 1) * 0.15)), out)
    }
    lastKept = p
    count++
  }
  for (const p of [...levels.keys()]) if (step < 0 ? p < lastKept : p > lastKept) book.set(side, p, 0, out)
}
