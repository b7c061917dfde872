import { readFileSync } from 'node:fs'
import type { VenuekConfig } from '../../config/schema.js'
import { streamedInstrumentsSteps } from '../streamed-instruments.js'
import { runToEnd } from '../../core/slices.js'
import type { Catalog, Outcome } from '../../model/types.js'
import { HttpClient } from '../http-client.js'
import type { AdapterContext, VenueAdapter } from '../types.js'
import { fetchVenuekCatalog } from './catalog.js'
import { VenuekFeed } from './feed.js'
import { venuekProbability } from './probability.js'
import { signRequest, type VenuekCredentials } from './signing.js'

/**
 * venuek: REST v2 for the catalog, WS v2 for books, trades and ticker stats. With credentials every request
 * and the WebSocket handshake are signed (the live WebSocket requires it); market-data REST works unsigned.
 */
export function createVenuekAdapter(config: VenuekConfig, ctx: AdapterContext, credentials?: VenuekCredentials): VenueAdapter {
  const creds = credentials ?? credentialsFromConfig(config)
  const sign = creds === undefined ? undefined : (method: string, path: string) => signRequest(creds, method, path, ctx.clock.now())
  const rest = new HttpClient({ baseUrl: config.restUrl, timeoutMs: config.httpTimeoutMs, headers: sign })
  const wsPath = new URL(config.wsUrl).pathname
  const links = { eventUrl: (ticker: string) => config.eventUrlTemplate.replace('{event_ticker}', encodeURIComponent(ticker)) }
  return {
    id: 'venuek',
    fetchCatalog: (signal) => fetchVenuekCatalog(rest, config, links, ctx.clock, signal),
    createFeed: (sink) =>
      new VenuekFeed({ url: config.wsUrl, config: config.feed, clock: ctx.clock, log: ctx.log, sink, headers: sign === undefined ? undefined : () => sign('GET', wsPath) }),
    probability: venuekProbability,
    // Every active market's YES book (tickers are unique, so dropping repeats changes nothing).
    instrumentsOf: (catalog: Catalog) => runToEnd(streamedInstrumentsSteps(catalog, isStreamed)),
    streams: isStreamed,
  }
}

function isStreamed(o: Outcome): boolean {
  return o.status === 'active'
}

function credentialsFromConfig(config: VenuekConfig): VenuekCredentials | undefined {
  if (config.apiKeyId === undefined || config.privateKeyPath === undefined) return undefined
  return { keyId: config.apiKeyId, privateKeyPem: readFileSync(config.privateKeyPath, 'utf8') }
}
