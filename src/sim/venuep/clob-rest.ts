import type { Clock } from '../../core/clock.js'
import { MICROS_PER_UNIT } from '../../core/numbers.js'
import type { FaultPlan } from '../faults.js'
import { SimRouter, type SimRequest } from '../http-router.js'
import type { SimBook } from '../world/book-model.js'
import type { World } from '../world/world.js'
import type { VpMarket } from './types.js'
import { bookOfToken, bookSummary, lastTrade, tokenTop, type TokenIndex } from './book-view.js'
import { clobMarketJson, clobMarketsPage, DEFAULT_CLOB_PAGE_SIZE } from './clob-markets.js'
import { fmtMicros, fmtNum, seconds } from './format.js'
import { pricesHistory } from './prices-history.js'
import { guard, ok, WireError } from './wire-error.js'
import { venuepOf } from './state.js'

/** Items accepted by `POST /books` (docs guide, venuep.md §2.1). */
export const MAX_BOOKS_PER_REQUEST = 500

const NO_BOOK = { error: 'No orderbook exists for the requested token id' }

interface TokenBook {
  readonly market: VpMarket
  readonly index: TokenIndex
  readonly book: SimBook
}

export interface ClobRestOptions {
  /** Page size of `GET /markets` (default DEFAULT_CLOB_PAGE_SIZE). */
  readonly marketsPageSize?: number
}

/**
 * venuep's CLOB REST host, public market data only (venuep.md §2): books with bids ascending and asks
 * descending, decimal strings everywhere, `{"error": …}` bodies, and the cursor-paginated market listing.
 * Books exist only for active markets; a closed market's token answers 404 like the real host.
 */
export function clobRouter(world: World, clock: Clock, faults: FaultPlan, options: ClobRestOptions = {}): SimRouter {
  const vp = venuepOf(world)
  const router = new SimRouter({ host: 'clob', faults, errorBody: (_status, message) => ({ error: message }) })
  const pageSize = options.marketsPageSize ?? DEFAULT_CLOB_PAGE_SIZE

  const tokenParam = (req: SimRequest): string => {
    const tokenId = req.query.get('token_id') ?? ''
    if (!/^\d+$/.test(tokenId)) throw new WireError(400, { error: 'invalid token id' })
    return tokenId
  }
  const liveBook = (req: SimRequest): TokenBook => {
    const found = bookOfToken(world, tokenParam(req))
    if (found === undefined) throw new WireError(404, NO_BOOK)
    return found
  }
  /** Endpoints about the market rather than its book still answer for closed markets. */
  const marketOfToken = (req: SimRequest): { market: VpMarket; index: TokenIndex } => {
    const ref = vp.tokens.get(tokenParam(req))
    if (ref === undefined) throw new WireError(404, { error: 'market not found' })
    return ref
  }

  router.get('/', () => ok('OK'))
  router.get('/time', () => ok(seconds(clock.now())))
  router.get(
    '/book',
    guard((req) => {
      const b = liveBook(req)
      return ok(bookSummary(world, b.market, b.index, b.book))
    }),
  )
  router.post(
    '/books',
    guard((req) =>
      ok(
        tokenIdsOfBody(req.body).flatMap((id) => {
          const b = bookOfToken(world, id)
          // Unknown and closed tokens are left out; the response order is not a contract (join on asset_id).
          return b === undefined ? [] : [bookSummary(world, b.market, b.index, b.book)]
        }),
      ),
    ),
  )
  router.get(
    '/price',
    guard((req) => {
      const side = req.query.get('side') ?? ''
      if (side !== 'BUY' && side !== 'SELL') throw new WireError(400, { error: 'Invalid side' })
      const b = liveBook(req)
      const top = tokenTop(b.book, b.index)
      // BUY quotes what a seller receives (best bid), SELL what a buyer pays (best ask): py-clob-client#78.
      const price = side === 'BUY' ? top.bid : top.ask
      if (price === undefined) throw new WireError(404, NO_BOOK)
      return ok({ price: fmtMicros(price) })
    }),
  )
  router.get(
    '/midpoint',
    guard((req) => {
      const top = fullTop(liveBook(req))
      return ok({ mid: fmtMicros((top.bid + top.ask) / 2) })
    }),
  )
  router.get(
    '/spread',
    guard((req) => {
      const top = fullTop(liveBook(req))
      return ok({ spread: fmtMicros(top.ask - top.bid) })
    }),
  )
  router.get(
    '/last-trade-price',
    guard((req) => {
      const { market, index } = marketOfToken(req)
      const last = lastTrade(world, market, index)
      return ok(last === undefined ? { price: '', side: '' } : { price: fmtNum(last.price), side: last.side })
    }),
  )
  router.get(
    '/tick-size',
    guard((req) => {
      const { market } = marketOfToken(req)
      const book = vp.books.get(market.conditionId)
      return ok({ minimum_tick_size: book === undefined ? market.tickSize : book.tickMicros / MICROS_PER_UNIT })
    }),
  )
  router.get(
    '/neg-risk',
    guard((req) => ok({ neg_risk: marketOfToken(req).market.event.negRisk })),
  )
  router.get(
    '/fee-rate',
    guard((req) => ok({ base_fee: marketOfToken(req).market.takerBaseFeeBps })),
  )
  router.get(
    '/prices-history',
    guard((req) => ok(pricesHistory(world, req.query, clock.now()))),
  )
  router.get(
    '/markets',
    guard((req) => ok(clobMarketsPage(world, req.query.get('next_cursor'), pageSize, clock.now()))),
  )
  router.get(
    '/markets/:conditionId',
    guard((req) => {
      const m = vp.marketsByCondition.get((req.params.conditionId ?? '').toLowerCase())
      if (m === undefined) throw new WireError(404, { error: 'market not found' })
      return ok(clobMarketJson(world, m, clock.now()))
    }),
  )
  router.post(
    '/midpoints',
    guard((req) => {
      const out: Record<string, string> = {}
      for (const id of tokenIdsOfBody(req.body)) {
        const b = bookOfToken(world, id)
        const top = b === undefined ? undefined : tokenTop(b.book, b.index)
        if (top?.bid !== undefined && top.ask !== undefined) out[id] = fmtMicros((top.bid + top.ask) / 2)
      }
      return ok(out)
    }),
  )
  return router
}

/** Both sides must be present for a mid or a spread; an empty side has no answer rather than a made-up 0. */
function fullTop(b: TokenBook): { bid: number; ask: number } {
  const top = tokenTop(b.book, b.index)
  if (top.bid === undefined || top.ask === undefined) throw new WireError(404, NO_BOOK)
  return { bid: top.bid, ask: top.ask }
}

/** `[{"token_id": "…"}, …]`, at most MAX_BOOKS_PER_REQUEST items; anything else is `400 Invalid payload`. */
function tokenIdsOfBody(body: unknown): string[] {
  const invalid = new WireError(400, { error: 'Invalid payload' })
  if (!Array.isArray(body) || body.length > MAX_BOOKS_PER_REQUEST) throw invalid
  return body.map((item: unknown) => {
    const id = typeof item === 'object' && item !== null ? (item as { token_id?: unknown }).token_id : undefined
    if (typeof id !== 'string' || !/^\d+$/.test(id)) throw invalid
    return id
  })
}
