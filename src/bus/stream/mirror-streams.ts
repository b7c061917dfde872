import { DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages } from '@nats-io/jetstream'
import type { NatsConnection, Subscription } from '@nats-io/transport-node'
import type { Clock, TimerHandle } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import type { DataFrame } from '../../stream/protocol.js'
import {
  RESUME_WINDOW_FRAMES,
  RESUME_WINDOW_MS,
  StreamLog,
  streamId,
  type FrameSink,
  type StreamId,
  type StreamLogs,
} from '../../stream/sequencer.js'
import { MD_STREAM, topicOfMdSubject } from '../subjects.js'
import { MIRRORED_CHANNELS } from './channels.js'
import { streamState, type StreamState } from './stream-state.js'
import { onBrokerBack } from './broker-back.js'
import { ensureMdStream } from './md-stream.js'

/** A backfill after a broker restart starts this long before the last live frame heard. */
const BACKFILL_MARGIN_MS = 5_000

export interface MirrorStreamsOptions {
  readonly nc: NatsConnection
  /** Where the mirrored frames go out to this edge's clients (its TopicPublisher). */
  readonly sink: FrameSink
  /** Stamps `pts` of the snapshots the mirror builds, and dates frames for the window: the wall clock in service. */
  readonly clock: Clock
  readonly log?: Logger | undefined
  /** The ingest's resume window (the `MD` stream's limits): the same on every process. */
  readonly windowMs?: number
  readonly windowFrames?: number
  /**
   * A stream of an incremental channel that clients of this edge hold cannot go on (frames missed, or a new epoch
   * began with a delta): the mirror needs its snapshot (the edge asks the ingest for one, stream/lease-client.ts).
   */
  readonly onBroken?: ((topic: string) => void) | undefined
}

/** One mirrored stream: the ingest's numbering, the recent frames for replay, and the state as of `log.seq`. */
interface Mirrored {
  readonly log: StreamLog
  /** What frames of its channel do to the state. */
  readonly rules: StreamState
  /** The state as a snapshot carries it (`d`), and the times of the last frame that changed it. */
  d: unknown
  ts: number
  lts: number
  /** The last frame forwarded was a `resync` marker: the snapshot it promises is forwarded too. */
  promised: boolean
  /** When a frame of the stream last arrived (streams the ingest stopped publishing are forgotten). */
  heardAt: number
  /** The fan-out holds the stream open (`open` without `close`): it is kept, heard from or not. */
  held: number
  /** An incremental stream whose state is unknown since a gap: its deltas are dropped until a snapshot comes. */
  broken: boolean
}

/**
 * An edge's copy of the streams an ingest publishes on the bus (`md.>`, see BusFrameSink): read from JetStream with
 * an ordered consumer starting a resume window back, then live. Per stream it holds the ingest's `(epoch, seq)`, the
 * recent frames (a `StreamLog` ring, for resume) and the latest value, and forwards each frame verbatim to the local
 * sink, so every edge sends the same bytes with the same numbers and a resume token is good on any edge.
 *
 * A snapshot replaces a stream's state; a delta or marker changes it by its channel's rules (stream-state.ts: for
 * `quote`, `spread` and `venue` a delta's `d` is the whole value; `book`, `spreads.top` and `alerts` change part of
 * it). The mirror never forwards what it cannot vouch for:
 * - a delta or marker that continues the stream (seq + 1, same epoch) is forwarded and recorded;
 * - a delta after a gap (frames the mirror never saw) or of a new epoch (the ingest restarted): of a latest-value
 *   channel, it starts the stream over at its seq: the log is renewed (nothing to replay across the gap) and
 *   subscribers get a snapshot of that delta's value with its seq (a snapshot may jump ahead: the contract's seq
 *   rules). Of an incremental channel it is dropped and the stream waits for a snapshot (asked for at once through
 *   `onBroken` when clients hold it, otherwise the ingest's next keyframe); subscribers keep the last state;
 * - a snapshot of a new epoch, or one ahead of the stream, is forwarded as it is and starts the stream over;
 *   one at the stream's seq replaces the value and is forwarded only if a `resync` marker promised it (otherwise it
 *   is the ingest's keyframe, for edges that start late: clients already hold that state);
 * - a marker after a gap or of a new epoch is dropped: the value it follows is unknown. Subscribers keep the state
 *   as of the last frame forwarded (consistent, if late) until the next delta or snapshot starts the stream over.
 *
 * A snapshot the mirror builds carries the value of the last full-state frame with that frame's `ts` and `lts`: for
 * `venue` its `age_ms` is the age when that frame was published (the ingest does not frame age changes; `hb`
 * carries the live age), where a single process would compute it at snapshot time.
 *
 * What a client sees when the ingest restarts: a snapshot frame with the new epoch (the ingest's own, or one built
 * from its first delta), then that epoch's deltas. A client that resumes with a token of the old epoch gets a
 * snapshot with `recovered: false`.
 *
 * As the fan-out's `StreamLogs` for these channels: `open` returns the mirrored log (its epoch and seq are the
 * ingest's), `replay` reads its ring, `close` keeps it (the mirror holds every stream the ingest publishes).
 */
