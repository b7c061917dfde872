import WebSocket from 'ws'
import { backoffDelayMs } from '../core/backoff.js'
import type { Clock, TimerHandle } from '../core/clock.js'
import type { Stamp } from '../core/precise-time.js'
import type { Logger } from '../core/logger.js'
import { loopStallsOf, type LoopStalls } from '../core/loop-stalls.js'
import { SharedTicker, type LeaveTicker } from '../core/shared-ticker.js'
import type { ConnectGate, GateTicket } from './connect-gate.js'
import { describeNetworkFailure, urlLabel } from './transport-errors.js'

/**
 * One long-lived venue WebSocket: connect, (re)subscribe on open, optional text keepalive, stale detection and
 * reconnect with capped exponential backoff and full jitter. Venue feeds own what to subscribe and how to read
 * frames; this class owns only the connection's lifecycle (tardis-node's RealtimeFeed split).
 *
 * Liveness: any inbound frame, PONG or protocol ping counts. A socket silent for `staleAfterMs` is declared
 * stale and replaced, even if the TCP connection looks open (the venue may stall with the socket open). The check
 * runs every 250 ms at most (one comparison per connection, not a timer reset per frame, on one timer shared by every
 * connection: core/shared-ticker.ts), so a stall is declared within 250 ms of the threshold.
 *
 * Probes: the keepalive (a text frame, or a protocol ping) goes out on open and every `intervalMs`; while one is
 * unanswered, again every `replyWithinMs`; and on a socket that was carrying data (more than the last probe's
 * answer) as soon as it has been silent for `replyWithinMs`, so a busy socket's stall is probed within a second,
 * while a quiet one (nothing but the answers to our probes) is not probed more than every `intervalMs`.
 *
 * A venue that answers nothing for longer than `replyWithinMs` and then speaks again was stalled: whatever it should
 * have sent meanwhile (snapshots for a subscription sent during the stall, book changes) may be lost, so the
 * connection is restarted at once on a fresh socket (the feeds resubscribe and get new snapshots): a revival. That is
 * what brings a stalled venue back within about `replyWithinMs` of its resuming, instead of waiting for a snapshot
 * timeout. A venue slow to answer every time would restart in a loop: each revival in a row doubles the allowed reply
 * time (capped at `staleAfterMs`), a prompt reply resets it.
 *
 * Silence is the venue's, not ours: a reply that arrived on time waits in the kernel while our event loop is stalled
 * (a garbage collection, a long slice of work), so the time the loop was stalled within the wait is taken off before
 * judging a reply late or a socket stale (core/loop-stalls.ts). Without that, at the venues' real size one long pause
 * of ours restarted every connection at once, each resending all its books, which made the next pause longer.
 *
 * Connect attempts may queue at a gate shared by a venue's connections (connect-gate.ts): a few handshakes at a
 * time, each attempt's connect timeout started when it is let through.
 *
 * Why a connection went down names the URL and the cause (transport-errors.ts), e.g. `wss://host/path: DNS lookup
 * failed (ENOTFOUND host)` or `wss://host/path: handshake rejected with HTTP 401`.
 */
