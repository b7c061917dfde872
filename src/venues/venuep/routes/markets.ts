import { Type } from '@sinclair/typebox'
import type { Clock } from '../../../core/clock.js'
import { isoNoZone } from '../../../core/time.js'
import type { PlatformMarket } from '../../../model/types.js'
import type { ReadModels } from '../../../views/read-models.js'
import { num, outcomePrice } from '../../../views/outcome-price.js'
import { quoteAgeSeconds } from '../../../views/records.js'
import { venuepPriceRow } from '../records.js'
import { eventOn } from '../../../views/event-directory.js'
import type { MarketEntry, OutcomeEntry, VenueView } from '../../../views/venue-view.js'
import type { PriceHistory } from '../price-history.js'
import { json } from '../../../http/reply.js'
import { defineRoute, type AnyRoute } from '../../../http/route.js'
import { CategoryFilter, Csv, Limit, ListOrdering, StatusFilter, StringEnum } from '../../../http/schemas/common.js'
import { listOf } from '../../../http/schemas/records.js'
import { VenuepEventSchema, VenuepMarketPriceSchema, VenuepMarketSchema, VenuepPriceSchema } from '../schemas.js'
import { ErrorBody } from '../../../http/schemas/common.js'
import { invalid } from '../../../http/validation-errors.js'
import {
  intersect,
  NOT_FOUND_RESPONSE,
  NOT_READY_RESPONSE,
  notFound,
  unique,
  VALIDATION_RESPONSE,
  viewListReply,
  viewOrNotReady,
} from '../../../http/routes/support.js'

/** venuep reads (spec 4.1): markets, events, prices and a single market's price, served from memory. */
export interface VenuepRouteDeps {
  readonly models: ReadModels
  readonly clock: Clock
  readonly history: PriceHistory
}

const SORT = StringEnum(['volume', 'volume_24h', 'liquidity', 'updated_at', 'end_time', 'created_at'], {
  default: 'volume',
  description: 'Sort key.',
})
const TAGS = ['venuep']

/** Markets selected by the id filters (AND across parameters, OR within a list); undefined when none is given. */
function selectMarkets(
  view: VenueView,
  models: ReadModels,
  q: { market_slug?: string[] | undefined; event_slug?: string[] | undefined; condition_id?: string[] | undefined },
): MarketEntry[] | undefined {
  const bySlug = q.market_slug?.map((s) => view.marketBySlug.get(s)).filter((e): e is MarketEntry => e !== undefined)
  const byEvent = q.event_slug?.flatMap((slug) => {
    const ev = eventOn(models.directory()?.bySlug(slug), 'venuep') ?? view.catalog.eventsById.get(slug)
    return ev === undefined
      ? []
      : ev.markets.map((m) => view.marketById.get(m.marketId)).filter((e): e is MarketEntry => e !== undefined)
  })
  const byCondition = q.condition_id
    ?.map((id) => view.marketByOutcomeKey.get(id))
    .filter((e): e is MarketEntry => e !== undefined)
  return intersect(bySlug, byEvent, byCondition)
}

/** The market record of the venuep event a service event slug, alias or venuep event slug names, if it has exactly one. */
function eventMarket(view: VenueView, models: ReadModels, slug: string): MarketEntry | undefined {
  const ev = eventOn(models.directory()?.bySlug(slug), 'venuep') ?? view.catalog.eventsById.get(slug)
  return ev?.markets.length === 1 ? view.marketById.get((ev.markets[0] as PlatformMarket).marketId) : undefined
}

