import { Type } from '@sinclair/typebox'
import type { CatalogLoadStatus } from '../../actors/catalog-load.js'
import type { VenueActor } from '../../actors/venue-actor.js'
import type { VenueStatus } from '../../actors/venue-status.js'
import { CACHING } from '../caching.js'
import { AppError } from '../../core/errors.js'
import { errorReply, json, type Reply } from '../reply.js'
import { StringEnum } from '../schemas/common.js'
import { defineRoute, type AnyRoute } from '../route.js'
import { VENUES } from '../../venues/index.js'
import type { VenueModule } from '../../venues/module.js'

/**
 * `/healthz`: the process is up and serving. `/readyz`: 200 once every venue's catalog is loaded, every streamed
 * book has its first snapshot, the read models every list endpoint serves are built and the spread engine has
 * priced the first matched pairs (so at the first 200 every read it covers answers, /spreads with the spreads it
 * will keep giving rather than an empty list), 503 `not_ready` before. The body always says where the data comes
 * from: when the venues are the simulator, `data_source` is "simulated" and `simulated` is true.
 *
 * A catalog cut at its `maxEvents` guard shows as `catalog.truncated: true` but does not make the service not
 * ready: it still serves what it has (the venue actor logs the cut as an error).
 *
 * A venue that was ready and whose feed then fails (books stale: a dropped or stalled socket, a resync in progress,
 * or no feed connection open) shows `health: "degraded"` with the reason, and is listed in `degraded_venues`; it
 * goes back to `ok` once its books are synced again. /readyz stays 200 meanwhile, on purpose: a venue outage hits
 * every replica alike, so a non-200 would take every replica out of a load balancer's rotation at once and turn one
 * venue's stale quotes (which the API marks `is_stale`, and /spreads/top leaves out) into a total outage of
 * everything else (the other venue, catalogs, accounts, alerts, history). Readiness is about this replica being
 * able to serve; alert on `degraded_venues` (or `predmkt_books_stale` in /metrics) instead.
 *
 * Going live is observable here too: `catalog.loading` is the sync in progress (pages, events listed so far,
 * rate, an estimate when there is a basis), `catalog.last_error` names the failed request and its cause, and
 * `credentials` says whether the venue's API key is usable (README, "Going live").
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

/** The spread engine: `ready` once the first pair plan is installed and priced (SpreadEngine.ready). */
export interface ServedSpreads {
  readonly ready: boolean
  readonly pairCount: number
}

/** The cross-venue matching: `fromFile` while its matches are a restart's match file's (CrossVenueMatching). */
export interface ServedMatching {
  readonly fromFile: boolean
}

export interface HealthDeps {
  readonly venues: readonly VenueActor[]
  /** The registered venues, for the document's descriptions; src/venues/index.ts's when absent. */
  readonly modules?: readonly ReadinessVenue[]
  readonly views: ServedViews
  readonly spreads: ServedSpreads
  /** Absent: no matching in this process, `matches_from_file` is false. */
  readonly matching?: ServedMatching
  readonly source: DataSource
  readonly startedAt: number
  readonly now: () => number
}

const Count = Type.Integer({ minimum: 0 })
const NullableCount = (description: string) => Type.Union([Count, Type.Null()], { description })

type ReadinessVenue = Pick<VenueModule, 'id' | 'credentialsNote' | 'catalogLists'>

