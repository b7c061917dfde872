import { RESTART_STALE_REASON } from '../../../actors/venue-actor.js'

/**
 * The `reason` of a `venue_disconnect` marker: a stable code clients can branch on, derived from the feed's own
 * words in its `stale` event (src/venues/ws-connection.ts, venuep/feed.ts, venuek/feed.ts), which are written for
 * the log and name hosts, sids and sequence numbers. Unrecognised words count as a disconnect: the feed reports
 * stale only when it lost what it was delivering.
 */
export type DisconnectReason =
  /** The socket closed, errored, timed out connecting or was rejected. */
  | 'disconnected'
  /** The socket stayed open but nothing arrived for the feed's stale timeout (a silent stall). */
  | 'stale_no_data'
  /** A sequence gap: updates were lost in transit. */
  | 'gap'
  /** A frame the feed could not read: what it carried is lost. */
  | 'bad_frame'
  /** Subscribed, but the venue did not send the books' snapshots in time. */
  | 'snapshot_timeout'
  /** Our venue actor restarted: its books are rebuilt from the venue. */
  | 'restart'

export function disconnectReason(feedReason: string | undefined): DisconnectReason {
  if (feedReason === undefined) return 'disconnected'
  if (feedReason.startsWith('stale:')) return 'stale_no_data'
  if (feedReason.includes('sequence gap')) return 'gap'
  if (feedReason.includes('malformed') || feedReason.includes('unreadable')) return 'bad_frame'
  if (feedReason.includes('snapshots not received')) return 'snapshot_timeout'
  if (feedReason === RESTART_STALE_REASON) return 'restart'
  return 'disconnected'
}
