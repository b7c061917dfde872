import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'

/**
 * Batches every frame a socket is sent in the current tick into one write. ws corks and uncorks the TCP
 * socket around each frame; nested under this cork, an engine step's frames leave as one writev instead of
 * one syscall per frame (which measured ~10 µs a frame). ws keeps the socket in `_socket`; if that ever
 * changes, frames are simply written one by one.
 */
export class TickCork {
  readonly #socket: WebSocket
  #corked = false

  constructor(socket: WebSocket) {
    this.#socket = socket
  }

  /** Call before each send: corks once per tick and uncorks when the tick's synchronous work is done. */
  cork(): void {
    if (this.#corked) return
    const raw = (this.#socket as unknown as { _socket?: Partial<Duplex> })._socket
    if (typeof raw?.cork !== 'function' || typeof raw.uncork !== 'function') return
    raw.cork()
    this.#corked = true
    process.nextTick(() => {
      this.#corked = false
      raw.uncork?.()
    })
  }
}
