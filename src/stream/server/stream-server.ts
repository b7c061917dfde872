import type { HttpRequest, HttpResponse, TemplatedApp, us_socket_context_t } from 'uWebSockets.js'
import type { StreamConfig } from '../../config/schema.js'
import type { Clock, TimerHandle } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import { CLOSE, type Channel, type Command, type StreamErrorCode, type StreamLimits } from '../protocol.js'
import type { StreamLogs } from '../sequencer.js'
import type { ChannelSource } from '../source.js'
import { parseCommand } from './commands.js'
import { Connection, type Socket, type UserData } from './connection.js'
import { channelOf, SEND_DROPPED, SlowConsumers } from './slow-consumers.js'
import {
  ackFrame,
  byeFrame,
  errorFrame,
  heartbeatFrame,
  pongFrame,
  welcomeFrame,
  type CommandId,
  type VenueAge,
} from './control-frames.js'
import { OpenStreams } from './open-streams.js'
import { Subscriptions } from './subscriptions.js'
import { StreamStats, type StreamStatsSnapshot } from './stream-stats.js'
import type { TopicPublisher } from './topic-publisher.js'

/**
 * The fan-out side of `GET /api/v2/stream` (../shared/STREAMING.md): auth, commands, subscriptions on uWS topics,
 * heartbeats, limits and the slow-consumer policy, on the REST server's uWS app (same port).
 *
 * Subscription commands are in subscriptions.ts (with the ordering they rest on); slow consumers are watched by
 * slow-consumers.ts, which sees every publish and every send's result.
 *
 * No exception leaves a uWS callback: each handler catches, logs, and closes the one socket if it must.
 */
export const STREAM_PATH = '/api/v2/stream'

export interface StreamCaller {
  readonly accountId: string
  /** What the per-key connection limit counts (the key's id); the raw key when absent. */
  readonly keyId?: string
}

export interface StreamServerOptions {
  readonly app: TemplatedApp
  readonly publisher: TopicPublisher
  /**
   * Who numbers the streams served: the `Sequencer` where the sources own the state; on an edge, the mirror of the
   * ingest's streams (src/bus/stream/mirror-streams.ts).
   */
  readonly sequencer: StreamLogs
  readonly sources: readonly ChannelSource[]
  readonly clock: Clock
  readonly log: Logger
  readonly config: StreamConfig
  /** Resolves an API key; undefined for a bad key. A throw means keys cannot be checked now (close 1013). */
  readonly authenticate: (key: string) => Promise<StreamCaller | undefined>
  /** As REST: false lets connections without a key in (AUTH_REQUIRED=false, local use). */
  readonly authRequired: boolean
  /** Each venue's feed state and data age, for `hb`. */
  readonly venues: () => Readonly<Record<string, VenueAge>>
  readonly path?: string
}

/** Close code when keys cannot be checked right now (RFC 6455 "try again later"). */
const TRY_AGAIN_LATER = 1013
/** Commands held while a key is being checked; a client has no reason to send more before its `welcome`. */
const MAX_QUEUED_COMMANDS = 32
/** Refused commands within this window beyond the per-second rate close the socket with 4029. */
const RATE_WINDOW_MS = 10_000

export class StreamServer {
  readonly stats = new StreamStats()
  readonly #o: StreamServerOptions
  readonly #c: StreamConfig
  readonly #limits: StreamLimits
  readonly #sources = new Map<Channel, ChannelSource>()
  readonly #streams: OpenStreams
  readonly #sockets = new Set<Socket>()
  readonly #slowness: SlowConsumers
  readonly #subscriptions: Subscriptions
  readonly #connectionsByKey = new Map<string, number>()
  #heartbeat: TimerHandle | undefined
  #closed = false

