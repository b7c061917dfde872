import { join } from 'node:path'
import { validate } from './config/load.js'
import type { Config } from './config/schema.js'
import { systemClock, type Clock } from './core/clock.js'
import { preciseStamp } from './core/precise-time.js'
import type { Logger } from './core/logger.js'
import { Supervisor } from './actors/supervisor.js'
import { VenueActor } from './actors/venue-actor.js'
import { CorsPolicy } from './http/cors.js'
import { loadDashboardAssets } from './dashboard/assets.js'
import { dashboardRoutes } from './dashboard/routes.js'
import { HttpServer } from './http/server.js'
import { healthRoutes, type DataSource } from './http/routes/health.js'
import { API_TAGS } from './http/api-tags.js'
import { buildOpenApi } from './http/openapi.js'
import { registerRoutes } from './http/register.js'
import type { AnyRoute } from './http/route.js'
import { eventRoutes } from './http/routes/events.js'
import { metaRoutes } from './http/routes/meta.js'
import { metricsRoutes } from './http/routes/metrics.js'
import { createMetrics } from './metrics.js'
import { OPENAPI_EXAMPLES } from './http/openapi-examples.generated.js'
import { ReadModels } from './views/read-models.js'
import { spreadRoutes } from './http/routes/spreads.js'
import { spreadHistoryRoutes } from './http/routes/spread-history.js'
import { RestartFiles } from './restart-files.js'
import { CrossVenueMatching } from './spreads/matching/cross-venue.js'
import { AliasFile } from './spreads/matching/aliases.js'
import { MatchOverrides } from './spreads/matching/manual-matches.js'
import { loadMatchWeights } from './spreads/matching/calibration.js'
import { SpreadEngine } from './spreads/engine/spread-engine.js'
import { startSpreadHistory, type SpreadHistory } from './spreads/history/spread-history.js'
import type { VenueId } from './model/types.js'
import type { Simulator } from './sim/simulator.js'
import { startAnnouncedSimulator } from './sim/start-announced.js'
import { withPinnedCalendar } from './sim/pinned-calendar.js'
import { VENUES } from './venues/index.js'
import { venueConfig, type VenueModule } from './venues/module.js'
import type { UpstreamStats } from './venues/upstream/upstream.js'
import { documentGuard, keyGuards } from './http/auth.js'
import { ClientThrottle } from './accounts/client-throttle.js'
import { cidrsFromConfig } from './config/cidrs.js'
import { SignupGuard } from './http/signup-guard.js'
import type { RouteGuard } from './http/register.js'
import { alertRoutes } from './http/routes/alerts.js'
import { alertDeliveryRoutes } from './http/routes/alert-deliveries.js'
import { AlertService } from './alerts/alert-service.js'
import { channelReadiness } from './alerts/channel-readiness.js'
import { WebhookTargets, type HostResolver } from './alerts/webhook-target.js'
import {
  ACCOUNT_OPERATIONS,
  developerRoutes,
  SIGNUP_OPERATION,
  UNMETERED_OPERATIONS,
} from './http/routes/developers.js'
import type { Db } from './store/db.js'
import { migrate } from './store/migrate.js'
import { openStore } from './store/open.js'
import type { Sequencer } from './stream/sequencer.js'
import type { StreamServer } from './stream/server/stream-server.js'
import { connectBus, type BusLink } from './bus/connection.js'
import { startFeedPublisher } from './bus/feed/feed-publisher.js'
import { busVenueAdapter } from './bus/feed/bus-adapter.js'
import { assembleStream } from './roles/stream-role.js'
import { startStore, stopStore, type AppStore } from './app-store.js'

/**
 * How long shutdown waits for requests already running (real time): they finish against a live store, inside the
 * 10 s an orchestrator gives between SIGTERM and SIGKILL, with the history and outbox flush after them.
 */
const HTTP_DRAIN_MS = 5_000

