import type { VenueActor } from '../../actors/venue-actor.js'
import type { Clock, TimerHandle } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import type { SpreadChange } from '../../spreads/engine/spread-engine.js'
import type { Channel } from '../../stream/protocol.js'
import type { Sequencer, StreamLog } from '../../stream/sequencer.js'
import type { ChannelSource } from '../../stream/source.js'
import { MIRRORED_CHANNELS, type BusFrameSink } from './bus-frame-sink.js'

/** What the keeper reads of the spread engine: its pairs, and word when they change. */
export interface SpreadPairs {
  pairKeys(): Iterable<string>
  spec(key: string): unknown
  subscribe(listener: (changes: readonly SpreadChange[]) => void): () => void
}

export interface StreamKeeperOptions {
  readonly sequencer: Sequencer
  /** The sequencer's sink: the keeper publishes snapshots through it and dates each stream's last full state. */
  readonly sink: BusFrameSink
  /** The ingest's channel sources; the keeper uses those of the mirrored channels (`quote`, `spread`, `venue`). */
  readonly sources: readonly ChannelSource[]
  readonly venues: Iterable<VenueActor>
  /** Absent: no `spread` streams (an ingest without a spread engine). */
  readonly spreads?: SpreadPairs | undefined
  readonly clock: Clock
  readonly log?: Logger | undefined
  /** How often keyframes are due-checked and the pair set reconciled; a quarter of the resume window by default. */
  readonly checkEveryMs?: number
}

interface KeptStream {
  readonly log: StreamLog
  readonly source: ChannelSource
  /** When a frame holding the whole state (snapshot or delta) was last published. */
  fullAt: number
}

/**
 * On an ingest there are no clients to open streams, so the keeper holds every stream of the mirrored channels
 * open, through the real sources and sequencer: a `venue` stream per venue actor, a `quote` stream per streamed
 * instrument of each actor's catalog (followed as catalogs change), a `spread` stream per pair the engine holds
 * (followed through its changes, and reconciled on every check). A stream whose key disappears is closed.
 *
 * Every stream opens with its snapshot published, and gets it published again (a keyframe) when it has had no
 * snapshot or delta for half the resume window: the JetStream window then always holds a full state of every
 * stream, which is what an edge started late builds the stream from.
 */
export class StreamKeeper {
  readonly #o: StreamKeeperOptions
  readonly #sources = new Map<Channel, ChannelSource>()
  readonly #kept = new Map<string, KeptStream>()
  readonly #checkEveryMs: number
  #detach: (() => void)[] = []
  #timer: TimerHandle | undefined
  /** Keyframes published (tests and metrics read it). */
  keyframes = 0

  constructor(options: StreamKeeperOptions) {
    this.#o = options
    for (const s of options.sources) if (MIRRORED_CHANNELS.has(s.ch)) this.#sources.set(s.ch, s)
    this.#checkEveryMs = options.checkEveryMs ?? Math.max(1, Math.floor(options.sequencer.windowMs / 4))
  }

  /** Topics of the streams held open. */
  get topics(): string[] {
    return [...this.#kept.keys()]
  }

  start(): void {
    this.#o.sink.observer = (topic, frame) => this.#published(topic, frame)
    for (const actor of this.#o.venues) {
      this.#open('venue', actor.venue)
      this.#followCatalog(actor)
      this.#detach.push(actor.subscribeCatalog(() => this.#followCatalog(actor)))
    }
    const spreads = this.#o.spreads
    if (spreads !== undefined) {
      this.#followPairs(spreads)
      this.#detach.push(spreads.subscribe((changes) => this.#pairsChanged(spreads, changes)))
    }
    this.#timer = this.#o.clock.setInterval(() => this.#check(), this.#checkEveryMs)
  }

  /** Publishes every stream's snapshot now (the sink's `onLost`: frames held through a broker outage overflowed). */
  publishSnapshots(): void {
    for (const [topic, kept] of this.#kept) this.#o.sink.publish(topic, kept.source.snapshot(kept.log))
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

  /** The quote streams of an actor follow its catalog's streamed instruments (those the quote source accepts). */
  #followCatalog(actor: VenueActor): void {
    const catalog = actor.catalog()
    const wanted = new Set<string>()
    if (catalog !== undefined)
      for (const instrumentId of catalog.outcomesByInstrument.keys()) {
        const key = `${actor.venue}:${instrumentId}`
        if (this.#open('quote', key)) wanted.add(key)
      }
    const prefix = `quote|${actor.venue}:`
    for (const [topic, kept] of [...this.#kept])
      if (topic.startsWith(prefix) && !wanted.has(kept.log.id.key)) this.#close(topic)
  }

  #followPairs(spreads: SpreadPairs): void {
    const wanted = new Set<string>()
    for (const key of spreads.pairKeys()) if (this.#open('spread', key)) wanted.add(key)
    for (const [topic, kept] of [...this.#kept])
      if (kept.log.id.ch === 'spread' && !wanted.has(kept.log.id.key)) this.#close(topic)
  }

  /** A pair the engine no longer holds is closed; a new one opened (its change comes after the source's, if open). */
  #pairsChanged(spreads: SpreadPairs, changes: readonly SpreadChange[]): void {
    try {
      for (const change of changes) {
        const key = change.spec.key
        if (spreads.spec(key) === undefined) this.#close(`spread|${key}`)
        else this.#open('spread', key)
      }
    } catch (err) {
      // Inside the spread actor's step: contained, the next check reconciles.
      this.#o.log?.error({ err }, 'stream keeper failed on a spread change')
    }
  }

  /** Holds the stream of `key` open (a no-op if it is); false if the source rejects the key. */
  #open(ch: Channel, key: string): boolean {
    const source = this.#sources.get(ch)
    if (source === undefined) return false
    const id = source.resolve(key, {})
    if ('code' in id) return false
    if (this.#kept.has(id.topic)) return true
    const log = this.#o.sequencer.open(id)
    const kept: KeptStream = { log, source, fullAt: this.#o.clock.now() }
    this.#kept.set(id.topic, kept)
    source.open(log, {})
    this.#o.sink.publish(id.topic, source.snapshot(log))
    return true
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
    // Frames are serialized with `type` first (serializeFrame): a marker is the only frame without the state.
    if (frame.startsWith('{"type":"marker"')) return
    const kept = this.#kept.get(topic)
    if (kept !== undefined) kept.fullAt = this.#o.clock.now()
  }

  #check(): void {
    try {
      if (this.#o.spreads !== undefined) this.#followPairs(this.#o.spreads)
      const due = this.#o.clock.now() - this.#o.sequencer.windowMs / 2
      for (const [topic, kept] of this.#kept)
        if (kept.fullAt <= due) {
          this.keyframes++
          this.#o.sink.publish(topic, kept.source.snapshot(kept.log))
        }
    } catch (err) {
      this.#o.log?.error({ err }, 'stream keeper check failed')
    }
  }
}
