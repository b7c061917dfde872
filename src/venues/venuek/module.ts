import { defined, toInt } from '../../config/env-values.js'
import { VenuekEventSchema } from './schemas.js'
import { titleTickerSlug } from '../../views/event-directory.js'
import type { VenueModule } from '../module.js'
import { createVenuekAdapter } from './adapter.js'
import { VenuekConfigSchema, type VenuekConfig } from './config.js'
import {
  credentialWarning,
  readVenuekCredentials,
  simulatorCredentials,
  type VenuekCredentialCheck,
} from './credentials.js'
import { venuekMarketRecord } from './records.js'
import { venuekRoutes } from './routes/markets.js'

/**
 * venuek: REST v2 for the catalog, WS v2 for books, trades and ticker stats. Its live websocket needs a signed
 * handshake: the key is read and checked once at boot (credentials.ts).
 */
export const VENUEK: VenueModule<VenuekConfig, VenuekCredentialCheck, 'venuek'> = {
  id: 'venuek',
  name: 'venuek',
  config: {
    schema: VenuekConfigSchema,
    fromEnv: (env) => {
      const own = defined({
        restUrl: env.VENUEK_REST_URL,
        wsUrl: env.VENUEK_WS_URL,
        eventUrlTemplate: env.VENUEK_EVENT_URL_TEMPLATE,
        apiKeyId: env.VENUEK_API_KEY_ID,
        privateKeyPath: env.VENUEK_PRIVATE_KEY_PATH,
      })
      const every = env.VENUEK_FULL_LISTING_EVERY_MS
      if (every === undefined || every === '') return own
      return { ...own, catalog: { fullListingEveryMs: toInt('VENUEK_FULL_LISTING_EVERY_MS', every) } }
    },
    atSimulator: (config, sim) => {
      const k = sim.venuek.urls
      return { ...config, restUrl: k.rest, wsUrl: k.ws, eventUrlTemplate: `${k.rest}/events/{event_ticker}` }
    },
    describe: (config) => config.restUrl,
  },
  catalogLists: ['open', 'closed', 'settled', 'changes'],
  openApiTag:
    'venuek markets, events and prices (one market per event ticker, one outcome per market ticker), served from memory.',
  eventSchema: VenuekEventSchema,
  matchTerms: { outcomeId: 'market ticker', text: 'label, market title, event subtitle, event title' },
  credentialsNote:
    "venuek's live websocket requires a signed handshake (`VENUEK_API_KEY_ID`, `VENUEK_PRIVATE_KEY_PATH`): `missing` (unset), `unreadable` (the key file cannot be read) or `invalid` (not an unencrypted RSA private key in PEM) mean no venuek live quotes or books, and venuek never becomes ready; the boot log has a warning saying why.",
  view: {
    // Tickers are the venue's keys: the title slugified plus the ticker (tickers never change and keep it unique).
    eventSlug: titleTickerSlug,
    marketRecord: venuekMarketRecord,
    liveVolume: true,
  },
  // The in-process simulator's own key, else the configured one; a bad key is a warning saying what will not work.
  readSecrets: ({ config, simulator, log }) => {
    const check =
      simulator === undefined ? readVenuekCredentials(config) : simulatorCredentials(simulator.venuekCredentials)
    const problem = credentialWarning(check, config.wsUrl)
    if (problem !== undefined) log.warn({ venue: 'venuek', credentials: check.state }, problem)
    return check
  },
  createAdapter: (config, ctx, credentials) => createVenuekAdapter(config, ctx, credentials),
  serve: ({ models, clock }) => ({ routes: venuekRoutes({ models, clock }) }),
}
