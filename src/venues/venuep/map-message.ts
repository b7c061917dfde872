import { parseInteger, parseMicros } from '../../core/numbers.js'
import type { LevelMicros } from '../../book/order-book.js'
import type { FeedEvent } from '../types.js'
import { scanPriceChangeFrame } from './price-change-scan.js'
import type { WireLevel, WsBook, WsLastTradePrice, WsPriceChange } from './wire.js'

/**
 * One market-channel text frame → feed events, the per-frame step of the feed (and of the ingest bench).
 * `price_change` frames in the venue's usual layout take the fast path (price-change-scan.ts); anything else
 * is parsed with JSON.parse and mapped by `mapVenuepMessages`, with the same result either way.
 * Returns the number of unreadable entries, or 'malformed' when the frame is not JSON.
 */
export function mapVenuepFrame(text: string, receivedAt: number, out: FeedEvent[]): number | 'malformed' {
  const bad = scanPriceChangeFrame(text, receivedAt, out)
  if (bad !== undefined) return bad
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return 'malformed'
  }
  return mapVenuepMessages(parsed, receivedAt, out)
}

/**
 * CLOB market-channel messages → feed events. A frame holds one message or an array of them (§3.2).
 * `book` is a full snapshot; `price_change` entries carry the new absolute size of one level ("0" removes);
 * `last_trade_price` is a trade. Other types (tick_size_change, best_bid_ask, new_market...) change no book.
 * Returns the number of entries that could not be read: the caller treats any as a broken stream.
 */
export function mapVenuepMessages(parsed: unknown, receivedAt: number, out: FeedEvent[]): number {
  if (Array.isArray(parsed)) {
    let bad = 0
    for (const item of parsed) bad += mapOne(item, receivedAt, out)
    return bad
  }
  return mapOne(parsed, receivedAt, out)
}

function mapOne(msg: unknown, receivedAt: number, out: FeedEvent[]): number {
  if (typeof msg !== 'object' || msg === null) return 1
  switch ((msg as { event_type?: unknown }).event_type) {
    case 'book':
      return mapBook(msg as WsBook, receivedAt, out)
    case 'price_change':
      return mapPriceChange(msg as WsPriceChange, receivedAt, out)
    case 'last_trade_price':
      return mapTrade(msg as WsLastTradePrice, receivedAt, out)
    case undefined:
      return 1
    default:
      return 0
  }
}

function levels(raw: WireLevel[] | null | undefined): LevelMicros[] | undefined {
  if (raw === undefined || raw === null) return []
  if (!Array.isArray(raw)) return undefined
  const out: LevelMicros[] = []
  for (const level of raw) {
    const price = parseMicros(level?.price)
    const size = parseMicros(level?.size)
    if (price === undefined || size === undefined) return undefined
    out.push([price, size])
  }
  return out
}

function mapBook(m: WsBook, receivedAt: number, out: FeedEvent[]): number {
  const bids = levels(m.bids)
  const asks = levels(m.asks)
  if (m.asset_id === undefined || bids === undefined || asks === undefined) return 1
  out.push({ type: 'snapshot', instrumentId: m.asset_id, bids, asks, venueTs: parseInteger(m.timestamp) ?? receivedAt })
  return 0
}

function mapPriceChange(m: WsPriceChange, receivedAt: number, out: FeedEvent[]): number {
  if (!Array.isArray(m.price_changes)) return 1
  const venueTs = parseInteger(m.timestamp) ?? receivedAt
  let bad = 0
  for (const c of m.price_changes) {
    const price = parseMicros(c?.price)
    const size = parseMicros(c?.size)
    if (
      c?.asset_id === undefined ||
      price === undefined ||
      size === undefined ||
      (c.side !== 'BUY' && c.side !== 'SELL')
    ) {
      bad++
      continue
    }
    out.push({ type: 'level', instrumentId: c.asset_id, side: c.side === 'BUY' ? 'bid' : 'ask', price, size, venueTs })
  }
  return bad
}

function mapTrade(m: WsLastTradePrice, receivedAt: number, out: FeedEvent[]): number {
  const price = parseMicros(m.price)
  const size = parseMicros(m.size)
  if (m.asset_id === undefined || price === undefined) return 1
  out.push({
    type: 'trade',
    instrumentId: m.asset_id,
    price,
    size: size ?? 0,
    venueTs: parseInteger(m.timestamp) ?? receivedAt,
  })
  return 0
}
