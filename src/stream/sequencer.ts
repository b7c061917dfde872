import { randomBytes } from 'node:crypto'
import type { Clock } from '../core/clock.js'
import { wholeMsStamp, type Stamp } from '../core/precise-time.js'
import type { Channel, DataFrameType } from './protocol.js'

/**
 * Sequencing: each stream (channel + key, and depth for books) gets `(epoch, seq)` here, and each frame is
 * serialized once. The sequencer is called only from the single writer that owns a stream's state (the venue
 * actor's publish path for quotes, books and venue state; the spread engine's for spreads and the top list), inside
 * the step that changed it, so frames are numbered in the order the state changed.
 *
 * It knows nothing of sockets: frames leave through a `FrameSink` (the in-process fan-out publishes them on uWS
 * topics; a broker could carry them to other machines unchanged, numbers included).
 *
 * Resume window: the last `windowFrames` frames of each stream, no older than `windowMs`. A stream that is dropped
 * (no subscriber for a while) and opened again gets a new epoch: changes it did not record while closed cannot be
 * replayed, so an old token must lead to a snapshot.
 */
export interface FrameSink {
  publish(topic: string, frame: string): void
}

export interface SequencerOptions {
  readonly clock: Clock
  readonly sink: FrameSink
  /** The process's epoch prefix (random when absent; tests pin it). */
  readonly epoch?: string
  readonly windowFrames?: number
  readonly windowMs?: number
  /** What stamps `pts` (publish time): `clock.now()` unless the stream's `preciseTimes` (core/precise-time.ts). */
  readonly stamp?: Stamp
}

export const RESUME_WINDOW_FRAMES = 1_024
export const RESUME_WINDOW_MS = 120_000

/** A stream's identity: the printed `ch` and `key`, and the topic its frames are published on. */
export interface StreamId {
  readonly ch: Channel
  readonly key: string
  /** `ch|key`, or `book|key|depth`: depth is part of a book stream but not of its frames. */
  readonly topic: string
}

export function streamId(ch: Channel, key: string, depth?: number): StreamId {
  return { ch, key, topic: depth === undefined ? `${ch}|${key}` : `${ch}|${key}|${depth}` }
}

interface Recorded {
  readonly seq: number
  readonly at: number
  readonly frame: string
}

/** One stream's numbering and recent frames. */
export class StreamLog {
  readonly id: StreamId
  #epoch: string
  /** Seq of the last delta or marker (0 before the first). */
  seq = 0
  /** Times of the latest change: a snapshot repeats them. */
  ts = 0
  lts = 0
  /** Recent frames, oldest first (a ring: `#start` is the oldest, `#count` how many). */
  readonly #ring: (Recorded | undefined)[]
  #start = 0
  #count = 0

  readonly #windowMs: number

  constructor(id: StreamId, epoch: string, capacity: number, windowMs = Number.POSITIVE_INFINITY) {
    this.id = id
    this.#epoch = epoch
    this.#ring = new Array<Recorded | undefined>(capacity)
    this.#windowMs = windowMs
  }

  get epoch(): string {
    return this.#epoch
  }

  /**
   * Starts the log over at `(epoch, seq)` with nothing held: a mirrored stream (src/bus/stream/) whose owner started
   * a new epoch, or whose frames the mirror could not all see. The object stays the same, so whoever holds it (the
   * fan-out's open streams) reads the new numbers.
   */
  renew(epoch: string, seq: number): void {
    this.#epoch = epoch
    this.seq = seq
    this.#ring.fill(undefined)
    this.#start = 0
    this.#count = 0
  }

  /** Frames held for replay. */
  get held(): number {
    return this.#count
  }

  record(r: Recorded): void {
    const cap = this.#ring.length
    if (cap === 0) return
    // Frames past the window can never be replayed: let them go now, so a busy stream holds what its last windowMs
    // carried (up to `cap`), not `cap` frames of any age.
    while (this.#count > 0 && (this.#ring[this.#start] as Recorded).at < r.at - this.#windowMs) {
      this.#ring[this.#start] = undefined
      this.#start = (this.#start + 1) % cap
      this.#count--
    }
    if (this.#count < cap) this.#ring[(this.#start + this.#count++) % cap] = r
    else {
      this.#ring[this.#start] = r
      this.#start = (this.#start + 1) % cap
    }
  }

