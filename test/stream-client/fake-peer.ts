import type { IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32 as zlibCrc32 } from 'node:zlib'
import { WebSocketServer, type WebSocket } from 'ws'
import { CLOSE } from '../../src/stream/protocol.js'

/**
 * A small protocol peer for the client's tests: a `ws` server on port 0 that speaks the contract as the tests
 * script it. It authenticates (X-API-Key header, `?api_key=`, or a first `auth` frame), sends `welcome`, records
 * every command, and answers them with `respond` (by default: ack with every key accepted, pong for ping). Data
 * frames are sent by the test through `PeerStream`, which numbers them like the server's sequencer and computes
 * checksums with Node's zlib (independent of the client's own CRC code).
 */
export const LIMITS = {
  connections_per_key: 5,
  keys_per_connection: 500,
  commands_per_second: 20,
  max_lifetime_s: 86_400,
  max_frame_bytes: 65_536,
} as const

export interface Cmd {
  readonly op: string
  readonly id: number
  readonly [field: string]: unknown
}

export type Responder = (conn: PeerConnection, cmd: Cmd) => void

/** The default answers: what a server does when every key is known. */
export const defaultResponder: Responder = (conn, cmd) => {
  switch (cmd.op) {
    case 'subscribe':
      return conn.send({
        type: 'ack',
        id: cmd.id,
        sid: conn.nextSid(),
        accepted: cmd.keys,
        rejected: [],
        recovered: cmd.resume !== undefined,
      })
    case 'update':
      return conn.send({ type: 'ack', id: cmd.id, sid: cmd.sid, accepted: cmd.add ?? [], rejected: [] })
    case 'unsubscribe':
      return conn.send({ type: 'ack', id: cmd.id, sid: cmd.sid, last_seq: {} })
    case 'ping':
      return conn.send({ type: 'pong', id: cmd.id })
    case 'auth':
      return
    default:
      return conn.send({ type: 'ack', id: cmd.id })
  }
}

export class PeerConnection {
  readonly commands: Cmd[] = []
  readonly closed: Promise<{ code: number; reason: string }>
  #sids = 0
  #waiters: { op: string | undefined; resolve(c: Cmd): void }[] = []

  constructor(
    readonly ws: WebSocket,
    readonly request: IncomingMessage,
    readonly peer: FakePeer,
  ) {
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })))
  }

  send(frame: object): void {
    this.ws.send(JSON.stringify(frame))
  }

  close(code: number, reason = ''): void {
    this.ws.close(code, reason)
  }

  /** Drops the TCP connection without a close frame (a network error on the client's side). */
  terminate(): void {
    this.ws.terminate()
  }

  welcome(): void {
    this.send({ type: 'welcome', limits: LIMITS })
  }

  nextSid(): string {
    return `s${++this.#sids}`
  }

  /** The next command (of `op`, when given) not yet taken, waiting for it if needed. */
  nextCommand(op?: string): Promise<Cmd> {
    const i = this.commands.findIndex((c) => !TAKEN.has(c) && (op === undefined || c.op === op))
    if (i >= 0) {
      const c = this.commands[i] as Cmd
      TAKEN.add(c)
      return Promise.resolve(c)
    }
    return new Promise((resolve) => this.#waiters.push({ op, resolve }))
  }

  received(cmd: Cmd): void {
    this.commands.push(cmd)
    const w = this.#waiters.findIndex((x) => x.op === undefined || x.op === cmd.op)
    if (w >= 0) {
      TAKEN.add(cmd)
      this.#waiters.splice(w, 1)[0]!.resolve(cmd)
    }
  }
}

const TAKEN = new WeakSet<Cmd>()

export class FakePeer {
  readonly connections: PeerConnection[] = []
  respond: Responder = defaultResponder
  /** Keys that pass authentication. */
  readonly apiKeys = new Set(['good-key'])
  /** When false, connections get no `welcome` (the test sends it, or closes first). */
  autoWelcome = true
  #waiters: { n: number; resolve(c: PeerConnection): void }[] = []

