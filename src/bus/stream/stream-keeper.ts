import type { VenueActor } from '../../actors/venue-actor.js'
import type { Clock, TimerHandle } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import type { Channel } from '../../stream/protocol.js'
import type { Sequencer, StreamId, StreamLog } from '../../stream/sequencer.js'
import type { ChannelSource, SubscribeParams } from '../../stream/source.js'
import type { BusFrameSink } from './bus-frame-sink.js'
import { KEPT_CHANNELS, LEASED_CHANNELS, MIRRORED_CHANNELS } from './channels.js'
import type { LeaseAnswer, LeaseRequest } from './leases.js'
import { streamState } from './stream-state.js'

export interface StreamKeeperOptions {
  readonly sequencer: Sequencer
  /** The sequencer's sink: the keeper publishes snapshots through it and dates each stream's last full state. */
  readonly sink: BusFrameSink
  /** The ingest's channel sources (the keeper opens the streams through them). */
  readonly sources: readonly ChannelSource[]
  /** A `venue` stream per actor is kept open. */
  readonly venues: Iterable<VenueActor>
  readonly clock: Clock
  readonly log?: Logger | undefined
  /** How often keyframes are due and leases expired are checked; a quarter of the resume window by default. */
  readonly checkEveryMs?: number
}

interface KeptStream {
  readonly log: StreamLog
  readonly source: ChannelSource
  /** A delta changes part of the state: only a snapshot holds it whole. */
  readonly incremental: boolean
  /** When a frame holding the whole state (a snapshot, or a delta of a latest-value channel) was last published. */
  fullAt: number
  /** A leased stream: held until then (an edge renews it); undefined for a stream kept while its key exists. */
  leasedUntil: number | undefined
}

/**
 * On an ingest there are no clients to open streams, so the keeper opens them, through the real sources and
 * sequencer (channels.ts says which channel is which):
 * - `venue`, always: a stream per venue actor (a few streams, and what every edge's heartbeat and health show);
 * - every other channel while an edge leases the stream (`lease`, from lease-responder.ts): a stream no edge has
 *   renewed for a resume window is closed, as a single process closes a stream a window after its last subscriber
 *   left. So the ingest serializes what some client follows, not every change of every instrument and pair.
 *
 * Every stream opens with its snapshot published, and gets it published again (a keyframe) when it has had no
 * full state (a snapshot, or a latest-value delta) for half the resume window: the JetStream window then always
 * holds a full state of every stream, which is what an edge started late builds the stream from.
 */
export class StreamKeeper {
  readonly #o: StreamKeeperOptions
  readonly #sources = new Map<Channel, ChannelSource>()
  readonly #kept = new Map<string, KeptStream>()
  readonly #checkEveryMs: number
  /** How long a lease holds a stream without a renewal: the resume window. */
  readonly #leaseMs: number
  #detach: (() => void)[] = []
  #timer: TimerHandle | undefined
  /** Keyframes published (tests and metrics read it). */
  keyframes = 0
  /** Leased streams closed because no edge renewed them. */
  leasesExpired = 0
  /** Told of each leased stream closed for want of renewals (lease-responder.ts announces it to the edges). */
  onLeaseExpired: ((topic: string, epoch: string) => void) | undefined

  constructor(options: StreamKeeperOptions) {
    this.#o = options
    for (const s of options.sources) if (MIRRORED_CHANNELS.has(s.ch)) this.#sources.set(s.ch, s)
    this.#leaseMs = options.sequencer.windowMs
    this.#checkEveryMs = options.checkEveryMs ?? Math.max(1, Math.floor(options.sequencer.windowMs / 4))
  }

