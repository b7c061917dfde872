import type { NatsConnection, Subscription } from '@nats-io/transport-node'
import type { Logger } from '../../core/logger.js'
import { LEASE_ASK_SUBJECT, LEASE_CLOSED_SUBJECT, LEASE_OPEN_SUBJECT, LEASE_RENEW_SUBJECT } from '../subjects.js'
import { parseLeaseRequests } from './leases.js'
import type { StreamKeeper } from './stream-keeper.js'

/**
 * The ingest's side of the leases (leases.ts): `lease.open` requests are answered after the keeper has opened the
 * streams and published their snapshots (the reply follows them on this one connection, so the asking edge has
 * received them when it reads the reply); `lease.renew` extends the leases; a stream closed for want of renewals is
 * announced on `lease.closed`; on start it asks the edges for their leases (`lease.ask`). A body that is not a lease
 * message is ignored (counted). Returns a stop function.
 */
export function serveLeases(
  nc: NatsConnection,
  keeper: StreamKeeper,
  log?: Logger,
): { stop(): void; readonly malformed: () => number } {
  let malformed = 0
  keeper.onLeaseExpired = (topic, epoch) => {
    try {
      nc.publish(LEASE_CLOSED_SUBJECT, JSON.stringify({ topic, epoch }))
    } catch {
      // A closed connection: edges forget the stream when it has been silent for two windows (MirrorStreams).
    }
  }
  const subs: Subscription[] = [
    nc.subscribe(LEASE_OPEN_SUBJECT, {
      callback: (_err, msg) => {
        const requests = parseLeaseRequests(msg.string())
        if (requests === undefined) {
          malformed++
          msg.respond('{"streams":[]}')
          return
        }
        try {
          msg.respond(JSON.stringify({ streams: keeper.lease(requests, true) }))
        } catch (err) {
          // No reply: the edge's request times out and its clients are told the key cannot be served now.
          log?.error({ err }, 'bus: a lease request failed')
        }
      },
    }),
    nc.subscribe(LEASE_RENEW_SUBJECT, {
      callback: (_err, msg) => {
        const requests = parseLeaseRequests(msg.string())
        if (requests === undefined) {
          malformed++
          return
        }
        try {
          keeper.lease(requests, false)
        } catch (err) {
          log?.error({ err }, 'bus: a lease renewal failed')
        }
      },
    }),
  ]
  // A restarted ingest holds no lease: edges renew theirs now rather than at their next tick (up to 10 s), so their
  // clients' streams come back (a new epoch, as a snapshot) as soon as it serves.
  nc.publish(LEASE_ASK_SUBJECT, '')
  return {
    stop: () => {
      keeper.onLeaseExpired = undefined
      for (const s of subs) s.unsubscribe()
    },
    malformed: () => malformed,
  }
}
