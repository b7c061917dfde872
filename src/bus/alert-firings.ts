import type { Firing } from '../alerts/alert-service.js'
import type { Logger } from '../core/logger.js'
import type { BusLink } from './connection.js'
import { ALERT_FIRINGS_SUBJECT } from './subjects.js'

/**
 * Alert firings from the ingest (where rules are evaluated) to the edges (where clients follow their `alerts`
 * channel). The ingest publishes each firing once its outbox row is committed; an edge hands it to its alerts
 * source as its own AlertService would. Core NATS, at most once: a firing published while an edge is cut off from
 * the broker does not reach that edge's live stream (the delivery log over REST, read from the shared store, has
 * every firing; the channel's snapshot is the store's at the edge's boot plus what it relayed).
 *
 * What travels is what the channel shows: the delivery's id, time and payload, not its target (a webhook URL or an
 * address is the rule's, not the stream's).
 */
interface WireFiring {
  readonly accountId: string | null
  readonly delivery: Firing['delivery']
}

/** Publishes every firing of `alerts` on the bus (the ingest). Returns the unsubscribe. */
export function publishFirings(
  link: BusLink,
  alerts: { onFiring(listener: (f: Firing) => void): () => void },
): () => void {
  return alerts.onFiring((f) => {
    const wire: WireFiring = { accountId: f.accountId, delivery: { ...f.delivery, target: '' } }
    link.nc.publish(ALERT_FIRINGS_SUBJECT, JSON.stringify(wire))
  })
}

/** The firings the ingest relays, as an AlertService's `onFiring` (an edge's alerts source listens to it). */
export class RelayedFirings {
  readonly #listeners = new Set<(f: Firing) => void>()
  readonly #unsubscribe: () => void

  constructor(link: BusLink, log: Logger) {
    const sub = link.nc.subscribe(ALERT_FIRINGS_SUBJECT, {
      callback: (_err, msg) => {
        let f: WireFiring
        try {
          f = JSON.parse(msg.string()) as WireFiring
        } catch (err) {
          log.warn({ err }, 'alert firing from the bus is not JSON: skipped')
          return
        }
        for (const listener of this.#listeners) listener(f)
      },
    })
    this.#unsubscribe = () => sub.unsubscribe()
  }

  onFiring(listener: (f: Firing) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  close(): void {
    this.#unsubscribe()
  }
}