export class MirrorStreams implements StreamLogs {
  readonly #o: MirrorStreamsOptions
  readonly #streams = new Map<string, Mirrored>()
  /** Who waits for a stream's state to be known (whenKnown). */
  readonly #waiters = new Map<string, Map<string, Set<(known: boolean) => void>>>()
  readonly windowMs: number
  readonly #windowFrames: number
  #messages: ConsumerMessages | undefined
  #timer: TimerHandle | undefined
  #stopWatching: (() => void) | undefined
  #stopped = false
  /** The live subscription to `md.>`. */
  #live: Subscription | undefined
  /** Live frames held while the window is read back from JetStream (undefined: live frames apply at once). */
  #buffer: [subject: string, text: string][] | undefined
  /** When the last live frame arrived, wall clock (a backfill after a broker restart starts a little before it). */
  #lastLiveAt = 0
  /** Frames dropped because the state they follow is unknown (a marker after a gap or of a new epoch). */
  skipped = 0
  /** Deltas and markers that did not continue their stream (frames the mirror did not see). */
  gaps = 0
  /** Messages that were not frames of a mirrored channel. */
  malformed = 0

  constructor(options: MirrorStreamsOptions) {
    this.#o = options
    this.windowMs = options.windowMs ?? RESUME_WINDOW_MS
    this.#windowFrames = options.windowFrames ?? RESUME_WINDOW_FRAMES
  }

