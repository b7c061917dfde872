import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import type { TimerHandle } from '../../core/clock.js'
import type { FaultPlan } from '../faults.js'
import type { EngineEvent, SimEngine } from '../world/engine.js'
import { isVenuekEvent } from './engine-moves.js'
import type { VkMarket } from './types.js'
import { AUTH_FAILURE_BODIES, SignatureVerifier } from './auth.js'
import { NOT_FOUND } from './errors.js'
import type { VenuekState } from './market-state.js'
import { dataFrame, deltaMsgs, tickerMsg, tickerState, tradeMsg } from './ws-frames.js'
import { WsSession, type SessionHost } from './ws-session.js'
import { SubscriptionIndex, type Subscription } from './ws-subscription.js'
import { venuekOf } from './state.js'

/** The WS v2 endpoint path, which is also the signed path of the handshake (venuek.md §1, §6). */
export const WS_PATH = '/trade-api/ws/v2'

/** Largest client command accepted; commands are a few hundred bytes. */
const MAX_COMMAND_BYTES = 1024 * 1024

export interface VenuekWsOptions {
  readonly state: VenuekState
  readonly engine: SimEngine
  readonly faults: FaultPlan
  /** Undefined = no keys configured: handshakes are not checked. */
  readonly verifier: SignatureVerifier | undefined
  /** Reject handshakes without a valid signature (the current venue does; older docs allowed public channels). */
  readonly authRequired: boolean
  readonly heartbeatMs: number
}

/**
 * venuek's WebSocket v2 server on the simulator's HTTP server: the signed handshake, one WsSession per socket,
 * and the fan-out of engine events to subscriptions. Sequence numbers are assigned when a frame is produced,
 * even while the venue is stalled and the frame is dropped, so a client sees the loss as a seq gap once data
 * flows again. Heartbeats are WS pings with payload `heartbeat`, driven by the injected clock.
 */
export class VenuekWsServer implements SessionHost {
  readonly state: VenuekState
  readonly index = new SubscriptionIndex()
  /** What the server did, for tests and status output. */
  readonly counters = { rejectedHandshakes: 0, slowConsumers: 0, heartbeats: 0 }
  readonly #options: VenuekWsOptions
  readonly #wss: WebSocketServer
  readonly #sessions = new Map<WebSocket, WsSession>()
  /** Last broadcast ticker state per market: a ticker frame goes out only when it changes. */
  readonly #tickerStates = new Map<string, string>()
  readonly #marketsById = new Map<string, VkMarket>()
  readonly #stopEngine: () => void
  readonly #heartbeat: TimerHandle

