import type { VenueStatus } from '../../actors/venue-status.js'
import type { VenueAge } from './control-frames.js'

/**
 * Each venue's feed state and data age for `hb`: a heartbeat proves the socket, this proves the feed. `down` with
 * no open feed connection, `degraded` while books wait for a resync or before the venue is ready, else `up`;
 * `age_ms` since the last frame from the venue (null before the first).
 */
export function venueAges(statuses: readonly VenueStatus[], now: number): Record<string, VenueAge> {
  const out: Record<string, VenueAge> = {}
  for (const s of statuses) {
    const feed = s.feed
    const state =
      feed === undefined || feed.openConnections === 0 ? 'down' : !s.ready || s.books.stale > 0 ? 'degraded' : 'up'
    const age_ms = feed?.lastFrameAt === undefined ? null : Math.max(0, now - feed.lastFrameAt)
    out[s.venue] = { state, age_ms }
  }
  return out
}
