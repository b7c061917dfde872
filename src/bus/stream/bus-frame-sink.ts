import type { NatsConnection } from '@nats-io/transport-node'
import type { Channel } from '../../stream/protocol.js'
import type { FrameSink } from '../../stream/sequencer.js'
import { CROSS_VENUE, mdSubject } from '../subjects.js'

/**
 * The channels an ingest publishes on the bus and edges mirror. Their frames are latest values (a delta's `d` is
 * the whole value), which is what lets an edge rebuild a stream's state from any delta. `book`, `spreads.top` and
 * `alerts` are served by each edge from its own state.
 */
export const MIRRORED_CHANNELS: ReadonlySet<Channel> = new Set<Channel>(['quote', 'spread', 'venue'])

/** Called with every frame the sink publishes (the stream keeper dates each stream's last full state with it). */
export type BusPublishObserver = (topic: string, frame: string) => void

/**
 * The ingest's `FrameSink`: each sequenced frame, byte for byte, on its stream's subject `md.<ch>.<venue>.<key>`
 * (core publish; the JetStream stream `MD` captures the subjects for the resume window). Frames of channels the bus
 * does not carry are not published (an ingest keeps none of them open; `unmirrored` counts any that come).
 */
export class BusFrameSink implements FrameSink {
  readonly #nc: Pick<NatsConnection, 'publish'>
  observer: BusPublishObserver | undefined
  /** Frames of channels the bus does not carry. */
  unmirrored = 0
  /** Frames the connection refused (closed): the edges see the gap in seq and resynchronize. */
  failed = 0

  constructor(nc: Pick<NatsConnection, 'publish'>) {
    this.#nc = nc
  }

  publish(topic: string, frame: string): void {
    const subject = mdSubjectOfTopic(topic)
    if (subject === undefined) {
      this.unmirrored++
      return
    }
    this.observer?.(topic, frame)
    try {
      this.#nc.publish(subject, frame)
    } catch {
      // Called inside the owning actor's step: a closed connection must not fail the actor.
      this.failed++
    }
  }
}

/**
 * The subject of a sequencer topic (`ch|key`, see `streamId`) of a mirrored channel, undefined for other channels.
 * The venue token is the venue the key names: `<venue>:<instrument>` for quotes, the venue id for `venue`; spreads
 * are cross-venue. A spread key holds `|` itself, so the channel ends at the first one.
 */
export function mdSubjectOfTopic(topic: string): string | undefined {
  const bar = topic.indexOf('|')
  if (bar <= 0) return undefined
  const ch = topic.slice(0, bar)
  const key = topic.slice(bar + 1)
  switch (ch) {
    case 'quote': {
      const colon = key.indexOf(':')
      return colon <= 0 ? undefined : mdSubject(ch, key.slice(0, colon), key)
    }
    case 'venue':
      return mdSubject(ch, key, key)
    case 'spread':
      return mdSubject(ch, CROSS_VENUE, key)
    default:
      return undefined
  }
}
