import type { FaultPlan } from '../faults.js'
import { SimRouter, type SimRequest, type SimResponse } from '../http-router.js'
import { AUTH_FAILURE_BODIES, SignatureVerifier } from './auth.js'
import { BadRequest, errorBodyFor } from './errors.js'
import type { VenuekState } from './market-state.js'
import { CatalogRoutes } from './rest-catalog.js'
import { MarketDataRoutes } from './rest-market-data.js'

/** Every REST path lives under this prefix on both of the venue's hosts (venuek.md §1). */
export const REST_PREFIX = '/trade-api/v2'

/**
 * venuek's Trade API v2 market-data surface on a SimRouter. Market data needs no auth, but a request that
 * carries `KALSHI-ACCESS-*` headers is verified like on the venue, and a bad one gets the venue's 401 body,
 * so an adapter's signing is exercised on every call it signs.
 */
export function createVenuekRouter(
  state: VenuekState,
  faults: FaultPlan,
  verifier: SignatureVerifier | undefined,
): SimRouter {
  const router = new SimRouter({
    host: 'rest',
    faults,
    errorBody: (status) => errorBodyFor(status),
    before: (req) => {
      if (verifier === undefined || !SignatureVerifier.attempted(req.headers)) return undefined
      const failure = verifier.verify(req.headers, req.method, req.path)
      return failure === undefined ? undefined : { status: 401, body: AUTH_FAILURE_BODIES[failure] }
    },
  })
  const catalog = new CatalogRoutes(state)
  const data = new MarketDataRoutes(state)
  const route = (pattern: string, handler: (req: SimRequest) => SimResponse): void => {
    router.get(REST_PREFIX + pattern, (req) => {
      try {
        return handler(req)
      } catch (err) {
        if (err instanceof BadRequest) return err.response
        throw err
      }
    })
  }
  route('/exchange/status', () => data.exchangeStatus())
  route('/series', (req) => catalog.listSeries(req))
  route('/series/:series_ticker', (req) => catalog.getSeries(req))
  route('/series/:series_ticker/markets/:ticker/candlesticks', (req) => data.candlesticks(req))
  route('/events', (req) => catalog.listEvents(req))
  route('/events/:event_ticker', (req) => catalog.getEvent(req))
  route('/markets', (req) => catalog.listMarkets(req))
  // Before `/markets/:ticker`: the router takes the first pattern that matches.
  route('/markets/trades', (req) => data.trades(req))
  route('/markets/:ticker', (req) => catalog.getMarket(req))
  route('/markets/:ticker/orderbook', (req) => data.orderbook(req))
  return router
}
