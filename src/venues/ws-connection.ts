import WebSocket from 'ws'
import { backoffDelayMs } from '../core/backoff.js'
import type { Clock, TimerHandle } from '../core/clock.js'
import type { Stamp } from '../core/precise-time.js'
import type { Logger } from '../core/logger.js'
import { describeNetworkFailure, urlLabel } from './transport-errors.js'

/**
 * One long-lived venue WebSocket: connect, (re)subscribe on open, optional text keepalive, stale detection and
 * reconnect with capped exponential backoff and full jitter. Venue feeds own what to subscribe and how to read
 * frames; this class owns only the connection's lifecycle (tardis-node's RealtimeFeed split).
 *
 * Liveness: any inbound frame, PONG or protocol ping counts. A socket silent for `staleAfterMs` is declared
 * stale and replaced, even if the TCP connection looks open (the venue may stall with the socket open).
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
  /** Text keepalive sent every intervalMs while open (e.g. "PING"). */
  readonly keepalive?: { readonly intervalMs: number; readonly message: string }
  /** Called when the socket opens: send subscriptions here. */
  readonly onOpen: () => void
  /** Called for every text frame, with the local receipt time. */
  /**
   * What stamps a frame's receipt (the `receivedAt` handed to onMessage): `clock.now()` unless the stream's
   * `preciseTimes` asks for a fraction of a millisecond (core/precise-time.ts). Liveness uses `clock.now()` either way.
   */
  readonly receiptStamp?: Stamp
  readonly onMessage: (data: string, receivedAt: number) => void
  /** Called once per lost connection (closed, errored, stale, or replaced): what it carried is now stale. */
  readonly onDown: (reason: string) => void
  /**
   * Said after a handshake rejected with 401 or 403, where the usual cause is ours (a venue that needs a key, without
   * one: "unsigned handshake: set …", naming its settings).
   */
  readonly authHint?: string
  readonly random?: () => number
}

export interface WsConnectionCounters {
  connects: number
  reconnects: number
  framesReceived: number
  staleTimeouts: number
  lastFrameAt: number | undefined
}

export class WsConnection {
  readonly #o: WsConnectionOptions
  #socket: WebSocket | undefined
  #closed = false
  #attempt = 0
  #lastActivity = 0
  #reconnectTimer: TimerHandle | undefined
  #watchTimer: TimerHandle | undefined
  #keepaliveTimer: TimerHandle | undefined
  #connectTimer: TimerHandle | undefined
  readonly counters: WsConnectionCounters = {
    connects: 0,
    reconnects: 0,
    framesReceived: 0,
    staleTimeouts: 0,
    lastFrameAt: undefined,
  }

  constructor(options: WsConnectionOptions) {
    this.#o = options
  }

  get isOpen(): boolean {
    return this.#socket?.readyState === WebSocket.OPEN
  }

  start(): void {
    if (this.#closed || this.#socket !== undefined || this.#reconnectTimer !== undefined) return
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
    const socket = this.#socket
    this.#socket = undefined
    if (socket !== undefined) {
      socket.removeAllListeners()
      socket.on('error', () => {})
      socket.terminate()
    }
  }

  #connect(): void {
    const o = this.#o
    let headers: Record<string, string> | undefined
    try {
      headers = o.headers?.()
    } catch (err) {
      o.log.error({ err, feed: o.name }, 'cannot build websocket handshake headers')
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

    socket.on('open', () => {
      if (this.#socket !== socket) return
      o.clock.clearTimeout(this.#connectTimer)
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
      this.#lastActivity = now
      this.counters.framesReceived++
      this.counters.lastFrameAt = now
      if (isBinary) return
      try {
        o.onMessage(typeof data === 'string' ? data : data.toString(), o.receiptStamp?.() ?? now)
      } catch (err) {
        // A feed bug must not escape into the socket's event handler, nor leave books half-applied: resync.
        o.log.error({ err, feed: o.name }, 'frame handler failed: resyncing')
        this.restart('frame handler failed')
      }
    })
    socket.on('ping', () => {
      if (this.#socket === socket) this.#lastActivity = o.clock.now()
    })
    socket.on('pong', () => {
      if (this.#socket === socket) this.#lastActivity = o.clock.now()
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

  #lost(socket: WebSocket, reason: string): void {
    if (this.#socket !== socket || this.#closed) return
    this.#teardown(reason)
    this.#scheduleReconnect()
  }

  #teardown(reason: string): void {
    const socket = this.#socket
    this.#socket = undefined
    this.#stopTimers()
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
    // One periodic check instead of a timer reset per frame: frames arrive up to hundreds of thousands a second.
    this.#watchTimer = o.clock.setInterval(
      () => {
        const socket = this.#socket
        if (socket !== undefined && o.clock.now() - this.#lastActivity > o.staleAfterMs) {
          this.counters.staleTimeouts++
          this.#lost(socket, `stale: nothing received for ${o.staleAfterMs} ms`)
        }
      },
      Math.max(10, Math.floor(o.staleAfterMs / 4)),
    )
    if (o.keepalive !== undefined) {
      const { intervalMs, message } = o.keepalive
      this.#keepaliveTimer = o.clock.setInterval(() => this.send(message), intervalMs)
    }
  }

  #stopTimers(): void {
    this.#o.clock.clearTimeout(this.#connectTimer)
    this.#o.clock.clearInterval(this.#watchTimer)
    this.#o.clock.clearInterval(this.#keepaliveTimer)
    this.#watchTimer = undefined
    this.#keepaliveTimer = undefined
    this.#connectTimer = undefined
  }
}
