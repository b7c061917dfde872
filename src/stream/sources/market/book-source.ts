import type { InstrumentState } from '../../../actors/instrument-state.js'
import type { BookStep, VenueActor } from '../../../actors/venue-actor.js'
import type { BookReader } from '../../../book/order-book.js'
import type { Clock } from '../../../core/clock.js'
import { BOOK_DEPTHS, DEFAULT_BOOK_DEPTH, type Rejection } from '../../protocol.js'
import type { Sequencer, StreamId, StreamLog } from '../../sequencer.js'
import { streamId } from '../../sequencer.js'
import type { ChannelSource, SubscribeParams } from '../../source.js'
import { bookCrc, CRC_LEVELS, type PrintedLevel } from './book-crc.js'
import { followStep } from './continuity.js'
import { isRejection, resolveMarketKey } from './market-key.js'
import { OpenStreams, type InstrumentStream } from './open-streams.js'
import { diffSide, NO_LEVELS, printSide, readTop, sameTop, type SideLevels } from './top-levels.js'

/** The `book` channel's payload: levels best first as `[price, size]` strings (book-decimals.ts), and the checksum. */
export interface BookPayload {
  readonly bids: readonly PrintedLevel[]
  readonly asks: readonly PrintedLevel[]
  readonly crc: number
}

interface BookStream extends InstrumentStream {
  readonly depth: number
  /** The top `depth` levels as the stream's subscribers hold them (after the last frame). */
  bids: SideLevels
  asks: SideLevels
  /** Venue and receive time of the last change the stream reflects (a snapshot repeats them). */
  ts: number
  lts: number
}

/**
 * The `book` channel: a stream per (`<venue>:<instrument>`, depth). After every actor step that touched the
 * instrument, the top `depth` levels are compared with what the stream last sent and the difference goes out as
 * absolute sizes (`"0"` removes; a level pushed out of the top N is removed, one that enters is added), every
 * frame with the `crc` of the resulting top 10. The comparison runs inside the actor's step (its book listener),
 * so the frames are numbered where the book is written, and a snapshot taken between steps is exactly the state
 * the last frame left.
 *
 * A drop sends `venue_disconnect` and empties what the stream holds (the book is gone until the venue resends
 * it); the next snapshot of the book sends `resync` and publishes a snapshot to every subscriber.
 */
export class BookSource implements ChannelSource {
  readonly ch = 'book' as const
  readonly #sequencer: Sequencer
  readonly #venues: ReadonlyMap<string, VenueActor>
  readonly #clock: Clock
  readonly #streams: OpenStreams<BookStream>

  constructor(sequencer: Sequencer, venues: ReadonlyMap<string, VenueActor>, clock: Clock) {
    this.#sequencer = sequencer
    this.#venues = venues
    this.#clock = clock
    this.#streams = new OpenStreams((actor) => this.#follow(actor))
  }

