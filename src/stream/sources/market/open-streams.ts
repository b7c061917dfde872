import type { VenueActor } from '../../../actors/venue-actor.js'
import type { StreamLog } from '../../sequencer.js'

/** An open stream of one instrument (a quote stream, or a book stream at one depth). */
export interface InstrumentStream {
  readonly log: StreamLog
  readonly actor: VenueActor
  readonly instrumentId: string
  /** Told of a disconnect (a `venue_disconnect` marker sent), waiting for the instrument's next snapshot. */
  awaitingResync: boolean
}

interface VenueEntry<S> {
  readonly byInstrument: Map<string, S[]>
  readonly detach: () => void
}

/**
 * A channel's open streams, by topic and per venue and instrument. A venue's actor is followed (`attach`: its
 * listeners subscribed) only while one of its streams is open, so a channel nobody reads costs the actor nothing;
 * while followed, a step costs one map lookup per instrument it touched.
 */
export class OpenStreams<S extends InstrumentStream> {
  readonly #venues = new Map<VenueActor, VenueEntry<S>>()
  readonly #byTopic = new Map<string, S>()
  readonly #attach: (actor: VenueActor) => () => void

  constructor(attach: (actor: VenueActor) => () => void) {
    this.#attach = attach
  }

  /** The open stream on `topic`, if any. */
  get(topic: string): S | undefined {
    return this.#byTopic.get(topic)
  }

  add(stream: S): void {
    const actor = stream.actor
    this.#byTopic.set(stream.log.id.topic, stream)
    let entry = this.#venues.get(actor)
    if (entry === undefined) {
      entry = { byInstrument: new Map(), detach: this.#attach(actor) }
      this.#venues.set(actor, entry)
    }
    const list = entry.byInstrument.get(stream.instrumentId)
    if (list === undefined) entry.byInstrument.set(stream.instrumentId, [stream])
    else list.push(stream)
  }

  /** Closes the stream on `topic` (nothing if none is open). */
  remove(topic: string): void {
    const stream = this.#byTopic.get(topic)
    if (stream === undefined) return
    this.#byTopic.delete(topic)
    const entry = this.#venues.get(stream.actor)
    const list = entry?.byInstrument.get(stream.instrumentId)
    if (entry === undefined || list === undefined) return
    const at = list.indexOf(stream)
    if (at >= 0) list.splice(at, 1)
    if (list.length === 0) entry.byInstrument.delete(stream.instrumentId)
    if (entry.byInstrument.size === 0) {
      this.#venues.delete(stream.actor)
      entry.detach()
    }
  }

  /** The open streams of an instrument, or undefined (the common case while a venue is followed). */
  of(actor: VenueActor, instrumentId: string): readonly S[] | undefined {
    return this.#venues.get(actor)?.byInstrument.get(instrumentId)
  }
}
