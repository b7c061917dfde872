import { connect, type Socket } from 'node:net'
import { randomBytes } from 'node:crypto'

/**
 * A minimal WebSocket client for the stream bench: 1,000 of them in one process must cost far less than the server
 * that feeds them, or the run measures the clients. It does the upgrade, sends masked text frames, and for every
 * received text frame only looks at its first bytes: a `delta` is counted (and handed, as bytes, to a measuring
 * client's `onDelta`), anything else (welcome, ack, snapshots, markers, heartbeats) is handed to `onControl` as text.
 * No per-frame allocation on the counted path.
 */
const DELTA_PREFIX = Buffer.from('{"type":"delta"')

/** What a latency client does with its deltas. */
export interface DeltaReceiver {
  /** Read first thing in each socket `data` callback, before any framing is parsed: every frame completed by that chunk was received then. */
  readonly clock: () => number
  /** A delta's bytes are `buf[start, end)` (only valid during the call); `receivedAt` is the clock's reading for its chunk. */
  readonly onDelta: (buf: Buffer, start: number, end: number, receivedAt: number) => void
}

export interface LeanOptions {
  /** Set before the upgrade, so a welcome in the same TCP chunk as the 101 is not missed. */
  readonly onControl?: (text: string) => void
  readonly receiver?: DeltaReceiver
}

export class LeanClient {
  deltas = 0
  bytes = 0
  readonly #socket: Socket
  readonly #receiver: DeltaReceiver | undefined
  #buf: Buffer = Buffer.alloc(0)
  #upgraded = false
  onControl: (text: string) => void = () => undefined
  onClose: () => void = () => undefined

  private constructor(socket: Socket, options: LeanOptions) {
    this.#socket = socket
    this.#receiver = options.receiver
    if (options.onControl !== undefined) this.onControl = options.onControl
    socket.setNoDelay(true)
    socket.on('data', (chunk: Buffer) => this.#data(chunk))
    socket.on('close', () => this.onClose())
    socket.on('error', () => undefined)
  }

  static open(
    port: number,
    path: string,
    headers: Record<string, string>,
    options: LeanOptions = {},
  ): Promise<LeanClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1')
      const c = new LeanClient(socket, options)
      socket.once('error', reject)
      socket.once('connect', () => {
        const lines = [
          `GET ${path} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        ]
        socket.write(`${lines.join('\r\n')}\r\n\r\n`)
      })
      c.#onUpgrade = (ok) => (ok ? resolve(c) : reject(new Error('upgrade refused')))
    })
  }

  #onUpgrade: (ok: boolean) => void = () => undefined

  /** A masked text frame (client frames must be masked; a zero mask leaves the bytes as they are). */
  send(text: string): void {
    const payload = Buffer.from(text)
    const len = payload.length
    const head = len < 126 ? Buffer.from([0x81, 0x80 | len]) : Buffer.from([0x81, 0x80 | 126, len >> 8, len & 0xff])
    this.#socket.write(Buffer.concat([head, Buffer.alloc(4), payload]))
  }

  close(): void {
    this.#socket.destroy()
  }

  #data(chunk: Buffer): void {
    // The receive time first, before anything else this callback does.
    const receivedAt = this.#receiver === undefined ? 0 : this.#receiver.clock()
    this.bytes += chunk.length
    let buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk])
    if (!this.#upgraded) {
      const end = buf.indexOf('\r\n\r\n')
      if (end < 0) {
        this.#buf = buf
        return
      }
      this.#upgraded = true
      this.#onUpgrade(buf.subarray(0, 12).toString() === 'HTTP/1.1 101')
      buf = buf.subarray(end + 4)
    }
    let at = 0
    while (buf.length - at >= 2) {
      const op = (buf[at] as number) & 0x0f
      let len = (buf[at + 1] as number) & 0x7f
      let head = 2
      if (len === 126) {
        if (buf.length - at < 4) break
        len = buf.readUInt16BE(at + 2)
        head = 4
      } else if (len === 127) {
        if (buf.length - at < 10) break
        len = Number(buf.readBigUInt64BE(at + 2))
        head = 10
      }
      if (buf.length - at < head + len) break
      const start = at + head
      if (op === 1) {
        if (
          len >= DELTA_PREFIX.length &&
          buf.compare(DELTA_PREFIX, 0, DELTA_PREFIX.length, start, start + DELTA_PREFIX.length) === 0
        ) {
          this.deltas++
          this.#receiver?.onDelta(buf, start, start + len, receivedAt)
        } else this.onControl(buf.toString('utf8', start, start + len))
      } else if (op === 9) {
        // A ping: answer with a masked pong carrying the same bytes.
        const payload = buf.subarray(start, start + len)
        this.#socket.write(Buffer.concat([Buffer.from([0x8a, 0x80 | len]), Buffer.alloc(4), payload]))
      } else if (op === 8) this.#socket.destroy()
      at = start + len
    }
    this.#buf = at === buf.length ? Buffer.alloc(0) : Buffer.from(buf.subarray(at))
  }
}