  resolve(key: string, params: SubscribeParams): StreamId | Rejection {
    const depth = params.depth ?? DEFAULT_BOOK_DEPTH
    if (!(BOOK_DEPTHS as readonly number[]).includes(depth))
      return { key, code: 'BAD_REQUEST', reason: `depth must be one of ${BOOK_DEPTHS.join(', ')}` }
    const k = resolveMarketKey(key, this.#venues)
    return isRejection(k) ? k : streamId('book', key, depth)
  }

  open(log: StreamLog, params: SubscribeParams): void {
    const k = resolveMarketKey(log.id.key, this.#venues)
    if (isRejection(k) || this.#streams.get(log.id.topic) !== undefined) return
    const depth = params.depth ?? depthOf(log.id.topic)
    const book = k.actor.book(k.instrumentId)
    // Until the stream's first frame, its state is the book as opened: last stamped by the quote (the top's last
    // change; deeper changes leave no time behind).
    const quote = k.actor.quote(k.instrumentId)
    const now = this.#clock.now()
    const stream: BookStream = {
      log,
      actor: k.actor,
      instrumentId: k.instrumentId,
      depth,
      // Opened during an outage: the next snapshot still brings `resync`, the subscriber's cue the book is good.
      awaitingResync: k.actor.handle(k.instrumentId)?.stale === true,
      bids: readTop(book, 'bid', depth),
      asks: readTop(book, 'ask', depth),
      ts: quote?.venueTs ?? now,
      lts: quote?.receivedAt ?? now,
    }
    this.#streams.add(stream)
  }

  close(log: StreamLog): void {
    this.#streams.remove(log.id.topic)
  }

  /** What the stream's subscribers hold (a stream not open: the book as it is now). */
  snapshot(log: StreamLog): string {
    const stream = this.#streams.get(log.id.topic)
    if (stream !== undefined)
      return this.#sequencer.snapshot(log, snapshotPayload(stream.bids, stream.asks), stream.ts, stream.lts)
    const k = resolveMarketKey(log.id.key, this.#venues)
    const book = isRejection(k) ? undefined : k.actor.book(k.instrumentId)
    const depth = depthOf(log.id.topic)
    return this.#sequencer.snapshot(log, snapshotPayload(readTop(book, 'bid', depth), readTop(book, 'ask', depth)))
  }

  #follow(actor: VenueActor): () => void {
    const sequencer = this.#sequencer
    const streams = this.#streams
    const handlers = {
      changed: (stream: BookStream, st: Readonly<InstrumentState>, step: BookStep) => this.#changed(stream, st, step),
      disconnected: (stream: BookStream) => {
        stream.bids = NO_LEVELS
        stream.asks = NO_LEVELS
        stream.ts = stream.log.ts
        stream.lts = stream.log.lts
      },
      resynced: (stream: BookStream, st: Readonly<InstrumentState>, step: BookStep) => {
        stream.bids = readTop(st.book, 'bid', stream.depth)
        stream.asks = readTop(st.book, 'ask', stream.depth)
        stream.ts = step.venueTs
        stream.lts = step.receivedAt
        const d = snapshotPayload(stream.bids, stream.asks)
        sequencer.publishSnapshot(stream.log, d, step.venueTs, step.receivedAt)
      },
    }
    return actor.subscribeBooks((step) => followStep(step, actor, streams, sequencer, handlers))
  }

  /** A delta of the level changes within the top `depth` since the stream's last frame, if any. */
  #changed(stream: BookStream, st: Readonly<InstrumentState>, step: BookStep): void {
    const book: BookReader = st.book
    const bidsSame = sameTop(book, 'bid', stream.depth, stream.bids)
    const asksSame = sameTop(book, 'ask', stream.depth, stream.asks)
    if (bidsSame && asksSame) return
    const bids = bidsSame ? stream.bids : readTop(book, 'bid', stream.depth)
    const asks = asksSame ? stream.asks : readTop(book, 'ask', stream.depth)
    const d: BookPayload = {
      bids: bidsSame ? [] : diffSide('bid', stream.bids, bids),
      asks: asksSame ? [] : diffSide('ask', stream.asks, asks),
      crc: crcOf(bids, asks),
    }
    stream.bids = bids
    stream.asks = asks
    stream.ts = step.venueTs
    stream.lts = step.receivedAt
    this.#sequencer.emit(stream.log, 'delta', d, step.venueTs, step.receivedAt)
  }
}

function snapshotPayload(bids: SideLevels, asks: SideLevels): BookPayload {
  const printedBids = printSide(bids)
  const printedAsks = printSide(asks)
  return {
    bids: printedBids,
    asks: printedAsks,
    crc: bookCrc(printedAsks.slice(0, CRC_LEVELS), printedBids.slice(0, CRC_LEVELS)),
  }
}

function crcOf(bids: SideLevels, asks: SideLevels): number {
  return bookCrc(printSide(topOf(asks)), printSide(topOf(bids)))
}

function topOf(levels: SideLevels): SideLevels {
  return levels.prices.length <= CRC_LEVELS
    ? levels
    : { prices: levels.prices.slice(0, CRC_LEVELS), sizes: levels.sizes.slice(0, CRC_LEVELS) }
}

/** The depth of a book topic (`book|key|depth`); the default when absent. */
function depthOf(topic: string): number {
  const depth = Number(topic.slice(topic.lastIndexOf('|') + 1))
  return (BOOK_DEPTHS as readonly number[]).includes(depth) ? depth : DEFAULT_BOOK_DEPTH
}
