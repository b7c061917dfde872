import type { ChannelSource, SourceContext } from '../source.js'
import { marketSources, type MarketSourceDeps } from './market/index.js'
import { VenueMarkers } from './market/venue-markers.js'
import { spreadSources, type SpreadSourcesDeps } from './spreads/index.js'

export { venueHeartbeat } from './market/index.js'
export { RecentFirings } from './spreads/index.js'

/**
 * The channel sources the stream server serves, built from the app's parts. The fan-out (src/stream/server/) knows
 * only the `ChannelSource` contract; a channel with no source here answers UNKNOWN_CHANNEL.
 * - market/: `quote`, `book`, `venue` (from the venue actors)
 * - spreads/: `spread`, `spreads.top` (from the spread actor), `alerts` (from the alert outbox)
 */
export type StreamSourcesContext = SourceContext & MarketSourceDeps & Omit<SpreadSourcesDeps, 'venueMarkers'>

export function streamSources(ctx: StreamSourcesContext): ChannelSource[] {
  // Spread streams and top views depend on whole venues: they get the venues' own markers.
  const venueMarkers = new VenueMarkers(ctx.venues, ctx.clock)
  return [...marketSources(ctx), ...spreadSources({ ...ctx, venueMarkers })]
}
