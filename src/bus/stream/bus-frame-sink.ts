import type { NatsConnection } from '@nats-io/transport-node'
import type { Logger } from '../../core/logger.js'
import type { Channel } from '../../stream/protocol.js'
import type { FrameSink } from '../../stream/sequencer.js'
import { CROSS_VENUE, mdSubject } from '../subjects.js'
import { onBrokerBack } from './broker-back.js'
import { MIRRORED_CHANNELS } from './channels.js'
import { DEFAULT_HOLD_MAX_BYTES, FrameHold } from './frame-hold.js'

/** Called with every frame the sink publishes (the stream keeper dates each stream's last full state with it). */
export type BusPublishObserver = (topic: string, frame: string) => void

/**
 * The broker is asked to confirm it read what was published (a flush: PING, PONG) at most this often: the frames
 * published since are what the sink keeps, about this long's worth while the link is up.
 */
const CONFIRM_EVERY_MS = 500

export interface BusFrameSinkOptions {
  /** Bound on the frames kept for a broker outage (bytes of subject and payload; DEFAULT_HOLD_MAX_BYTES). */
  readonly holdMaxBytes?: number | undefined
  /** The clock confirmations are spaced by (Date.now by default). */
  readonly now?: (() => number) | undefined
  readonly log?: Logger | undefined
}

/**
 * The ingest's `FrameSink`: each sequenced frame, byte for byte, on its stream's subject `md.<ch>.<venue>.<stream>`
 * (core publish; the JetStream stream `MD` captures the subjects for the resume window). A topic with no subject is
 * not published (`unmirrored` counts them).
 *
 * Across a broker outage (`follow`) no frame is lost, within `holdMaxBytes`: a core publish is fire and forget, the
 * client has no reconnect buffer to speak of (nats.js empties its outbound buffer before each reconnect attempt:
 * `ProtocolHandler.prepare` in @nats-io/nats-core), and a restarted broker stores nothing in `MD` until JetStream has
 * recovered its streams. So the sink keeps every frame the broker has not confirmed reading (FrameHold), and from
 * the moment the link drops publishes nothing, holding new frames behind those, until JetStream serves `MD` again;
 * then it publishes them all in order and goes back to publishing directly. Frames the broker did get before it
 * stopped are published twice: the edges drop a frame at or behind their stream's seq.
 * Not covered: a frame the broker confirmed reading but had not stored when it died (docs/SCALE-OUT.md, "Not yet").
 *
 * If the hold overflows, its frames are dropped (`holdOverflows`) and so are new ones until the broker is back; then
 * `onLost` runs (the keeper republishes every stream's snapshot) and the edges start those streams over from the
 * snapshots, never from frames with a hole in them.
 */
export class BusFrameSink implements FrameSink {
  readonly #nc: Pick<NatsConnection, 'publish' | 'flush'>
  readonly #hold: FrameHold
  readonly #now: () => number
  readonly #log: Logger | undefined
  observer: BusPublishObserver | undefined
  /** Run when the broker is back after held frames were dropped: every stream must start over (its snapshot). */
  onLost: (() => void) | undefined
  /** Frames of channels the bus does not carry. */
  unmirrored = 0
  /** Frames the connection refused (closed): the edges see the gap in seq and resynchronize. */
  failed = 0
  /** Frames published (again) once the broker was back: held through an outage, or not confirmed before it. */
  framesHeld = 0
  /** Times the hold overflowed (the streams then started over from their snapshots). */
  holdOverflows = 0
  /** The link is down: frames are held, not published. */
  #holding = false
  /** Frames not known to have reached the broker were dropped (an overflow); up to this frame number. */
  #lostUpTo: number | undefined
  #confirming = false
  #confirmedAt = -Infinity

  constructor(nc: Pick<NatsConnection, 'publish' | 'flush'>, options: BusFrameSinkOptions = {}) {
    this.#nc = nc
    this.#hold = new FrameHold(options.holdMaxBytes ?? DEFAULT_HOLD_MAX_BYTES)
    this.#now = options.now ?? Date.now
    this.#log = options.log
  }

  /** Frames held now (not yet confirmed by the broker, or waiting for it to come back). */
  get heldFrames(): number {
    return this.#hold.size
  }

  publish(topic: string, frame: string): void {
    const subject = mdSubjectOfTopic(topic)
    if (subject === undefined) {
      this.unmirrored++
      return
    }
    this.observer?.(topic, frame)
    if (this.#holding) {
      // After an overflow the streams start over from their snapshots: what comes before them is not needed.
      if (this.#lostUpTo === undefined && !this.#hold.add(subject, frame)) this.#overflow()
      return
    }
    try {
      this.#nc.publish(subject, frame)
    } catch {
      // Called inside the owning actor's step: a closed connection must not fail the actor.
      this.failed++
      return
    }
    if (!this.#hold.add(subject, frame)) {
      // Up, but the broker has not confirmed this much: what was held may yet have reached it (a confirmation
      // that covers it clears the loss), or be lost with the link.
      this.#overflow()
      this.#hold.add(subject, frame)
    }
    this.#confirm()
  }

  /** The link dropped: frames are held from now on. */
  linkDown(): void {
    this.#holding = true
  }

  /**
   * JetStream serves `MD` again after the link came back: the held frames are published in order (or, after an
   * overflow, `onLost` runs), and frames go out directly again.
   */
  brokerBack(): void {
    if (!this.#holding) return
    this.#holding = false
    if (this.#lostUpTo !== undefined) {
      this.#lostUpTo = undefined
      this.#hold.clear()
      try {
        this.onLost?.()
      } catch (err) {
        this.#log?.error({ err }, 'bus: streams could not start over after frames were lost')
      }
      return
    }
    for (const f of this.#hold.frames())
      try {
        this.#nc.publish(f.subject, f.payload)
        this.framesHeld++
      } catch {
        this.failed++
      }
    // Confirm the republished frames soon, not a whole interval after the last confirmation before the outage.
    this.#confirmedAt = -Infinity
    this.#confirm()
  }

  /** Holds frames while `nc` is down, until JetStream serves `MD` again. Returns the stop function. */
  follow(nc: NatsConnection): () => void {
    let stopped = false
    void (async () => {
      for await (const s of nc.status()) {
        if (stopped) return
        if (s.type === 'disconnect') this.linkDown()
      }
    })()
    const stopBack = onBrokerBack(nc, () => this.brokerBack(), this.#log)
    return () => {
      stopped = true
      stopBack()
    }
  }

  #overflow(): void {
    this.holdOverflows++
    this.#lostUpTo = this.#hold.last
    this.#hold.clear()
    this.#log?.warn(
      { maxBytes: this.#hold.maxBytes },
      'bus: frames held for the broker overflowed; the streams will start over from their snapshots',
    )
  }

  /** Asks the broker to confirm it read every frame published so far, unless asked recently or the link is down. */
  #confirm(): void {
    if (this.#confirming || this.#holding) return
    const now = this.#now()
    if (now - this.#confirmedAt < CONFIRM_EVERY_MS) return
    this.#confirming = true
    this.#confirmedAt = now
    const upTo = this.#hold.last
    this.#nc.flush().then(
      () => {
        this.#confirming = false
        this.#hold.confirm(upTo)
        // Every frame dropped by an overflow while up was published before this confirmation: none was lost.
        if (!this.#holding && this.#lostUpTo !== undefined && upTo >= this.#lostUpTo) this.#lostUpTo = undefined
      },
      () => {
        // The link dropped first: the frames stay held.
        this.#confirming = false
      },
    )
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
