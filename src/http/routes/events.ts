import { Type } from '@sinclair/typebox'
import { AppError } from '../../core/errors.js'
import type { ReadModels } from '../../views/read-models.js'
import type { CollapsedView } from '../../views/collapsed-view.js'
import { CACHING } from '../caching.js'
import { defineRoute, type AnyRoute } from '../route.js'
import { CategoryFilter, Limit, ListOrdering, Offset, StatusFilter, StringEnum } from '../schemas/common.js'
import { collapsedEventSchema, eventDetailSchema, SitemapEventSchema, listOf } from '../schemas/records.js'
import type { VenueModule } from '../../venues/module.js'
import { eventOn } from '../../views/event-directory.js'
import {
  listBody,
  NOT_FOUND_RESPONSE,
  NOT_READY_RESPONSE,
  notFound,
  VALIDATION_RESPONSE,
  viewListReply,
} from './support.js'

/** Cross-venue event reads (spec 4.4): the collapsed event list, one event's detail, and the sitemap list. */
export interface EventRouteDeps {
  readonly models: ReadModels
  /** The registered venues: an event's detail has one `venues` key each, in this order. */
  readonly venues: readonly Pick<VenueModule, 'id' | 'eventSchema'>[]
}

const SORT = StringEnum(['volume', 'volume_24h', 'updated_at', 'end_time', 'created_at'], {
  default: 'volume',
  description: 'Sort key (volume is aggregated across venues).',
})

/** The cross-venue views are built once every venue's catalog is in (ReadModels). */
function catalogsLoading(): AppError {
  return new AppError(503, 'not_ready', 'catalogs are still loading')
}

function collapsedOrNotReady(models: ReadModels): CollapsedView {
  const view = models.collapsed()
  if (view === undefined) throw catalogsLoading()
  return view
}

export function eventRoutes(deps: EventRouteDeps): AnyRoute[] {
  const { models } = deps
  const venueIds = deps.venues.map((v) => v.id)

  const list = defineRoute({
    method: 'get',
    path: '/api/v2/events',
    operationId: 'listEvents',
    summary: 'Collapsed event rows across venues',
    description:
      "One row per service event: its leading outcome (the open outcome with the highest probability on any venue; ties by the higher outcome volume, then by the lower outcome id), volume aggregated across venues, and the platforms listing it. Events matched across venues appear once. A venue's endpoints about one market resolve an event slug to the same leading outcome's market.",
    tags: ['events'],
    query: Type.Object({
      category: CategoryFilter,
      search: Type.Optional(
        Type.String({ maxLength: 200, description: 'Case-insensitive substring of the event title.' }),
      ),
      status: StatusFilter,
      ...ListOrdering(SORT),
    }),
    responses: {
      200: {
        description: 'A page of event rows.',
        schema: listOf('events', collapsedEventSchema(venueIds), 'Events page.'),
      },
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      const view = collapsedOrNotReady(models)
      return viewListReply(models.pages, q, {
        route: 'events',
        key: 'events',
        view,
        index: view.index,
        version: (e) => view.version(e),
        json: (e) => view.json(e),
      })
    },
  })

  const detail = defineRoute({
    method: 'get',
    path: '/api/v2/events/:slug',
    operationId: 'getEvent',
    summary: "One event with each venue's markets and outcomes",
    description:
      "Also resolves alias slugs (a venue's own slug of an event after it was matched to another venue's event).",
    tags: ['events'],
    params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 300, description: 'Service event slug.' }) }),
    responses: {
      200: { description: 'The event.', schema: eventDetailSchema(deps.venues) },
      404: NOT_FOUND_RESPONSE,
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ params }) => {
      const view = collapsedOrNotReady(models)
      const entry = view.index.byId(models.directory()?.bySlug(params.slug)?.slug ?? params.slug)
      if (entry === undefined) throw notFound(`unknown event ${params.slug}`)
      const ev = entry.event
      const fragment = (venue: string): string => {
        const ce = eventOn(ev, venue)
        const vv = models.view(venue)
        const ee = ce === undefined ? undefined : vv?.eventById.get(ce.eventId)
        return vv === undefined || ee === undefined ? 'null' : vv.eventJson(ee)
      }
      const head = JSON.stringify({ ...view.record(entry), aliases: ev.aliases })
      return {
        status: 200,
        body: `${head.slice(0, -1)},"venues":{${venueIds.map((id) => `${JSON.stringify(id)}:${fragment(id)}`).join(',')}}}`,
      }
    },
  })

  const sitemap = defineRoute({
    method: 'get',
    path: '/api/v2/sitemap/events',
    operationId: 'listSitemapEvents',
    summary: 'Lightweight event list for sitemaps',
    description:
      'Every event (all statuses), oldest first so pages stay stable as events are listed; each is routable at /api/v2/events/{event_slug}.',
    tags: ['events'],
    public: true,
    caching: CACHING.publicCatalog,
    query: Type.Object({ limit: Limit(45_000, 45_000), offset: Offset() }),
    responses: {
      200: { description: 'A page of sitemap rows.', schema: listOf('events', SitemapEventSchema, 'Sitemap page.') },
      422: VALIDATION_RESPONSE,
      503: NOT_READY_RESPONSE,
    },
    handler: ({ query: q }) => {
      const view = models.sitemap()
      if (view === undefined) throw catalogsLoading()
      return {
        status: 200,
        body: view.page(q.offset, q.limit, (rows, total) => listBody('events', rows, total, q.limit, q.offset)),
      }
    },
  })

  return [list, detail, sitemap]
}
