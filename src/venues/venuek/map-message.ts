import { MICROS_PER_UNIT, parseMicros } from '../../core/numbers.js'
import type { LevelMicros } from '../../book/order-book.js'
import type { FeedEvent } from '../types.js'
import type { KDeltaMsg, KLevel, KSnapshotMsg, KTickerMsg, KTradeMsg } from './wire.js'

/**
 * venuek data messages → feed events on the market's YES book (venuek.md §7): YES bids are bids; a NO bid at
 * n is a YES offer at 1 − n, so NO levels become asks at 1 − n. The subscription uses `use_yes_price:false`
 * (the venue's current default), so NO levels arrive at the NO-leg price. Returns false for an unreadable
 * message.
 */
export function mapVenuekData(type: string, msg: unknown, receivedAt: number, out: FeedEvent[]): boolean {
  if (typeof msg !== 'object' || msg === null) return false
  switch (type) {
    case 'orderbook_snapshot':
      return mapSnapshot(msg as KSnapshotMsg, receivedAt, out)
    case 'orderbook_delta':
      return mapDelta(msg as KDeltaMsg, receivedAt, out)
    case 'trade':
      return mapTrade(msg as KTradeMsg, receivedAt, out)
    case 'ticker':
      return mapTicker(msg as KTickerMsg, receivedAt, out)
    default:
      return true
  }
}

function levels(raw: KLevel[] | undefined, flip: boolean): LevelMicros[] | undefined {
  // An absent key means an empty side.
  if (raw === undefined) return []
  if (!Array.isArray(raw)) return undefined
  const out: LevelMicros[] = []
  for (const level of raw) {
    if (!Array.isArray(level)) return undefined
    const price = parseMicros(level[0])
    const size = parseMicros(level[1])
    if (price === undefined || size === undefined) return undefined
    out.push([flip ? MICROS_PER_UNIT - price : price, size])
  }
  return out
}

function mapSnapshot(m: KSnapshotMsg, receivedAt: number, out: FeedEvent[]): boolean {
  const bids = levels(m.yes_dollars_fp, false)
  const asks = levels(m.no_dollars_fp, true)
  if (m.market_ticker === undefined || bids === undefined || asks === undefined) return false
  out.push({ type: 'snapshot', instrumentId: m.market_ticker, bids, asks, venueTs: receivedAt })
  return true
}

function mapDelta(m: KDeltaMsg, receivedAt: number, out: FeedEvent[]): boolean {
  const price = parseMicros(m.price_dollars)
  const delta = parseMicros(m.delta_fp)
  if (
    m.market_ticker === undefined ||
    price === undefined ||
    delta === undefined ||
    (m.side !== 'yes' && m.side !== 'no')
  )
    return false
  const yes = m.side === 'yes'
  out.push({
    type: 'delta',
    instrumentId: m.market_ticker,
    side: yes ? 'bid' : 'ask',
    price: yes ? price : MICROS_PER_UNIT - price,
    delta,
    venueTs: typeof m.ts_ms === 'number' ? m.ts_ms : receivedAt,
  })
  return true
}

function mapTrade(m: KTradeMsg, receivedAt: number, out: FeedEvent[]): boolean {
  const price = parseMicros(m.yes_price_dollars)
  if (m.market_ticker === undefined || price === undefined) return false
  const venueTs = typeof m.ts_ms === 'number' ? m.ts_ms : typeof m.ts === 'number' ? m.ts * 1000 : receivedAt
  out.push({ type: 'trade', instrumentId: m.market_ticker, price, size: parseMicros(m.count_fp) ?? 0, venueTs })
  return true
}

function mapTicker(m: KTickerMsg, receivedAt: number, out: FeedEvent[]): boolean {
  if (m.market_ticker === undefined) return false
  const volume = parseMicros(m.volume_fp)
  const oi = parseMicros(m.open_interest_fp)
  out.push({
    type: 'stats',
    instrumentId: m.market_ticker,
    volume: volume === undefined ? undefined : volume / MICROS_PER_UNIT,
    openInterest: oi === undefined ? undefined : oi / MICROS_PER_UNIT,
    venueTs: typeof m.ts_ms === 'number' ? m.ts_ms : receivedAt,
  })
  return true
}
