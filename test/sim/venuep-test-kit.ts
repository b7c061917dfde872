import { WebSocket } from 'ws'

/**
 * Test helpers for the venuep simulator: a market-channel client that records every frame and waits for the
 * next matching one, and the book-replay logic a real consumer applies (dump + deltas → book).
 */
export class WsClient {
  readonly socket: WebSocket
  readonly frames: string[] = []
  closeCode: number | undefined
  #cursor = 0
  #waiters: (() => void)[] = []
  readonly closed: Promise<number>

  private constructor(socket: WebSocket) {
    this.socket = socket
    socket.on('message', (data) => {
      this.frames.push(data.toString())
      for (const w of this.#waiters.splice(0)) w()
    })
    this.closed = new Promise((resolve) => {
      socket.on('close', (code) => {
        this.closeCode = code
        resolve(code)
        for (const w of this.#waiters.splice(0)) w()
      })
    })
  }

  static async connect(url: string): Promise<WsClient> {
    const socket = new WebSocket(url)
    const client = new WsClient(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    return client
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message))
  }

  /** Index of the next unread frame. */
  get cursor(): number {
    return this.#cursor
  }

  /** The next unread frame matching `pred` (frames before it are skipped), or a rejection after `timeoutMs`. */
  async next(pred: (text: string) => boolean = () => true, timeoutMs = 3000): Promise<string> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      for (let i = this.#cursor; i < this.frames.length; i++) {
        const text = this.frames[i] as string
        if (pred(text)) {
          this.#cursor = i + 1
          return text
        }
      }
      this.#cursor = this.frames.length
      if (this.closeCode !== undefined) throw new Error(`socket closed (${this.closeCode}) while waiting`)
      const left = deadline - Date.now()
      if (left <= 0) throw new Error('timed out waiting for a frame')
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.#waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  /** Sends PING and waits for its PONG: every frame the server sent before it has then arrived. */
  async barrier(): Promise<void> {
    this.send('PING')
    await this.next((t) => t === 'PONG')
  }

  close(): void {
    this.socket.terminate()
  }
}

export interface Level {
  price: string
  size: string
}

export interface BookJson {
  event_type?: string
  market: string
  asset_id: string
  timestamp: string
  hash: string
  bids: Level[]
  asks: Level[]
  min_order_size: string
  tick_size: string
  neg_risk: boolean
  last_trade_price: string
}

/** A consumer's local copy of one asset's book, kept from the dump and the deltas. */
export class ReplayBook {
  readonly bids = new Map<string, string>()
  readonly asks = new Map<string, string>()
  readonly base: BookJson

  constructor(dump: BookJson) {
    const { event_type: _ignored, ...rest } = dump
    this.base = { ...rest, bids: [], asks: [] }
    for (const l of dump.bids) this.bids.set(l.price, l.size)
    for (const l of dump.asks) this.asks.set(l.price, l.size)
  }

  apply(entry: { price: string; size: string; side: string; hash: string }, timestamp: string): void {
    const side = entry.side === 'BUY' ? this.bids : this.asks
    if (Number(entry.size) === 0) side.delete(entry.price)
    else side.set(entry.price, entry.size)
    this.base.hash = entry.hash
    this.base.timestamp = timestamp
  }

  /** The book in venuep's wire order: bids ascending, asks descending. */
  toJson(): BookJson {
    const levels = (m: Map<string, string>, dir: 1 | -1) =>
      [...m.entries()].sort((a, b) => (Number(a[0]) - Number(b[0])) * dir).map(([price, size]) => ({ price, size }))
    return { ...this.base, bids: levels(this.bids, 1), asks: levels(this.asks, -1) }
  }
}
