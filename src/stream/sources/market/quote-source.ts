import type { VenueActor } from '../../../actors/venue-actor.js'
import type { Clock } from '../../../core/clock.js'
import type { Quote } from '../../../model/types.js'
import type { Rejection } from '../../protocol.js'
import type { Sequencer, StreamId, StreamLog } from '../../sequencer.js'
import { streamId } from '../../sequencer.js'
import type { ChannelSource } from '../../source.js'
import { followStep } from './continuity.js'
import { isRejection, resolveMarketKey } from './market-key.js'
import { OpenStreams, type InstrumentStream } from './open-streams.js'
import { quotePayload } from './quote-payload.js'

/** A quote stream needs nothing beyond its instrument. */
type QuoteStream = InstrumentStream

/**
 * The `quote` channel: one stream per `<venue>:<instrument>`, a delta per published quote change (the latest
 * value, whole), `ts` the venue time of the change and `lts` when we received it.
 *
 * Frames are numbered inside the venue actor's step: its quote listeners and book listeners run synchronously in
 * `#applyFeed`, where the actor (the single writer of the venue's books and quotes) owns the state, so a stream's
 * seq follows the order the quote changed in. A drop puts a `venue_disconnect` marker before the delta that shows
 * `stale: true`; the next snapshot of the book puts `resync` before a published snapshot (then the delta of the
 * live quote: the window alone then carries the stream's state for a client that resumes across it).
 */
export class QuoteSource implements ChannelSource {
  readonly ch = 'quote' as const
  readonly #sequencer: Sequencer
  readonly #venues: ReadonlyMap<string, VenueActor>
  readonly #clock: Clock
  readonly #streams: OpenStreams<QuoteStream>

  constructor(sequencer: Sequencer, venues: ReadonlyMap<string, VenueActor>, clock: Clock) {
    this.#sequencer = sequencer
    this.#venues = venues
    this.#clock = clock
    this.#streams = new OpenStreams((actor) => this.#follow(actor))
  }

  resolve(key: string): StreamId | Rejection {
    const k = resolveMarketKey(key, this.#venues)
    return isRejection(k) ? k : streamId('quote', key)
  }

  open(log: StreamLog): void {
    const k = resolveMarketKey(log.id.key, this.#venues)
    if (isRejection(k) || this.#streams.get(log.id.topic) !== undefined) return
    // Opened during an outage: the next snapshot still brings `resync`, the subscriber's cue that prices are good.
    const stream: QuoteStream = {
      log,
      actor: k.actor,
      instrumentId: k.instrumentId,
      awaitingResync: k.actor.handle(k.instrumentId)?.stale === true,
    }
    this.#streams.add(stream)
  }

  close(log: StreamLog): void {
    this.#streams.remove(log.id.topic)
  }

  snapshot(log: StreamLog): string {
    const stream = this.#streams.get(log.id.topic)
    const k = stream ?? resolveMarketKey(log.id.key, this.#venues)
    const q = isRejection(k) ? undefined : k.actor.quote(k.instrumentId)
    // No quote yet (the book never synced): nothing was received, the snapshot is stamped now.
    const now = this.#clock.now()
    return this.#sequencer.snapshot(log, quotePayload(q), q?.venueTs ?? now, q?.receivedAt ?? now)
  }

  #follow(actor: VenueActor): () => void {
    const sequencer = this.#sequencer
    const streams = this.#streams
    const handlers = {
      resynced: (stream: QuoteStream) => {
        const q = actor.quote(stream.instrumentId)
        sequencer.publishSnapshot(stream.log, quotePayload(q), q?.venueTs, q?.receivedAt)
      },
    }
    const offBooks = actor.subscribeBooks((step) => followStep(step, actor, streams, sequencer, handlers))
    const offQuotes = actor.subscribeQuotes((quotes: readonly Quote[]) => {
      for (let i = 0; i < quotes.length; i++) {
        const q = quotes[i] as Quote
        const open = streams.of(actor, q.instrumentId)
        if (open === undefined) continue
        const d = quotePayload(q)
        for (const stream of open) sequencer.emit(stream.log, 'delta', d, q.venueTs, q.receivedAt)
      }
    })
    return () => {
      offBooks()
      offQuotes()
    }
  }
}