/**
 * Builds the running service from a config: store (Postgres or PGlite, migrated) → simulator (sim mode) → venue
 * adapters → venue actors under a supervisor → accounts and auth → HTTP server. Kept separate from main.ts so
 * tests start the whole service in-process.
 */
export interface AppOptions {
  readonly config: Config
  readonly log: Logger
  readonly clock?: Clock
  /** An already running simulator (tests); otherwise sim mode starts one from `config.sim`. */
  readonly simulator?: Simulator
  /** An open store (tests); it is migrated but not closed by the app. Otherwise the config's store is opened. */
  readonly db?: Db
  /** How webhook hosts are resolved (tests inject one: no test uses real DNS); the system resolver when absent. */
  readonly resolveHost?: HostResolver
  /**
   * The venues to serve, in registry order; the registered ones (src/venues/index.ts) when absent. A test adds one
   * (`[...VENUES, third]`); `config` must then hold its section (loadConfig's `venues` option).
   */
  readonly venues?: readonly VenueModule[]
}

export interface App {
  /** The effective config (in sim mode, venue URLs point at the simulator). */
  readonly config: Config
  readonly port: number
  readonly http: HttpServer
  /** The venue actors by venue id, in registry order. */
  readonly venues: Readonly<Record<VenueId, VenueActor>>
  readonly supervisor: Supervisor
  readonly models: ReadModels
  readonly spreads: SpreadEngine
  /** Spread history: sampler (flushed on close), store, retention. */
  readonly history: SpreadHistory
  readonly matching: CrossVenueMatching
  readonly routes: readonly AnyRoute[]
  readonly simulator: Simulator | undefined
  readonly source: DataSource
  readonly store: AppStore
  /** Alert evaluation (on the spread engine) and delivery (outbox, workers). */
  readonly alerts: AlertService
  /**
   * The streaming WebSocket `GET /api/v2/stream` (absent on an ingest: clients connect to edges) and the sequencer
   * this process's sources number frames with.
   */
  readonly stream: StreamServer | undefined
  readonly sequencer: Sequencer
  /** The broker link of an ingest or an edge (`ROLE`); absent for `all`. */
  readonly bus: BusLink | undefined
  close(): Promise<void>
}

