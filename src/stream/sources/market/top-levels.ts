import type { BookReader, BookSideName } from '../../../book/order-book.js'
import type { PrintedLevel } from './book-crc.js'
import { formatPrice, formatSize, REMOVED } from './book-decimals.js'

/** One side of a book stream's top levels in micro-units, best first: what its subscribers hold. */
export interface SideLevels {
  readonly prices: readonly number[]
  readonly sizes: readonly number[]
}

export const NO_LEVELS: SideLevels = { prices: [], sizes: [] }

/** The book's top `depth` levels of a side (none while the book has no snapshot: there is no book to show). */
export function readTop(book: BookReader | undefined, side: BookSideName, depth: number): SideLevels {
  if (book === undefined || !book.hasSnapshot) return NO_LEVELS
  const n = Math.min(depth, book.depth(side))
  const prices = new Array<number>(n)
  const sizes = new Array<number>(n)
  for (let i = 0; i < n; i++) {
    prices[i] = book.priceAt(side, i)
    sizes[i] = book.sizeAt(side, i)
  }
  return { prices, sizes }
}

/** True when the book's top `depth` levels of a side are still `held` (checked without allocating). */
export function sameTop(book: BookReader | undefined, side: BookSideName, depth: number, held: SideLevels): boolean {
  if (book === undefined || !book.hasSnapshot) return held.prices.length === 0
  const n = Math.min(depth, book.depth(side))
  if (n !== held.prices.length) return false
  for (let i = 0; i < n; i++) {
    if (book.priceAt(side, i) !== held.prices[i] || book.sizeAt(side, i) !== held.sizes[i]) return false
  }
  return true
}

/**
 * The level changes that turn `held` into `next` (both best first), best first, with absolute sizes: a level that
 * left (removed from the book, or pushed out of the top `depth`) is `"0"`, one that entered or changed size carries
 * its new size. Asks are ordered ascending, bids descending.
 */
export function diffSide(side: BookSideName, held: SideLevels, next: SideLevels): PrintedLevel[] {
  const better = side === 'ask' ? 1 : -1
  const out: PrintedLevel[] = []
  let i = 0
  let j = 0
  while (i < held.prices.length || j < next.prices.length) {
    const a = held.prices[i]
    const b = next.prices[j]
    const order = a === undefined ? 1 : b === undefined ? -1 : (a - b) * better
    if (order < 0) {
      out.push([formatPrice(a as number), REMOVED])
      i++
    } else if (order > 0) {
      out.push([formatPrice(b as number), formatSize(next.sizes[j] as number)])
      j++
    } else {
      const size = next.sizes[j] as number
      if (held.sizes[i] !== size) out.push([formatPrice(b as number), formatSize(size)])
      i++
      j++
    }
  }
  return out
}

export function printSide(levels: SideLevels): PrintedLevel[] {
  const out = new Array<PrintedLevel>(levels.prices.length)
  for (let i = 0; i < out.length; i++)
    out[i] = [formatPrice(levels.prices[i] as number), formatSize(levels.sizes[i] as number)]
  return out
}
