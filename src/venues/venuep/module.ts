import { defined, toInt } from '../../config/env-values.js'
import { VenuepEventSchema } from './schemas.js'
import { eventOn } from '../../views/event-directory.js'
import type { VenueModule } from '../module.js'
import { createVenuepAdapter } from './adapter.js'
import { VenuepConfigSchema, type VenuepConfig } from './config.js'
import { PriceHistory } from './price-history.js'
import { VenuepLive } from './proxy/live.js'
import { createVenuepUpstreams } from './proxy/upstreams.js'
import { venuepMarketRecord } from './records.js'
import { venuepLiveRoutes } from './routes/live.js'
import { venuepRoutes } from './routes/markets.js'

/**
 * venuep: the catalog from Gamma, books from the CLOB market channel, live reads (trades, order book, candles,
 * wallets, price history) proxied from its Gamma, CLOB and Data hosts. Its data is public: no secrets.
 */
export const VENUEP: VenueModule<VenuepConfig, undefined, 'venuep'> = {
  id: 'venuep',
  name: 'venuep',
  config: {
    schema: VenuepConfigSchema,
    fromEnv: (env) => {
      const own = defined({
        gammaUrl: env.VENUEP_GAMMA_URL,
        clobUrl: env.VENUEP_CLOB_URL,
        clobWsUrl: env.VENUEP_CLOB_WS_URL,
        dataUrl: env.VENUEP_DATA_URL,
        eventUrlTemplate: env.VENUEP_EVENT_URL_TEMPLATE,
      })
      const every = env.VENUEP_FULL_LISTING_EVERY_MS
      if (every === undefined || every === '') return own
      return { ...own, catalog: { fullListingEveryMs: toInt('VENUEP_FULL_LISTING_EVERY_MS', every) } }
    },
    atSimulator: (config, sim) => {
      const p = sim.venuep.urls
      return {
        ...config,
        gammaUrl: p.gamma,
        clobUrl: p.clob,
        clobWsUrl: p.clobWs,
        dataUrl: p.data,
        eventUrlTemplate: `${p.gamma}/events/slug/{slug}`,
      }
    },
    describe: (config) => config.gammaUrl,
  },
  catalogLists: ['open', 'closed', 'changes'],
  openApiTag:
    "venuep markets, events and prices from the service's memory, and venuep live data proxied from the venue (trades, order book, candlesticks, wallets).",
  eventSchema: VenuepEventSchema,
  matchTerms: { outcomeId: 'CLOB token id of its YES side', text: 'label, question, event title' },
  view: {
    // Its own event slug: the venue's event key already is one.
    eventSlug: (e) => e.eventId,
    marketRecord: (market, eventSlug, quoteOf) => venuepMarketRecord(market, eventSlug, quoteOf),
    // Markets are searched by event title or market slug.
    marketSearchText: (event, market) => `${event.title} ${market.marketId}`,
    // A market is also found by the condition ids of its binary markets.
    outcomeKeys: (o) => (o.conditionId === undefined ? [] : [o.conditionId]),
  },
  createAdapter: (config, ctx) => createVenuepAdapter(config, ctx),
  serve: ({ config, actor, models, clock }) => {
    // One upstream layer per host (cache, single flight, breaker, the venue's rate limits) shared by every live
    // read, so price history and the proxies count against the same budgets.
    const upstreams = createVenuepUpstreams({
      urls: { gamma: config.gammaUrl, clob: config.clobUrl, data: config.dataUrl },
      clock,
    })
    const history = new PriceHistory({ clob: upstreams.clob, clock })
    const live = new VenuepLive({
      venue: actor,
      clock,
      upstreams,
      eventOfSlug: (slug) => eventOn(models.directory()?.bySlug(slug), 'venuep')?.eventId,
    })
    return {
      routes: [...venuepRoutes({ models, clock, history }), ...venuepLiveRoutes({ live })],
      upstreams: () => live.stats(),
    }
  },
}