export async function startApp(options: AppOptions): Promise<App> {
  const clock = options.clock ?? systemClock
  const log = options.log
  // One target check for rule creation and delivery (the same policy and resolver judge both); built first, so a
  // malformed allowedCidrs entry fails the boot before anything is started.
  const webhookTargets = WebhookTargets.fromConfig(options.config.alerts.webhook, options.resolveHost)
  const trustedProxies = cidrsFromConfig('/http/trustedProxies', options.config.http.trustedProxies)
  // The dashboard's files, read before anything starts: a build without its browser modules fails here, cleanly.
  const dashboardAssets = loadDashboardAssets()
  const startedAt = clock.now()
  const ownsDb = options.db === undefined
  const db = options.db ?? (await openStore(options.config, log.child({ component: 'store' })))
  if (!ownsDb) await migrate(db, log.child({ component: 'store' }))
  let store: AppStore
  try {
    store = await startStore(options.config, db, clock, log)
  } catch (err) {
    if (ownsDb) await db.close()
    throw err
  }
  const role = options.config.role
  // An edge reads every venue's data from the broker: it starts no simulator and connects to no venue.
  let simulator = role === 'edge' ? undefined : options.simulator
  const mode = options.config.venues.mode
  const ownsSimulator = simulator === undefined && mode === 'sim' && !options.config.sim.external && role !== 'edge'
  if (ownsSimulator) {
    try {
      const simLog = log.child({ component: 'simulator' })
      simulator = await startAnnouncedSimulator(
        withPinnedCalendar(options.config.sim, options.config.dataDir, clock.now(), simLog),
        clock,
        simLog,
      )
    } catch (err) {
      await stopStore(store, ownsDb)
      throw err
    }
  }
  const modules = options.venues ?? VENUES
  const config = simulator === undefined ? options.config : pointAtSimulator(options.config, simulator, modules)
  const source = dataSource(options.config, simulator, modules)
  // The broker link of an ingest or an edge; a single process has none.
  const link =
    role === 'all'
      ? undefined
      : await connectBus({
          url: config.nats.url,
          name: `${role}-${process.pid}`,
          log: log.child({ component: 'bus' }),
        }).catch(async (err: unknown) => {
          if (ownsSimulator) await simulator?.close()
          await stopStore(store, ownsDb)
          throw err
        })

  const supervisor = new Supervisor({
    clock,
    initialBackoffMs: config.actors.restartInitialBackoffMs,
    maxBackoffMs: config.actors.restartMaxBackoffMs,
    onEvent: (e) => log.warn(e, 'supervisor'),
  })
  // The stream's `lts` (a feed frame's receipt) and `pts` (its publish): whole ms, or with µs (stream.preciseTimes).
  const stamp = config.stream.preciseTimes ? preciseStamp(clock) : undefined
  // Each venue: its secrets read and checked once (a bad key is a warning saying what will not work, never a
  // crash), its adapter, and its actor.
  // The last catalogs and matches kept in the data directory, so a restart serves at once.
  const restartFiles = new RestartFiles({
    dataDir: config.dataDir,
    writeEveryMs: config.actors.catalogFileEveryMs,
    enabled: simulator === undefined && role !== 'edge',
  })
  const actors = modules.map((m) => {
    const section = venueConfig(config, m)
    const venueLog = log.child({ venue: m.id })
    // An edge's adapter is the venue's own (its probability rule, its streamed instruments) reading from the broker.
    const secrets: unknown = role === 'edge' ? undefined : m.readSecrets?.({ config: section, simulator, log })
    const venueAdapter = m.createAdapter(section, { clock, log: venueLog, receiptStamp: stamp }, secrets)
    const adapter =
      link !== undefined && role === 'edge'
        ? busVenueAdapter(venueAdapter, { link, clock, log: venueLog })
        : venueAdapter
    const catalogFile = restartFiles.catalogFile(m.id, venueAdapter.catalogSource)
    return new VenueActor({
      adapter,
      clock,
      log: venueLog,
      catalogRefreshMs: section.catalog.refreshMs,
      catalogFullListingEveryMs: section.catalog.fullListingEveryMs,
      catalogMaxEvents: section.catalog.maxEvents,
      mailboxCapacity: config.actors.mailboxCapacity,
      catalogFile,
    })
  })
  const venues: Record<VenueId, VenueActor> = Object.fromEntries(actors.map((a) => [a.venue, a]))
  for (const actor of actors) supervisor.supervise(actor)
  const models = new ReadModels(
    modules.map((m, i) => ({ actor: actors[i] as VenueActor, rules: m.view })),
    log.child({ component: 'read-models' }),
    restartFiles.listFiles(log.child({ component: 'read-models' })),
  )
  models.start()
  const spreads = new SpreadEngine({
    venues: new Map(actors.map((actor) => [actor.venue, actor])),
    clock,
    log: log.child({ component: 'spreads' }),
    rescoreMs: config.spreads.rescoreMs,
  })
  supervisor.supervise(spreads)
  // Subscribed before the matcher installs pairs, so every series starts at its pair's first value.
  const spreadHistory = startSpreadHistory({
    engine: spreads,
    db: store.db,
    clock,
    log: log.child({ component: 'spread-history' }),
    config: config.spreads.history,
    // One writer of the history: the ingest (or the single process); an edge reads what it wrote.
    readOnly: role === 'edge',
  })
  const alerts = new AlertService({
    db: store.db,
    source: spreads,
    rules: store.alertRules,
    ruleChanges: store.alertRuleChanges,
    clock,
    log: log.child({ component: 'alerts' }),
    config: config.alerts,
    webhookTargets,
  })
  for (const actor of actors)
    actor.subscribeQuotes((quotes) => spreads.send({ type: 'quotes', venue: actor.venue, quotes }))
  // Reviewers' matches and deny rules: read at boot, and again whenever the file changes (no restart needed).
  const overrides = new MatchOverrides(
    config.spreads.manualMatchesPath,
    modules.map((m) => m.id),
    log.child({ component: 'matching' }),
  )
  // Reviewed name aliases (config/aliases.json), also reloaded when the file changes.
  const aliases = new AliasFile(config.spreads.aliasesPath, log.child({ component: 'matching' }))
  const matchWeights = loadMatchWeights(config.spreads.matchCalibrationPath)
  const matching = new CrossVenueMatching({
    venues: actors,
    engine: spreads,
    onLinks: (links, delta) => models.setLinks(links, delta),
    overrides: () => ({ ...overrides.current(), weights: matchWeights, aliases: aliases.current() }),
    log: log.child({ component: 'matching' }),
    eventSlug: (venue, event) => modules.find((m) => m.id === venue)?.view.eventSlug(event) ?? event.eventId,
    // A restart prices the kept matches before the matcher's first run, which waits until the service is ready.
    files: restartFiles.matchFiles(clock, log.child({ component: 'matching' })),
    fullRunAfterSeed: restartFiles.serviceReady.promise,
  })
  overrides.watch(() => matching.overridesChanged())
  aliases.watch(() => matching.overridesChanged())
  matching.start()
  supervisor.startAll()
  restartFiles.watch(() => models.serving && spreads.ready && actors.every((a) => a.ready))

  // Each venue's own routes and live services (proxies, upstream hosts), in registry order.
  const served = modules.map((m, i) =>
    m.serve?.({
      config: venueConfig(config, m),
      actor: actors[i] as VenueActor,
      models,
      clock,
      log: log.child({ venue: m.id }),
    }),
  )
  const apiRoutes: AnyRoute[] = [
    ...served.flatMap((s) => s?.routes ?? []),
    ...eventRoutes({ models, venues: modules }),
    ...spreadRoutes({ engine: spreads, clock, pages: models.pages, venues: modules }),
    ...spreadHistoryRoutes({
      history: spreadHistory.repo,
      isMatched: (eventSlug, outcomeKey) => spreads.spec(`${eventSlug}|${outcomeKey}`) !== undefined,
      clock,
      log: log.child({ component: 'spread-history' }),
      sampling: config.spreads.history,
    }),
    ...developerRoutes({ developers: store.developers }),
    ...alertRoutes({
      venues: modules.map((m) => m.id),
      rules: store.alertRules,
      clock,
      maxRulesPerUser: config.alerts.maxRulesPerUser,
      defaultCooldownSeconds: config.alerts.defaultCooldownSeconds,
      accountEmail: (accountId) => store.developers.accountEmail(accountId),
      webhookTargets,
      channelReadiness: (channel) => channelReadiness(channel, config.alerts.smtp),
    }),
    ...alertDeliveryRoutes({
      rules: store.alertRules,
      deliveries: alerts.deliveries,
      sendTest: (rule) => alerts.sendTest(rule),
    }),
  ]
  // The document describes itself and /docs too; metaRoutes reads it lazily, after it is built.
  let openapi: object = {}
  const guards = keyGuards(store.auth, store.usage, clock)
  const signup = config.auth.signupRateLimit
  const signupThrottle = new ClientThrottle({
    limit: { perSecond: signup.perMinute / 60, burst: signup.burst },
    maxClients: signup.maxClients,
  })
  // Public, so no key guard: the one guard of signup is its per-client throttle.
  const guardOf = new Map<string, RouteGuard>([
    [SIGNUP_OPERATION, new SignupGuard(signupThrottle, clock, trustedProxies)],
  ])
  const http = new HttpServer({ log, cors: CorsPolicy.fromConfig(config.http.corsAllowedOrigins) })
  // The stream (issue 21), as this role runs it (src/roles/stream-role.ts): the sources, the sequencer that numbers
  // their frames, and the fan-out on the REST app's port (or, on an ingest, the broker instead of the fan-out).
  // The `alerts` channel's snapshots: the outbox's recent firings, loaded before alerts start (below).
  const streamRole = assembleStream({
    config,
    http,
    link,
    clock,
    log,
    stamp,
    actors,
    spreads,
    alerts,
    venueIds: modules.map((m) => m.id),
    authenticate: async (key) => {
      const r = await store.auth.resolve(key, clock.now())
      if (r.kind === 'key') return { accountId: r.caller.accountId, keyId: r.caller.keyId }
      if (r.reason === 'unavailable') throw new Error('API keys cannot be checked right now')
      return undefined
    },
  })
  const stream = streamRole.server
  const recentFirings = streamRole.recentFirings
  const upstreamVenues = modules.filter((_, i) => served[i]?.upstreams !== undefined).map((m) => m.id)
  const metrics = createMetrics({
    venues: actors,
    supervisor,
    spreads,
    pages: models.pages,
    http: () => http.stats.snapshot(),
    upstreams:
      upstreamVenues.length === 0
        ? undefined
        : {
            venues: upstreamVenues,
            stats: () => served.flatMap((s): readonly UpstreamStats[] => s?.upstreams?.() ?? []),
          },
    stream: stream === undefined ? undefined : () => stream.statsSnapshot(),
    history: () => spreadHistory.sampler.stats(),
    bus: role === 'all' ? undefined : () => streamRole.busStats(),
  })
  const operationsRoutes = [
    ...healthRoutes({
      venues: actors,
      modules,
      views: models,
      spreads,
      matching,
      source,
      startedAt,
      now: () => clock.now(),
    }),
    ...metricsRoutes(metrics),
  ]
  const routes = [...operationsRoutes, ...apiRoutes, ...metaRoutes(() => openapi)].map((route) => {
    const policy = keyPolicy(route, config.auth.required)
    if (policy === 'none') return route.public === true ? route : { ...route, public: true }
    guardOf.set(route.operationId, policy === 'metered' ? guards.metered : guards.unmetered)
    return documentGuard(route, policy === 'metered')
  })
  openapi = buildOpenApi(routes, {
    title: 'Prediction market data API',
    description: `Normalized market data for ${modules.map((m) => m.id).join(' and ')}, cross-venue events and spreads. Data source of this deployment: ${source.description}.`,
    // Relative: the document describes the deployment that serves it, whatever host or proxy prefix it is reached by.
    servers: [{ url: '/', description: 'This deployment (the host that served this document).' }],
    tagDescriptions: apiTags(modules),
    examples: OPENAPI_EXAMPLES,
  })
  registerRoutes(http, routes, { guard: (route) => guardOf.get(route.operationId) })
  // The dashboard at `/` (issue 22): public, and not part of the API's document.
  const dashboard = dashboardRoutes(
    {
      simulated: source.simulated,
      sourceDescription: source.description,
      authRequired: config.auth.required,
      venues: modules.map((m) => m.id),
    },
    dashboardAssets,
  )
  registerRoutes(http, [dashboard.page, ...dashboard.assets])
  http.notFound()
  let closed = false
  let feedPublisher: { close(): Promise<void> } | undefined
  /** The one ordered teardown, for a failed start and for `close`: nothing new in, then each part after what feeds it. */
  const teardown = async (): Promise<void> => {
    closed = true
    // Stream clients first: `bye` and close 1001 while the app still runs, so they reconnect elsewhere and resume.
    await streamRole.close()
    await feedPublisher?.close()
    http.close()
    // Requests already running finish against a live store; those arriving now get 503 shutting_down.
    const unanswered = await http.drain(HTTP_DRAIN_MS)
    if (unanswered > 0)
      log.warn({ unanswered }, 'shutdown: requests still running after the drain; their store calls may fail')
    models.stop()
    matching.stop()
    restartFiles.stop()
    overrides.unwatch()
    aliases.unwatch()
    supervisor.stopAll()
    // The engine has stopped: queued firings reach the outbox, in-flight deliveries finish or are handed back.
    await alerts.stop()
    // The engine has stopped: write every sampled point before the store closes.
    await spreadHistory.close()
    if (ownsSimulator) await simulator?.close()
    await link?.close()
    await stopStore(store, ownsDb)
  }
  let port: number
  try {
    await recentFirings.load(store.db)
    // Alert evaluation and delivery run where the spreads are owned: the single process or the ingest. An edge's
    // alert routes write rules and test deliveries to the shared store; the ingest's worker delivers them.
    if (role !== 'edge') await alerts.start()
    // The ingest publishes what its venue actors apply and their catalogs (edges rebuild the same state from them).
    if (role === 'ingest')
      feedPublisher = await startFeedPublisher({ link: link as BusLink, actors, log: log.child({ component: 'bus' }) })
    await streamRole.start()
    port = await http.listen(config.http.host, config.http.port)
  } catch (err) {
    await teardown()
    throw err
  }

  return {
    config,
    port,
    http,
    venues,
    supervisor,
    models,
    spreads,
    history: spreadHistory,
    matching,
    routes,
    simulator,
    source,
    store,
    alerts,
    stream,
    sequencer: streamRole.sequencer,
    bus: link,
    async close() {
      if (closed) return
      await teardown()
    },
  }
}

