import { Type } from '@sinclair/typebox'
import type { Clock } from '../../../core/clock.js'
import type { ReadModels } from '../../../views/read-models.js'
import { num, outcomePrice } from '../../../views/outcome-price.js'
import { iso, quoteAgeSeconds } from '../../../views/records.js'
import { venuekPriceRow } from '../records.js'
import { eventOn } from '../../../views/event-directory.js'
import type { MarketEntry, OutcomeEntry, VenueView } from '../../../views/venue-view.js'
import { json } from '../../../http/reply.js'
import { defineRoute, type AnyRoute } from '../../../http/route.js'
import {
  CategoryFilter,
  Csv,
  Limit,
  ListOrdering,
  Offset,
  StatusFilter,
  StringEnum,
} from '../../../http/schemas/common.js'
import { listOf } from '../../../http/schemas/records.js'
import { VenuekEventSchema, VenuekMarketPriceSchema, VenuekMarketSchema, VenuekPriceSchema } from '../schemas.js'
import {
  intersect,
  NOT_FOUND_RESPONSE,
  NOT_READY_RESPONSE,
  notFound,
  pageReply,
  unique,
  VALIDATION_RESPONSE,
  viewListReply,
  viewOrNotReady,
} from '../../../http/routes/support.js'

/** venuek reads (spec 4.2): markets, events, prices and a single market's price, served from memory. */
export interface VenuekRouteDeps {
  readonly models: ReadModels
  readonly clock: Clock
}

// venuek has no liquidity (the venue's field is a deprecated constant), hence no `liquidity` sort (spec 4.2).
const SORT = StringEnum(['volume', 'volume_24h', 'updated_at', 'end_time', 'created_at'], {
  default: 'volume',
  description: 'Sort key.',
})
const TAGS = ['venuek']

function eventEntries(view: VenueView, models: ReadModels, tickersOrSlugs: readonly string[]): MarketEntry[] {
  return tickersOrSlugs.flatMap((t) => {
    const id = view.eventById.has(t) ? t : eventOn(models.directory()?.bySlug(t), 'venuek')?.eventId
    const e = id === undefined ? undefined : view.eventById.get(id)
    return e === undefined ? [] : [...e.markets]
  })
}

function selectMarkets(
  view: VenueView,
  models: ReadModels,
  q: { market_ticker?: string[] | undefined; event_ticker?: string[] | undefined },
): MarketEntry[] | undefined {
  const byTicker = q.market_ticker
    ?.map((t) => view.marketByOutcomeKey.get(t))
    .filter((e): e is MarketEntry => e !== undefined)
  const byEvent = q.event_ticker === undefined ? undefined : eventEntries(view, models, q.event_ticker)
  return intersect(byTicker, byEvent)
}

