import type { SimBook } from '../world/book-model.js'
import type { World } from '../world/world.js'
import { TradeStore } from './trade-store.js'
import type { VkEvent, VkMarket, VkSeries } from './types.js'

/** The venue's part of the simulated world: how it lists the questions, its books and trades. */
export class VenuekWorld {
  readonly series = new Map<string, VkSeries>()
  readonly events: VkEvent[] = []
  readonly eventsByTicker = new Map<string, VkEvent>()
  /** The event that lists a generated question, by question id (a ladder the venue lists alone has none). */
  readonly questionEvents = new Map<string, VkEvent>()
  /** By `tickers.eventKey`, the event the questions naming that key share (a tournament's players). */
  readonly sharedEvents = new Map<string, VkEvent>()
  readonly markets: VkMarket[] = []
  readonly marketsByTicker = new Map<string, VkMarket>()
  /** Where the venue lists a generated contract (by contract key): at most one market each. Empty in a replay. */
  readonly listing = new Map<string, VkMarket>()
  /** Live books by market ticker. */
  readonly books = new Map<string, SimBook>()
  readonly trades = new TradeStore()
}

/** The venue id, as the service's registry (src/venues/index.ts) and the sim list name it. */
export const VENUE = 'venuek'

/** The venue's part of `world`, under its venue id (world.ts `venueState`). */
export function venuekOf(world: World): VenuekWorld {
  return world.venueState(VENUE, () => new VenuekWorld())
}
