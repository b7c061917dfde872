import type { VenuekConfig } from './config.js'
import { streamedInstrumentsSteps } from '../streamed-instruments.js'
import { runToEnd } from '../../core/slices.js'
import type { Catalog, CatalogEvent, Outcome } from '../../model/types.js'
import { MappedRecords, seedCatalogRecords } from '../mapped-records.js'
import { HttpClient } from '../http-client.js'
import type { AdapterContext, VenueAdapter } from '../types.js'
import { fetchVenuekCatalog } from './catalog.js'
import { fetchVenuekChanges, VenuekSeriesList } from './catalog-changes.js'
import { VENUEK_MAPPED_FIELDS } from './map-catalog.js'
import { VenuekFeed } from './feed.js'
import { venuekProbability } from './probability.js'
import type { VenuekCredentialCheck } from './credentials.js'
import { signRequest } from './signing.js'

/**
 * venuek: REST v2 for the catalog, WS v2 for books, trades and ticker stats. With credentials every request
 * and the WebSocket handshake are signed (the live WebSocket requires it); market-data REST works unsigned.
 * The key is read and checked before (credentials.ts: `readVenuekCredentials`), so a bad key file is one boot
 * warning, not a crash.
 */
export function createVenuekAdapter(
  config: VenuekConfig,
  ctx: AdapterContext,
  credentials: VenuekCredentialCheck = { state: 'missing' },
): VenueAdapter {
  const creds = credentials.credentials
  const sign =
    creds === undefined
      ? undefined
      : (method: string, path: string) => signRequest(creds, method, path, ctx.clock.now())
  const rest = new HttpClient({ baseUrl: config.restUrl, timeoutMs: config.httpTimeoutMs, headers: sign })
  const wsPath = new URL(config.wsUrl).pathname
  const links = {
    eventUrl: (ticker: string) => config.eventUrlTemplate.replace('{event_ticker}', encodeURIComponent(ticker)),
  }
  // Unchanged events keep their mapped objects from one sync to the next (mapped-records.ts).
  const records = new MappedRecords<CatalogEvent | undefined>(VENUEK_MAPPED_FIELDS)
  const seriesList = new VenuekSeriesList()
  return {
    id: 'venuek',
    catalogSource: config.restUrl,
    seedCatalog: (catalog) => seedCatalogRecords(records, catalog),
    fetchCatalog: (signal, progress) =>
      fetchVenuekCatalog(rest, config, links, ctx.clock, signal, progress, records, seriesList),
    fetchChangedEvents: (since, signal, progress) =>
      fetchVenuekChanges(rest, config, links, ctx.clock, since, signal, records, seriesList, progress),
    createFeed: (sink) =>
      new VenuekFeed({
        url: config.wsUrl,
        config: config.feed,
        clock: ctx.clock,
        receiptStamp: ctx.receiptStamp,
        log: ctx.log,
        sink,
        headers: sign === undefined ? undefined : () => sign('GET', wsPath),
      }),
    probability: venuekProbability,
    // Every active market's YES book (tickers are unique, so dropping repeats changes nothing).
    instrumentsOf: (catalog: Catalog) => runToEnd(streamedInstrumentsSteps(catalog, isStreamed)),
    streams: isStreamed,
    credentials: credentials.state,
  }
}

function isStreamed(o: Outcome): boolean {
  return o.status === 'active'
}
