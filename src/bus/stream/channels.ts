import type { Channel } from '../../stream/protocol.js'

/**
 * Which channels cross the bus, and how the ingest decides to publish a stream (docs/SCALE-OUT.md):
 * - kept: the ingest holds every stream of the channel open (StreamKeeper): a `quote` stream per streamed
 *   instrument, a `spread` stream per pair, a `venue` stream per venue. Their frames are latest values (a delta's `d`
 *   is the whole value), so an edge can start a stream over from any delta.
 * - leased: the ingest holds a stream open while an edge leases it (a client of that edge subscribed): a `book` at a
 *   depth, a `spreads.top` view, an account's `alerts`. Keeping every one open would serialize every book change at
 *   three depths and every view anyone ever asked for. Their deltas change part of the state (levels, rows, one
 *   firing), so an edge applies them in order (stream-state.ts) and asks for a snapshot after a gap.
 * Every channel is numbered by the ingest, so a resume token is good on any edge.
 */
export const KEPT_CHANNELS: ReadonlySet<Channel> = new Set<Channel>(['quote', 'spread', 'venue'])
export const LEASED_CHANNELS: ReadonlySet<Channel> = new Set<Channel>(['book', 'spreads.top', 'alerts'])
/** Every channel the bus carries (all of them). */
export const MIRRORED_CHANNELS: ReadonlySet<Channel> = new Set<Channel>([...KEPT_CHANNELS, ...LEASED_CHANNELS])