export function venuepRoutes(deps: VenuepRouteDeps): AnyRoute[] {
  const { models } = deps

  const markets = defineRoute({
    method: 'get',
    path: '/api/v2/venuep/markets',
    operationId: 'listVenuepMarkets',
    summary: 'List venuep markets',
    description:
      'Markets with their outcomes and current prices. `total` counts every match before `limit`/`offset`; ties are ordered by market slug.',
    tags: TAGS,
    query: Type.Object({
      market_slug: Type.Optional(Csv({ description: 'Market slugs (group slugs and child market slugs both match).' })),
      event_slug: Type.Optional(Csv({ description: 'Service event slugs.' })),
      condition_id: Type.Optional(Csv({ description: 'Condition IDs or stored outcome IDs (CLOB token ids).' })),
      search: Type.Optional(
        Type.String({ maxLength: 200, description: 'Case-insensitive substring of the event title or market slug.' }),
      ),
      status: StatusFilter,
      category: CategoryFilter,
      ...ListOrdering(SORT),
    }),
    responses: {
      200: { description: 'A page of markets.', schema: listOf('markets', VenuepMarketSchema, 'Markets page.') },
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      const view = viewOrNotReady(models, 'venuep')
      const only = selectMarkets(view, models, q)
      return viewListReply(models.pages, q, {
        route: 'venuep/markets',
        key: 'markets',
        view,
        index: view.markets,
        only,
        version: (e) => e.version,
        json: (e) => view.marketJson(e),
      })
    },
  })

  const events = defineRoute({
    method: 'get',
    path: '/api/v2/venuep/events',
    operationId: 'listVenuepEvents',
    summary: 'List venuep events',
    description: 'Events with their markets (same record as the market list). Filters and ordering as for markets.',
    tags: TAGS,
    query: Type.Object({
      event_slug: Type.Optional(Csv({ description: 'Service event slugs (or venuep event slugs).' })),
      search: Type.Optional(
        Type.String({ maxLength: 200, description: 'Case-insensitive substring of the event title.' }),
      ),
      status: StatusFilter,
      category: CategoryFilter,
      ...ListOrdering(SORT),
    }),
    responses: {
      200: { description: 'A page of events.', schema: listOf('events', VenuepEventSchema, 'Events page.') },
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      const view = viewOrNotReady(models, 'venuep')
      const only =
        q.event_slug === undefined
          ? undefined
          : unique(
              q.event_slug.flatMap((s) => {
                const id = eventOn(models.directory()?.bySlug(s), 'venuep')?.eventId ?? s
                const e = view.eventById.get(id)
                return e === undefined ? [] : [e]
              }),
            )
      return viewListReply(models.pages, q, {
        route: 'venuep/events',
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
    path: '/api/v2/venuep/prices',
    operationId: 'listVenuepPrices',
    summary: 'Current venuep outcome prices',
    description:
      'One row per outcome. Without market filters only open outcomes are listed, by volume; with filters, every outcome of the selected markets. `quote_age_seconds` is computed per request.',
    tags: TAGS,
    query: Type.Object({
      market_slug: Type.Optional(Csv({ description: 'Market slugs.' })),
      event_slug: Type.Optional(Csv({ description: 'Service event slugs.' })),
      condition_id: Type.Optional(Csv({ description: 'Condition IDs or stored outcome IDs.' })),
      outcome: Type.Optional(
        Type.String({ maxLength: 200, description: 'Case-insensitive substring of the outcome title.' }),
      ),
      limit: Limit(25, 100),
    }),
    responses: {
      200: {
        description: 'Price rows.',
        schema: Type.Object(
          { prices: Type.Array(VenuepPriceSchema), count: Type.Integer({ description: 'Rows in `prices`.' }) },
          { additionalProperties: false },
        ),
      },
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      const view = viewOrNotReady(models, 'venuep')
      const markets = selectMarkets(view, models, q)
      const only =
        markets === undefined
          ? undefined
          : markets.flatMap((m) =>
              m.market.outcomes
                .map((o) => view.outcomeById.get(o.outcomeId))
                .filter((e): e is OutcomeEntry => e !== undefined),
            )
      const page = view.outcomes.query({
        status: markets === undefined ? 'active' : 'all',
        search: q.outcome,
        only,
        sort: 'volume',
        order: 'desc',
        offset: 0,
        limit: q.limit,
      })
      const now = deps.clock.now()
      const rows = page.items.map(({ outcome: o, market: m }) =>
        venuepPriceRow(o, m.market, m.eventSlug, m.event.title, view.quoteOf(o.instrumentId), now),
      )
      return json(200, { prices: rows, count: rows.length })
    },
  })

  const marketPrice = defineRoute({
    method: 'get',
    path: '/api/v2/venuep/market-price',
    operationId: 'getVenuepMarketPrice',
    summary: 'Current (or historical) price of one venuep market',
    description:
      "Give `market_slug` or `condition_id` (a condition id or a CLOB token id, which selects that outcome). `market_slug` is a market or event slug: a market record's slug (a group slug lists every child market's YES outcome, as /markets does), a child market's slug (that outcome), or an event slug or alias (the event's market record, echoed in `resolved_from`). With `timestamp`, each outcome's price is the point of the venue's price history nearest that time (fetched from the venue and cached).",
    tags: TAGS,
    query: Type.Object({
      market_slug: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 300,
          description:
            "Market or event slug: a market record's slug, a child market's slug, or an event slug or alias (resolved to the event's market record).",
        }),
      ),
      condition_id: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'Condition ID or stored outcome ID; overrides market_slug.',
        }),
      ),
      outcome: Type.Optional(
        Type.String({ maxLength: 200, description: 'Case-insensitive substring of the outcome title.' }),
      ),
      timestamp: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 253_402_300_799,
          description: 'Unix seconds: return the historical price nearest this time.',
        }),
      ),
    }),
    responses: {
      200: { description: "The market and its outcomes' prices.", schema: VenuepMarketPriceSchema },
      404: NOT_FOUND_RESPONSE,
      422: VALIDATION_RESPONSE,
      502: { description: "The venue's price history failed (`upstream_error`).", schema: ErrorBody },
      503: NOT_READY_RESPONSE,
      504: { description: "The venue's price history timed out (`upstream_timeout`).", schema: ErrorBody },
    },
    handler: async ({ query: q }) => {
      const view = viewOrNotReady(models, 'venuep')
      if (q.market_slug === undefined && q.condition_id === undefined) {
        throw invalid('missing', ['query', 'market_slug'], 'Field required: give market_slug or condition_id', null)
      }
      const bySlug = q.condition_id === undefined ? view.marketBySlug.get(q.market_slug as string) : undefined
      // Not a market or child market slug: an event slug or alias names the event's market record (venuep events have one).
      const byEvent =
        q.condition_id === undefined && bySlug === undefined
          ? eventMarket(view, models, q.market_slug as string)
          : undefined
      const entry = q.condition_id !== undefined ? view.marketByOutcomeKey.get(q.condition_id) : (bySlug ?? byEvent)
      if (entry === undefined)
        throw notFound(
          q.condition_id !== undefined
            ? `unknown condition_id ${q.condition_id}`
            : `unknown market_slug ${q.market_slug}`,
        )
      const needle = q.outcome?.toLowerCase()
      const outcomes = entry.market.outcomes.filter(
        (o) =>
          (q.condition_id === undefined || o.conditionId === q.condition_id || o.outcomeId === q.condition_id) &&
          (bySlug === undefined || entry.market.marketId === q.market_slug || o.childMarketSlug === q.market_slug) &&
          (needle === undefined || o.title.toLowerCase().includes(needle)),
      )
      if (outcomes.length === 0) throw notFound(`no outcome of ${entry.market.marketId} matches`)
      const now = deps.clock.now()
      const rows = await Promise.all(
        outcomes.map(async (o) => {
          if (q.timestamp !== undefined) {
            const point = await deps.history.nearest(o.instrumentId, q.timestamp)
            return {
              title: o.title,
              token_id: o.instrumentId,
              condition_id: o.conditionId ?? null,
              probability: point?.p ?? null,
              best_bid: null,
              best_ask: null,
              spread: null,
              source: 'history' as const,
              price_time: point === undefined ? null : isoNoZone(point.t * 1000),
              quote_age_seconds: null,
              is_stale: false,
            }
          }
          const p = outcomePrice(o, view.quoteOf(o.instrumentId))
          return {
            title: o.title,
            token_id: o.instrumentId,
            condition_id: o.conditionId ?? null,
            probability: num(p.probability),
            best_bid: num(p.bestBid),
            best_ask: num(p.bestAsk),
            spread: num(p.spread),
            source: p.source,
            price_time: p.updatedAt === undefined ? null : isoNoZone(p.updatedAt),
            quote_age_seconds: quoteAgeSeconds(p, now),
            is_stale: p.stale,
          }
        }),
      )
      return json(200, {
        market_slug: entry.market.marketId,
        resolved_from: byEvent === undefined ? null : (q.market_slug as string),
        event_slug: entry.eventSlug,
        title: entry.market.title,
        status: entry.market.status,
        platform_url: entry.market.url,
        timestamp: q.timestamp ?? null,
        outcomes: rows,
      })
    },
  })

  return [markets, events, prices, marketPrice]
}