export interface WsConnectionOptions {
  readonly name: string
  readonly url: string
  readonly clock: Clock
  readonly log: Logger
  readonly reconnectBaseMs: number
  readonly reconnectMaxMs: number
  readonly staleAfterMs: number
  readonly connectTimeoutMs: number
  /** Headers for the upgrade request, computed per attempt (signatures carry a timestamp). */
  readonly headers?: () => Record<string, string>
  /**
   * Probe sent on open and every `intervalMs` while open: a text frame the venue answers (e.g. "PING"), or a
   * protocol ping when `message` is absent. Again every `replyWithinMs` while unanswered (see the class comment).
   */
  readonly keepalive?: { readonly intervalMs: number; readonly replyWithinMs: number; readonly message?: string }
  /** Called when the socket opens: send subscriptions here. */
  readonly onOpen: () => void
  /**
   * What stamps a frame's receipt (the `receivedAt` handed to onMessage): `clock.now()` unless the stream's
   * `preciseTimes` asks for a fraction of a millisecond (core/precise-time.ts). Liveness uses `clock.now()` either way.
   * The stamp is taken when the socket read that completed the frame arrives, so every frame of one read carries the
   * same receipt time, however long the frames before it took.
   */
  readonly receiptStamp?: Stamp
  /** Called for every text frame, with its receipt time (see receiptStamp). */
  readonly onMessage: (data: string, receivedAt: number) => void
  /** Called once per lost connection (closed, errored, stale, or replaced): what it carried is now stale. */
  readonly onDown: (reason: string) => void
  /**
   * Said after a handshake rejected with 401 or 403, where the usual cause is ours (a venue that needs a key, without
   * one: "unsigned handshake: set …", naming its settings).
   */
  readonly authHint?: string
  readonly random?: () => number
  /** Our own event loop's stalls, excused from the venue's silence (default: the process's, on the system clock). */
  readonly loopStalls?: LoopStalls
  /**
   * Shared by the connections to one venue: each connect attempt waits for a handshake slot (connect-gate.ts), and
   * its connect timeout starts when it gets one. None: every attempt starts at once.
   */
  readonly connectGate?: ConnectGate
}

export interface WsConnectionCounters {
  connects: number
  reconnects: number
  framesReceived: number
  staleTimeouts: number
  /** Restarts because the venue spoke again after missing its probes (a stall that ended). */
  revivals: number
  /** Probe replies read late only because our own loop was stalled meanwhile: excused, no restart. */
  excusedLateReplies: number
  lastFrameAt: number | undefined
}

/** The longest between two liveness checks: a stall is declared at most this long after its threshold. */
export const LIVENESS_CHECK_MS = 250

export class WsConnection {
  readonly #o: WsConnectionOptions
  readonly #loopStalls: LoopStalls
  #socket: WebSocket | undefined
  #closed = false
  #attempt = 0
  #lastActivity = 0
  #lastProbeAt = 0
  /** When the oldest probe still unanswered went out (undefined: the venue has answered since the last one). */
  #unansweredSince: number | undefined
  /** Frames received since the last probe went out (its answer included). */
  #framesSinceProbe = 0
  /** Revivals in a row without a prompt reply in between (doubles the reply time allowed). */
  #slowRevivals = 0
  /** The receipt stamp of the socket's latest read: the frames it completes were received then. */
  #readAt = 0
  #reconnectTimer: TimerHandle | undefined
  /** This connection's place at the connect gate, from the attempt until its handshake ends. */
  #handshake: GateTicket | undefined
  /** Leaves the shared liveness ticker (core/shared-ticker.ts) while the connection is down or closed. */
  #leaveWatch: LeaveTicker | undefined
  #connectTimer: TimerHandle | undefined
  readonly counters: WsConnectionCounters = {
    connects: 0,
    reconnects: 0,
    framesReceived: 0,
    staleTimeouts: 0,
    revivals: 0,
    excusedLateReplies: 0,
    lastFrameAt: undefined,
  }

  constructor(options: WsConnectionOptions) {
    this.#o = options
    this.#loopStalls = options.loopStalls ?? loopStallsOf(options.clock)
  }

  get isOpen(): boolean {
    return this.#socket?.readyState === WebSocket.OPEN
  }

