import type { StreamConfig } from '../../config/schema.js'
import type { Clock } from '../../core/clock.js'
import type { Channel } from '../protocol.js'
import type { Connection, Socket } from './connection.js'
import type { StreamStats } from './stream-stats.js'

/**
 * The slow-consumer policy (../shared/STREAMING.md, Slow consumers): find the frames a socket lost, re-snapshot its
 * lagging streams when it drains, close it (4008) when it keeps lagging, and never let an alerts frame go silently.
 *
 * The pinned uWS build (20.30) has no `dropped` handler, so drops are found here. A socket seen with buffered
 * bytes (a send that did not go straight out) is "pressured": every frame published on one of its topics is
 * checked against its buffer, and one that would not fit under `maxBackpressure` counts as lost for that stream.
 * Each heartbeat tick also looks at every socket's buffer, so one that filled up within a tick is caught there:
 * it is marked lagging for every stream published on since the last tick. Erring this way costs a spare snapshot,
 * never a silent loss. Other sockets pay nothing: only pressured ones are looked at per publish.
 */
export interface SlowConsumerOptions {
  readonly clock: Clock
  readonly stats: StreamStats
  /** uWS maxBackpressure: above it, a socket's frames are dropped. */
  readonly maxBackpressureBytes: number
  readonly policy: StreamConfig['slowConsumer']
  /** A fresh snapshot of an open stream, undefined when it is no longer open. */
  snapshot(topic: string): string | undefined
  /** Closes the socket with SLOW_CONSUMER and 4008. */
  close(ws: Socket, why: string): void
}

/** `ws.send` results (uWS): sent, buffered (backpressure built), dropped (over maxBackpressure). */
export const SEND_SENT = 1
export const SEND_DROPPED = 2

/** The one channel whose frames are never dropped: a socket that would lose one is closed (it resumes from the store). */
const ALERTS: Channel = 'alerts'
const ALERT_LOST = 'an alert could not be delivered: resume from the store'

export class SlowConsumers {
  readonly #o: SlowConsumerOptions
  /** Sockets with buffered bytes: their publishes are checked for drops. */
  readonly #pressured = new Set<Socket>()
  /** Topics with a frame published since the last tick. */
  #publishedSinceTick = new Set<string>()

  constructor(options: SlowConsumerOptions) {
    this.#o = options
  }

  /** Every published frame (before uWS fans it out): checked against the pressured sockets that hold its topic. */
  published(topic: string, frame: string): void {
    this.#publishedSinceTick.add(topic)
    if (this.#pressured.size === 0) return
    const limit = this.#o.maxBackpressureBytes
    // A Set may lose its current element during for-of (a close below removes the socket): no copy needed.
    for (const ws of this.#pressured) {
      const conn = ws.getUserData().conn
      if (!conn.topics.has(topic)) continue
      if (ws.getBufferedAmount() + frame.length <= limit) continue
      this.#lost(ws, conn, topic)
    }
  }

  /** After a send of a data frame of `topic` (snapshot, replay), or of a control frame (no topic). */
  sent(ws: Socket, conn: Connection, status: number, topic?: string): void {
    if (status === SEND_SENT) return
    this.#pressured.add(ws)
    if (status !== SEND_DROPPED) return
    if (topic === undefined) this.#o.close(ws, 'the send buffer is full')
    else this.#lost(ws, conn, topic)
  }

  /** uWS `drain`: a lagging socket with room again gets one fresh snapshot per lagging stream (a round). */
  drained(ws: Socket, conn: Connection, send: (topic: string, frame: string) => void): void {
    const buffered = ws.getBufferedAmount()
    if (buffered === 0) this.#pressured.delete(ws)
    if (conn.lagging.size === 0 || buffered > this.#o.maxBackpressureBytes / 2) return
    const now = this.#o.clock.now()
    const policy = this.#o.policy
    conn.resnapshotTimes = conn.resnapshotTimes.filter((t) => now - t < policy.windowMs)
    if (conn.resnapshotTimes.length >= policy.maxResnapshots) {
      this.#o.close(ws, `lagging again after ${policy.maxResnapshots} re-snapshots within ${policy.windowMs} ms`)
      return
    }
    conn.resnapshotTimes.push(now)
    const topics = [...conn.lagging]
    conn.lagging.clear()
    conn.laggingSince = undefined
    for (const topic of topics) {
      const frame = conn.topics.has(topic) ? this.#o.snapshot(topic) : undefined
      if (frame === undefined) continue
      this.#o.stats.resnapshots++
      send(topic, frame)
      if (conn.state !== 'open') return
    }
  }

  /** Starts a heartbeat tick: the topics published on since the last one, for `check`. */
  startTick(): ReadonlySet<string> {
    const published = this.#publishedSinceTick
    this.#publishedSinceTick = new Set()
    return published
  }

  /**
   * A socket at a tick, before its heartbeat: closed if it has lagged too long, marked for what it may have lost if
   * its buffer is full. Returns whether it can take a heartbeat now.
   */
  check(ws: Socket, conn: Connection, published: ReadonlySet<string>, now: number): boolean {
    const maxLagMs = this.#o.policy.maxLagMs
    if (conn.laggingSince !== undefined && now - conn.laggingSince > maxLagMs) {
      this.#o.close(ws, `lagging for more than ${maxLagMs} ms`)
      return false
    }
    if (ws.getBufferedAmount() < this.#o.maxBackpressureBytes) return true
    // Filled up since the last look: every stream published on since then may have lost frames.
    this.#pressured.add(ws)
    for (const topic of conn.topics) {
      if (!published.has(topic)) continue
      this.#lost(ws, conn, topic)
      if (conn.state !== 'open') break
    }
    return false
  }

  /** After a heartbeat went out: a socket with nothing buffered leaves the checked set. */
  heartbeatSent(ws: Socket, status: number, bufferedBefore: number): void {
    if (status !== SEND_SENT || bufferedBefore > 0) this.#pressured.add(ws)
    else this.#pressured.delete(ws)
  }

  forget(ws: Socket): void {
    this.#pressured.delete(ws)
  }

  #lost(ws: Socket, conn: Connection, topic: string): void {
    const ch = channelOf(topic)
    this.#o.stats.dropped(ch)
    if (ch === ALERTS) this.#o.close(ws, ALERT_LOST)
    else conn.markLagging(topic, this.#o.clock.now())
  }
}

export function channelOf(topic: string): string {
  const bar = topic.indexOf('|')
  return bar < 0 ? topic : topic.slice(0, bar)
}
