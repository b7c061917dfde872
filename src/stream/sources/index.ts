import type { ChannelSource, SourceContext } from '../source.js'
import { marketSources, type MarketSourceDeps } from './market/index.js'

export { venueHeartbeat } from './market/index.js'

/**
 * The channel sources the stream server serves, built from the app's parts. The fan-out (src/stream/server/) knows
 * only the `ChannelSource` contract; a channel with no source here answers UNKNOWN_CHANNEL.
 * - market/: `quote`, `book`, `venue` (from the venue actors)
 */
export type StreamSourceContext = SourceContext & MarketSourceDeps

export function streamSources(ctx: StreamSourceContext): ChannelSource[] {
  return [...marketSources(ctx)]
}
