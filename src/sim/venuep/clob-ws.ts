import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import type { FaultPlan } from '../faults.js'
import { TickCork } from '../tick-cork.js'
import type { EngineEvent, SimEngine } from '../world/engine.js'
import { isVenuepEvent } from './engine-moves.js'
import type { World } from '../world/world.js'
import { bookOfToken, type TokenIndex } from './book-view.js'
import { BookEventFrames, bookFrameObject, lastTradeFrame, tickSizeFrame } from './ws-frames.js'

/** The market channel's path on the CLOB host. */
export const WS_PATH = '/ws/market'
/** Backlog (bytes queued in the socket) past which a slow consumer is cut off. */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024
/** Largest inbound frame; subscription frames are small, this only guards the parser. */
const MAX_PAYLOAD_BYTES = 4 * 1024 * 1024

export interface ClobWsOptions {
  /** Assets per connection that receive updates. */
  readonly maxAssetsPerConnection: number
  /** Ids in one subscription frame above which the socket is closed with 1009. */
  readonly maxIdsPerFrame: number
  /** Unsent backlog past which a consumer is terminated (default MAX_BUFFERED_BYTES). */
  readonly maxBufferedBytes?: number
}

class Connection {
  readonly socket: WebSocket
  /** Assets that receive updates (at most maxAssetsPerConnection), in subscription order. */
  readonly live = new Set<string>()
  /** Assets subscribed past the limit: acknowledged with a book, then silent. */
  readonly overflow = new Set<string>()
  custom = false
  /** An engine event fans out to many assets: the tick's frames go out in one write. */
  readonly cork: TickCork

  constructor(socket: WebSocket) {
    this.socket = socket
    this.cork = new TickCork(socket)
  }
}

/**
 * venuep's CLOB market channel, `/ws/market` on the CLOB host (venuep.md §3). The first frame subscribes
 * (`{"type":"market","assets_ids":[…]}`), later frames add or remove assets with `operation`; each subscribe
 * dumps the books as one JSON array, then engine events flow as `price_change`, `last_trade_price`,
 * `tick_size_change` and (with `custom_feature_enabled`) `best_bid_ask`. Text `PING` gets text `PONG`.
 *
 * Limits, as observed on the real venue (§3.1.4): a connection's assets past `maxAssetsPerConnection` still
 * get their initial book but never an update; a frame with more than `maxIdsPerFrame` ids closes the socket
 * with 1009. Unknown and closed asset ids are ignored. A consumer whose unsent backlog passes
 * MAX_BUFFERED_BYTES (16 MiB) is terminated, like a venue shedding a slow reader, so one stuck client
 * cannot grow the simulator's memory without bound.
 */
export class ClobWsServer {
  readonly #world: World
  readonly #faults: FaultPlan
  readonly #options: ClobWsOptions
  readonly #wss = new WebSocketServer({ noServer: true, autoPong: false, maxPayload: MAX_PAYLOAD_BYTES })
  readonly #connections = new Set<Connection>()
  /** asset id → connections receiving its updates. */
  readonly #subscribers = new Map<string, Set<Connection>>()
  readonly #unsubscribeEngine: () => void
  /** What the server did, for tests and status output. */
  readonly counters = { framesReceived: 0, framesSent: 0, slowConsumersTerminated: 0, oversizeFramesClosed: 0 }

  constructor(world: World, engine: SimEngine, faults: FaultPlan, options: ClobWsOptions) {
    this.#world = world
    this.#faults = faults
    this.#options = options
    this.#unsubscribeEngine = engine.on((event) => this.#onEngine(event))
  }