  private constructor(
    readonly wss: WebSocketServer,
    readonly url: string,
  ) {
    wss.on('connection', (ws, request) => this.#accept(ws, request))
  }

  static async start(): Promise<FakePeer> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
    const { port } = wss.address() as AddressInfo
    return new FakePeer(wss, `ws://127.0.0.1:${port}/api/v2/stream`)
  }

  /** The `n`th connection (0-based), waiting for it if it has not arrived yet. */
  connection(n: number): Promise<PeerConnection> {
    const c = this.connections[n]
    if (c !== undefined) return Promise.resolve(c)
    return new Promise((resolve) => this.#waiters.push({ n, resolve }))
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.ws.terminate()
    await new Promise<void>((resolve) => this.wss.close(() => resolve()))
  }

  #accept(ws: WebSocket, request: IncomingMessage): void {
    const conn = new PeerConnection(ws, request, this)
    this.connections.push(conn)
    const header = request.headers['x-api-key']
    const query = new URL(request.url ?? '/', 'http://x').searchParams.get('api_key')
    const key = typeof header === 'string' ? header : query
    let authed = false
    const pass = () => {
      authed = true
      if (this.autoWelcome) conn.welcome()
    }
    const fail = (id?: number) => {
      conn.send({ type: 'error', id: id ?? null, code: 'AUTH_FAILED', message: 'unknown API key' })
      conn.close(CLOSE.authFailed, 'auth failed')
    }
    ws.on('message', (data) => {
      const cmd = JSON.parse(String(data)) as Cmd
      conn.received(cmd)
      if (!authed && cmd.op === 'auth') {
        if (this.apiKeys.has(String(cmd.key))) {
          conn.send({ type: 'ack', id: cmd.id })
          pass()
        } else fail(cmd.id)
        return
      }
      this.respond(conn, cmd)
    })
    if (key !== null && key !== undefined) {
      if (this.apiKeys.has(key)) pass()
      else fail()
    }
    const n = this.connections.length - 1
    for (const w of this.#waiters.filter((x) => x.n === n)) w.resolve(conn)
    this.#waiters = this.#waiters.filter((x) => x.n !== n)
  }
}

/** Numbers a stream's frames as the server's sequencer does: deltas and markers +1, snapshots repeat the seq. */
export class PeerStream {
  seq: number
  constructor(
    readonly ch: string,
    readonly key: string,
    public epoch = 'e1',
    start = 0,
  ) {
    this.seq = start
  }

  snapshot(d: unknown): object {
    return this.#frame('snapshot', this.seq, d)
  }

  delta(d: unknown): object {
    return this.#frame('delta', ++this.seq, d)
  }

  marker(d: unknown): object {
    return this.#frame('marker', ++this.seq, d)
  }

  /** A delta whose seq skips `lost` numbers (frames the client never saw). */
  deltaAfterLoss(lost: number, d: unknown): object {
    this.seq += lost
    return this.delta(d)
  }

  #frame(type: string, seq: number, d: unknown): object {
    return {
      type,
      ch: this.ch,
      key: this.key,
      epoch: this.epoch,
      seq,
      ts: 1_000 + seq,
      lts: 1_001 + seq,
      pts: 1_002 + seq,
      d,
    }
  }
}

/** A reference order book, kept the obvious way, with the contract's checksum computed by Node's zlib. */
export class ReferenceBook {
  readonly bids = new Map<string, string>()
  readonly asks = new Map<string, string>()

  set(side: 'bids' | 'asks', price: string, size: string): void {
    if (Number(size) === 0) this[side].delete(price)
    else this[side].set(price, size)
  }

  levels(side: 'bids' | 'asks', depth?: number): [string, string][] {
    const sign = side === 'asks' ? 1 : -1
    const all = [...this[side].entries()].sort((a, b) => sign * (Number(a[0]) - Number(b[0])))
    return depth === undefined ? all : all.slice(0, depth)
  }

  crc(): number {
    const text = (side: 'bids' | 'asks') =>
      this.levels(side, 10)
        .map(([p, s]) => `${p}:${s}`)
        .join(',')
    return zlibCrc32(`${text('asks')}|${text('bids')}`)
  }
}
