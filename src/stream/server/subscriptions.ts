import type { StreamConfig } from '../../config/schema.js'
import type { Clock } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import { DEFAULT_BOOK_DEPTH, isChannel, type Channel, type Command, type Rejection } from '../protocol.js'
import type { StreamLogs } from '../sequencer.js'
import type { ChannelSource, SubscribeParams } from '../source.js'
import { streamKey, type Connection, type Socket, type Subscription } from './connection.js'
import { ackFrame, errorFrame, snapshotsDoneFrame, subscribeAckFrame, type CommandId } from './control-frames.js'
import type { OpenStreams } from './open-streams.js'
import type { StreamStats } from './stream-stats.js'

/**
 * The subscription commands (subscribe, update, unsubscribe, snapshot, list) of an authenticated connection.
 *
 * Ordering rests on one uWS fact: `ws.send` first flushes the socket's queued publishes. So "open the stream,
 * subscribe the topic, take the snapshot" in one synchronous block, then sending it, puts every later published
 * frame after the snapshot; "unsubscribe, then send the ack" puts no frame of the subscription after the ack.
 */
export interface SubscriptionOptions {
  readonly sources: ReadonlyMap<Channel, ChannelSource>
  readonly streams: OpenStreams
  readonly sequencer: StreamLogs
  readonly stats: StreamStats
  readonly config: StreamConfig
  readonly clock: Clock
  readonly log: Logger
  /** A control frame (closes a socket that cannot take it). */
  send(ws: Socket, frame: string): void
  /** A data frame of `topic` (a lost one makes the stream lag). */
  sendData(ws: Socket, conn: Connection, topic: string, frame: string): void
}

export class Subscriptions {
  readonly #o: SubscriptionOptions

  constructor(options: SubscriptionOptions) {
    this.#o = options
  }

  list(ws: Socket, conn: Connection, id: CommandId): void {
    this.#o.send(ws, ackFrame(id, { subscriptions: [...conn.subs.values()].map(describe) }))
  }

  /** A closed connection's streams, released (uWS has already unsubscribed its topics). */
  releaseAll(conn: Connection): void {
    for (const held of conn.streams.values()) this.#o.streams.release(held.topic)
    this.#o.stats.subscriptions -= conn.streams.size
    conn.streams.clear()
    conn.topics.clear()
    conn.subs.clear()
  }

