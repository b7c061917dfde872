import { jetstreamManager } from '@nats-io/jetstream'
import type { NatsConnection } from '@nats-io/transport-node'
import type { Logger } from '../../core/logger.js'
import { MD_STREAM } from '../subjects.js'

/** How often JetStream is asked whether it serves the `MD` stream again after a reconnect. */
const RETRY_MS = 250

/**
 * Runs `action` each time the connection is back after a drop and JetStream serves the `MD` stream again (a
 * restarted broker recovers its streams a moment after it accepts clients; frames published before then are not
 * kept, and a consumer created before then fails). Until the connection closes. Returns a stop function.
 */
export function onBrokerBack(nc: NatsConnection, action: () => Promise<void> | void, log?: Logger): () => void {
  let stopped = false
  let generation = 0
  void (async () => {
    for await (const s of nc.status()) {
      if (stopped) return
      if (s.type !== 'reconnect') continue
      const mine = ++generation
      void (async () => {
        for (;;) {
          if (stopped || mine !== generation || nc.isClosed()) return
          try {
            await (await jetstreamManager(nc)).streams.info(MD_STREAM)
            await action()
            return
          } catch (err) {
            log?.debug({ err }, 'bus: JetStream not serving yet after a reconnect')
            await new Promise((r) => setTimeout(r, RETRY_MS))
          }
        }
      })()
    }
  })()
  return () => {
    stopped = true
  }
}