  /** Topics of the streams held open. */
  get topics(): string[] {
    return [...this.#kept.keys()]
  }

  start(): void {
    this.#o.sink.observer = (topic, frame) => this.#published(topic, frame)
    for (const actor of this.#o.venues) this.#open('venue', actor.venue)
    this.#timer = this.#o.clock.setInterval(() => this.#check(), this.#checkEveryMs)
  }

  /** Publishes every stream's snapshot now (the sink's `onLost`: frames held through a broker outage overflowed). */
  publishSnapshots(): void {
    for (const [topic, kept] of this.#kept) this.#o.sink.publish(topic, kept.source.snapshot(kept.log))
  }

  /**
   * Holds the named streams of leased channels open until a resume window from now, opening those that are not
   * (each opens with its snapshot published). `fresh`: publish a snapshot of every stream named (an edge that asks
   * to open a stream may have missed its last one). Answers per request, in order: the stream's topic and numbers,
   * or why its key cannot be served.
   */
  lease(requests: readonly LeaseRequest[], fresh: boolean): LeaseAnswer[] {
    const until = this.#o.clock.now() + this.#leaseMs
    return requests.map((r): LeaseAnswer => {
      const source = LEASED_CHANNELS.has(r.ch) ? this.#sources.get(r.ch) : undefined
      if (source === undefined)
        return { key: r.key, code: 'UNKNOWN_CHANNEL', reason: `${r.ch} streams are not leased from the ingest` }
      const id = source.resolve(r.key, { depth: r.depth, accountId: r.account })
      if ('code' in id) return id
      let kept = this.#kept.get(id.topic)
      if (kept === undefined) kept = this.#openStream(id, source, { depth: r.depth, accountId: r.account })
      else if (fresh) this.#o.sink.publish(id.topic, kept.source.snapshot(kept.log))
      kept.leasedUntil = until
      return { topic: id.topic, epoch: kept.log.epoch, seq: kept.log.seq }
    })
  }

  /** Closes every stream and stops following the actors. */
  stop(): void {
    this.#o.clock.clearInterval(this.#timer)
    this.#timer = undefined
    for (const detach of this.#detach) detach()
    this.#detach = []
    for (const topic of [...this.#kept.keys()]) this.#close(topic)
    if (this.#o.sink.observer !== undefined) this.#o.sink.observer = undefined
  }

  /** Holds the stream of `key` of a kept channel open (a no-op if it is); false if the source rejects the key. */
  #open(ch: Channel, key: string): boolean {
    const source = KEPT_CHANNELS.has(ch) ? this.#sources.get(ch) : undefined
    if (source === undefined) return false
    const id = source.resolve(key, {})
    if ('code' in id) return false
    if (!this.#kept.has(id.topic)) this.#openStream(id, source, {})
    return true
  }

  #openStream(id: StreamId, source: ChannelSource, params: SubscribeParams): KeptStream {
    const log = this.#o.sequencer.open(id)
    const incremental = streamState(id.ch).incremental
    const kept: KeptStream = { log, source, incremental, fullAt: this.#o.clock.now(), leasedUntil: undefined }
    this.#kept.set(id.topic, kept)
    source.open(log, params)
    this.#o.sink.publish(id.topic, source.snapshot(log))
    return kept
  }

  #close(topic: string): void {
    const kept = this.#kept.get(topic)
    if (kept === undefined) return
    this.#kept.delete(topic)
    try {
      kept.source.close(kept.log)
    } finally {
      this.#o.sequencer.close(topic)
    }
  }

  #published(topic: string, frame: string): void {
    const kept = this.#kept.get(topic)
    if (kept === undefined) return
    // Frames are serialized with `type` first (serializeFrame).
    if (frame.startsWith('{"type":"snapshot"') || (!kept.incremental && frame.startsWith('{"type":"delta"')))
      kept.fullAt = this.#o.clock.now()
  }

  #check(): void {
    try {
      const now = this.#o.clock.now()
      const due = now - this.#o.sequencer.windowMs / 2
      for (const [topic, kept] of [...this.#kept]) {
        if (kept.leasedUntil !== undefined && kept.leasedUntil < now) {
          this.leasesExpired++
          this.#close(topic)
          this.onLeaseExpired?.(topic, kept.log.epoch)
        } else if (kept.fullAt <= due) {
          this.keyframes++
          this.#o.sink.publish(topic, kept.source.snapshot(kept.log))
        }
      }
    } catch (err) {
      this.#o.log?.error({ err }, 'stream keeper check failed')
    }
  }
}
