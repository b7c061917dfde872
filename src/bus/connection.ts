import { connect, type NatsConnection } from '@nats-io/transport-node'
import type { Logger } from '../core/logger.js'

/**
 * The process's connection to the broker (NATS): reconnects forever (a broker restart is an outage to ride out, not
 * a reason to exit), and tells `onDown` / `onUp` when the link drops and comes back, so an edge can mark its venues
 * down with markers and resynchronize (docs/SCALE-OUT.md, failure behaviour).
 */
export interface BusLink {
  readonly nc: NatsConnection
  /** The link is up (connected, not reconnecting). */
  readonly up: boolean
  /**
   * Tells `listener` each time the link drops (`reason` names the broker) and comes back, as `onDown` / `onUp` do,
   * for parts of the process that come and go (an edge's venue feeds). Returns the unsubscribe.
   */
  subscribeLink(listener: LinkListener): () => void
  close(): Promise<void>
}

export interface LinkListener {
  down(reason: string): void
  up(): void
}

export interface BusLinkOptions {
  readonly url: string
  /** Shown in the server's connection list (`ingest`, `edge-…`). */
  readonly name: string
  readonly log: Logger
  readonly onDown?: (reason: string) => void
  readonly onUp?: () => void
}

/** Reconnect attempts are this far apart: the broker's restart is what an edge waits for. */
const RECONNECT_WAIT_MS = 250

export async function connectBus(o: BusLinkOptions): Promise<BusLink> {
  const nc = await connect({
    servers: o.url,
    name: o.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: RECONNECT_WAIT_MS,
    reconnectJitter: 100,
    // Frames are small and many: flush as they are published, not on a timer.
    noAsyncTraces: true,
    pingInterval: 5_000,
    maxPingOut: 2,
    waitOnFirstConnect: true,
  })
  let up = true
  const listeners = new Set<LinkListener>()
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' && up) {
        up = false
        o.log.warn({ broker: o.url }, 'broker link down')
        const reason = `broker ${o.url} unreachable`
        o.onDown?.(reason)
        for (const l of listeners) l.down(reason)
      } else if (s.type === 'reconnect' && !up) {
        up = true
        o.log.info({ broker: o.url }, 'broker link back')
        o.onUp?.()
        for (const l of listeners) l.up()
      }
    }
  })()
  return {
    nc,
    get up() {
      return up
    },
    subscribeLink(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    close: async () => {
      await nc.drain().catch(() => nc.close())
    },
  }
}
