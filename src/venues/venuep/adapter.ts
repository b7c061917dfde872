import type { VenuepConfig } from './config.js'
import { runToEnd } from '../../core/slices.js'
import type { Catalog, CatalogEvent, Outcome } from '../../model/types.js'
import { MappedRecords, seedCatalogRecords } from '../mapped-records.js'
import { streamedInstrumentsSteps } from '../streamed-instruments.js'
import { HttpClient } from '../http-client.js'
import type { AdapterContext, VenueAdapter } from '../types.js'
import { fetchVenuepCatalog } from './catalog.js'
import { fetchVenuepChanges } from './catalog-changes.js'
import { DueIndex } from './due-index.js'
import { GAMMA_MAPPED_FIELDS } from './map-catalog.js'
import { VenuepFeed } from './feed.js'
import { venuepProbability } from './probability.js'

/** venuep: Gamma for the catalog, the CLOB market channel for books. */
export function createVenuepAdapter(config: VenuepConfig, ctx: AdapterContext): VenueAdapter {
  const gamma = new HttpClient({ baseUrl: config.gammaUrl, timeoutMs: config.httpTimeoutMs })
  const links = { eventUrl: (slug: string) => config.eventUrlTemplate.replace('{slug}', encodeURIComponent(slug)) }
  // Unchanged events keep their mapped objects from one sync to the next (mapped-records.ts).
  const records = new MappedRecords<CatalogEvent | undefined>(GAMMA_MAPPED_FIELDS)
  // The installed events by their open outcomes' ends, following the installs (due-index.ts).
  const dueIndex = new DueIndex()
  return {
    id: 'venuep',
    catalogSource: config.gammaUrl,
    seedCatalog: (catalog) => seedCatalogRecords(records, catalog),
    fetchCatalog: (signal, progress) => fetchVenuepCatalog(gamma, config, links, ctx.clock, signal, progress, records),
    // What it asks for is found from what is installed (catalog-changes.ts); without it, the venue is listed whole.
    fetchChangedEvents: async (_since, signal, progress, installed) =>
      installed === undefined
        ? undefined
        : fetchVenuepChanges(gamma, config, links, ctx.clock, installed, signal, records, dueIndex, progress),
    createFeed: (sink) =>
      new VenuepFeed({
        url: config.clobWsUrl,
        config: config.feed,
        clock: ctx.clock,
        receiptStamp: ctx.receiptStamp,
        log: ctx.log,
        sink,
      }),
    probability: venuepProbability,
    instrumentsOf: (catalog: Catalog) => activeInstruments(catalog),
    streams: isStreamed,
  }
}

/**
 * Books to stream: every active outcome's own token. A grouped market's outcomes are priced by their YES
 * tokens; the NO token's book is the venue's mirror of it, so it is not streamed separately.
 */
export function activeInstruments(catalog: Catalog): string[] {
  return runToEnd(streamedInstrumentsSteps(catalog, isStreamed))
}

function isStreamed(o: Outcome): boolean {
  return o.status === 'active'
}
