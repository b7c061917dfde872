import type { Channel } from '../../stream/protocol.js'

/**
 * Which channels cross the bus, and how the ingest decides to publish a stream (docs/SCALE-OUT.md):
 * - kept: the ingest holds every stream of the channel open (StreamKeeper): a `venue` stream per venue, a few
 *   streams every edge shows.
 * - leased: the ingest holds a stream open while an edge leases it (a client of that edge subscribed): a `quote`, a
 *   `spread`, a `book` at a depth, a `spreads.top` view, an account's `alerts`. Keeping them all open would serialize
 *   every change of every instrument (at three book depths) and pair, and every view anyone ever asked for, whether
 *   or not a client follows it.
 * Every channel is numbered by the ingest, so a resume token is good on any edge. How an edge holds a stream's state
 * between frames is the channel's own (stream-state.ts), not a matter of how it is opened.
 */
export const KEPT_CHANNELS: ReadonlySet<Channel> = new Set<Channel>(['venue'])
export const LEASED_CHANNELS: ReadonlySet<Channel> = new Set<Channel>([
  'quote',
  'spread',
  'book',
  'spreads.top',
  'alerts',
])
/** Every channel the bus carries (all of them). */
export const MIRRORED_CHANNELS: ReadonlySet<Channel> = new Set<Channel>([...KEPT_CHANNELS, ...LEASED_CHANNELS])
