import { MICROS_PER_UNIT } from '../../core/numbers.js'
import type { LevelChange, SimBook } from '../world/book-model.js'
import type { EngineContext, EngineEvent, VenueMoves } from '../world/engine.js'
import type { VpActivity } from './ledger.js'
import { venuepOf, VENUE } from './state.js'
import type { VpMarket } from './types.js'

/** The venue's engine events (world/engine.ts), which its market WebSocket (clob-ws.ts) turns into frames. */
export type VenuepEvent =
  | {
      readonly type: 'vp_book'
      readonly market: VpMarket
      readonly book: SimBook
      readonly changes: readonly LevelChange[]
      readonly ts: number
    }
  | { readonly type: 'vp_trade'; readonly activity: VpActivity; readonly ts: number }
  | {
      readonly type: 'vp_tick_size'
      readonly market: VpMarket
      readonly oldTick: number
      readonly newTick: number
      readonly ts: number
    }

/**
 * How the venue's books move under the engine: requotes that may change the tick size near the extremes, top-of-book
 * churn, and taker trades by the world's wallets (recorded as activity and in the ledger).
 */
export const venuepMoves: VenueMoves<VpMarket> = {
  active: (world) => {
    const books = venuepOf(world).books
    return venuepOf(world).markets.filter((m) => m.contract.walks && books.has(m.conditionId))
  },

  requote(m, ctx, now) {
    const book = venuepOf(ctx.world).books.get(m.conditionId)
    if (book === undefined) return
    const fair = ctx.world.venueFair(m.contract, VENUE, now)
    maybeChangeTick(m, book, fair, ctx, now)
    const changes = ctx.rebalance(book, m.contract, fair, now)
    if (changes.length > 0) emit(ctx, { type: 'vp_book', market: m, book, changes, ts: now })
  },

  churnTop(m, ctx, now) {
    const book = venuepOf(ctx.world).books.get(m.conditionId)
    if (book === undefined) return
    const changes = ctx.churn(book, m.contract, now)
    if (changes.length > 0) emit(ctx, { type: 'vp_book', market: m, book, changes, ts: now })
  },

  /** A taker trade by a random wallet: sells what it holds sometimes, buys otherwise. */
  trade(m, ctx, now) {
    const state = venuepOf(ctx.world)
    const book = state.books.get(m.conditionId)
    const rng = ctx.rng
    if (book === undefined || state.wallets.length === 0) return
    const wallet = rng.pick(state.wallets).address
    const tokenIndex: 0 | 1 = rng.chance(0.6) ? 0 : 1
    const held = state.ledger.sharesOf(wallet, m.tokenIds[tokenIndex])
    const side: 'BUY' | 'SELL' = held > 1 && rng.chance(0.4) ? 'SELL' : 'BUY'
    // Token 0 trades against its own book; token 1's book is the mirror (its ask = 1 − token-0 bid).
    const takesAsk0 = (tokenIndex === 0) === (side === 'BUY')
    const level = takesAsk0 ? book.bestAsk() : book.bestBid()
    if (level === undefined) return
    const levelSize = (takesAsk0 ? book.asks : book.bids).get(level) as number
    const price0 = level / MICROS_PER_UNIT
    const price = tokenIndex === 0 ? price0 : Number((1 - price0).toFixed(6))
    let size = Math.max(1, Math.round(rng.logNormal(40, 0.9) * 100) / 100)
    size = Math.min(size, levelSize / MICROS_PER_UNIT)
    if (side === 'SELL') size = Math.min(size, Math.floor(held * 100) / 100)
    if (size <= 0) return
    const activity: VpActivity = {
      ts: now,
      wallet,
      type: 'TRADE',
      market: m,
      size,
      usdcSize: Math.round(size * price * 100) / 100,
      price,
      side,
      tokenIndex,
      txHash: `0x${rng.hex(64)}`,
    }
    state.ledger.apply(activity)
    state.activity.add(activity, true)
    book.lastTradePrice = level
    book.lastTradeSide = takesAsk0 ? 'BUY' : 'SELL'
    ctx.counters.trades++
    emit(ctx, { type: 'vp_trade', activity, ts: now })
    const changes: LevelChange[] = []
    book.set(takesAsk0 ? 'ask' : 'bid', level, levelSize - Math.round(size * MICROS_PER_UNIT), changes)
    if (changes.length > 0) {
      book.updatedAt = now
      emit(ctx, { type: 'vp_book', market: m, book, changes, ts: now })
    }
  },

  /** A head-to-head lists both sides as one market priced off contract 0: moving contract 1 up is moving 0 down. */
  dislocation(world, contract) {
    const market = venuepOf(world).listing.get(contract.key)?.market
    if (market === undefined) return undefined
    return market.contract.key === contract.key
      ? { market, contract, sign: 1 }
      : { market, contract: market.contract, sign: -1 }
  },
}

/** The engine forwards every venue's events; the venue's own are these. */
export function isVenuepEvent(event: EngineEvent): event is VenuepEvent {
  return event.type === 'vp_book' || event.type === 'vp_trade' || event.type === 'vp_tick_size'
}

function emit(ctx: EngineContext, event: VenuepEvent): void {
  ctx.emit(event)
}

/** The venue tightens the tick from 0.01 to 0.001 near the extremes and relaxes it back (tick_size_change). */
function maybeChangeTick(m: VpMarket, book: SimBook, fair: number, ctx: EngineContext, now: number): void {
  const coarse = Math.round(0.01 * MICROS_PER_UNIT)
  const fine = Math.round(0.001 * MICROS_PER_UNIT)
  let next = book.tickMicros
  if (book.tickMicros === coarse && (fair < 0.04 || fair > 0.96)) next = fine
  else if (book.tickMicros === fine && m.tickSize === 0.01 && fair > 0.06 && fair < 0.94) next = coarse
  if (next === book.tickMicros) return
  const oldTick = book.tickMicros / MICROS_PER_UNIT
  book.tickMicros = next
  ctx.counters.tickSizeChanges++
  emit(ctx, { type: 'vp_tick_size', market: m, oldTick, newTick: next / MICROS_PER_UNIT, ts: now })
}
