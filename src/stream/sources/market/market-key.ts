import type { VenueActor } from '../../../actors/venue-actor.js'
import type { Rejection } from '../../protocol.js'

/**
 * Keys of the `quote` and `book` channels: `<venue>:<instrument id>`, the instrument id being the venue actor's
 * (venuep: the CLOB token id; venuek: the market ticker). Split at the first `:` (venue ids have none).
 */
export interface MarketKey {
  readonly actor: VenueActor
  readonly instrumentId: string
}

export function resolveMarketKey(key: string, venues: ReadonlyMap<string, VenueActor>): MarketKey | Rejection {
  const colon = key.indexOf(':')
  if (colon <= 0 || colon === key.length - 1)
    return { key, code: 'UNKNOWN_KEY', reason: 'expected <venue>:<instrument id>, e.g. venuek:KXFED-27APR-T4.25' }
  const venue = key.slice(0, colon)
  const actor = venues.get(venue)
  if (actor === undefined)
    return { key, code: 'UNKNOWN_KEY', reason: `unknown venue ${venue} (known: ${[...venues.keys()].join(', ')})` }
  const instrumentId = key.slice(colon + 1)
  if (actor.handle(instrumentId) === undefined) {
    const why = actor.catalog() === undefined ? 'its catalog is not loaded yet' : 'it is not among its streamed books'
    return { key, code: 'UNKNOWN_KEY', reason: `${venue} has no instrument ${instrumentId}: ${why}` }
  }
  return { actor, instrumentId }
}

export function isRejection(x: object): x is Rejection {
  return 'code' in x
}
