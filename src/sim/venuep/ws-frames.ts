import { MICROS_PER_UNIT } from '../../core/numbers.js'
import type { LevelChange, SimBook } from '../world/book-model.js'
import type { World } from '../world/world.js'
import type { VpActivity } from './ledger.js'
import type { VpMarket } from './types.js'
import { bookHash, bookSummary, tokenTop, type TokenIndex, type TokenTop } from './book-view.js'
import { fmtMicros, fmtNum } from './format.js'

/** Which of a market's tokens a connection wants: 1 = token 0, 2 = token 1, 3 = both. */
type Mask = 1 | 2 | 3

/**
 * Engine events → venuep market-channel frames (venuep.md §3.3), serialized once per event and shared by every
 * connection that wants the same assets. All numbers are strings and `timestamp` is epoch ms.
 *
 * A `vp_book` event becomes one current-schema `price_change` covering token 0's level changes and their
 * token-1 mirror images, each entry carrying that asset's book hash (the REST `/book` hash of the same state)
 * and its top of book after the whole change.
 */
export class BookEventFrames {
  readonly #world: World
  readonly #market: VpMarket
  readonly #book: SimBook
  readonly #changes: readonly LevelChange[]
  readonly #ts: string
  readonly #priceChange = new Map<Mask, string>()
  #entries: [object[], object[]] | undefined
  #bestBidAsk: [string, string] | null | undefined

  constructor(world: World, market: VpMarket, book: SimBook, changes: readonly LevelChange[], ts: number) {
    this.#world = world
    this.#market = market
    this.#book = book
    this.#changes = changes
    this.#ts = String(ts)
  }

  /** The `price_change` frame for a connection subscribed to token 0 (mask 1), token 1 (2) or both (3). */
  priceChange(mask: Mask): string {
    let frame = this.#priceChange.get(mask)
    if (frame === undefined) {
      const [e0, e1] = (this.#entries ??= this.#buildEntries())
      const entries = mask === 3 ? [...e0, ...e1] : mask === 1 ? e0 : e1
      frame = JSON.stringify({
        event_type: 'price_change',
        market: this.#market.conditionId,
        price_changes: entries,
        timestamp: this.#ts,
      })
      this.#priceChange.set(mask, frame)
    }
    return frame
  }

  /** `best_bid_ask` for token `index` when the event moved the top of book, else undefined. */
  bestBidAsk(index: TokenIndex): string | undefined {
    if (this.#bestBidAsk === undefined) {
      const before = previousTop(this.#book, this.#changes)
      const after = tokenTop(this.#book, 0)
      this.#bestBidAsk =
        before.bid === after.bid && before.ask === after.ask ? null : [this.#bbaFrame(0), this.#bbaFrame(1)]
    }
    return this.#bestBidAsk === null ? undefined : this.#bestBidAsk[index]
  }

  #bbaFrame(index: TokenIndex): string {
    const top = tokenTop(this.#book, index)
    const bid = top.bid ?? 0
    const ask = top.ask ?? MICROS_PER_UNIT
    return JSON.stringify({
      event_type: 'best_bid_ask',
      market: this.#market.conditionId,
      asset_id: this.#market.tokenIds[index],
      best_bid: fmtMicros(bid),
      best_ask: fmtMicros(ask),
      spread: fmtMicros(ask - bid),
      timestamp: this.#ts,
    })
  }

  #buildEntries(): [object[], object[]] {
    const m = this.#market
    const out: [object[], object[]] = [[], []]
    for (const index of [0, 1] as const) {
      const hash = bookHash(this.#world, m, index, this.#book)
      const top = tokenTop(this.#book, index)
      // An empty side reads as best bid 0 / best ask 1, as in the venue's own example (§3.3).
      const bestBid = fmtMicros(top.bid ?? 0)
      const bestAsk = fmtMicros(top.ask ?? MICROS_PER_UNIT)
      for (const c of this.#changes) {
        // Token 1 mirrors token 0: a token-0 bid at p is a token-1 ask at 1 − p, and the other way round.
        const isBid = index === 0 ? c.side === 'bid' : c.side === 'ask'
        out[index].push({
          asset_id: m.tokenIds[index],
          price: fmtMicros(index === 0 ? c.price : MICROS_PER_UNIT - c.price),
          size: fmtMicros(c.size),
          side: isBid ? 'BUY' : 'SELL',
          hash,
          best_bid: bestBid,
          best_ask: bestAsk,
        })
      }
    }
    return out
  }
}

/** Top of token 0's book before `changes` were applied, recovered by undoing them newest first. */
export function previousTop(book: SimBook, changes: readonly LevelChange[]): TokenTop {
  const bids = new Map(book.bids)
  const asks = new Map(book.asks)
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i] as LevelChange
    const levels = c.side === 'bid' ? bids : asks
    if (c.prevSize > 0) levels.set(c.price, c.prevSize)
    else levels.delete(c.price)
  }
  let bid: number | undefined
  let ask: number | undefined
  for (const p of bids.keys()) if (bid === undefined || p > bid) bid = p
  for (const p of asks.keys()) if (ask === undefined || p < ask) ask = p
  return { bid, ask }
}

/**
 * `last_trade_price` for token `index`. The engine prints one trade against one book, so the other token
 * sees the same print mirrored (price 1 − p, opposite taker side); sending it to both keeps each token's
 * `last_trade_price` in step with its REST book.
 */
export function lastTradeFrame(a: VpActivity, index: TokenIndex, ts: number): string {
  const m = a.market
  const own = (a.tokenIndex ?? 0) === index
  const price = a.price ?? 0
  const side = a.side ?? 'BUY'
  return JSON.stringify({
    event_type: 'last_trade_price',
    asset_id: m.tokenIds[index],
    market: m.conditionId,
    price: fmtNum(own ? price : 1 - price),
    size: fmtNum(a.size),
    fee_rate_bps: String(m.takerBaseFeeBps),
    side: own ? side : side === 'BUY' ? 'SELL' : 'BUY',
    timestamp: String(ts),
  })
}

export function tickSizeFrame(m: VpMarket, index: TokenIndex, oldTick: number, newTick: number, ts: number): string {
  return JSON.stringify({
    event_type: 'tick_size_change',
    asset_id: m.tokenIds[index],
    market: m.conditionId,
    old_tick_size: fmtNum(oldTick),
    new_tick_size: fmtNum(newTick),
    timestamp: String(ts),
  })
}

/** The initial dump's `book` object: the REST summary (same hash) tagged with its event type. */
export function bookFrameObject(world: World, m: VpMarket, index: TokenIndex, book: SimBook): Record<string, unknown> {
  return { event_type: 'book', ...bookSummary(world, m, index, book) }
}
