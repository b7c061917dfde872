import type { ChannelSource, SourceContext } from '../source.js'
import { marketSources, type MarketSourceDeps } from './market/index.js'

export { venueHeartbeat } from './market/index.js'

/** Every channel's source (quote, book, venue: market/). */
export function streamSources(ctx: SourceContext & MarketSourceDeps): ChannelSource[] {
  return [...marketSources(ctx)]
}
