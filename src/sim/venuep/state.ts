import type { SimBook } from '../world/book-model.js'
import type { World } from '../world/world.js'
import { ActivityStore } from './activity-store.js'
import { Ledger } from './ledger.js'
import type { VpEvent, VpMarket, VpWallet } from './types.js'

/** The venue's part of the simulated world: how it lists the questions, its books, wallets and their activity. */
export class VenuepWorld {
  readonly events: VpEvent[] = []
  readonly eventsBySlug = new Map<string, VpEvent>()
  readonly eventsById = new Map<string, VpEvent>()
  /** By question id, the event that lists a generated question (the first, for one split over several events). */
  readonly questionEvents = new Map<string, VpEvent>()
  /** By `slugs.eventKey`, the event the questions naming that key share (a match's maps and handicaps). */
  readonly sharedEvents = new Map<string, VpEvent>()
  readonly markets: VpMarket[] = []
  readonly marketsBySlug = new Map<string, VpMarket>()
  readonly marketsById = new Map<string, VpMarket>()
  readonly marketsByCondition = new Map<string, VpMarket>()
  readonly tokens = new Map<string, { market: VpMarket; index: 0 | 1 }>()
  readonly wallets: VpWallet[] = []
  readonly walletsByAddress = new Map<string, VpWallet>()
  /**
   * Where the venue lists a generated contract (by contract key): the market and the token that pays if it is true
   * (token 1 for a head-to-head's second side). A contract is listed at most once, though a question may spread over
   * several events. Empty in a replay.
   */
  readonly listing = new Map<string, { market: VpMarket; index: 0 | 1 }>()
  /** Live books by condition id (token 0's book). */
  readonly books = new Map<string, SimBook>()
  readonly activity = new ActivityStore()
  /** Each wallet's positions and known realized PnL. */
  readonly ledger = new Ledger()
}

/** The venue id, as the service's registry (src/venues/index.ts) and the sim list name it. */
export const VENUE = 'venuep'

/** The venue's part of `world`, under its venue id (world.ts `venueState`). */
export function venuepOf(world: World): VenuepWorld {
  return world.venueState(VENUE, () => new VenuepWorld())
}