/** The venues' listings, grouped by the venues that page through them: "`open`, `closed` (a, b) or `settled` (b)". */
function listsDescription(modules: readonly ReadinessVenue[]): string {
  const groups = new Map<string, string[]>()
  for (const list of [...new Set(modules.flatMap((m) => m.catalogLists))]) {
    const venues = modules
      .filter((m) => m.catalogLists.includes(list))
      .map((m) => m.id)
      .join(', ')
    groups.set(venues, [...(groups.get(venues) ?? []), list])
  }
  return [...groups].map(([venues, lists]) => `${lists.map((l) => `\`${l}\``).join(', ')} (${venues})`).join(' or ')
}

/** A catalog sync in progress (built by `loadingBody`). */
const catalogLoading = (modules: readonly ReadinessVenue[]) =>
  Type.Object(
    {
      started_at: Type.String({ format: 'date-time' }),
      elapsed_ms: Count,
      phase: StringEnum(['listing', 'building'], {
        description:
          "`listing` while the venue's pages arrive; `building` once every page is in and the snapshot and the streamed instruments are prepared.",
      }),
      list: Type.Union([Type.String(), Type.Null()], {
        description: `The venue list the last page came from: ${listsDescription(modules)}; null before the first page.`,
      }),
      pages: Count,
      events: Type.Integer({
        minimum: 0,
        description:
          'Raw events listed so far, every list together (before mapping; the installed `events` count can be lower).',
      }),
      events_per_sec: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
        description: 'Events listed per second since the sync started; null before the first page.',
      }),
      expected_events: NullableCount(
        'Events the last completed sync listed: the basis of the estimate. Null during the first sync after boot: neither venue tells the total.',
      ),
      estimated_remaining_ms: NullableCount(
        'Time left to list `expected_events` at the current rate (0 once past it); null without a basis or while building.',
      ),
      estimate_basis: StringEnum(['previous_sync', 'none'], {
        description:
          '`previous_sync`: the estimate assumes the catalog is as large as at the last completed sync; `none`: no completed sync yet and the venue gives no total, so there is no estimate.',
      }),
    },
    { additionalProperties: false },
  )

/** One venue's state in /readyz (built by `venueBody`); the credentials sentence is the venues' own. */
const venueReadiness = (modules: readonly ReadinessVenue[]) =>
  Type.Object(
    {
      ready: Type.Boolean({ description: 'The catalog is loaded and every streamed book has had its first snapshot.' }),
      health: StringEnum(['ok', 'degraded', 'not_ready'], {
        description:
          'Addition. `not_ready` until `ready`; then `degraded` while the feed is failing (some books stale: a dropped or stalled socket, a sequence gap or unreadable frame being resynced; or no feed connection open), `ok` otherwise. A degraded venue does not make /readyz non-200 (see `degraded_venues`).',
      }),
      degraded_reason: Type.Union([Type.String(), Type.Null()], {
        description: 'Addition: why the venue is `degraded` (stale books, open connections); null otherwise.',
      }),
      actor: Type.String({ description: 'The venue actor: `not_started`, `running`, `stopped` or `failed`.' }),
      catalog: Type.Object(
        {
          loaded: Type.Boolean(),
          version: Type.Integer({
            minimum: 0,
            description:
              'Increases with every changed catalog installed; 0 before the first. A sync that lists exactly the installed catalog installs nothing and leaves it (see `synced_at`).',
          }),
          events: Count,
          markets: Count,
          outcomes: Count,
          synced_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
            description:
              'Addition: when the venue last listed the installed catalog, by its install or by a later sync that found nothing changed (such a sync installs nothing). Null before the first catalog.',
          }),
          from_file: Type.Boolean({
            description:
              'Addition: the installed catalog was read at start from the catalog file of the last run (`DATA_DIR/catalogs/`), and the venue has not been listed since. The service serves it meanwhile; the first sync from the venue confirms or replaces it.',
          }),
          last_error: Type.Union([Type.String(), Type.Null()], {
            description: 'Why the last catalog sync failed; null after a success.',
          }),
          truncated: Type.Boolean({
            description:
              'Addition: the installed catalog stopped at the `max_events` guard while the venue listed more, so it holds only the first `max_events` events listed. The service still serves it (a truncated catalog does not make it not ready) and logs an error per catalog version; also `predmkt_catalog_truncated` in /metrics.',
          }),
          max_events: Type.Union([Count, Type.Null()], {
            description:
              'Addition: the guard on events read per catalog sync (config `venues.<venue>.catalog.maxEvents`), set far above the real catalogs.',
          }),
          loading: Type.Union([catalogLoading(modules), Type.Null()], {
            description:
              'Addition: the catalog sync in progress (the first one after boot, or a refresh), null between syncs. The first sync of a real catalog lists tens of thousands of events in hundreds of pages and takes minutes; `events` above stays 0 until it is installed, this shows how far it got. The log has a `catalog loading` line every 5 s during the first sync.',
          }),
          failures: Type.Integer({
            minimum: 0,
            description:
              'Addition: catalog syncs failed in a row (0 after a success). Before the first success they are retried after 2 s, 4 s, 8 s … up to 30 s.',
          }),
        },
        { additionalProperties: false },
      ),
      credentials: StringEnum(['configured', 'missing', 'unreadable', 'invalid', 'not_required'], {
        description: [
          "Addition: the venue's API key.",
          ...modules.flatMap((m) => (m.credentialsNote === undefined ? [] : [m.credentialsNote])),
          `\`not_required\` for ${modules.flatMap((m) => (m.credentialsNote === undefined ? [m.id] : [])).join(' and ')} (public data) and for a simulator that asks for no key.`,
        ].join(' '),
      }),
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
            stall_resyncs: Type.Integer({
              minimum: 0,
              description:
                'Addition: connections resubscribed because the venue spoke again after missing its keepalive probes (a stall that ended, even one shorter than the stale threshold); `predmkt_feed_stall_resyncs_total` in /metrics.',
            }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ]),
    },
    { additionalProperties: false },
  )

