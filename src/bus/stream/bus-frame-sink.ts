import type { NatsConnection } from '@nats-io/transport-node'
import type { FrameSink } from '../../stream/sequencer.js'
import { CROSS_VENUE, mdSubject } from '../subjects.js'
import type { Channel } from '../../stream/protocol.js'
import { MIRRORED_CHANNELS } from './channels.js'

/** Called with every frame the sink publishes (the stream keeper dates each stream's last full state with it). */
export type BusPublishObserver = (topic: string, frame: string) => void

/**
 * The ingest's `FrameSink`: each sequenced frame, byte for byte, on its stream's subject `md.<ch>.<venue>.<stream>`
 * (core publish; the JetStream stream `MD` captures the subjects for the resume window). A topic with no subject is
 * not published (`unmirrored` counts them).
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
 * The subject of a sequencer topic (`ch|key`, or `book|key|depth`: see `streamId`), undefined for a topic that is not
 * one. The venue token is the venue the key names (`<venue>:<instrument>` for quotes and books, the venue id for
 * `venue`); `spread`, `spreads.top` and `alerts` are of no one venue. A spread key holds `|` itself, so the channel
 * ends at the first one.
 */
export function mdSubjectOfTopic(topic: string): string | undefined {
  const bar = topic.indexOf('|')
  if (bar <= 0) return undefined
  const ch = topic.slice(0, bar)
  const rest = topic.slice(bar + 1)
  if (!MIRRORED_CHANNELS.has(ch as Channel) || rest === '') return undefined
  switch (ch) {
    case 'quote':
    case 'book': {
      const colon = rest.indexOf(':')
      return colon <= 0 ? undefined : mdSubject(ch, rest.slice(0, colon), rest)
    }
    case 'venue':
      return mdSubject(ch, rest, rest)
    default:
      return mdSubject(ch, CROSS_VENUE, rest)
  }
}