  /**
   * Returns a promise when the source must prepare the keys first (`ChannelSource.prepare`): the server holds the
   * connection's later commands until it settles.
   */
  subscribe(
    ws: Socket,
    conn: Connection,
    c: Extract<Command, { op: 'subscribe' }>,
    id: CommandId,
  ): Promise<void> | undefined {
    const source = this.#sourceOf(ws, c.ch, id)
    if (source === undefined) return
    if (c.depth !== undefined && source.ch !== 'book') {
      this.#o.send(ws, errorFrame(id, 'BAD_REQUEST', '`depth` is for the book channel only'))
      return
    }
    // Subscriptions hold keys, so no connection needs more of them than keys (empty ones would pile up otherwise).
    if (conn.subs.size >= this.#o.config.keysPerConnection) {
      this.#o.send(
        ws,
        errorFrame(id, 'SUBSCRIPTION_LIMIT', `at most ${this.#o.config.keysPerConnection} subscriptions`),
      )
      return
    }
    const depth = source.ch === 'book' ? (c.depth ?? DEFAULT_BOOK_DEPTH) : undefined
    return this.#prepared(ws, conn, source, c.keys, depth, (prepared) => {
      const sub: Subscription = { sid: conn.newSid(), ch: source.ch, depth, keys: new Map() }
      conn.subs.set(sub.sid, sub)
      const added = this.#add(ws, conn, sub, source, c.keys, c.resume, prepared)
      this.#o.send(ws, subscribeAckFrame(id, { sid: sub.sid, ...added.ack }))
      this.#sendBurst(ws, sub, added.frames)
    })
  }

  /** As `subscribe`: a promise when the added keys must be prepared first. */
  update(
    ws: Socket,
    conn: Connection,
    c: Extract<Command, { op: 'update' }>,
    id: CommandId,
  ): Promise<void> | undefined {
    const sub = conn.subs.get(c.sid)
    if (sub === undefined) {
      this.#o.send(ws, errorFrame(id, 'BAD_REQUEST', `no subscription ${c.sid}`))
      return
    }
    const source = this.#o.sources.get(sub.ch) as ChannelSource
    const add = c.add ?? []
    return this.#prepared(ws, conn, source, add, sub.depth, (prepared) => {
      // The subscription may have been dropped while the keys were prepared (the connection closed).
      if (conn.subs.get(sub.sid) !== sub) return
      // Removed first: the keys they free count for the added ones.
      const lastSeq = this.#remove(ws, conn, sub, c.remove ?? [])
      const added = this.#add(ws, conn, sub, source, add, undefined, prepared)
      this.#o.send(ws, ackFrame(id, { sid: sub.sid, ...added.ack, last_seq: lastSeq }))
      if (add.length > 0) this.#sendBurst(ws, sub, added.frames)
    })
  }

  /**
   * Runs `then` at once when the source has nothing to prepare for these keys; otherwise once it has (corked, and
   * only if the connection is still open), with the keys it could not prepare. A failed preparation fails every
   * key alike (never the connection).
   */
  #prepared(
    ws: Socket,
    conn: Connection,
    source: ChannelSource,
    keys: readonly string[],
    depth: number | undefined,
    then: (prepared: ReadonlyMap<string, Rejection> | undefined) => void,
  ): Promise<void> | undefined {
    const pending = keys.length === 0 ? undefined : source.prepare?.(keys, { depth, accountId: conn.accountId })
    if (pending === undefined) {
      then(undefined)
      return undefined
    }
    const run = (prepared: ReadonlyMap<string, Rejection>): void => {
      if (conn.state === 'open') ws.cork(() => then(prepared))
    }
    return pending.then(run, (err: unknown) => {
      this.#o.log.error({ err, ch: source.ch }, 'stream: preparing keys failed')
      const reason = 'this key cannot be served now'
      run(new Map(keys.map((key) => [key, { key, code: 'UNKNOWN_KEY' as const, reason }])))
    })
  }

  unsubscribe(ws: Socket, conn: Connection, sid: string, id: CommandId): void {
    const sub = conn.subs.get(sid)
    if (sub === undefined) {
      this.#o.send(ws, errorFrame(id, 'BAD_REQUEST', `no subscription ${sid}`))
      return
    }
    // Topics left before the ack is sent, in this one synchronous block: no frame of the subscription follows it.
    const lastSeq = this.#remove(ws, conn, sub, [...sub.keys.keys()])
    conn.subs.delete(sid)
    this.#o.send(ws, ackFrame(id, { sid, last_seq: lastSeq }))
  }

  snapshot(ws: Socket, conn: Connection, c: Extract<Command, { op: 'snapshot' }>, id: CommandId): void {
    const source = this.#sourceOf(ws, c.ch, id)
    if (source === undefined) return
    const now = this.#o.clock.now()
    const accepted: string[] = []
    const rejected: Rejection[] = []
    const frames: [string, string][] = []
    for (const key of c.keys) {
      const held = conn.streams.get(streamKey(source.ch, key))
      const stream = held === undefined ? undefined : this.#o.streams.get(held.topic)
      if (held === undefined || stream === undefined) {
        rejected.push({ key, code: 'BAD_REQUEST', reason: 'not subscribed on this connection' })
        continue
      }
      const last = conn.snapshotAt.get(held.topic)
      if (last !== undefined && now - last < this.#o.config.snapshotMinIntervalMs) {
        rejected.push({
          key,
          code: 'RATE_LIMITED',
          reason: `one snapshot per ${this.#o.config.snapshotMinIntervalMs} ms per key`,
        })
        continue
      }
      conn.snapshotAt.set(held.topic, now)
      accepted.push(key)
      frames.push([held.topic, stream.source.snapshot(stream.log)])
    }
    this.#o.send(ws, ackFrame(id, { accepted, rejected }))
    for (const [topic, frame] of frames) this.#o.sendData(ws, conn, topic, frame)
  }

  #sourceOf(ws: Socket, ch: string, id: CommandId): ChannelSource | undefined {
    const source = isChannel(ch) ? this.#o.sources.get(ch) : undefined
    if (source === undefined) this.#o.send(ws, errorFrame(id, 'UNKNOWN_CHANNEL', `no channel ${JSON.stringify(ch)}`))
    return source
  }

  /**
   * Adds keys to a subscription. Per accepted key, in this synchronous block: open the stream (a source's first
   * frames are then covered by the snapshot), subscribe its topic, and take the snapshot or the replay, which are
   * sent after the ack (nothing can be published in between: sources emit from their own steps).
   */
  #add(
    ws: Socket,
    conn: Connection,
    sub: Subscription,
    source: ChannelSource,
    keys: readonly string[],
    resume: Extract<Command, { op: 'subscribe' }>['resume'],
    prepared: ReadonlyMap<string, Rejection> | undefined,
  ): {
    ack: { accepted: string[]; rejected: Rejection[]; recovered: boolean }
    frames: [string, string][]
  } {
    const accepted: string[] = []
    const rejected: Rejection[] = []
    const frames: [string, string][] = []
    let resumed = 0
    let recovered = 0
    const params: SubscribeParams = { depth: sub.depth, accountId: conn.accountId }
    for (const key of keys) {
      const held = conn.streams.get(streamKey(sub.ch, key))
      if (held !== undefined) {
        rejected.push({ key, code: 'BAD_REQUEST', reason: `already subscribed (${held.sid})` })
        continue
      }
      if (conn.streams.size >= this.#o.config.keysPerConnection) {
        rejected.push({
          key,
          code: 'SUBSCRIPTION_LIMIT',
          reason: `a connection holds at most ${this.#o.config.keysPerConnection} keys`,
        })
        continue
      }
      const unprepared = prepared?.get(key)
      if (unprepared !== undefined) {
        rejected.push(unprepared)
        continue
      }
      let resolved
      try {
        resolved = source.resolve(key, params)
      } catch (err) {
        this.#o.log.error({ err, ch: sub.ch, key }, 'stream: source.resolve threw')
        resolved = { key, code: 'UNKNOWN_KEY' as const, reason: 'this key cannot be served' }
      }
      if ('code' in resolved) {
        rejected.push({ key, code: resolved.code, reason: resolved.reason })
        continue
      }
      let stream
      try {
        stream = this.#o.streams.acquire(resolved, source, params)
      } catch (err) {
        this.#o.log.error({ err, topic: resolved.topic }, 'stream: opening a stream failed')
        rejected.push({ key, code: 'UNKNOWN_KEY', reason: 'this key cannot be served now' })
        continue
      }
      ws.subscribe(resolved.topic)
      conn.hold(sub.ch, key, sub.sid, resolved.topic)
      sub.keys.set(key, resolved.topic)
      this.#o.stats.subscriptions++
      accepted.push(key)
      const token = resume?.[key]
      let replayed: string[] | undefined
      if (token !== undefined) {
        resumed++
        replayed = this.#o.sequencer.replay(stream.log, token.epoch, token.seq)
        if (replayed !== undefined) recovered++
      }
      if (replayed !== undefined) for (const f of replayed) frames.push([resolved.topic, f])
      // A replayed `resync` promised a snapshot, but published snapshots are not kept in the window: send the
      // current one (the client's state after the replay is then the stream's state now).
      if (replayed === undefined || replayed.some(isResyncMarker))
        frames.push([resolved.topic, source.snapshot(stream.log)])
    }
    return { ack: { accepted, rejected, recovered: resumed > 0 && recovered === resumed }, frames }
  }

  /** Leaves keys' topics (before any ack is sent) and returns the last seq of each. */
  #remove(ws: Socket, conn: Connection, sub: Subscription, keys: readonly string[]): Record<string, number> {
    const lastSeq: Record<string, number> = {}
    for (const key of keys) {
      const topic = sub.keys.get(key)
      if (topic === undefined) continue
      ws.unsubscribe(topic)
      sub.keys.delete(key)
      conn.drop(sub.ch, key)
      this.#o.stats.subscriptions--
      lastSeq[key] = this.#o.streams.get(topic)?.log.seq ?? 0
      this.#o.streams.release(topic)
    }
    return lastSeq
  }

  #sendBurst(ws: Socket, sub: Subscription, frames: readonly [string, string][]): void {
    const conn = ws.getUserData().conn
    for (const [topic, frame] of frames) {
      if (conn.state !== 'open') return
      this.#o.sendData(ws, conn, topic, frame)
    }
    if (conn.state === 'open') this.#o.send(ws, snapshotsDoneFrame(sub.ch, sub.sid))
  }
}

function describe(sub: Subscription): Record<string, unknown> {
  return {
    sid: sub.sid,
    ch: sub.ch,
    ...(sub.depth === undefined ? {} : { depth: sub.depth }),
    keys: [...sub.keys.keys()],
  }
}

/** A `resync` marker frame (serialized: `"ev":"resync"` cannot occur inside a JSON string value unescaped). */
function isResyncMarker(frame: string): boolean {
  return frame.startsWith('{"type":"marker"') && frame.includes('"ev":"resync"')
}
