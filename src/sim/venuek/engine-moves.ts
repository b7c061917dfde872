import { MICROS_PER_UNIT } from '../../core/numbers.js'
import type { LevelChange, SimBook } from '../world/book-model.js'
import type { EngineContext, EngineEvent, VenueMoves } from '../world/engine.js'
import { uuid } from '../world/random.js'
import { venuekOf, VENUE } from './state.js'
import type { VkTrade } from './trade-store.js'
import type { VkMarket } from './types.js'

/** The venue's engine events (world/engine.ts), which its WebSocket (ws.ts) turns into frames. */
export type VenuekEvent =
  | {
      readonly type: 'vk_book'
      readonly market: VkMarket
      readonly book: SimBook
      readonly changes: readonly LevelChange[]
      readonly ts: number
    }
  | { readonly type: 'vk_trade'; readonly trade: VkTrade; readonly ts: number }

/** How the venue's books move under the engine: requotes, top-of-book churn and anonymous taker trades. */
export const venuekMoves: VenueMoves<VkMarket> = {
  active: (world) => {
    const books = venuekOf(world).books
    return venuekOf(world).markets.filter((m) => m.contract.walks && books.has(m.ticker))
  },

  requote(m, ctx, now) {
    const book = venuekOf(ctx.world).books.get(m.ticker)
    if (book === undefined) return
    const changes = ctx.rebalance(book, m.contract, ctx.world.venueFair(m.contract, VENUE, now), now)
    if (changes.length > 0) emit(ctx, { type: 'vk_book', market: m, book, changes, ts: now })
  },

  churnTop(m, ctx, now) {
    const book = venuekOf(ctx.world).books.get(m.ticker)
    if (book === undefined) return
    const changes = ctx.churn(book, m.contract, now)
    if (changes.length > 0) emit(ctx, { type: 'vk_book', market: m, book, changes, ts: now })
  },

  trade(m, ctx, now) {
    const state = venuekOf(ctx.world)
    const book = state.books.get(m.ticker)
    if (book === undefined) return
    const rng = ctx.rng
    const takerYes = rng.chance(0.5)
    const level = takerYes ? book.bestAsk() : book.bestBid()
    if (level === undefined) return
    const levelSize = (takerYes ? book.asks : book.bids).get(level) as number
    const count = Math.min(Math.max(1, Math.round(rng.logNormal(30, 1) * 100) / 100), levelSize / MICROS_PER_UNIT)
    const trade: VkTrade = {
      tradeId: uuid(rng),
      market: m,
      ts: now,
      yesPrice: level / MICROS_PER_UNIT,
      count,
      takerOutcomeSide: takerYes ? 'yes' : 'no',
      takerBookSide: takerYes ? 'bid' : 'ask',
    }
    state.trades.add(trade, true)
    book.lastTradePrice = level
    book.lastTradeSide = takerYes ? 'BUY' : 'SELL'
    ctx.counters.trades++
    emit(ctx, { type: 'vk_trade', trade, ts: now })
    const changes: LevelChange[] = []
    book.set(takerYes ? 'ask' : 'bid', level, levelSize - Math.round(count * MICROS_PER_UNIT), changes)
    if (changes.length > 0) {
      book.updatedAt = now
      emit(ctx, { type: 'vk_book', market: m, book, changes, ts: now })
    }
  },

  dislocation(world, contract) {
    const market = venuekOf(world).listing.get(contract.key)
    return market === undefined ? undefined : { market, contract, sign: 1 }
  },
}

/** The engine forwards every venue's events; the venue's own are these. */
export function isVenuekEvent(event: EngineEvent): event is VenuekEvent {
  return event.type === 'vk_book' || event.type === 'vk_trade'
}

function emit(ctx: EngineContext, event: VenuekEvent): void {
  ctx.emit(event)
}
