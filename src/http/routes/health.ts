import { Type } from '@sinclair/typebox'
import type { VenueActor, VenueStatus } from '../../actors/venue-actor.js'
import { CACHING } from '../caching.js'
import { json, type Reply } from '../reply.js'
import { defineRoute, type AnyRoute } from '../route.js'

/**
 * `/healthz`: the process is up and serving. `/readyz`: 200 once every venue's catalog is loaded, every streamed
 * book has its first snapshot and the read models every list endpoint serves are built (so at the first 200 every
 * read it covers answers), 503 `not_ready` before. The body always says where the data comes
 * from: when the venues are the simulator, `data_source` is "simulated" and `simulated` is true.
 *
 * A catalog cut at its `maxEvents` guard shows as `catalog.truncated: true` but does not make the service not
 * ready: it still serves what it has (the venue actor logs the cut as an error).
 */
export interface DataSource {
  readonly simulated: boolean
  /** Shown verbatim, e.g. "simulated venues (seed 42)" or "live venues". */
  readonly description: string
}

/** The read models behind the list endpoints: `serving` once every venue's views are built. */
export interface ServedViews {
  readonly serving: boolean
}

export interface HealthDeps {
  readonly venues: readonly VenueActor[]
  readonly views: ServedViews
  readonly source: DataSource
  readonly startedAt: number
  readonly now: () => number
}

const Count = Type.Integer({ minimum: 0 })

/** One venue's state in /readyz (built by `venueBody`). */
const VenueReadiness = Type.Object(
  {
    ready: Type.Boolean({ description: 'The catalog is loaded and every streamed book has had its first snapshot.' }),
    actor: Type.String({ description: 'The venue actor: `not_started`, `running`, `stopped` or `failed`.' }),
    catalog: Type.Object(
      {
        loaded: Type.Boolean(),
        version: Type.Integer({ minimum: 0, description: 'Increases with every catalog sync installed; 0 before the first.' }),
        events: Count,
        markets: Count,
        outcomes: Count,
        last_error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last catalog sync failed; null after a success.' }),
        truncated: Type.Boolean({
          description:
            'Addition: the installed catalog stopped at the `max_events` guard while the venue listed more, so it holds only the first `max_events` events listed. The service still serves it (a truncated catalog does not make it not ready) and logs an error per catalog version; also `predmkt_catalog_truncated` in /metrics.',
        }),
        max_events: Type.Union([Count, Type.Null()], {
          description: 'Addition: the guard on events read per catalog sync (config `venues.<venue>.catalog.maxEvents`), set far above the real catalogs.',
        }),
      },
      { additionalProperties: false },
    ),
    books: Type.Object({ instruments: Count, synced: Count, stale: Count }, { additionalProperties: false }),
    feed: Type.Union([
      Type.Object(
        {
          connections: Count,
          open_connections: Count,
          subscribed: Count,
          reconnects: Count,
          frames_received: Count,
          malformed_frames: Count,
          sequence_gaps: Count,
          stale_timeouts: Count,
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
)

const ReadinessBody = Type.Object(
  {
    status: Type.String({ description: '`ready` or `not_ready`.' }),
    data_source: Type.String({ description: '`simulated` (the built-in venue simulator) or `live`.' }),
    simulated: Type.Boolean(),
    description: Type.String(),
    uptime_seconds: Type.Number(),
    venues: Type.Record(Type.String(), VenueReadiness, { description: 'Per venue (`venuep`, `venuek`): catalog, books and feed state.' }),
    read_models: Type.Object(
      { ready: Type.Boolean({ description: 'The list endpoints\' read models (per-venue views, cross-venue events, sitemap) are built from the loaded catalogs.' }) },
      { description: 'Addition. Built after the catalogs load, in event-loop slices; /readyz is 200 only once they are.' },
    ),
  },
  { additionalProperties: true },
)

export function healthRoutes(deps: HealthDeps): AnyRoute[] {
  const healthBody = Buffer.from(JSON.stringify({ status: 'ok' }))
  return [
    defineRoute({
      method: 'get',
      path: '/healthz',
      operationId: 'health',
      summary: 'Liveness: the process is up',
      tags: ['operations'],
      public: true,
      caching: CACHING.none,
      responses: { 200: { description: 'Up.', schema: Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false }) } },
      handler: (): Reply => ({ status: 200, body: healthBody }),
    }),
    defineRoute({
      method: 'get',
      path: '/readyz',
      operationId: 'readiness',
      summary: 'Readiness: catalogs loaded, every streamed book synced, every list endpoint served',
      description: 'Also says where the data comes from (`data_source`: `simulated` or `live`).',
      tags: ['operations'],
      public: true,
      caching: CACHING.none,
      responses: {
        200: { description: 'Ready.', schema: ReadinessBody },
        503: { description: 'Not ready yet (`not_ready`), with the same details.', schema: Type.Object({ ...ReadinessBody.properties, detail: Type.String(), code: Type.String() }, { additionalProperties: true }) },
      },
      handler: () => readiness(deps),
    }),
  ]
}

function readiness(deps: HealthDeps): Reply {
  const statuses = deps.venues.map((v) => v.venueStatus())
  const viewsReady = deps.views.serving
  const ready = viewsReady && statuses.every((s) => s.ready)
  const body = {
    status: ready ? 'ready' : 'not_ready',
    data_source: deps.source.simulated ? 'simulated' : 'live',
    simulated: deps.source.simulated,
    description: deps.source.description,
    uptime_seconds: Math.round((deps.now() - deps.startedAt) / 1000),
    venues: Object.fromEntries(statuses.map((s) => [s.venue, venueBody(s)])),
    read_models: { ready: viewsReady },
  }
  if (ready) return json(200, body)
  return json(503, { detail: 'venue catalogs and feeds are still loading', code: 'not_ready', ...body })
}

function venueBody(s: VenueStatus): Record<string, unknown> {
  const feed = s.feed
  return {
    ready: s.ready,
    actor: s.actor,
    catalog: {
      loaded: s.catalog.loaded,
      version: s.catalog.version,
      events: s.catalog.events,
      markets: s.catalog.markets,
      outcomes: s.catalog.outcomes,
      last_error: s.catalog.lastError ?? null,
      truncated: s.catalog.truncated,
      max_events: s.catalog.maxEvents ?? null,
    },
    books: { instruments: s.books.instruments, synced: s.books.synced, stale: s.books.stale },
    feed:
      feed === undefined
        ? null
        : {
            connections: feed.connections,
            open_connections: feed.openConnections,
            subscribed: feed.subscribed,
            reconnects: feed.reconnects,
            frames_received: feed.framesReceived,
            malformed_frames: feed.malformedFrames,
            sequence_gaps: feed.sequenceGaps,
            stale_timeouts: feed.staleTimeouts,
          },
  }
}
