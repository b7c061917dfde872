import type { Config } from '../config/schema.js'
import type { VenueId } from '../model/types.js'
import type { AdapterContext, VenueAdapter } from './types.js'
import { createVenuepAdapter } from './venuep/adapter.js'
import { createVenuekAdapter } from './venuek/adapter.js'
import type { VenuekCredentialCheck } from './venuek/credentials.js'

/**
 * The one list of venues. Adding a venue means a folder under src/venues/ and one line here; actors, HTTP
 * and spreads only see `VenueAdapter`.
 */
export interface VenueSecrets {
  /** venuek's key, read and checked (venuek/credentials.ts); none: requests and the handshake go unsigned. */
  readonly venuekCredentials?: VenuekCredentialCheck
}

export function createAdapters(config: Config, ctx: AdapterContext, secrets: VenueSecrets = {}): Record<VenueId, VenueAdapter> {
  return {
    venuep: createVenuepAdapter(config.venues.venuep, { ...ctx, log: ctx.log.child({ venue: 'venuep' }) }),
    venuek: createVenuekAdapter(config.venues.venuek, { ...ctx, log: ctx.log.child({ venue: 'venuek' }) }, secrets.venuekCredentials),
  }
}
