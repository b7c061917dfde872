import { MICROS_PER_UNIT } from '../../core/numbers.js'
import { SimBook, type LevelChange } from './book-model.js'
import type { Rng } from './random.js'

/**
 * Books for replayed markets, seeded from the one top of book a capture holds. A capture has no depth, so the
 * levels behind the captured best bid and ask are DERIVED (the protocol needs a book): `depthLevels` levels a side,
 * one tick apart, sized around `depthSize` like the generated ladders. A side the capture lacks is derived only
 * from the captured price: the mirror of the other side around it, when that is a price strictly inside (0, 1).
 * With no side and a price, one tick either side of the price; with no price, the book stays empty.
 */
export interface CapturedQuote {
  /** YES best bid and ask in [0, 1]; undefined when the capture has no quote on that side. */
  readonly bid: number | undefined
  readonly ask: number | undefined
  /** The market's captured price, where it has one: the start of its fair-value path. */
  readonly price: number | undefined
}

const COARSE_TICK = 0.01
const FINE_TICK = 0.001

/**
 * The venue tick the book uses: the listed one when every captured price lies on it, else the coarsest of one
 * cent and a tenth of a cent that fits them (captured prices must be levels of the seeded book).
 */
export function tickFor(prices: readonly (number | undefined)[], listed: number | undefined): number {
  const fits = (tick: number) => prices.every((p) => p === undefined || onGrid(p, tick))
  if (listed !== undefined && listed > 0 && fits(listed)) return listed
  return fits(COARSE_TICK) ? COARSE_TICK : FINE_TICK
}

function onGrid(p: number, tick: number): boolean {
  const micros = Math.round(p * MICROS_PER_UNIT)
  return micros % Math.round(tick * MICROS_PER_UNIT) === 0
}

/** A book level in micro-units: a price strictly inside (0, 1), on the tick grid; else undefined. */
function level(p: number | undefined, tickMicros: number): number | undefined {
  if (p === undefined || !Number.isFinite(p)) return undefined
  const micros = Math.round(Math.round((p * MICROS_PER_UNIT) / tickMicros) * tickMicros)
  return micros >= tickMicros && micros <= MICROS_PER_UNIT - tickMicros ? micros : undefined
}

/** The top of book a capture gives, with the derivations above; both undefined for an empty book. */
export function seededTop(
  quote: CapturedQuote,
  tickSize: number,
): { bid: number | undefined; ask: number | undefined } {
  const tick = Math.round(tickSize * MICROS_PER_UNIT)
  let bid = level(quote.bid, tick)
  let ask = level(quote.ask, tick)
  if (bid !== undefined && ask !== undefined && bid >= ask) ask = undefined // a crossed capture keeps its bid
  const price = quote.price === undefined ? undefined : Math.round(quote.price * MICROS_PER_UNIT)
  if (price !== undefined) {
    if (bid === undefined && ask !== undefined) bid = below(level((2 * price - ask) / MICROS_PER_UNIT, tick), ask)
    else if (ask === undefined && bid !== undefined) ask = above(level((2 * price - bid) / MICROS_PER_UNIT, tick), bid)
    else if (bid === undefined && ask === undefined) {
      bid = level((Math.floor(price / tick - 1) * tick) / MICROS_PER_UNIT, tick)
      ask = above(level((Math.ceil(price / tick + 1) * tick) / MICROS_PER_UNIT, tick), bid ?? 0)
    }
  }
  return { bid, ask }
}

const below = (p: number | undefined, ask: number) => (p !== undefined && p < ask ? p : undefined)
const above = (p: number | undefined, bid: number) => (p !== undefined && p > bid ? p : undefined)

export interface SeedOptions {
  readonly tickSize: number
  readonly depthLevels: number
  /** Typical shares per level (derived; captures hold no sizes). */
  readonly depthSize: number
  readonly now: number
}

export function seedBook(quote: CapturedQuote, options: SeedOptions, rng: Rng): SimBook {
  const tick = Math.round(options.tickSize * MICROS_PER_UNIT)
  const book = new SimBook(tick, options.now)
  const top = seededTop(quote, options.tickSize)
  const out: LevelChange[] = []
  const fill = (side: 'bid' | 'ask', from: number, step: number) => {
    for (let k = 0, p = from; k < options.depthLevels && p >= tick && p <= MICROS_PER_UNIT - tick; k++, p += step) {
      const shares = options.depthSize * (0.3 + rng.next()) * (1 + (k + 1) * 0.15)
      book.set(side, p, Math.max(1, Math.round(shares * 100)) * (MICROS_PER_UNIT / 100), out)
    }
  }
  if (top.bid !== undefined) fill('bid', top.bid, -tick)
  if (top.ask !== undefined) fill('ask', top.ask, tick)
  return book
}

/** Half the seeded spread, the width the engine keeps when it moves the book (at least half a tick). */
export function seededHalfSpread(quote: CapturedQuote, tickSize: number): number {
  const top = seededTop(quote, tickSize)
  if (top.bid === undefined || top.ask === undefined) return tickSize
  return Math.max(tickSize / 2, (top.ask - top.bid) / 2 / MICROS_PER_UNIT)
}