  /**
   * Starts following the bus; resolves once the window has been read (every stream the ingest published within it
   * is known), so an edge serves no stream before it can.
   *
   * The live path is a core subscription to `md.>`: a frame reaches the edge as the broker receives it, without
   * JetStream's store-and-deliver in between. JetStream fills in what the subscription cannot have seen: the window
   * before it started, and what was published while the link was down. The subscription starts first and buffers;
   * the window is read back to its end; then the buffer, then live frames as they come. A frame met twice (in the
   * window and in the buffer) is dropped by the stream rules (seq at or behind the stream).
   */
  async start(): Promise<void> {
    const nc = this.#o.nc
    await ensureMdStream(await jetstreamManager(nc), { windowMs: this.windowMs, windowFrames: this.#windowFrames })
    this.#buffer = []
    this.#live = nc.subscribe('md.>', { callback: (_err, msg) => this.#onLive(msg.subject, msg.string()) })
    await nc.flush()
    await this.#backfill(Date.now() - this.windowMs)
    // After a broker restart: the subscription is renewed by the client, but what was published meanwhile reached
    // no subscriber. From the drop on, live frames are buffered (a frame applied before the missing ones would look
    // like a gap); once JetStream serves again, what was missed is read back from a little before the last frame
    // heard, then the buffer.
    void (async () => {
      for await (const status of nc.status()) {
        if (this.#stopped) return
        if (status.type === 'disconnect') this.#buffer ??= []
      }
    })()
    this.#stopWatching = onBrokerBack(
      nc,
      async () => {
        this.#buffer ??= []
        await this.#backfill(this.#lastLiveAt - BACKFILL_MARGIN_MS)
      },
      this.#o.log,
    )
    this.#timer = this.#o.clock.setInterval(() => this.#forgetSilent(), this.windowMs)
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#stopWatching?.()
    this.#o.clock.clearInterval(this.#timer)
    this.#timer = undefined
    this.#live?.unsubscribe()
    this.#live = undefined
    await this.#messages?.close()
    this.#messages = undefined
  }

  #onLive(subject: string, text: string): void {
    // The broker's clock (JetStream stamps messages with it), not the injected one: a backfill starts from it.
    this.#lastLiveAt = Date.now()
    if (this.#buffer !== undefined) this.#buffer.push([subject, text])
    else this.#apply(subject, text)
  }

  #apply(subject: string, text: string): void {
    try {
      this.receive(text, topicOfMdSubject(subject))
    } catch (err) {
      // One frame's failure (a local publish) must not stop the mirror: the stream resyncs on its next frame.
      this.#o.log?.error({ err }, 'mirror: a frame could not be applied')
    }
  }

  /**
   * Reads `MD` from `fromMs` to its end with an ordered consumer, then applies the live frames buffered meanwhile
   * and goes live.
   */
  async #backfill(fromMs: number): Promise<void> {
    if (this.#stopped) return
    const old = this.#messages
    this.#messages = undefined
    if (old !== undefined) await old.close().catch(() => undefined)
    const consumer = await jetstream(this.#o.nc).consumers.get(MD_STREAM, {
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(Math.max(0, fromMs)).toISOString(),
    })
    if ((await consumer.info()).num_pending > 0) {
      let caughtUp!: () => void
      const done = new Promise<void>((resolve) => (caughtUp = resolve))
      const messages = await consumer.consume({
        callback: (msg) => {
          this.#apply(msg.subject, msg.string())
          if (msg.info.pending === 0) caughtUp()
        },
      })
      this.#messages = messages
      await done
      await messages.close().catch(() => undefined)
      if (this.#messages === messages) this.#messages = undefined
    }
    const buffered = this.#buffer ?? []
    this.#buffer = undefined
    for (const [subject, text] of buffered) this.#apply(subject, text)
  }

  /** Streams the mirror holds (metrics). */
  get size(): number {
    return this.#streams.size
  }

  /**
   * The stream's state is known, so it can be served (a stream waiting for a snapshot after a gap serves the state
   * as of its last seq: consistent, if late).
   */
  has(topic: string): boolean {
    return this.#streams.has(topic)
  }

  /**
   * The ingest closed the stream (`lease.closed`): what the mirror holds of that epoch is dropped, unless the fan-out
   * holds it (its lease renewal crossed the close: the ingest opens it again and its snapshot starts it over).
   */
  forget(topic: string, epoch: string): void {
    const m = this.#streams.get(topic)
    if (m !== undefined && m.held === 0 && m.log.epoch === epoch) this.#streams.delete(topic)
  }

  /** The fan-out holds the stream (clients hold it, or held it within the resume window). */
  isHeld(topic: string): boolean {
    return (this.#streams.get(topic)?.held ?? 0) > 0
  }

  /**
   * Resolves true once the stream's state of `epoch` is known (now, or when its snapshot arrives), false after
   * `timeoutMs`. An edge that asked the ingest to open a stream waits here before it serves it.
   */
  whenKnown(topic: string, epoch: string, timeoutMs: number): Promise<boolean> {
    if (this.#streams.get(topic)?.log.epoch === epoch) return Promise.resolve(true)
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(topic) ?? new Map<string, Set<(known: boolean) => void>>()
      this.#waiters.set(topic, waiters)
      const of = waiters.get(epoch) ?? new Set<(known: boolean) => void>()
      waiters.set(epoch, of)
      const timer = this.#o.clock.setTimeout(() => done(false), timeoutMs)
      const done = (known: boolean): void => {
        this.#o.clock.clearTimeout(timer)
        of.delete(done)
        if (of.size === 0) waiters.delete(epoch)
        if (waiters.size === 0 && this.#waiters.get(topic) === waiters) this.#waiters.delete(topic)
        resolve(known)
      }
      of.add(done)
    })
  }

  /** The stream's state as a snapshot frame (epoch and seq the ingest's), or undefined for an unknown stream. */
  snapshot(topic: string): string | undefined {
    const m = this.#streams.get(topic)
    return m === undefined ? undefined : this.#snapshotFrame(m)
  }

  open(id: StreamId): StreamLog {
    const m = this.#streams.get(id.topic)
    // Unknown streams are rejected at resolve; a log that never hears a frame is what one would be.
    if (m === undefined) return new StreamLog(id, '', 0)
    m.held++
    return m.log
  }

  /** The fan-out no longer holds the stream: the mirror keeps it while the ingest publishes it. */
  close(topic: string): void {
    const m = this.#streams.get(topic)
    if (m !== undefined && m.held > 0) m.held--
  }

  replay(log: StreamLog, epoch: string, seq: number): string[] | undefined {
    const m = this.#streams.get(log.id.topic)
    if (m === undefined || epoch !== m.log.epoch) return undefined
    return m.log.since(seq, this.#o.clock.now() - this.windowMs)
  }

  /**
   * Applies one frame as the bus carried it (see the class comment for the rules). `topic`: the stream's, from the
   * subject (topicOfMdSubject); absent, it is the frame's `ch|key` (not enough for a book: its depth is not in the
   * frame).
   */
  receive(text: string, topic?: string): void {
    let f: DataFrame
    try {
      f = JSON.parse(text) as DataFrame
    } catch {
      this.malformed++
      return
    }
    if (!isMirroredFrame(f)) {
      this.malformed++
      return
    }
    const streamTopic = topic ?? streamId(f.ch, f.key).topic
    if (!topicNamesFrame(streamTopic, f.ch, f.key)) {
      this.malformed++
      return
    }
    const now = this.#o.clock.now()
    let m = this.#streams.get(streamTopic)
    if (m === undefined) {
      const id = { ch: f.ch, key: f.key, topic: streamTopic }
      const rules = streamState(f.ch)
      if (f.type === 'marker' || (f.type === 'delta' && rules.incremental)) {
        this.skipped++
        return
      }
      m = {
        log: new StreamLog(id, f.epoch, this.#windowFrames, this.windowMs),
        rules,
        d: f.d,
        ts: f.ts,
        lts: f.lts,
        promised: false,
        heardAt: now,
        held: 0,
        broken: false,
      }
      this.#streams.set(streamTopic, m)
      this.#startOver(m, f, text)
      return
    }
    m.heardAt = now
    const log = m.log
    const continues = f.epoch === log.epoch && f.seq <= log.seq + 1 && !m.broken
    if (!continues || (f.type === 'snapshot' && f.seq > log.seq)) {
      if (f.type === 'snapshot' || (f.type === 'delta' && !m.rules.incremental)) {
        if (f.epoch === log.epoch && f.type === 'delta' && !m.broken) this.gaps++
        this.#startOver(m, f, text)
        return
      }
      // A marker, or a delta of an incremental channel, that does not follow what the mirror holds.
      this.skipped++
      if (f.epoch === log.epoch && !m.broken) this.gaps++
      if (m.rules.incremental && !m.broken) {
        m.broken = true
        if (m.held > 0) this.#o.onBroken?.(streamTopic)
      }
      return
    }
    if (f.type === 'snapshot') {
      if (f.seq < log.seq) return
      this.#hold(m, f.d, f)
      if (m.promised) {
        m.promised = false
        this.#o.sink.publish(streamTopic, text)
      }
      return
    }
    // A delta or marker at or behind the stream was seen already (a redelivery).
    if (f.seq <= log.seq) return
    log.seq = f.seq
    log.ts = f.ts
    log.lts = f.lts
    if (f.type === 'delta') this.#hold(m, m.rules.delta(m.d, f.d), f)
    else m.d = m.rules.marker(m.d, f.d)
    m.promised = f.type === 'marker' && isResync(f.d)
    log.record({ seq: f.seq, at: f.pts, frame: text })
    this.#o.sink.publish(streamTopic, text)
  }

  /** The stream begins again at this snapshot (or latest-value delta): nothing before it can be replayed. */
  #startOver(m: Mirrored, f: DataFrame, text: string): void {
    m.log.renew(f.epoch, f.seq)
    m.log.ts = f.ts
    m.log.lts = f.lts
    m.promised = false
    m.broken = false
    this.#hold(m, f.d, f)
    this.#known(m.log.id.topic, f.epoch)
    if (f.type === 'snapshot') {
      this.#o.sink.publish(m.log.id.topic, text)
      return
    }
    // The delta itself is kept for replay: a client holding seq - 1 of this epoch (from another edge) resumes.
    m.log.record({ seq: f.seq, at: f.pts, frame: text })
    this.#o.sink.publish(m.log.id.topic, this.#snapshotFrame(m))
  }

  #hold(m: Mirrored, d: unknown, f: DataFrame): void {
    m.d = d
    m.ts = f.ts
    m.lts = f.lts
  }

  #known(topic: string, epoch: string): void {
    const waiters = this.#waiters.get(topic)?.get(epoch)
    if (waiters !== undefined) for (const done of [...waiters]) done(true)
  }

  #snapshotFrame(m: Mirrored): string {
    const log = m.log
    const pts = this.#o.clock.now()
    const { ch, key } = log.id
    return JSON.stringify({
      type: 'snapshot',
      ch,
      key,
      epoch: log.epoch,
      seq: log.seq,
      ts: m.ts,
      lts: m.lts,
      pts,
      d: m.d,
    })
  }