  constructor(options: StreamServerOptions) {
    this.#o = options
    this.#c = options.config
    this.#limits = {
      connections_per_key: this.#c.connectionsPerKey,
      keys_per_connection: this.#c.keysPerConnection,
      commands_per_second: this.#c.commandsPerSecond,
      max_lifetime_s: this.#c.maxLifetimeS,
      max_frame_bytes: this.#c.maxFrameBytes,
    }
    for (const s of options.sources) this.#sources.set(s.ch, s)
    this.#streams = new OpenStreams(options.sequencer, options.clock)
    this.#subscriptions = new Subscriptions({
      sources: this.#sources,
      streams: this.#streams,
      sequencer: options.sequencer,
      stats: this.stats,
      config: this.#c,
      clock: options.clock,
      log: options.log,
      send: (ws, frame) => this.#send(ws, frame),
      sendData: (ws, conn, topic, frame) => this.#sendData(ws, conn, topic, frame),
    })
    this.#slowness = new SlowConsumers({
      clock: options.clock,
      stats: this.stats,
      maxBackpressureBytes: this.#c.maxBackpressureBytes,
      policy: this.#c.slowConsumer,
      snapshot: (topic) => {
        const stream = this.#streams.get(topic)
        return stream === undefined ? undefined : stream.source.snapshot(stream.log)
      },
      close: (ws, why) => this.#slow(ws, why),
    })
    options.publisher.observer = (topic, frame) => this.#onPublish(topic, frame)
    options.app.ws<UserData>(options.path ?? STREAM_PATH, {
      // Above max_frame_bytes the server answers BAD_REQUEST itself; uWS only cuts off what is far beyond it.
      maxPayloadLength: this.#c.maxFrameBytes * 4,
      maxBackpressure: this.#c.maxBackpressureBytes,
      closeOnBackpressureLimit: 0,
      idleTimeout: this.#c.idleTimeoutS,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => this.#guard('upgrade', () => this.#upgrade(res, req, context)),
      open: (ws) => this.#guard('open', () => this.#open(ws), ws),
      message: (ws, message) => this.#guard('message', () => this.#message(ws, message), ws),
      drain: (ws) => this.#guard('drain', () => this.#drain(ws), ws),
      close: (ws, code) => this.#guard('close', () => this.#closed_(ws, code)),
    })
    this.#heartbeat = options.clock.setInterval(
      () => this.#guard('heartbeat', () => this.#heartbeatTick()),
      this.#c.heartbeatMs,
    )
  }

  get limits(): StreamLimits {
    return this.#limits
  }

  statsSnapshot(): StreamStatsSnapshot {
    return this.stats.snapshot(this.#streams.size)
  }

  /** Graceful shutdown: `bye` to every socket, close 1001, then the streams. Idempotent. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#o.clock.clearInterval(this.#heartbeat)
    const bye = byeFrame(this.#c.reconnectAfterMs)
    for (const ws of [...this.#sockets]) this.#end(ws, CLOSE.goingAway, 'shutting down', bye)
    this.#streams.closeAll()
    this.#o.publisher.observer = undefined
  }

  // ---- connection lifecycle ----

  #upgrade(res: HttpResponse, req: HttpRequest, context: us_socket_context_t): void {
    if (this.#closed) {
      res.writeStatus('503 Service Unavailable').end()
      return
    }
    const headerKey = req.getHeader('x-api-key')
    const queryKey = req.getQuery('api_key') ?? ''
    const key = headerKey !== '' ? headerKey : queryKey !== '' ? queryKey : undefined
    const conn = new Connection(key, this.#c.commandsPerSecond, this.#o.clock.now())
    res.upgrade<UserData>(
      { conn },
      req.getHeader('sec-websocket-key'),
      req.getHeader('sec-websocket-protocol'),
      req.getHeader('sec-websocket-extensions'),
      context,
    )
  }

  #open(ws: Socket): void {
    const conn = ws.getUserData().conn
    this.#sockets.add(ws)
    this.stats.connections++
    if (this.#closed) {
      this.#end(ws, CLOSE.goingAway, 'shutting down', byeFrame(this.#c.reconnectAfterMs))
      return
    }
    const clock = this.#o.clock
    conn.lifetimeTimer = clock.setTimeout(
      () => this.#guard('lifetime', () => this.#end(ws, CLOSE.goingAway, 'max lifetime', byeFrame(0))),
      this.#c.maxLifetimeS * 1000,
    )
    if (conn.upgradeKey !== undefined) this.#authenticate(ws, conn, conn.upgradeKey, undefined)
    else if (!this.#o.authRequired) this.#admit(ws, conn, undefined, undefined)
    else
      conn.authTimer = clock.setTimeout(
        () =>
          this.#guard('auth timeout', () => {
            if (conn.state === 'unauthenticated')
              this.#fail(ws, null, 'AUTH_FAILED', 'no API key within the auth timeout', CLOSE.authFailed)
          }),
        this.#c.authTimeoutMs,
      )
  }

  #authenticate(ws: Socket, conn: Connection, key: string, authId: CommandId | undefined): void {
    conn.state = 'authenticating'
    this.#o.clock.clearTimeout(conn.authTimer)
    let pending: Promise<StreamCaller | undefined>
    try {
      pending = this.#o.authenticate(key)
    } catch (err) {
      pending = Promise.reject(err)
    }
    pending.then(
      (caller) =>
        this.#guard('auth', () => {
          if (conn.state !== 'authenticating') return
          if (caller === undefined)
            this.#fail(ws, authId ?? null, 'AUTH_FAILED', 'invalid or revoked API key', CLOSE.authFailed)
          else ws.cork(() => this.#admit(ws, conn, caller, caller.keyId ?? key, authId))
        }),
      (err: unknown) =>
        this.#guard('auth', () => {
          if (conn.state !== 'authenticating') return
          this.#o.log.warn({ err }, 'stream: API key check failed')
          this.#fail(ws, authId ?? null, 'AUTH_FAILED', 'API keys cannot be checked right now', TRY_AGAIN_LATER)
        }),
    )
  }

  /** Lets an authenticated (or, with auth off, anonymous) connection in, then runs what it queued meanwhile. */
  #admit(
    ws: Socket,
    conn: Connection,
    caller: StreamCaller | undefined,
    limitKey: string | undefined,
    authId?: CommandId,
  ): void {
    if (limitKey !== undefined) {
      const n = this.#connectionsByKey.get(limitKey) ?? 0
      if (n >= this.#c.connectionsPerKey) {
        this.#fail(
          ws,
          authId ?? null,
          'CONNECTION_LIMIT',
          `this key already holds ${n} connections (limit ${this.#c.connectionsPerKey})`,
          CLOSE.rateLimited,
        )
        return
      }
      this.#connectionsByKey.set(limitKey, n + 1)
      conn.limitKey = limitKey
    }
    conn.state = 'open'
    conn.accountId = caller?.accountId
    if (authId !== undefined) this.#send(ws, ackFrame(authId))
    this.#send(ws, welcomeFrame(this.#limits))
    this.#runQueued(ws, conn)
  }

  /** Runs the commands held meanwhile, in order, until one must wait again. */
  #runQueued(ws: Socket, conn: Connection): void {
    while (conn.state === 'open' && !conn.preparing && conn.queued.length > 0)
      this.#command(ws, conn, conn.queued.shift() as string)
  }

  /** A subscription command is waiting for its source (`ChannelSource.prepare`): later commands wait for it. */
  #preparing(ws: Socket, conn: Connection, pending: Promise<void> | undefined): void {
    if (pending === undefined) return
    conn.preparing = true
    const done = (): void =>
      this.#guard('prepare', () => {
        conn.preparing = false
        if (conn.state === 'open') ws.cork(() => this.#runQueued(ws, conn))
      })
    pending.then(done, done)
  }

  /** An anonymous connection (auth off) that sends a key anyway: it becomes that caller, or is closed 4401. */
  #identify(ws: Socket, conn: Connection, key: string, id: CommandId): void {
    let pending: Promise<StreamCaller | undefined>
    try {
      pending = this.#o.authenticate(key)
    } catch (err) {
      pending = Promise.reject(err)
    }
    pending.then(
      (caller) =>
        this.#guard('auth', () => {
          if (conn.state !== 'open') return
          if (caller === undefined) {
            this.#fail(ws, id, 'AUTH_FAILED', 'invalid or revoked API key', CLOSE.authFailed)
            return
          }
          conn.accountId = caller.accountId
          this.#send(ws, ackFrame(id))
        }),
      (err: unknown) =>
        this.#guard('auth', () => {
          this.#o.log.warn({ err }, 'stream: API key check failed')
          if (conn.state === 'open') this.#send(ws, errorFrame(id, 'AUTH_FAILED', 'API keys cannot be checked now'))
        }),
    )
  }

  #closed_(ws: Socket, code: number): void {
    const conn = ws.getUserData().conn
    const wasOpen = conn.state === 'open'
    conn.state = 'closed'
    this.#sockets.delete(ws)
    this.#slowness.forget(ws)
    this.stats.connections--
    this.stats.closed(code)
    const clock = this.#o.clock
    clock.clearTimeout(conn.authTimer)
    clock.clearTimeout(conn.lifetimeTimer)
    if (wasOpen && conn.limitKey !== undefined) {
      const n = (this.#connectionsByKey.get(conn.limitKey) ?? 1) - 1
      if (n <= 0) this.#connectionsByKey.delete(conn.limitKey)
      else this.#connectionsByKey.set(conn.limitKey, n)
    }
    this.#subscriptions.releaseAll(conn)
  }

  // ---- commands ----

  #message(ws: Socket, message: ArrayBuffer): void {
    const conn = ws.getUserData().conn
    if (conn.state === 'closed') return
    if (message.byteLength > this.#c.maxFrameBytes) {
      this.#fail(ws, null, 'BAD_REQUEST', `frame over ${this.#c.maxFrameBytes} bytes`, CLOSE.badRequest)
      return
    }
    const text = Buffer.from(message).toString('utf8')
    if (conn.state === 'authenticating' || conn.preparing) {
      // The key is being checked, or a subscription's keys prepared: hold the command until then (in order; the
      // client may not wait for its welcome or its ack).
      if (conn.queued.length >= MAX_QUEUED_COMMANDS)
        this.#send(ws, errorFrame(null, 'RATE_LIMITED', 'too many commands while an earlier one was pending'))
      else conn.queued.push(text)
      return
    }
    this.#command(ws, conn, text)
  }

  #command(ws: Socket, conn: Connection, text: string): void {
    const now = this.#o.clock.now()
    if (!conn.takeCommandToken(this.#c.commandsPerSecond, now)) {
      this.#refuseForRate(ws, conn, text, now)
      return
    }
    const parsed = parseCommand(text)
    if (!parsed.ok) {
      if (conn.state === 'unauthenticated')
        this.#fail(ws, parsed.id, 'AUTH_FAILED', `authenticate first (${parsed.reason})`, CLOSE.authFailed)
      else this.#send(ws, errorFrame(parsed.id, 'BAD_REQUEST', parsed.reason))
      return
    }
    const c = parsed.command
    const id: CommandId = c.id ?? null
    if (conn.state === 'unauthenticated') {
      if (c.op === 'auth') this.#authenticate(ws, conn, c.key, id)
      else this.#fail(ws, id, 'AUTH_FAILED', 'the first frame must be {"op":"auth","key":…}', CLOSE.authFailed)
      return
    }
    this.#run(ws, conn, c, id)
  }

  #run(ws: Socket, conn: Connection, c: Command, id: CommandId): void {
    switch (c.op) {
      case 'auth':
        // Already in: with a key, nothing changes; with auth off and no key yet, the key names the caller.
        if (conn.accountId !== undefined) this.#send(ws, ackFrame(id))
        else this.#identify(ws, conn, c.key, id)
        return
      case 'ping':
        this.#send(ws, pongFrame(id))
        return
      case 'list':
        this.#subscriptions.list(ws, conn, id)
        return
      case 'subscribe':
        this.#preparing(ws, conn, this.#subscriptions.subscribe(ws, conn, c, id))
        return
      case 'update':
        this.#preparing(ws, conn, this.#subscriptions.update(ws, conn, c, id))
        return
      case 'unsubscribe':
        this.#subscriptions.unsubscribe(ws, conn, c.sid, id)
        return
      case 'snapshot':
        this.#subscriptions.snapshot(ws, conn, c, id)
        return
    }
  }

  #refuseForRate(ws: Socket, conn: Connection, text: string, now: number): void {
    if (now - conn.rateWindowStart > RATE_WINDOW_MS) {
      conn.rateWindowStart = now
      conn.refusedCommands = 0
    }
    if (++conn.refusedCommands > this.#c.commandsPerSecond) {
      this.#fail(ws, null, 'RATE_LIMITED', 'too many commands, persistently', CLOSE.rateLimited)
      return
    }
    const parsed = parseCommand(text)
    const id = parsed.ok ? (parsed.command.id ?? null) : parsed.id
    this.#send(ws, errorFrame(id, 'RATE_LIMITED', `more than ${this.#c.commandsPerSecond} commands per second`))
  }

  // ---- sending ----

  /** A control frame: if the socket cannot take even that, it is closed as a slow consumer. */
  #send(ws: Socket, frame: string): void {
    const conn = ws.getUserData().conn
    if (conn.state === 'closed') return
    this.#slowness.sent(ws, conn, ws.send(frame))
  }

  /** A data frame sent to one socket (snapshot, replay): if it is dropped, the stream lags (snapshot on drain). */
  #sendData(ws: Socket, conn: Connection, topic: string, frame: string): void {
    if (conn.state === 'closed') return
    this.#slowness.sent(ws, conn, ws.send(frame), topic)
  }

  #onPublish(topic: string, frame: string): void {
    this.stats.published(channelOf(topic))
    this.#slowness.published(topic, frame)
  }

  #drain(ws: Socket): void {
    const conn = ws.getUserData().conn
    if (conn.state !== 'open') return
    this.#slowness.drained(ws, conn, (topic, frame) => this.#sendData(ws, conn, topic, frame))
  }

  #heartbeatTick(): void {
    const now = this.#o.clock.now()
    const published = this.#slowness.startTick()
    const venues = this.#o.venues()
    for (const ws of [...this.#sockets]) {
      const conn = ws.getUserData().conn
      if (conn.state !== 'open' || !this.#slowness.check(ws, conn, published, now)) continue
      const buffered = ws.getBufferedAmount()
      const n = conn.hbN + 1
      const status = ws.send(heartbeatFrame(n, now, venues))
      // `n` counts heartbeats the socket gets: a dropped one is not a gap.
      if (status !== SEND_DROPPED) conn.hbN = n
      this.#slowness.heartbeatSent(ws, status, buffered)
    }
  }

  #slow(ws: Socket, why: string): void {
    this.#fail(ws, null, 'SLOW_CONSUMER', why, CLOSE.slowConsumer)
  }

  // ---- closing ----

  /** An error frame (it may not get through a full buffer: the close code says it anyway), then the close. */
  #fail(ws: Socket, id: CommandId, code: StreamErrorCode, message: string, closeCode: number): void {
    this.#end(ws, closeCode, code, errorFrame(id, code, message))
  }

  #end(ws: Socket, code: number, reason: string, lastFrame: string): void {
    const conn = ws.getUserData().conn
    if (conn.state === 'closed') return
    ws.cork(() => {
      ws.send(lastFrame)
      ws.end(code, reason.slice(0, 120))
    })
  }

  /** Runs a uWS callback's work; an exception is logged and closes only the socket it concerns. */
  #guard(where: string, work: () => void, ws?: Socket): void {
    try {
      work()
    } catch (err) {
      this.#o.log.error({ err, where }, 'stream: unexpected error')
      if (ws !== undefined && where !== 'close') {
        try {
          if (ws.getUserData().conn.state !== 'closed') ws.end(1011, 'internal error')
        } catch {
          // The socket is already gone.
        }
      }
    }
  }
}
