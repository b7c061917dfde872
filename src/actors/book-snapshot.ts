import { MICROS_PER_UNIT } from '../core/numbers.js'
import type { LevelMicros } from '../book/order-book.js'
import type { FeedEvent } from '../venues/types.js'
import type { InstrumentState } from './instrument-state.js'
import { pushAll } from '../core/arrays.js'

/** One batch of feed events as an actor applies it: the events of one wire frame and when it was received. */
export interface FeedBatch {
  readonly events: readonly FeedEvent[]
  readonly receivedAt: number
}

/** The reason a snapshot gives for instruments whose book the actor does not hold. */
export const NO_BOOK_STALE_REASON = 'no book at the source'

/** Ids per `stale` event: a list of 20,000 long ids in one event would pass a broker's message size. */
const STALE_IDS_PER_EVENT = 1_000

/**
 * Feed batches that bring another venue actor's instruments to what these ones hold (books, last trades, pushed
 * statistics, quotes), applied in order to an actor that runs the same code (an edge following an ingest over the
 * bus). Not just the books: the quote an actor publishes is stamped with the venue time and receipt time of the batch
 * that last changed it, and the batch's venue time is the latest of all its events, so each instrument's book goes in
 * a batch stamped as its quote is (instruments whose quotes share both stamps share a batch), and statistics go
 * first in a batch of their own (a batch of statistics alone changes no quote, whatever its times).
 *
 * An instrument with no live book goes in a `stale` event at the end, so a follower never shows a book the source
 * does not have. One whose quote is stale still has the last prices the venue showed: its top of book is sent as a
 * snapshot (stamped as the quote) before the `stale`, so the follower's stale quote shows the same prices and times.
 * `missing` are ids the caller asked for that the actor does not hold: stale too.
 */
export function bookSnapshotBatches(
  states: Iterable<Readonly<InstrumentState>>,
  missing: readonly string[],
  now: number,
): FeedBatch[] {
  const stats: FeedEvent[] = []
  const byStamp = new Map<string, { events: FeedEvent[]; receivedAt: number }>()
  const stale: string[] = [...missing]
  for (const st of states) {
    if (st.stats !== undefined)
      stats.push({
        type: 'stats',
        instrumentId: st.id,
        volume: st.stats.volume,
        openInterest: st.stats.openInterest,
        venueTs: st.stats.at,
      })
    const q = st.quote
    if (q === undefined) {
      stale.push(st.id)
      continue
    }
    const live = st.book.hasSnapshot && !st.stale
    const key = `${q.venueTs}|${q.receivedAt}`
    let batch = byStamp.get(key)
    if (batch === undefined) byStamp.set(key, (batch = { events: [], receivedAt: q.receivedAt }))
    batch.events.push({
      type: 'snapshot',
      instrumentId: st.id,
      bids: live ? st.book.levels('bid') : topLevel(q.bestBid, q.bestBidSize),
      asks: live ? st.book.levels('ask') : topLevel(q.bestAsk, q.bestAskSize),
      venueTs: q.venueTs,
    })
    if (st.lastTrade !== undefined)
      batch.events.push({ type: 'trade', instrumentId: st.id, price: st.lastTrade, size: 0, venueTs: q.venueTs })
    if (!live) stale.push(st.id)
  }
  const batches: FeedBatch[] = []
  if (stats.length > 0) batches.push({ events: stats, receivedAt: now })
  pushAll(batches, byStamp.values())
  if (stale.length > 0) {
    const events: FeedEvent[] = []
    for (let i = 0; i < stale.length; i += STALE_IDS_PER_EVENT)
      events.push({
        type: 'stale',
        instrumentIds: stale.slice(i, i + STALE_IDS_PER_EVENT),
        reason: NO_BOOK_STALE_REASON,
      })
    batches.push({ events, receivedAt: now })
  }
  return batches
}

/** A stale quote's top of book as a one-level side (its decimals are micros divided, so this is exact). */
function topLevel(price: number | undefined, size: number | undefined): LevelMicros[] {
  if (price === undefined) return []
  return [[Math.round(price * MICROS_PER_UNIT), Math.round((size ?? 0) * MICROS_PER_UNIT)]]
}
