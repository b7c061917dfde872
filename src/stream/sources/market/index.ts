import type { VenueActor } from '../../../actors/venue-actor.js'
import type { Clock } from '../../../core/clock.js'
import type { ChannelSource, SourceContext } from '../../source.js'
import { BookSource } from './book-source.js'
import { QuoteSource } from './quote-source.js'
import { VenueSource } from './venue-source.js'

export { venueHeartbeat, type VenueFeedView } from './venue-state.js'

/** What the market channels read: the venue actors (the owners of books, quotes and feed state) and the clock. */
export interface MarketSourceDeps {
  readonly venues: Iterable<VenueActor>
  readonly clock: Clock
}

/** The `quote`, `book` and `venue` channel sources. */
export function marketSources(ctx: SourceContext & MarketSourceDeps): ChannelSource[] {
  const venues = new Map<string, VenueActor>()
  for (const actor of ctx.venues) venues.set(actor.venue, actor)
  return [
    new QuoteSource(ctx.sequencer, venues, ctx.clock),
    new BookSource(ctx.sequencer, venues, ctx.clock),
    new VenueSource(ctx.sequencer, venues, ctx.clock),
  ]
}
