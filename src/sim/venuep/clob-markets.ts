import { MICROS_PER_UNIT } from '../../core/numbers.js'
import type { World } from '../world/world.js'
import type { VpCapturedMarket } from './capture-schema.js'
import type { VpMarket } from './types.js'
import { currentPrice } from './book-view.js'
import { isoTime } from './format.js'
import { simulatedText } from './gamma-shapes.js'
import { isClosed } from './market-stats.js'
import { WireError } from './wire-error.js'
import { venuepOf } from './state.js'

/**
 * CLOB market objects (`GET /markets/{condition_id}`, `GET /markets`; venuep.md §2.5): snake_case, numbers
 * for sizes and prices, `tokens[]` aligned with Gamma's outcomes, and the cursor envelope whose cursor is the
 * base64 of an integer offset, starting at "MA==" ("0") and ending at "LTE=" ("-1").
 */
export const INITIAL_CURSOR = 'MA=='
export const END_CURSOR = 'LTE='
/** Page size of the cursor listing (a live probe reports 1000, §2.5). */
export const DEFAULT_CLOB_PAGE_SIZE = 1000

/** One CLOB market; `tokens[].price` is the same current price Gamma and the Data API report. */
export function clobMarketJson(world: World, m: VpMarket, now: number): Record<string, unknown> {
  if (m.capture !== undefined) return capturedClobMarketJson(world, m, m.capture, now)
  const e = m.event
  const q = m.canonical
  const closed = isClosed(m)
  const book = venuepOf(world).books.get(m.conditionId)
  const resolved = q.lifecycle === 'resolved' && m.contract.won !== undefined
  return {
    enable_order_book: true,
    active: m.active !== false,
    closed,
    archived: false,
    accepting_orders: !closed && m.active !== false,
    accepting_order_timestamp: isoTime(e.startDate),
    minimum_order_size: m.minOrderSize,
    minimum_tick_size: book === undefined ? m.tickSize : book.tickMicros / MICROS_PER_UNIT,
    condition_id: m.conditionId,
    question_id: m.questionHash,
    question: m.question,
    description: simulatedText(m.description ?? ''),
    market_slug: m.slug,
    end_date_iso: isoTime(m.endDate ?? e.endDate),
    game_start_time: null,
    seconds_delay: 0,
    fpmm: '',
    maker_base_fee: m.takerBaseFeeBps,
    taker_base_fee: m.takerBaseFeeBps,
    notifications_enabled: true,
    neg_risk: e.negRisk,
    neg_risk_market_id: e.negRiskMarketId ?? '',
    neg_risk_request_id: '',
    icon: e.image,
    image: e.image,
    rewards: { rates: null, min_size: 0, max_spread: 0 },
    is_50_50_outcome: false,
    tokens: m.tokenIds.map((tokenId, i) => ({
      token_id: tokenId,
      outcome: m.outcomes[i],
      price: currentPrice(world, m, i as 0 | 1, now),
      winner: resolved && (i === 0) === (m.contract.won === true),
    })),
    tags: ['All', ...e.tags.map((t) => t.label)],
  }
}

/**
 * A replayed market in CLOB form: only what its Gamma capture says, renamed to the CLOB's snake_case, plus the
 * live book's tick and the tokens' current prices (omitted while unknown). A field the capture lacks is absent.
 */
function capturedClobMarketJson(world: World, m: VpMarket, c: VpCapturedMarket, now: number): Record<string, unknown> {
  const book = venuepOf(world).books.get(m.conditionId)
  const out: Record<string, unknown> = {}
  const copy = (to: string, value: unknown) => {
    if (value !== undefined) out[to] = value
  }
  copy('enable_order_book', c.enableOrderBook)
  copy('active', c.active)
  copy('closed', c.closed)
  copy('archived', c.archived)
  copy('accepting_orders', c.acceptingOrders)
  copy('minimum_order_size', c.orderMinSize)
  copy('minimum_tick_size', book === undefined ? c.orderPriceMinTickSize : book.tickMicros / MICROS_PER_UNIT)
  copy('condition_id', c.conditionId)
  copy('question', c.question)
  copy('market_slug', c.slug)
  copy('end_date_iso', c.endDate)
  copy('neg_risk', c.negRisk ?? m.event.capture?.negRisk)
  const resolved = m.canonical.lifecycle === 'resolved' && m.contract.won !== undefined
  out.tokens = m.tokenIds.map((tokenId, i) => {
    const token: Record<string, unknown> = { token_id: tokenId, outcome: m.outcomes[i] }
    const price = currentPrice(world, m, i as 0 | 1, now)
    if (price !== undefined) token.price = price
    if (resolved) token.winner = (i === 0) === (m.contract.won === true)
    return token
  })
  const tags = m.event.capture?.tags
  if (tags !== undefined) out.tags = tags.map((t) => t.label)
  return out
}

/** Decodes a `next_cursor`: base64 of a non-negative integer offset; "LTE=" (-1) means past the end. */
export function decodeCursor(cursor: string | null): number {
  if (cursor === null || cursor === '') return 0
  const text = Buffer.from(cursor, 'base64').toString('utf8')
  if (text === '-1') return -1
  if (!/^\d+$/.test(text) || Buffer.from(text).toString('base64') !== cursor)
    throw new WireError(400, { error: 'invalid next_cursor' })
  return Number(text)
}

/** base64 of the decimal offset, e.g. 100 → "MTAw". */
export function encodeCursor(offset: number): string {
  return Buffer.from(String(offset)).toString('base64')
}

/** One page of every market (closed ones included, as on the real host), in Gamma id order. */
export function clobMarketsPage(
  world: World,
  cursor: string | null,
  pageSize: number,
  now: number,
): Record<string, unknown> {
  const offset = decodeCursor(cursor)
  const all = venuepOf(world).markets
  const slice = offset < 0 ? [] : all.slice(offset, offset + pageSize)
  const next = offset < 0 || offset + pageSize >= all.length ? END_CURSOR : encodeCursor(offset + pageSize)
  return {
    data: slice.map((m) => clobMarketJson(world, m, now)),
    next_cursor: next,
    limit: pageSize,
    count: slice.length,
  }
}
