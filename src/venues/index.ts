import type { VenueModule } from './module.js'
import { VENUEK } from './venuek/module.js'
import { VENUEP } from './venuep/module.js'

/**
 * The registered venues, in registry order: a venue is its folder under src/venues/ and one line here
 * (docs/ADDING_A_VENUE.md). The order orients everything listed per venue (config sections, /readyz, an event's
 * `venues`, the routes) and the spreads' pairs: for venues at positions i < j, a pair is (A = i, B = j).
 */
const REGISTERED = [VENUEP, VENUEK] as const

export const VENUES: readonly VenueModule[] = REGISTERED

/** Each registered venue's config section by id (typed `config.venues.<id>`; src/config/schema.ts). */
export type RegisteredVenueConfigs = {
  readonly [M in (typeof REGISTERED)[number] as M['id']]: M extends VenueModule<infer C, infer _S, infer _Id>
    ? C
    : never
}

export type { VenueModule } from './module.js'