  /** Routes the HTTP server's upgrade requests for WS_PATH here; anything else gets a 404 and is closed. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(req.url ?? '/', 'http://sim.invalid').pathname
      if (path !== WS_PATH) {
        // The HTTP server's error listener left with the socket at 'upgrade': a reset must not throw.
        socket.on('error', () => socket.destroy())
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
        return
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#onConnection(ws))
    })
  }

  get connections(): number {
    return this.#connections.size
  }

  close(): void {
    this.#unsubscribeEngine()
    for (const c of this.#connections) c.socket.terminate()
    this.#connections.clear()
    this.#subscribers.clear()
    this.#wss.close()
  }

  #onConnection(socket: WebSocket): void {
    const conn = new Connection(socket)
    this.#connections.add(conn)
    this.#faults.register(socket)
    socket.on('message', (data, isBinary) => this.#onMessage(conn, data, isBinary))
    // Protocol-level pings are answered by hand so a stalled venue stays silent for them too.
    socket.on('ping', (data) => {
      if (!this.#faults.stalled && socket.readyState === socket.OPEN) socket.pong(data)
    })
    socket.on('error', () => socket.terminate())
    socket.on('close', () => this.#drop(conn))
  }

  #drop(conn: Connection): void {
    if (!this.#connections.delete(conn)) return
    for (const id of conn.live) this.#subscribers.get(id)?.delete(conn)
    conn.live.clear()
    conn.overflow.clear()
  }

  #onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    this.counters.framesReceived++
    if (isBinary) return
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.from(data as Buffer).toString('utf8')
    if (text === 'PING') {
      this.#send(conn, 'PONG')
      return
    }
    let msg: unknown
    try {
      msg = JSON.parse(text)
    } catch {
      return // the venue ignores what it cannot parse
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return
    const m = msg as Record<string, unknown>
    const ids = Array.isArray(m.assets_ids) ? m.assets_ids.filter((id): id is string => typeof id === 'string') : []
    if (ids.length > this.#options.maxIdsPerFrame) {
      this.counters.oversizeFramesClosed++
      conn.socket.close(1009, 'too many assets in one message')
      return
    }
    const operation = typeof m.operation === 'string' ? m.operation.toLowerCase() : undefined
    const isMarket = typeof m.type === 'string' && m.type.toLowerCase() === 'market'
    if (typeof m.custom_feature_enabled === 'boolean') conn.custom = m.custom_feature_enabled
    if (operation === 'unsubscribe') this.#unsubscribe(conn, ids)
    else if (operation === 'subscribe' || (operation === undefined && isMarket))
      this.#subscribe(conn, ids, m.initial_dump !== false)
  }

  #subscribe(conn: Connection, ids: readonly string[], initialDump: boolean): void {
    const dump: Record<string, unknown>[] = []
    for (const id of new Set(ids)) {
      const found = bookOfToken(this.#world, id)
      if (found === undefined) continue // unknown or closed: no book, no updates
      if (!conn.live.has(id) && !conn.overflow.has(id)) {
        if (conn.live.size < this.#options.maxAssetsPerConnection) {
          conn.live.add(id)
          let subs = this.#subscribers.get(id)
          if (subs === undefined) this.#subscribers.set(id, (subs = new Set()))
          subs.add(conn)
        } else {
          conn.overflow.add(id)
        }
      }
      if (initialDump) dump.push(bookFrameObject(this.#world, found.market, found.index, found.book))
    }
    if (dump.length > 0) this.#send(conn, JSON.stringify(dump))
  }

  #unsubscribe(conn: Connection, ids: readonly string[]): void {
    for (const id of ids) {
      if (conn.live.delete(id)) this.#subscribers.get(id)?.delete(conn)
      conn.overflow.delete(id)
    }
  }

  #send(conn: Connection, text: string): void {
    const socket = conn.socket
    // A stalled venue keeps its sockets open and sends nothing at all, PONGs included.
    if (this.#faults.stalled || socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > (this.#options.maxBufferedBytes ?? MAX_BUFFERED_BYTES)) {
      this.counters.slowConsumersTerminated++
      socket.terminate()
      return
    }
    conn.cork.cork()
    socket.send(text)
    this.counters.framesSent++
  }

  #onEngine(event: EngineEvent): void {
    if (!isVenuepEvent(event)) return
    switch (event.type) {
      case 'vp_book': {
        const [t0, t1] = event.market.tokenIds
        const targets = this.#targets(t0, t1)
        if (targets === undefined || this.#faults.stalled) return
        const frames = new BookEventFrames(this.#world, event.market, event.book, event.changes, event.ts)
        for (const [conn, mask] of targets) {
          this.#send(conn, frames.priceChange(mask))
          if (!conn.custom) continue
          for (const index of [0, 1] as const) {
            const bba = mask & (index + 1) ? frames.bestBidAsk(index) : undefined
            if (bba !== undefined) this.#send(conn, bba)
          }
        }
        return
      }
      case 'vp_trade': {
        const a = event.activity
        if (a.type !== 'TRADE') return
        this.#perToken(a.market.tokenIds, (index) => lastTradeFrame(a, index, event.ts))
        return
      }
      case 'vp_tick_size':
        this.#perToken(event.market.tokenIds, (index) =>
          tickSizeFrame(event.market, index, event.oldTick, event.newTick, event.ts),
        )
        return
      default:
        return
    }
  }

  /** Connections subscribed to either token, with a mask of which: 1 = token 0, 2 = token 1, 3 = both. */
  #targets(t0: string, t1: string): Map<Connection, 1 | 2 | 3> | undefined {
    const s0 = this.#subscribers.get(t0)
    const s1 = this.#subscribers.get(t1)
    if ((s0 === undefined || s0.size === 0) && (s1 === undefined || s1.size === 0)) return undefined
    const targets = new Map<Connection, 1 | 2 | 3>()
    if (s0 !== undefined) for (const c of s0) targets.set(c, 1)
    if (s1 !== undefined) for (const c of s1) targets.set(c, targets.has(c) ? 3 : 2)
    return targets
  }

  /** Sends each token's own frame to that token's subscribers, building it only if someone listens. */
  #perToken(tokenIds: readonly [string, string], build: (index: TokenIndex) => string): void {
    if (this.#faults.stalled) return
    for (const index of [0, 1] as const) {
      const subs = this.#subscribers.get(tokenIds[index])
      if (subs === undefined || subs.size === 0) continue
      const frame = build(index)
      for (const conn of subs) this.#send(conn, frame)
    }
  }
}