/**
 * Which key check a route gets: none (public, or a data route with AUTH_REQUIRED=false), `metered` (a token per
 * request) or `unmetered` (the usage endpoint). Key management always needs a key: the key names the account.
 */
function keyPolicy(route: AnyRoute, authRequired: boolean): 'none' | 'metered' | 'unmetered' {
  if (route.public === true) return 'none'
  if (ACCOUNT_OPERATIONS.has(route.operationId))
    return UNMETERED_OPERATIONS.has(route.operationId) ? 'unmetered' : 'metered'
  return authRequired ? 'metered' : 'none'
}

function dataSource(config: Config, simulator: Simulator | undefined, venues: readonly VenueModule[]): DataSource {
  if (simulator !== undefined) return { simulated: true, description: simulator.description }
  // An edge serves what the ingest reads; the venue mode is the deployment's, set alike on every process.
  if (config.role === 'edge')
    return {
      simulated: config.venues.mode === 'sim',
      description: `${config.venues.mode === 'sim' ? 'the venue simulator' : 'live venues'}, read by the ingest and relayed over the broker at ${config.nats.url}`,
    }
  if (config.venues.mode === 'sim')
    return {
      simulated: true,
      description: `external venue simulator at ${venues.map((v) => v.config.describe(venueConfig(config, v))).join(' and ')}`,
    }
  return { simulated: false, description: 'live venues' }
}

/** The config with every venue that has a simulated peer pointed at it (the others keep their configured hosts). */
function pointAtSimulator(config: Config, sim: Simulator, venues: readonly VenueModule[]): Config {
  const sections = Object.fromEntries(
    venues.map((v) => [v.id, v.config.atSimulator?.(venueConfig(config, v), sim) ?? venueConfig(config, v)]),
  )
  return validate({ ...config, venues: { ...config.venues, ...sections } }, venues)
}

/** The OpenAPI tags: the service's own, with each venue's after `operations` (the routes' order). */
function apiTags(venues: readonly VenueModule[]): Record<string, string> {
  const { operations, ...rest } = API_TAGS
  return { operations: operations as string, ...Object.fromEntries(venues.map((v) => [v.id, v.openApiTag])), ...rest }
}