export function venuekRoutes(deps: VenuekRouteDeps): AnyRoute[] {
  const { models } = deps

  const markets = defineRoute({
    method: 'get',
    path: '/api/v2/venuek/markets',
    operationId: 'listVenuekMarkets',
    summary: 'List venuek markets (one per event)',
    description:
      'Each record is a venuek event with its binary markets as outcomes. `total` counts every match before `limit`/`offset`.',
    tags: TAGS,
    query: Type.Object({
      market_ticker: Type.Optional(
        Csv({ description: 'Outcome-level market tickers (selects the events containing them).' }),
      ),
      event_ticker: Type.Optional(Csv({ description: 'Event tickers.' })),
      search: Type.Optional(
        Type.String({ maxLength: 200, description: 'Case-insensitive substring of the event title.' }),
      ),
      status: StatusFilter,
      category: CategoryFilter,
      min_volume: Type.Optional(
        Type.Number({ minimum: 0, description: 'Minimum total volume in dollars (contracts × $1).' }),
      ),
      ...ListOrdering(SORT),
    }),
    responses: {
      200: { description: 'A page of markets.', schema: listOf('markets', VenuekMarketSchema, 'Markets page.') },
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      const view = viewOrNotReady(models, 'venuek')
      return viewListReply(models.pages, q, {
        route: 'venuek/markets',
        key: 'markets',
        view,
        index: view.markets,
        only: selectMarkets(view, models, q),
        atLeast: q.min_volume === undefined ? undefined : { key: 'volume', value: q.min_volume },
        version: (e) => e.version,
        json: (e) => view.marketJson(e),
      })
    },
  })

  const events = defineRoute({
    method: 'get',
    path: '/api/v2/venuek/events',
    operationId: 'listVenuekEvents',
    summary: 'List venuek events',
    description: 'Events with their market record. Filters and ordering as for markets.',
    tags: TAGS,
    query: Type.Object({
      event_ticker: Type.Optional(Csv({ description: 'Event tickers (service event slugs also match).' })),
      search: Type.Optional(
        Type.String({ maxLength: 200, description: 'Case-insensitive substring of the event title.' }),
      ),
      status: StatusFilter,
      category: CategoryFilter,
      ...ListOrdering(SORT),
    }),
    responses: {
      200: { description: 'A page of events.', schema: listOf('events', VenuekEventSchema, 'Events page.') },
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      const view = viewOrNotReady(models, 'venuek')
      const only =
        q.event_ticker === undefined
          ? undefined
          : unique(
              eventEntries(view, models, q.event_ticker)
                .map((m) => view.eventById.get(m.event.eventId))
                .filter((e) => e !== undefined),
            )
      return viewListReply(models.pages, q, {
        route: 'venuek/events',
        key: 'events',
        view,
        index: view.events,
        only,
        version: (e) => view.eventVersion(e),
        json: (e) => view.eventJson(e),
      })
    },
  })

  const prices = defineRoute({
    method: 'get',
    path: '/api/v2/venuek/prices',
    operationId: 'listVenuekPrices',
    summary: 'Current venuek market prices',
    description:
      'One row per binary market (outcome), by volume. `total` counts every match before `limit`/`offset`; `quote_age_seconds` is computed per request.',
    tags: TAGS,
    query: Type.Object({
      market_ticker: Type.Optional(Csv({ description: 'Market tickers.' })),
      event_ticker: Type.Optional(Csv({ description: 'Event tickers.' })),
      outcome: Type.Optional(
        Type.String({ maxLength: 200, description: 'Case-insensitive substring of the outcome title.' }),
      ),
      status: StatusFilter,
      limit: Limit(25, 100),
      offset: Offset(),
    }),
    responses: {
      200: { description: 'Price rows.', schema: listOf('prices', VenuekPriceSchema, 'Prices page.') },
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      const view = viewOrNotReady(models, 'venuek')
      const markets = selectMarkets(view, models, q)
      const tickers = q.market_ticker === undefined ? undefined : new Set(q.market_ticker)
      const only =
        markets === undefined
          ? undefined
          : markets.flatMap((m) =>
              m.market.outcomes
                .filter((o) => tickers === undefined || tickers.has(o.outcomeId))
                .map((o) => view.outcomeById.get(o.outcomeId))
                .filter((e): e is OutcomeEntry => e !== undefined),
            )
      const page = view.outcomes.query({
        status: q.status,
        search: q.outcome,
        only,
        sort: 'volume',
        order: 'desc',
        offset: q.offset,
        limit: q.limit,
      })
      const now = deps.clock.now()
      const rows = page.items.map(({ outcome: o, market: m }) =>
        venuekPriceRow(o, m.market, m.eventSlug, m.event.title, view.quoteOf(o.instrumentId), now),
      )
      return pageReply('prices', q, { items: rows, total: page.total })
    },
  })

  const marketPrice = defineRoute({
    method: 'get',
    path: '/api/v2/venuek/market-price',
    operationId: 'getVenuekMarketPrice',
    summary: 'Current price of one venuek market',
    description:
      "YES side from the market's book (midpoint, else last price); NO derived from it (no.probability = 1 − yes.probability).",
    tags: TAGS,
    query: Type.Object({
      market_ticker: Type.String({ minLength: 1, maxLength: 200, description: 'Market ticker (required).' }),
    }),
    responses: {
      200: { description: "The market's price (spec 2.6).", schema: VenuekMarketPriceSchema },
      404: NOT_FOUND_RESPONSE,
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      const view = viewOrNotReady(models, 'venuek')
      const entry = view.marketByOutcomeKey.get(q.market_ticker)
      const o = entry?.market.outcomes.find((x) => x.outcomeId === q.market_ticker)
      if (entry === undefined || o === undefined) throw notFound(`unknown market_ticker ${q.market_ticker}`)
      const p = outcomePrice(o, view.quoteOf(o.instrumentId))
      const flip = (x: number | undefined) => (x === undefined ? null : Math.round((1 - x) * 1e6) / 1e6)
      return json(200, {
        market_ticker: o.outcomeId,
        event_ticker: entry.market.marketId,
        event_slug: entry.eventSlug,
        title: o.title,
        event_title: entry.event.title,
        status: o.status,
        yes: { probability: num(p.probability), best_bid: num(p.bestBid), best_ask: num(p.bestAsk) },
        no: { probability: flip(p.probability), best_bid: flip(p.bestAsk), best_ask: flip(p.bestBid) },
        platform_url: entry.market.url,
        updated_at: iso(p.updatedAt),
        quote_age_seconds: quoteAgeSeconds(p, deps.clock.now()),
        is_stale: p.stale,
      })
    },
  })

  return [markets, events, prices, marketPrice]
}
