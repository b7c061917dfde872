import { WebSocket } from 'ws'

/**
 * A minimal WS test client for the venuek simulator: records every JSON frame and ping in arrival order and
 * lets a test wait for frames by predicate, with a timeout instead of sleeps.
 */
export type Frame = Record<string, any>

export class FrameClient {
  readonly frames: Frame[] = []
  readonly raw: string[] = []
  readonly pings: string[] = []
  readonly socket: WebSocket
  #pos = 0
  #wake: (() => void) | undefined
  #closed = false
  #nextId = 1000

  private constructor(socket: WebSocket) {
    this.socket = socket
    socket.on('message', (data) => {
      const text = String(data)
      this.raw.push(text)
      try {
        this.frames.push(JSON.parse(text) as Frame)
      } catch {
        this.frames.push({ type: '__malformed__', text })
      }
      this.#wake?.()
    })
    socket.on('ping', (data) => {
      this.pings.push(String(data))
      this.#wake?.()
    })
    socket.on('close', () => {
      this.#closed = true
      this.#wake?.()
    })
  }

  static connect(url: string, headers: Record<string, string> = {}): Promise<FrameClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers })
      const client = new FrameClient(socket)
      socket.once('open', () => resolve(client))
      socket.once('error', reject)
    })
  }

  /** Sends a command; returns its id (allocated when not given). */
  send(command: Record<string, unknown>): number {
    const id = typeof command['id'] === 'number' ? command['id'] : this.#nextId++
    this.socket.send(JSON.stringify({ ...command, id }))
    return id
  }

  get closed(): boolean {
    return this.#closed
  }

  /** Waits until `check()` is true, re-checking on every arrival. */
  async waitFor(check: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!check()) {
      const left = deadline - Date.now()
      if (left <= 0) {
        const unread = JSON.stringify(this.frames.slice(this.#pos)).slice(0, 800)
        throw new Error(`timed out waiting for ${what}; frames after cursor: ${unread}`)
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.#wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.#wake = undefined
    }
  }

  /** Frames from the read cursor up to and including the first one matching `pred`; advances the cursor. */
  async until(pred: (f: Frame) => boolean, timeoutMs = 3000): Promise<Frame[]> {
    let found = -1
    await this.waitFor(
      () => {
        for (let i = this.#pos; i < this.frames.length; i++) if (pred(this.frames[i] as Frame)) return (found = i) >= 0
        return false
      },
      timeoutMs,
      'a matching frame',
    )
    const out = this.frames.slice(this.#pos, found + 1)
    this.#pos = found + 1
    return out
  }

  /** The next `n` frames; advances the cursor. */
  async take(n: number, timeoutMs = 3000): Promise<Frame[]> {
    await this.waitFor(() => this.frames.length - this.#pos >= n, timeoutMs, `${n} frames`)
    const out = this.frames.slice(this.#pos, this.#pos + n)
    this.#pos += n
    return out
  }

  /**
   * Everything the server sent before the reply to a fresh `list_subscriptions`: the socket delivers frames
   * in order, so this is a barrier that flushes frames produced by earlier engine events.
   */
  async sync(timeoutMs = 3000): Promise<Frame[]> {
    const id = this.send({ cmd: 'list_subscriptions' })
    const frames = await this.until((f) => f['id'] === id && f['type'] === 'ok', timeoutMs)
    return frames.slice(0, -1)
  }

  /** Unread frame count. */
  get pending(): number {
    return this.frames.length - this.#pos
  }

  close(): void {
    this.socket.terminate()
  }
}

/** Attempts a handshake expected to fail; resolves with the HTTP status and body the server answered. */
export function rejectedHandshake(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers })
    socket.on('unexpected-response', (req, res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      res.on('end', () => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) })
      })
    })
    socket.on('open', () => {
      socket.terminate()
      reject(new Error('handshake unexpectedly accepted'))
    })
    socket.on('error', () => undefined)
  })
}
