import type { Clock } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import type { VenueAdapter } from '../../venues/types.js'
import type { BusLink } from '../connection.js'
import { BusCatalogs } from './bus-catalogs.js'
import { BusFeed } from './bus-feed.js'

export interface BusVenueAdapterOptions {
  readonly link: BusLink
  readonly clock: Clock
  readonly log: Logger
}

/**
 * A venue adapter for an edge (ROLE=edge): the venue's own rules (its id, displayed probability, which instruments it
 * streams, the state of its key) from `real`, which is built but never connects (building an adapter opens nothing:
 * its clients connect on `fetchCatalog` and `createFeed`), and its catalog and feed from the bus, as the ingest's
 * venue actor installed and applied them (feed-publisher.ts). A VenueActor on it holds the ingest actor's catalog,
 * books and quotes; `watchCatalog` makes it sync a new catalog as soon as the ingest announces it.
 */
export function busVenueAdapter(real: VenueAdapter, o: BusVenueAdapterOptions): VenueAdapter {
  const catalogs = new BusCatalogs(o.link, real.id, o.log)
  const streams = real.streams
  return {
    id: real.id,
    fetchCatalog: (signal) => catalogs.latest(signal),
    watchCatalog: (onNew) => catalogs.watch(onNew),
    createFeed: (sink) => new BusFeed({ link: o.link, venue: real.id, clock: o.clock, log: o.log, sink }),
    probability: (inputs) => real.probability(inputs),
    instrumentsOf: (catalog) => real.instrumentsOf(catalog),
    ...(streams === undefined ? {} : { streams: (outcome) => streams.call(real, outcome) }),
    ...(real.credentials === undefined ? {} : { credentials: real.credentials }),
  }
}