  constructor(options: VenuekWsOptions) {
    this.#options = options
    this.state = options.state
    for (const m of venuekOf(options.state.world).markets) this.#marketsById.set(m.marketId, m)
    // The server answers pings itself so that a stalled venue can stay silent (ws would pong automatically).
    this.#wss = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      autoPong: false,
      clientTracking: false,
      maxPayload: MAX_COMMAND_BYTES,
    })
    this.#stopEngine = options.engine.on((e) => this.#onEngine(e))
    this.#heartbeat = options.state.clock.setInterval(() => this.#sendHeartbeats(), options.heartbeatMs)
  }

  get stalled(): boolean {
    return this.#options.faults.stalled
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.#onUpgrade(req, socket, head))
  }

  connections(): number {
    return this.#sessions.size
  }

  close(): void {
    this.#stopEngine()
    this.state.clock.clearInterval(this.#heartbeat)
    for (const [ws, session] of this.#sessions) {
      session.close()
      ws.terminate()
    }
    this.#sessions.clear()
    this.#wss.close()
  }

  marketById(id: string): VkMarket | undefined {
    return this.#marketsById.get(id)
  }

  /**
   * Called before seq numbers are assigned. A skip requested while no sequenced subscription exists has no
   * subscription to apply to and is consumed without effect.
   */
  collectSequenceSkips(): void {
    const n = this.#options.faults.takeSequenceSkip()
    if (n === 0) return
    for (const session of this.#sessions.values()) {
      for (const sub of session.subscriptions()) if (sub.sequenced) sub.pendingSkip += n
    }
  }

  resetTickerState(tickers: Iterable<string> | undefined): void {
    if (tickers === undefined) this.#tickerStates.clear()
    else for (const t of tickers) this.#tickerStates.delete(t)
  }

  onSlowConsumer(): void {
    this.counters.slowConsumers++
  }

  #onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(req.url ?? '/', 'http://sim.invalid').pathname
    if (path !== WS_PATH) return reject(socket, 404, NOT_FOUND)
    const verifier = this.#options.verifier
    if (verifier !== undefined && (this.#options.authRequired || SignatureVerifier.attempted(req.headers))) {
      const failure = verifier.verify(req.headers, 'GET', path)
      if (failure !== undefined) {
        this.counters.rejectedHandshakes++
        return reject(socket, 401, AUTH_FAILURE_BODIES[failure])
      }
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws))
  }

  #accept(ws: WebSocket): void {
    this.#options.faults.register(ws)
    const session = new WsSession(ws, this)
    this.#sessions.set(ws, session)
    ws.on('message', (data: RawData) => session.handle(text(data)))
    ws.on('ping', (data: Buffer) => {
      if (!this.stalled && ws.readyState === ws.OPEN) ws.pong(data)
    })
    ws.on('close', () => {
      session.close()
      this.#sessions.delete(ws)
    })
    // A reset socket reports an error and then closes; the close handler does the cleanup.
    ws.on('error', () => undefined)
  }

  #sendHeartbeats(): void {
    if (this.stalled) return
    for (const ws of this.#sessions.keys()) {
      if (ws.readyState !== ws.OPEN) continue
      ws.ping('heartbeat')
      this.counters.heartbeats++
    }
  }

  #onEngine(e: EngineEvent): void {
    if (!isVenuekEvent(e)) return
    if (e.type === 'vk_book') {
      this.collectSequenceSkips()
      const subs = this.index.forMarket('orderbook_delta', e.market.ticker)
      if (subs !== undefined && subs.size > 0) {
        let plain: string[] | undefined
        let yesPriced: string[] | undefined
        for (const sub of subs) {
          const msgs = sub.useYesPrice
            ? (yesPriced ??= deltaMsgs(e.market, e.changes, e.ts, true))
            : (plain ??= deltaMsgs(e.market, e.changes, e.ts, false))
          for (const msg of msgs) sub.owner.send(dataFrame('orderbook_delta', sub.sid, sub.nextSeq(), msg))
        }
      }
      this.#maybeTicker(e.market, e.ts)
    } else if (e.type === 'vk_trade') {
      this.collectSequenceSkips()
      const m = e.trade.market
      let msg: string | undefined
      const send = (sub: Subscription): void =>
        sub.owner.send(dataFrame('trade', sub.sid, sub.nextSeq(), (msg ??= tradeMsg(e.trade))))
      this.index.forMarket('trade', m.ticker)?.forEach(send)
      this.index.allMarkets('trade').forEach(send)
      this.#maybeTicker(m, e.ts)
    }
  }

  /** A `ticker` frame whenever any of the market's ticker fields changed (sizes included, venuek.md §6.5). */
  #maybeTicker(m: VkMarket, ts: number): void {
    if (!this.index.wants('ticker', m.ticker)) return
    const fields = tickerState(this.state, m, ts)
    if (this.#tickerStates.get(m.ticker) === fields) return
    this.#tickerStates.set(m.ticker, fields)
    const msg = tickerMsg(fields, ts)
    const send = (sub: Subscription): void => sub.owner.send(dataFrame('ticker', sub.sid, undefined, msg))
    this.index.forMarket('ticker', m.ticker)?.forEach(send)
    this.index.allMarkets('ticker').forEach(send)
  }
}

function text(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}

/** Refuses an upgrade with a plain HTTP response carrying the venue's JSON error body. */
function reject(socket: Duplex, status: number, body: unknown): void {
  const json = JSON.stringify(body)
  // The HTTP server let go of the socket when it emitted 'upgrade' (its error listener with it): a client that
  // resets the connection after the refusal would otherwise throw ECONNRESET out of the simulator's process.
  socket.on('error', () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
      `Connection: close\r\n\r\n${json}`,
  )
}