  /**
   * Streams silent for two windows are gone from the ingest (it publishes a keyframe every half window): forgotten,
   * unless the fan-out holds them (its subscribers keep the last state, and a snapshot stays available for them).
   */
  #forgetSilent(): void {
    const before = this.#o.clock.now() - 2 * this.windowMs
    for (const [topic, m] of this.#streams) if (m.heardAt < before && m.held === 0) this.#streams.delete(topic)
  }
}

function isMirroredFrame(f: unknown): f is DataFrame {
  if (typeof f !== 'object' || f === null) return false
  const x = f as Partial<DataFrame>
  return (
    (x.type === 'snapshot' || x.type === 'delta' || x.type === 'marker') &&
    typeof x.ch === 'string' &&
    MIRRORED_CHANNELS.has(x.ch) &&
    typeof x.key === 'string' &&
    typeof x.epoch === 'string' &&
    Number.isInteger(x.seq) &&
    typeof x.ts === 'number' &&
    typeof x.lts === 'number' &&
    typeof x.pts === 'number'
  )
}

function isResync(d: unknown): boolean {
  return typeof d === 'object' && d !== null && (d as { ev?: unknown }).ev === 'resync'
}

/**
 * Whether a stream's topic (from the subject) is the frame's: `ch|key`, or for a book `ch|key|depth` (the depth is
 * not in the frame). Compared in place: this runs for every frame an edge receives.
 */
function topicNamesFrame(topic: string, ch: string, key: string): boolean {
  const end = ch.length + 1 + key.length
  if (!topic.startsWith(ch) || topic.charCodeAt(ch.length) !== PIPE || !topic.startsWith(key, ch.length + 1))
    return false
  return ch === 'book' ? topic.length > end + 1 && topic.charCodeAt(end) === PIPE : topic.length === end
}

const PIPE = 0x7c