const readinessBody = (modules: readonly ReadinessVenue[]) =>
  Type.Object(
    {
      status: Type.String({ description: '`ready` or `not_ready`.' }),
      data_source: Type.String({ description: '`simulated` (the built-in venue simulator) or `live`.' }),
      simulated: Type.Boolean(),
      description: Type.String(),
      uptime_seconds: Type.Number(),
      venues: Type.Record(Type.String(), venueReadiness(modules), {
        description: `Per venue (${modules.map((m) => `\`${m.id}\``).join(', ')}): catalog, books and feed state.`,
      }),
      degraded_venues: Type.Array(Type.String(), {
        description:
          "Addition: the venues whose `health` is `degraded` (their quotes are served with `is_stale`, their spreads leave /spreads/top). /readyz stays 200 while a venue is degraded: a venue's outage hits every replica alike, and taking them all out of rotation would stop everything else they serve too.",
      }),
      read_models: Type.Object(
        {
          ready: Type.Boolean({
            description:
              "The list endpoints' read models (per-venue views, cross-venue events, sitemap) are built from the loaded catalogs.",
          }),
        },
        {
          description:
            'Addition. Built after the catalogs load, in event-loop slices; /readyz is 200 only once they are.',
        },
      ),
      spreads: Type.Object(
        {
          ready: Type.Boolean({
            description:
              'The first cross-venue matching of the loaded catalogs is installed in the spread engine and every pair priced from the books. True also when nothing matched (a world with no overlap): it means "matched", not "non-empty".',
          }),
          pairs: Type.Integer({ minimum: 0, description: 'Matched outcome pairs the engine holds.' }),
          matches_from_file: Type.Boolean({
            description:
              "True after a restart while the pairs are those kept in the data directory at the last run (each checked against the catalogs served: both outcomes still listed, both contracts reading as they did), until the matcher's first full run replaces them, seconds to a minute later at the venues' real size. The spreads are ready meanwhile; a pair the file could not vouch for appears once that run is done.",
          }),
        },
        {
          additionalProperties: false,
          description:
            'Addition. /readyz is 200 only once `ready`; /spreads and /spreads/top answer 503 `not_ready` before.',
        },
      ),
    },
    { additionalProperties: true },
  )

export function healthRoutes(deps: HealthDeps): AnyRoute[] {
  const ReadinessBody = readinessBody(deps.modules ?? VENUES)
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
      responses: {
        200: {
          description: 'Up.',
          schema: Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false }),
        },
      },
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
        503: {
          description: 'Not ready yet (`not_ready`), with the same details.',
          schema: Type.Object(
            { ...ReadinessBody.properties, detail: Type.String(), code: Type.String() },
            { additionalProperties: true },
          ),
        },
      },
      handler: () => readiness(deps),
    }),
  ]
}

function readiness(deps: HealthDeps): Reply {
  const statuses = deps.venues.map((v) => v.venueStatus())
  const viewsReady = deps.views.serving
  const spreadsReady = deps.spreads.ready
  const ready = viewsReady && spreadsReady && statuses.every((s) => s.ready)
  const body = {
    status: ready ? 'ready' : 'not_ready',
    data_source: deps.source.simulated ? 'simulated' : 'live',
    simulated: deps.source.simulated,
    description: deps.source.description,
    uptime_seconds: Math.round((deps.now() - deps.startedAt) / 1000),
    venues: Object.fromEntries(statuses.map((s) => [s.venue, venueBody(s)])),
    degraded_venues: statuses.filter((s) => degradedReason(s) !== undefined).map((s) => s.venue),
    read_models: { ready: viewsReady },
    spreads: {
      ready: spreadsReady,
      pairs: deps.spreads.pairCount,
      matches_from_file: deps.matching?.fromFile ?? false,
    },
  }
  if (ready) return json(200, body)
  return errorReply(new AppError(503, 'not_ready', 'venue catalogs and feeds are still loading', { extra: body }))
}

function loadingBody(l: CatalogLoadStatus): Record<string, unknown> {
  return {
    started_at: new Date(l.startedAt).toISOString(),
    elapsed_ms: l.elapsedMs,
    phase: l.phase,
    list: l.list ?? null,
    pages: l.pages,
    events: l.events,
    events_per_sec: l.eventsPerSec ?? null,
    expected_events: l.expectedEvents ?? null,
    estimated_remaining_ms: l.estimatedRemainingMs ?? null,
    estimate_basis: l.expectedEvents === undefined ? 'none' : 'previous_sync',
  }
}

/**
 * Why a ready venue is degraded, or undefined when it is not (a venue not yet ready is `not_ready`, not degraded).
 * Stale books are the users' view of a failing feed: their quotes are served stale until the resync.
 */
export function degradedReason(s: VenueStatus): string | undefined {
  if (!s.ready) return undefined
  const reasons: string[] = []
  if (s.actor !== 'running') reasons.push(`venue actor ${s.actor}`)
  if (s.books.stale > 0) reasons.push(`${s.books.stale} of ${s.books.instruments} books stale`)
  const feed = s.feed
  if (feed !== undefined && s.books.instruments > 0 && feed.openConnections < feed.connections)
    reasons.push(`${feed.openConnections} of ${feed.connections} feed connections open`)
  return reasons.length === 0 ? undefined : reasons.join('; ')
}

function venueBody(s: VenueStatus): Record<string, unknown> {
  const feed = s.feed
  const degraded = degradedReason(s)
  return {
    ready: s.ready,
    health: !s.ready ? 'not_ready' : degraded === undefined ? 'ok' : 'degraded',
    degraded_reason: degraded ?? null,
    actor: s.actor,
    catalog: {
      loaded: s.catalog.loaded,
      version: s.catalog.version,
      events: s.catalog.events,
      markets: s.catalog.markets,
      outcomes: s.catalog.outcomes,
      // The venue's last listing of the installed catalog: a refresh that found nothing changed moves it, not `version`.
      synced_at: s.catalog.syncedAt === undefined ? null : new Date(s.catalog.syncedAt).toISOString(),
      from_file: s.catalog.fromFile,
      last_error: s.catalog.lastError ?? null,
      truncated: s.catalog.truncated,
      max_events: s.catalog.maxEvents ?? null,
      loading: s.catalog.loading === undefined ? null : loadingBody(s.catalog.loading),
      failures: s.catalog.failures,
    },
    credentials: s.credentials,
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
            stall_resyncs: feed.stallResyncs ?? 0,
          },
  }
}