  /**
   * The frames after `seq`, oldest first, or undefined when they are not all held (older than the window, evicted,
   * or `seq` ahead of the stream). An empty list means the client is up to date.
   */
  since(seq: number, notBefore: number): string[] | undefined {
    if (!Number.isInteger(seq) || seq < 0 || seq > this.seq) return undefined
    if (seq === this.seq) return []
    const cap = this.#ring.length
    const out: string[] = []
    for (let i = 0; i < this.#count; i++) {
      const r = this.#ring[(this.#start + i) % cap] as Recorded
      if (r.seq <= seq) continue
      // The first frame needed must be the one right after `seq`, and recent enough.
      if (out.length === 0 && (r.seq !== seq + 1 || r.at < notBefore)) return undefined
      out.push(r.frame)
    }
    return out.length === this.seq - seq ? out : undefined
  }
}

/**
 * What the fan-out (src/stream/server/) needs of whoever numbers the streams it serves: the `Sequencer` in a process
 * that owns the state, a mirror of another process's streams on an edge (src/bus/stream/mirror-streams.ts).
 */
export interface StreamLogs {
  /** How long a stream's frames stay replayable (and how long an unwatched stream is kept). */
  readonly windowMs: number
  /** The stream's log (its epoch and seq are the ones its frames carry). */
  open(id: StreamId): StreamLog
  /** The fan-out no longer serves the stream. */
  close(topic: string): void
  /** The frames a client holding `(epoch, seq)` missed, or undefined when they cannot all be replayed. */
  replay(log: StreamLog, epoch: string, seq: number): string[] | undefined
}

export class Sequencer implements StreamLogs {
  readonly #o: SequencerOptions
  readonly #epoch: string
  readonly #windowFrames: number
  readonly #windowMs: number
  readonly #stamp: Stamp
  readonly #streams = new Map<string, StreamLog>()
  #generation = 0

  constructor(options: SequencerOptions) {
    this.#o = options
    this.#epoch = options.epoch ?? randomBytes(3).toString('hex')
    this.#windowFrames = options.windowFrames ?? RESUME_WINDOW_FRAMES
    this.#windowMs = options.windowMs ?? RESUME_WINDOW_MS
    this.#stamp = options.stamp ?? wholeMsStamp(options.clock)
  }

  get windowMs(): number {
    return this.#windowMs
  }

  /** The stream's log, created (with a new epoch, seq 0) if it is not held. */
  open(id: StreamId): StreamLog {
    let log = this.#streams.get(id.topic)
    if (log === undefined) {
      log = new StreamLog(id, `${this.#epoch}.${(this.#generation++).toString(36)}`, this.#windowFrames, this.#windowMs)
      this.#streams.set(id.topic, log)
    }
    return log
  }

  get(topic: string): StreamLog | undefined {
    return this.#streams.get(topic)
  }

  /** Forgets a stream (its next `open` starts a new epoch). */
  close(topic: string): void {
    this.#streams.delete(topic)
  }

  get size(): number {
    return this.#streams.size
  }

  /** Numbers, serializes, records and publishes a delta or marker of an open stream. Returns the frame. */
  emit(log: StreamLog, type: Exclude<DataFrameType, 'snapshot'>, d: unknown, ts: number, lts: number): string {
    const pts = this.#stamp()
    const seq = ++log.seq
    log.ts = ts
    log.lts = lts
    const frame = serializeFrame(type, log, seq, ts, lts, pts, d)
    log.record({ seq, at: pts, frame })
    this.#o.sink.publish(log.id.topic, frame)
    return frame
  }

  /** A snapshot of the stream's state `d`: the current seq, not consumed, not recorded, not published. */
  snapshot(log: StreamLog, d: unknown, ts = log.ts, lts = log.lts): string {
    return serializeFrame('snapshot', log, log.seq, ts, lts, this.#stamp(), d)
  }

  /**
   * A snapshot of `d` published to every subscriber of the stream (a resync: after the `resync` marker, the state
   * they hold is replaced). Like `snapshot` it carries the current seq and is not recorded: a client that resumes
   * across a `resync` marker gets its snapshot from the server, not from the window.
   */
  publishSnapshot(log: StreamLog, d: unknown, ts = log.ts, lts = log.lts): string {
    const frame = this.snapshot(log, d, ts, lts)
    this.#o.sink.publish(log.id.topic, frame)
    return frame
  }

  /** The frames a client holding `(epoch, seq)` missed, or undefined when they cannot all be replayed. */
  replay(log: StreamLog, epoch: string, seq: number): string[] | undefined {
    if (epoch !== log.epoch) return undefined
    return log.since(seq, this.#o.clock.now() - this.#windowMs)
  }
}

/** The envelope in its documented field order. */
function serializeFrame(
  type: DataFrameType,
  log: StreamLog,
  seq: number,
  ts: number,
  lts: number,
  pts: number,
  d: unknown,
): string {
  return JSON.stringify({ type, ch: log.id.ch, key: log.id.key, epoch: log.epoch, seq, ts, lts, pts, d })
}
