import type { Channel } from '../../stream/protocol.js'
import { bookCrc, type PrintedLevel } from '../../stream/sources/market/book-crc.js'
import { REMOVED } from '../../stream/sources/market/book-decimals.js'
import type { RankedItem } from '../../stream/sources/spreads/ranked-list.js'
import { PER_ACCOUNT } from '../../stream/sources/spreads/recent-firings.js'

/**
 * How an edge's mirror holds a stream's state between frames, per channel: what a delta or a marker does to the
 * state a snapshot carries (`d`). The rules are the channels' own (STREAMING.md, and the sources that write the
 * frames), so a snapshot the mirror builds carries what the ingest's source would have sent at that seq.
 *
 * `incremental`: a delta changes part of the state, so a stream can only go on from its snapshot and every delta
 * after it; after a gap the mirror needs a new snapshot. Otherwise a delta's `d` is the whole value and the stream
 * can start over from any delta.
 */
export interface StreamState {
  readonly incremental: boolean
  /** The state after a delta. */
  delta(state: unknown, d: unknown): unknown
  /** The state after a marker (most leave it as it is). */
  marker(state: unknown, d: unknown): unknown
}

const unchanged = (state: unknown): unknown => state

/** `quote`, `spread`, `venue`: a delta is the whole value. */
const LATEST_VALUE: StreamState = { incremental: false, delta: (_state, d) => d, marker: unchanged }

interface BookState {
  readonly bids: readonly PrintedLevel[]
  readonly asks: readonly PrintedLevel[]
  readonly crc: number
}

const EMPTY_BOOK: BookState = { bids: [], asks: [], crc: bookCrc([], []) }

/**
 * `book`: a delta sets levels to absolute sizes (`"0"` removes) and carries the top 10's crc; `venue_disconnect`
 * empties the book (book-source.ts: the book is gone until the venue resends it; the `resync` snapshot brings it).
 */
const BOOK: StreamState = {
  incremental: true,
  delta(state, d) {
    const s = state as BookState
    const delta = d as BookState
    return {
      bids: applyLevels(s.bids, delta.bids, -1),
      asks: applyLevels(s.asks, delta.asks, 1),
      crc: delta.crc,
    }
  },
  marker: (state, d) => ((d as { ev?: unknown }).ev === 'venue_disconnect' ? EMPTY_BOOK : state),
}

/** `levels` (best first: ascending prices for `order` 1, descending for -1) with `changes` applied. */
function applyLevels(
  levels: readonly PrintedLevel[],
  changes: readonly PrintedLevel[],
  order: 1 | -1,
): readonly PrintedLevel[] {
  if (changes.length === 0) return levels
  const sizes = new Map<string, string>()
  for (const [price, size] of levels) sizes.set(price, size)
  for (const [price, size] of changes) {
    if (size === REMOVED) sizes.delete(price)
    else sizes.set(price, size)
  }
  return [...sizes].sort((a, b) => (Number(a[0]) - Number(b[0])) * order)
}

interface RankedState {
  readonly upsert: readonly RankedItem[]
  readonly remove: readonly string[]
  readonly crc: number
}

/** `spreads.top` (ranked-list.ts): drop the removed ids, set each upserted id's rank and record, order by rank. */
const RANKED_LIST: StreamState = {
  incremental: true,
  delta(state, d) {
    const s = state as RankedState
    const delta = d as RankedState
    const items = new Map<string, RankedItem>()
    for (const item of s.upsert) items.set(item.id, item)
    for (const id of delta.remove) items.delete(id)
    for (const item of delta.upsert) items.set(item.id, item)
    return { upsert: [...items.values()].sort((a, b) => a.rank - b.rank), remove: [], crc: delta.crc }
  },
  marker: unchanged,
}

/** `alerts` (alerts-source.ts): a delta is one new firing; the snapshot holds the last PER_ACCOUNT, oldest first. */
const FIRINGS: StreamState = {
  incremental: true,
  delta(state, d) {
    const firings = [...(state as { firings: readonly unknown[] }).firings, d]
    return { firings: firings.length > PER_ACCOUNT ? firings.slice(firings.length - PER_ACCOUNT) : firings }
  },
  marker: unchanged,
}

const STATES: Readonly<Record<Channel, StreamState>> = {
  quote: LATEST_VALUE,
  spread: LATEST_VALUE,
  venue: LATEST_VALUE,
  book: BOOK,
  'spreads.top': RANKED_LIST,
  alerts: FIRINGS,
}

export function streamState(ch: Channel): StreamState {
  return STATES[ch]
}