  start(): void {
    if (this.#closed || this.#socket !== undefined || this.#reconnectTimer !== undefined) return
    if (this.#handshake !== undefined) return
    this.#connect()
  }

  /** Sends a text frame; returns false when the socket is not open (the frame is not queued). */
  send(text: string): boolean {
    const socket = this.#socket
    if (socket === undefined || socket.readyState !== WebSocket.OPEN) return false
    socket.send(text)
    return true
  }

  /**
   * Drops the current socket and reconnects after `delayMs` (a resync: the venue re-sends snapshots on a new
   * subscription). Reports the connection as down first.
   */
  restart(reason: string, delayMs = 0): void {
    if (this.#closed) return
    this.#teardown(reason)
    this.#scheduleReconnect(delayMs)
  }

  /** Idempotent. No callbacks fire after close. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#o.clock.clearTimeout(this.#reconnectTimer)
    this.#reconnectTimer = undefined
    this.#stopTimers()
    this.#handshakeEnded()
    const socket = this.#socket
    this.#socket = undefined
    if (socket !== undefined) {
      socket.removeAllListeners()
      socket.on('error', () => {})
      socket.terminate()
    }
  }

  /** A connect attempt: through the gate when there is one. */
  #connect(): void {
    const gate = this.#o.connectGate
    if (gate === undefined) {
      this.#open()
      return
    }
    // Let in at once, the attempt holds its ticket before it starts (a failure right away releases it); else it
    // holds it while it waits.
    let started = false
    const ticket = gate.enter((own) => {
      started = true
      this.#handshake = own
      this.#open()
    })
    if (!started) this.#handshake = ticket
  }

  #handshakeEnded(): void {
    const ticket = this.#handshake
    this.#handshake = undefined
    ticket?.release()
  }

  #open(): void {
    const o = this.#o
    let headers: Record<string, string> | undefined
    try {
      headers = o.headers?.()
    } catch (err) {
      o.log.error({ err, feed: o.name }, 'cannot build websocket handshake headers')
      this.#handshakeEnded()
      this.#scheduleReconnect()
      return
    }
    const socket = new WebSocket(o.url, { headers, perMessageDeflate: false, handshakeTimeout: o.connectTimeoutMs })
    this.#socket = socket
    this.#lastActivity = o.clock.now()
    this.#connectTimer = o.clock.setTimeout(() => {
      if (socket.readyState !== WebSocket.OPEN)
        this.#lost(socket, `${urlLabel(o.url)}: no handshake within ${o.connectTimeoutMs} ms (connect timeout)`)
    }, o.connectTimeoutMs)

    // Stamp each read before ws parses it (listener first): ws emits the read's frames right after, in the same call.
    socket.on('upgrade', (res) => {
      const stamp = o.receiptStamp ?? (() => o.clock.now())
      res.socket.prependListener('data', () => {
        this.#readAt = stamp()
      })
    })
    socket.on('open', () => {
      if (this.#socket !== socket) return
      o.clock.clearTimeout(this.#connectTimer)
      this.#handshakeEnded()
      this.counters.connects++
      this.#attempt = 0
      this.#lastActivity = o.clock.now()
      this.#startTimers()
      try {
        o.onOpen()
      } catch (err) {
        o.log.error({ err, feed: o.name }, 'subscription failed on open')
        this.restart('subscription failed')
      }
    })
    socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      if (this.#socket !== socket) return
      const now = o.clock.now()
      this.counters.framesReceived++
      if (!this.#heard(now)) return
      this.counters.lastFrameAt = now
      if (isBinary) return
      try {
        o.onMessage(typeof data === 'string' ? data : data.toString(), this.#readAt)
      } catch (err) {
        // A feed bug must not escape into the socket's event handler, nor leave books half-applied: resync.
        o.log.error({ err, feed: o.name }, 'frame handler failed: resyncing')
        this.restart('frame handler failed')
      }
    })
    socket.on('ping', () => {
      if (this.#socket === socket) this.#heard(o.clock.now())
    })
    socket.on('pong', () => {
      if (this.#socket === socket) this.#heard(o.clock.now())
    })
    socket.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0
      const hint = (status === 401 || status === 403) && o.authHint !== undefined ? `; ${o.authHint}` : ''
      const reason = `${urlLabel(o.url)}: handshake rejected with HTTP ${status}${hint}`
      o.log.warn({ feed: o.name, status, reason }, 'websocket handshake rejected')
      this.#lost(socket, reason)
    })
    socket.on('error', (err) => {
      const reason = `${urlLabel(o.url)}: ${describeNetworkFailure(err)}`
      o.log.debug({ err, feed: o.name, reason }, 'websocket error')
      this.#lost(socket, reason)
    })
    socket.on('close', (code) => this.#lost(socket, `${urlLabel(o.url)}: closed (${code})`))
  }

  /**
   * The venue said something at `now`. False when it had missed its probes until then: the connection is being
   * restarted (the frame is not passed on: the books it would apply to are resynced).
   */
  #heard(now: number): boolean {
    this.#lastActivity = now
    this.#framesSinceProbe++
    const owed = this.#unansweredSince
    if (owed === undefined) return true
    this.#unansweredSince = undefined
    const keepalive = this.#o.keepalive
    if (keepalive === undefined) return true
    const allowed = Math.min(keepalive.replyWithinMs * 2 ** Math.min(this.#slowRevivals, 20), this.#o.staleAfterMs)
    const waited = now - owed
    if (waited <= allowed) {
      this.#slowRevivals = 0
      return true
    }
    const ours = this.#loopStalls.stalledWithin(owed, now)
    if (waited - ours <= allowed) {
      this.#slowRevivals = 0
      this.counters.excusedLateReplies++
      return true
    }
    this.#slowRevivals++
    this.counters.revivals++
    const excused = ours > 0 ? ` (${Math.round(ours)} ms of it our own loop's stall)` : ''
    this.restart(`venue silent for ${waited} ms${excused}, then back: resubscribing on a fresh socket`, 0)
    return false
  }

  #lost(socket: WebSocket, reason: string): void {
    if (this.#socket !== socket || this.#closed) return
    this.#teardown(reason)
    this.#scheduleReconnect()
  }

  #teardown(reason: string): void {
    const socket = this.#socket
    this.#socket = undefined
    this.#stopTimers()
    this.#handshakeEnded()
    if (socket !== undefined) {
      socket.removeAllListeners()
      socket.on('error', () => {})
      socket.terminate()
      this.#o.log.info({ feed: this.#o.name, reason }, 'websocket down')
      this.#o.onDown(reason)
    }
  }

  #scheduleReconnect(delayMs?: number): void {
    if (this.#closed) return
    const delay =
      delayMs ??
      backoffDelayMs(this.#attempt++, {
        baseMs: this.#o.reconnectBaseMs,
        maxMs: this.#o.reconnectMaxMs,
        random: this.#o.random,
      })
    this.#o.clock.clearTimeout(this.#reconnectTimer)
    this.#reconnectTimer = this.#o.clock.setTimeout(() => {
      this.#reconnectTimer = undefined
      if (this.#closed) return
      this.counters.reconnects++
      this.#connect()
    }, delay)
  }

  #startTimers(): void {
    const o = this.#o
    const keepalive = o.keepalive
    const period = Math.max(10, Math.min(LIVENESS_CHECK_MS, Math.floor(o.staleAfterMs / 4)))
    if (keepalive !== undefined) this.#probe(o.clock.now())
    // One periodic check instead of a timer reset per frame: frames arrive up to hundreds of thousands a second. The
    // check shares one timer with every other connection's of the same period (a venue has hundreds of sockets).
    this.#leaveWatch = SharedTicker.join(o.clock, period, () => {
      const socket = this.#socket
      if (socket === undefined) return
      const now = o.clock.now()
      const silent = now - this.#lastActivity
      if (
        silent > o.staleAfterMs &&
        silent - this.#loopStalls.stalledWithin(this.#lastActivity, now) > o.staleAfterMs
      ) {
        this.counters.staleTimeouts++
        this.#lost(socket, `stale: nothing received for ${o.staleAfterMs} ms`)
        return
      }
      if (keepalive === undefined) return
      const sinceProbe = now - this.#lastProbeAt
      const due =
        this.#unansweredSince !== undefined
          ? sinceProbe >= keepalive.replyWithinMs
          : sinceProbe >= keepalive.intervalMs ||
            (this.#framesSinceProbe > 1 && now - this.#lastActivity >= keepalive.replyWithinMs)
      if (due) this.#probe(now)
    })
  }

  #probe(now: number): void {
    const socket = this.#socket
    const keepalive = this.#o.keepalive
    if (socket === undefined || keepalive === undefined || socket.readyState !== WebSocket.OPEN) return
    if (keepalive.message === undefined) socket.ping()
    else socket.send(keepalive.message)
    this.#lastProbeAt = now
    this.#framesSinceProbe = 0
    this.#unansweredSince ??= now
  }

  #stopTimers(): void {
    this.#o.clock.clearTimeout(this.#connectTimer)
    this.#leaveWatch?.()
    this.#leaveWatch = undefined
    this.#unansweredSince = undefined
    this.#connectTimer = undefined
  }
}
