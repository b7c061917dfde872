import { MICROS_PER_UNIT } from '../../core/numbers.js'
import type { SimBook } from '../world/book-model.js'
import type { World } from '../world/world.js'
import type { VpMarket } from './types.js'
import { summaryHash, type TokenIndex } from './book-hash.js'
import { fmtMicros, fmtNum } from './format.js'
import { venuepOf } from './state.js'

/**
 * Per-token views of venuep's books. The world stores one SimBook per market (token 0, YES side); token 1's
 * book is derived here as its mirror (bid 1 − a for each token-0 ask a, ask 1 − b for each bid b), so REST,
 * WebSocket and Gamma can never disagree about either side.
 */

export type { TokenIndex } from './book-hash.js'

/** One side of a token's book as [priceMicros, sizeMicros] pairs in venuep's wire order. */
export type Levels = [number, number][]

export interface TokenTop {
  readonly bid: number | undefined
  readonly ask: number | undefined
}

/** The wire `OrderBookSummary` (venuep.md §2.2); field order matters because the hash covers the JSON text. */
export interface OrderBookSummary {
  market: string
  asset_id: string
  timestamp: string
  hash: string
  bids: { price: string; size: string }[]
  asks: { price: string; size: string }[]
  min_order_size: string
  tick_size: string
  neg_risk: boolean
  last_trade_price: string
}

/**
 * Bids ascending and asks descending, so the best of each side is the LAST entry — venuep's historical REST
 * and WS order (venuep.md §2.2), which clients index with `[-1]`.
 */
export function tokenLevels(book: SimBook, index: TokenIndex): { bids: Levels; asks: Levels } {
  const bids0 = book.sorted('bid')
  const asks0 = book.sorted('ask')
  if (index === 0) return { bids: bids0, asks: asks0.reverse() }
  // Token-1 bids are token-0 asks mirrored: descending token-0 asks give ascending token-1 bids.
  return {
    bids: asks0.reverse().map(([p, s]) => [MICROS_PER_UNIT - p, s]),
    asks: bids0.map(([p, s]) => [MICROS_PER_UNIT - p, s]),
  }
}

/** Best bid and ask of token `index` in micro-units (undefined for an empty side). */
export function tokenTop(book: SimBook, index: TokenIndex): TokenTop {
  const bid = book.bestBid()
  const ask = book.bestAsk()
  if (index === 0) return { bid, ask }
  return {
    bid: ask === undefined ? undefined : MICROS_PER_UNIT - ask,
    ask: bid === undefined ? undefined : MICROS_PER_UNIT - bid,
  }
}

export interface LastTrade {
  readonly price: number
  /** Taker side from this token's point of view. */
  readonly side: 'BUY' | 'SELL'
  readonly ts: number
}

/**
 * The market's last print seen from token `index`. A trade in the other token is the same print mirrored: a
 * token-1 BUY at 0.47 is a token-0 SELL at 0.53 (the engine matches both tokens against one book).
 */
export function lastTrade(world: World, market: VpMarket, index: TokenIndex): LastTrade | undefined {
  const trades = venuepOf(world).activity.tradesOf(market.conditionId)
  const t = trades[trades.length - 1]
  if (t === undefined || t.price === undefined || t.side === undefined) return undefined
  if ((t.tokenIndex ?? 0) === index) return { price: t.price, side: t.side, ts: t.ts }
  return { price: 1 - t.price, side: t.side === 'BUY' ? 'SELL' : 'BUY', ts: t.ts }
}

/**
 * The book summary of one token, hashed like clob-client's generateOrderBookSummaryHash (SHA-1 of the JSON
 * with `hash: ""`), so a client can recompute it. `timestamp` is the book's last change, which keeps the hash
 * stable while the book is unchanged and lets a WS dump equal the REST body byte for byte.
 */
export function bookSummary(world: World, market: VpMarket, index: TokenIndex, book: SimBook): OrderBookSummary {
  const { bids, asks } = tokenLevels(book, index)
  const last = lastTrade(world, market, index)
  return {
    market: market.conditionId,
    asset_id: market.tokenIds[index],
    timestamp: String(book.updatedAt),
    hash: bookHash(world, market, index, book),
    bids: bids.map(([p, s]) => ({ price: fmtMicros(p), size: fmtMicros(s) })),
    asks: asks.map(([p, s]) => ({ price: fmtMicros(p), size: fmtMicros(s) })),
    min_order_size: fmtNum(market.minOrderSize),
    tick_size: fmtMicros(book.tickMicros),
    neg_risk: market.event.negRisk,
    // Unknown stays empty rather than a made-up price; lenient parsers read "" as "no value".
    last_trade_price: last === undefined ? '' : fmtNum(last.price),
  }
}

/**
 * The summary's hash (book-hash.ts): SHA-1 of the summary's JSON with `hash: ""`, which the official client
 * recomputes in the tests.
 */
export function bookHash(world: World, market: VpMarket, index: TokenIndex, book: SimBook): string {
  const last = lastTrade(world, market, index)
  return summaryHash(market, index, book, last === undefined ? '' : fmtNum(last.price))
}

/** The live book behind a token id, or undefined for unknown tokens and closed/resolved markets. */
export function bookOfToken(
  world: World,
  tokenId: string,
): { market: VpMarket; index: TokenIndex; book: SimBook } | undefined {
  const ref = venuepOf(world).tokens.get(tokenId)
  if (ref === undefined) return undefined
  const book = venuepOf(world).books.get(ref.market.conditionId)
  return book === undefined ? undefined : { market: ref.market, index: ref.index, book }
}

/**
 * What one share of token `index` is worth now: 1/0 once resolved, the live mid while trading, else the fair
 * value at the close (a closed, unresolved market keeps its last level). Used for Gamma outcomePrices, CLOB
 * tokens[].price and Data API curPrice, so the three agree. A replayed market the simulation does not walk (closed
 * when captured, or captured without a price) is worth what its capture says; undefined when it says nothing.
 */
export function currentPrice(world: World, market: VpMarket, index: TokenIndex, now: number): number | undefined {
  const q = market.canonical
  let p0: number
  if (q.lifecycle === 'resolved' && market.contract.won !== undefined) {
    p0 = market.contract.won ? 1 : 0
  } else {
    const book = venuepOf(world).books.get(market.conditionId)
    const bid = book?.bestBid()
    const ask = book?.bestAsk()
    if (bid !== undefined && ask !== undefined) p0 = (bid + ask) / 2 / MICROS_PER_UNIT
    else if (!market.contract.walks) return capturedPrice(market, index)
    else p0 = Math.round(world.venueFair(market.contract, 'venuep', Math.min(now, q.endTime)) * 10_000) / 10_000
  }
  return index === 0 ? p0 : Math.round((1 - p0) * 1e6) / 1e6
}

/** `currentPrice` where a price must exist: markets the simulation trades (wallet positions) always have one. */
export function tradedPrice(world: World, market: VpMarket, index: TokenIndex, now: number): number {
  const p = currentPrice(world, market, index, now)
  if (p === undefined) throw new Error(`market ${market.conditionId} has no price, yet the simulation traded it`)
  return p
}

function capturedPrice(market: VpMarket, index: TokenIndex): number | undefined {
  const text = market.capture?.outcomePrices?.[index]
  const p = text === undefined ? Number.NaN : Number(text)
  return Number.isFinite(p) ? p : undefined
}
