import { createHash } from 'node:crypto'
import { MICROS_PER_UNIT } from '../../core/numbers.js'
import type { SimBook } from '../world/book-model.js'
import type { VpMarket } from './types.js'
import { fmtNum } from './format.js'

/** A market's token: 0 prices the contract, 1 its complement (book-view.ts derives its book as the mirror). */
export type TokenIndex = 0 | 1

/**
 * The hash of a token's book summary (venuep.md §2.2, clob-client's generateOrderBookSummaryHash): SHA-1 of the
 * summary's JSON text with `hash: ""`, keys in OrderBookSummary's order. Every venuep book change sends both
 * tokens' hashes (each price_change entry carries one), so this runs twice per change.
 *
 * The text is written byte by byte into one reused buffer instead of built as a string: building it (sorted
 * level arrays, a formatted string per price and size, the concatenations) was ~100 MB/s of garbage at the
 * HTTP bench's 5,000 changes/s, three quarters of all the simulator allocated. Its young-generation collections
 * then ran ~10 times a second at 6-7 ms each over its >1 GB heap, on the CPU the bench's load generator shares
 * with it. The bytes are exactly what `JSON.stringify(bookSummary(…))` writes with the hash emptied, which the
 * tests check against that recipe and the official client.
 *
 * `index` is book-view's TokenIndex (0: the stored book, 1: its mirror), spelled out so that this module, which
 * book-view calls, does not import book-view back.
 */
export function summaryHash(market: VpMarket, index: 0 | 1, book: SimBook, lastTradePrice: string): string {
  const bidsN = book.bids.size
  const asksN = book.asks.size
  ensureCapacity(
    FIXED_BYTES +
      market.conditionId.length +
      market.tokenIds[index].length +
      lastTradePrice.length +
      (bidsN + asksN) * LEVEL_BYTES,
  )
  const bids0 = sortedPrices(book.bids, sortedBids)
  const asks0 = sortedPrices(book.asks, sortedAsks)
  let at = 0
  // Condition ids are 0x-hex and token ids decimal digits: JSON writes them as they are, between quotes.
  at = ascii(at, '{"market":"')
  at = ascii(at, market.conditionId)
  at = ascii(at, '","asset_id":"')
  at = ascii(at, market.tokenIds[index])
  at = ascii(at, '","timestamp":"')
  at = ascii(at, String(book.updatedAt))
  at = ascii(at, '","hash":"","bids":[')
  // Wire order: bids ascending, asks descending (best last). Token 1 mirrors token 0: its bids are token 0's
  // asks at 1 − price (token 0's asks descending give them ascending), its asks token 0's bids at 1 − price.
  if (index === 0) {
    at = levels(at, bids0, bidsN, book.bids, false, false)
    at = ascii(at, '],"asks":[')
    at = levels(at, asks0, asksN, book.asks, true, false)
  } else {
    at = levels(at, asks0, asksN, book.asks, true, true)
    at = ascii(at, '],"asks":[')
    at = levels(at, bids0, bidsN, book.bids, false, true)
  }
  at = ascii(at, '],"min_order_size":"')
  at = ascii(at, fmtNum(market.minOrderSize))
  at = ascii(at, '","tick_size":"')
  at = micros(at, book.tickMicros)
  at = ascii(
    at,
    market.event.negRisk ? '","neg_risk":true,"last_trade_price":"' : '","neg_risk":false,"last_trade_price":"',
  )
  at = ascii(at, lastTradePrice)
  at = ascii(at, '"}')
  return createHash('sha1').update(scratch.subarray(0, at)).digest('hex')
}

/** The summary's bytes apart from the ids, the levels and the last trade price, with room to spare. */
const FIXED_BYTES = 256
/** `,{"price":"0.999999","size":"…"}` (36 bytes) with a size of up to 21 digits and its point. */
const LEVEL_BYTES = 64

let scratch = Buffer.allocUnsafe(16 * 1024)
let sortedBids: Float64Array = new Float64Array(64)
let sortedAsks: Float64Array = new Float64Array(64)

function ensureCapacity(bytes: number): void {
  if (scratch.length < bytes) scratch = Buffer.allocUnsafe(Math.max(bytes, scratch.length * 2))
}

/** The side's prices ascending, in a reused array (its first `levels.size` entries). */
function sortedPrices(levels: ReadonlyMap<number, number>, into: Float64Array): Float64Array {
  let out = into
  if (out.length < levels.size) {
    out = new Float64Array(Math.max(levels.size, out.length * 2))
    if (into === sortedBids) sortedBids = out
    else sortedAsks = out
  }
  let n = 0
  for (const price of levels.keys()) out[n++] = price
  // A typed array sorts numerically in place; the view over the live entries allocates only its header.
  out.subarray(0, n).sort()
  return out
}

/**
 * Writes `n` levels as `{"price":"…","size":"…"}` entries: prices from `sorted` (ascending), walked backwards
 * when `descending`, and mirrored to 1 − price when `mirror`.
 */
function levels(
  at: number,
  sorted: Float64Array,
  n: number,
  sizes: ReadonlyMap<number, number>,
  descending: boolean,
  mirror: boolean,
): number {
  for (let k = 0; k < n; k++) {
    const price = sorted[descending ? n - 1 - k : k] as number
    if (k > 0) at = ascii(at, ',')
    at = ascii(at, '{"price":"')
    at = micros(at, mirror ? MICROS_PER_UNIT - price : price)
    at = ascii(at, '","size":"')
    at = micros(at, sizes.get(price) as number)
    at = ascii(at, '"}')
  }
  return at
}

/** A short ASCII string, byte by byte: Buffer#write would cross into C++ for every piece, which made the hash twice as slow. */
function ascii(at: number, text: string): number {
  for (let i = 0; i < text.length; i++) scratch[at + i] = text.charCodeAt(i)
  return at + text.length
}

/** fmtMicros (format.ts) written into the buffer: 470000 → 0.47, 1500000000 → 1500, 0 → 0. */
function micros(at: number, value: number): number {
  const abs = Math.abs(Math.round(value))
  if (value < 0) scratch[at++] = MINUS
  at = digits(at, Math.floor(abs / MICROS_PER_UNIT), 1)
  let frac = abs % MICROS_PER_UNIT
  if (frac === 0) return at
  let places = 6
  while (frac % 10 === 0) {
    frac /= 10
    places--
  }
  scratch[at++] = DOT
  return digits(at, frac, places)
}

/** A non-negative integer's decimal digits, zero-padded on the left to `width`. */
function digits(at: number, n: number, width: number): number {
  let len = 1
  for (let v = n; v >= 10; v = Math.floor(v / 10)) len++
  if (len < width) len = width
  let v = n
  for (let i = len - 1; i >= 0; i--) {
    scratch[at + i] = ZERO + (v % 10)
    v = Math.floor(v / 10)
  }
  return at + len
}

const ZERO = 0x30
const DOT = 0x2e
const MINUS = 0x2d
