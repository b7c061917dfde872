import type { VenueActor } from '../../../actors/venue-actor.js'
import type { VenueStatus } from '../../../actors/venue-status.js'
import type { Clock } from '../../../core/clock.js'
import type { VenueFeedState } from '../../protocol.js'

/**
 * A venue feed's state as the `venue` channel and the `hb` frames show it, from the actor's status:
 * - `down`: the actor is not running, or no feed connection is open (nothing can arrive);
 * - `degraded`: some connections are down, some books are not synced (stale or waiting for their snapshot), or
 *   no frame arrived for `DEGRADED_AFTER_MS` (a stall the feed has not yet declared);
 * - `up` otherwise.
 * `age_ms` is the time since the feed's last frame (null before the first): what proves the feed, as opposed to a
 * socket's pings.
 */
export const DEGRADED_AFTER_MS = 5_000

export interface VenueFeedView {
  readonly state: VenueFeedState
  readonly age_ms: number | null
}

/** The `venue` channel's payload. */
export interface VenuePayload extends VenueFeedView {
  readonly reconnects: number
  readonly gaps: number
}

export function venueFeedView(status: VenueStatus, now: number, degradedAfterMs = DEGRADED_AFTER_MS): VenueFeedView {
  const feed = status.feed
  const age_ms = feed?.lastFrameAt === undefined ? null : Math.max(0, now - feed.lastFrameAt)
  let state: VenueFeedState = 'up'
  if (status.actor !== 'running' || feed === undefined || feed.openConnections === 0) state = 'down'
  else if (
    feed.openConnections < feed.connections ||
    status.books.synced < status.books.instruments ||
    (age_ms !== null && age_ms > degradedAfterMs)
  )
    state = 'degraded'
  return { state, age_ms }
}

export function venuePayload(status: VenueStatus, now: number, degradedAfterMs = DEGRADED_AFTER_MS): VenuePayload {
  return {
    ...venueFeedView(status, now, degradedAfterMs),
    reconnects: status.feed?.reconnects ?? 0,
    gaps: status.feed?.sequenceGaps ?? 0,
  }
}

/** Every venue's state and data age, for the server's `hb` frames. */
export function venueHeartbeat(actors: Iterable<VenueActor>, clock: Clock): Record<string, VenueFeedView> {
  const now = clock.now()
  const out: Record<string, VenueFeedView> = {}
  for (const actor of actors) out[actor.venue] = venueFeedView(actor.venueStatus(), now)
  return out
}
