import type { TemplatedApp } from 'uWebSockets.js'
import { PACE_PATH } from './frames.js'

/**
 * Flow control for the fan-out run, the same on both servers: publish as fast as the server can, but never more
 * than WINDOW frames ahead of the slowest client. The clients process reports the fewest deltas any client has
 * received (on PACE_PATH, a socket of its own); the server publishes up to that plus WINDOW. So what limits the rate
 * is the server's publishing or the clients' reading, never a growing backlog (which would make uWS drop frames and
 * the service close slow consumers), and each server's buffers stay under WINDOW frames per socket.
 *
 * `emit(n)` publishes the n-th frame (0-based, round-robin over the topics); BATCH frames per event-loop turn, so
 * uWS's once-a-turn flush sends each socket its frames together, in both servers alike.
 */
export const WINDOW = 256
export const BATCH = 32

export function pace(app: TemplatedApp, emit: (n: number) => void): void {
  let emitted = 0
  let credit = 0
  let waiting = true
  let running = false
  const pump = (): void => {
    const n = Math.min(BATCH, credit - emitted)
    for (let i = 0; i < n; i++) emit(emitted++)
    if (running && credit > emitted) setImmediate(pump)
    else waiting = true
  }
  app.ws(PACE_PATH, {
    message: (_ws, message) => {
      const m = JSON.parse(Buffer.from(message).toString('utf8')) as { received?: number; run?: boolean }
      if (m.run !== undefined) running = m.run
      if (m.received !== undefined) credit = m.received + WINDOW
      if (running && waiting && credit > emitted) {
        waiting = false
        setImmediate(pump)
      }
    },
  })
}
