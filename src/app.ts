import { validate } from './config/load.js'
import type { Config } from './config/schema.js'
import { systemClock, type Clock } from './core/clock.js'
import type { Logger } from './core/logger.js'
import { Supervisor } from './core/supervisor.js'
import { VenueActor } from './actors/venue-actor.js'
import { CorsPolicy } from './http/cors.js'
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
import { venuekRoutes } from './venues/venuek/routes/markets.js'
import { venuepRoutes } from './venues/venuep/routes/markets.js'
import { venuepLiveRoutes } from './venues/venuep/routes/live.js'
import { OPENAPI_EXAMPLES } from './http/openapi-examples.generated.js'
import { VenuepLive } from './venues/venuep/proxy/live.js'
import { createVenuepUpstreams } from './venues/venuep/proxy/upstreams.js'
import { ReadModels } from './views/read-models.js'
import { spreadRoutes } from './http/routes/spreads.js'
import { spreadHistoryRoutes } from './http/routes/spread-history.js'
import { CrossVenueMatching } from './spreads/cross-venue.js'
import { MatchOverrides } from './spreads/manual-matches.js'
import { loadMatchWeights } from './spreads/matching/calibration.js'
import { SpreadEngine } from './spreads/spread-engine.js'
import { startSpreadHistory, type SpreadHistory } from './spreads/spread-history.js'
import { PriceHistory } from './venues/venuep/price-history.js'
import type { VenueId } from './model/types.js'
import type { Simulator } from './sim/simulator.js'
import { startAnnouncedSimulator } from './sim/start-announced.js'
import { withPinnedCalendar } from './sim/pinned-calendar.js'
import { createAdapters } from './venues/registry.js'
import { credentialWarning, readVenuekCredentials, simulatorCredentials } from './venues/venuek/credentials.js'
import { Authenticator } from './accounts/authenticator.js'
import { DeveloperService } from './accounts/developer-service.js'
import { UsageMeter } from './accounts/usage-meter.js'
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
import { ACCOUNT_OPERATIONS, developerRoutes, SIGNUP_OPERATION, UNMETERED_OPERATIONS } from './http/routes/developers.js'
import { AccountRepository } from './store/accounts-repo.js'
import { AlertRuleChanges } from './store/alert-rule-changes.js'
import { AlertRuleRepository } from './store/alert-rules-repo.js'
import { ApiKeyRepository } from './store/api-keys-repo.js'
import { ChangeWatcher } from './store/change-watcher.js'
import type { Db } from './store/db.js'
import { migrate } from './store/migrate.js'
import { openStore } from './store/open.js'
import { UsageRepository } from './store/usage-repo.js'

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
}

/** The accounts side of a running app: what the alert evaluator and tests reach for. */
export interface AppStore {
  readonly db: Db
  readonly auth: Authenticator
  readonly developers: DeveloperService
  readonly alertRules: AlertRuleRepository
  /** Published after every rule change (this replica's writes at once, other replicas' via NOTIFY or poll). */
  readonly alertRuleChanges: AlertRuleChanges
  readonly usage: UsageMeter
  readonly watcher: ChangeWatcher
}

export interface App {
  /** The effective config (in sim mode, venue URLs point at the simulator). */
  readonly config: Config
  readonly port: number
  readonly http: HttpServer
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
  close(): Promise<void>
}

export async function startApp(options: AppOptions): Promise<App> {
  const clock = options.clock ?? systemClock
  const log = options.log
  // One target check for rule creation and delivery (the same policy and resolver judge both); built first, so a
  // malformed allowedCidrs entry fails the boot before anything is started.
  const webhookTargets = WebhookTargets.fromConfig(options.config.alerts.webhook, options.resolveHost)
  const trustedProxies = cidrsFromConfig('/http/trustedProxies', options.config.http.trustedProxies)
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
  let simulator = options.simulator
  const mode = options.config.venues.mode
  const ownsSimulator = simulator === undefined && mode === 'sim' && !options.config.sim.external
  if (ownsSimulator) {
    try {
      const simLog = log.child({ component: 'simulator' })
      simulator = await startAnnouncedSimulator(withPinnedCalendar(options.config.sim, options.config.dataDir, clock.now(), simLog), clock, simLog)
    } catch (err) {
      await stopStore(store, ownsDb)
      throw err
    }
  }
  const config = simulator === undefined ? options.config : pointAtSimulator(options.config, simulator)
  const source = dataSource(options.config, simulator)

  // venuek's key: the in-process simulator's own, else the configured one, read and checked once (a bad key is a
  // warning saying what will not work, never a crash).
  const venuekCredentials = simulator === undefined ? readVenuekCredentials(config.venues.venuek) : simulatorCredentials(simulator.venuekCredentials)
  const credentialProblem = credentialWarning(venuekCredentials, config.venues.venuek.wsUrl)
  if (credentialProblem !== undefined) log.warn({ venue: 'venuek', credentials: venuekCredentials.state }, credentialProblem)
  const adapters = createAdapters(config, { clock, log }, { venuekCredentials })
  const supervisor = new Supervisor({
    clock,
    initialBackoffMs: config.actors.restartInitialBackoffMs,
    maxBackoffMs: config.actors.restartMaxBackoffMs,
    onEvent: (e) => log.warn(e, 'supervisor'),
  })
  const venues = {
    venuep: new VenueActor({ adapter: adapters.venuep, clock, log: log.child({ venue: 'venuep' }), catalogRefreshMs: config.venues.venuep.catalog.refreshMs, catalogMaxEvents: config.venues.venuep.catalog.maxEvents, mailboxCapacity: config.actors.mailboxCapacity }),
    venuek: new VenueActor({ adapter: adapters.venuek, clock, log: log.child({ venue: 'venuek' }), catalogRefreshMs: config.venues.venuek.catalog.refreshMs, catalogMaxEvents: config.venues.venuek.catalog.maxEvents, mailboxCapacity: config.actors.mailboxCapacity }),
  }
  for (const actor of Object.values(venues)) supervisor.supervise(actor)
  const models = new ReadModels(venues, log.child({ component: 'read-models' }))
  models.start()
  const spreads = new SpreadEngine({ venues, clock, log: log.child({ component: 'spreads' }), rescoreMs: config.spreads.rescoreMs })
  supervisor.supervise(spreads)
  // Subscribed before the matcher installs pairs, so every series starts at its pair's first value.
  const spreadHistory = startSpreadHistory({ engine: spreads, db: store.db, clock, log: log.child({ component: 'spread-history' }), config: config.spreads.history })
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
  for (const actor of Object.values(venues)) actor.subscribeQuotes((quotes) => spreads.send({ type: 'quotes', venue: actor.venue, quotes }))
  // Reviewers' matches and deny rules: read at boot, and again whenever the file changes (no restart needed).
  const overrides = new MatchOverrides(config.spreads.manualMatchesPath, log.child({ component: 'matching' }))
  const matchWeights = loadMatchWeights(config.spreads.matchCalibrationPath)
  const matching = new CrossVenueMatching({
    venuep: venues.venuep,
    venuek: venues.venuek,
    engine: spreads,
    onLinks: (links) => models.setLinks(links),
    overrides: () => ({ ...overrides.current(), weights: matchWeights }),
    log: log.child({ component: 'matching' }),
  })
  overrides.watch(() => matching.overridesChanged())
  matching.start()
  supervisor.startAll()

  // One upstream layer per venuep host (cache, single flight, breaker, the venue's rate limits) shared by every
  // live read, so price history and the proxies count against the same budgets.
  const vp = config.venues.venuep
  const upstreams = createVenuepUpstreams({ urls: { gamma: vp.gammaUrl, clob: vp.clobUrl, data: vp.dataUrl }, clock })
  const history = new PriceHistory({ clob: upstreams.clob, clock })
  const live = new VenuepLive({ venue: venues.venuep, clock, upstreams, eventOfSlug: (slug) => models.directory()?.bySlug(slug)?.venuep?.eventId })
  const apiRoutes: AnyRoute[] = [
    ...venuepRoutes({ models, clock, history }),
    ...venuepLiveRoutes({ live }),
    ...venuekRoutes({ models, clock }),
    ...eventRoutes({ models }),
    ...spreadRoutes({ engine: spreads, clock, pages: models.pages }),
    ...spreadHistoryRoutes({
      history: spreadHistory.repo,
      isMatched: (eventSlug, outcomeKey) => spreads.spec(`${eventSlug}|${outcomeKey}`) !== undefined,
      clock,
      log: log.child({ component: 'spread-history' }),
      sampling: config.spreads.history,
    }),
    ...developerRoutes({ developers: store.developers }),
    ...alertRoutes({
      rules: store.alertRules,
      clock,
      maxRulesPerUser: config.alerts.maxRulesPerUser,
      defaultCooldownSeconds: config.alerts.defaultCooldownSeconds,
      accountEmail: (accountId) => store.developers.accountEmail(accountId),
      webhookTargets,
      channelReadiness: (channel) => channelReadiness(channel, config.alerts.smtp),
    }),
    ...alertDeliveryRoutes({ rules: store.alertRules, deliveries: alerts.deliveries, sendTest: (rule) => alerts.sendTest(rule) }),
  ]
  // The document describes itself and /docs too; metaRoutes reads it lazily, after it is built.
  let openapi: object = {}
  const guards = keyGuards(store.auth, store.usage, clock)
  const signup = config.auth.signupRateLimit
  const signupThrottle = new ClientThrottle({ limit: { perSecond: signup.perMinute / 60, burst: signup.burst }, maxClients: signup.maxClients })
  // Public, so no key guard: the one guard of signup is its per-client throttle.
  const guardOf = new Map<string, RouteGuard>([[SIGNUP_OPERATION, new SignupGuard(signupThrottle, clock, trustedProxies)]])
  const http = new HttpServer({ log, cors: CorsPolicy.fromConfig(config.http.corsAllowedOrigins) })
  const metrics = createMetrics({
    venues: Object.values(venues),
    supervisor,
    spreads,
    pages: models.pages,
    http: () => http.stats.snapshot(),
    upstreams: () => live.stats(),
  })
  const operationsRoutes = [...healthRoutes({ venues: Object.values(venues), views: models, spreads, source, startedAt, now: () => clock.now() }), ...metricsRoutes(metrics)]
  const routes = [...operationsRoutes, ...apiRoutes, ...metaRoutes(() => openapi)].map((route) => {
    const policy = keyPolicy(route, config.auth.required)
    if (policy === 'none') return route.public === true ? route : { ...route, public: true }
    guardOf.set(route.operationId, policy === 'metered' ? guards.metered : guards.unmetered)
    return documentGuard(route, policy === 'metered')
  })
  openapi = buildOpenApi(routes, {
    title: 'Prediction market data API',
    description: `Normalized market data for venuep and venuek, cross-venue events and spreads. Data source of this deployment: ${source.description}.`,
    // Relative: the document describes the deployment that serves it, whatever host or proxy prefix it is reached by.
    servers: [{ url: '/', description: 'This deployment (the host that served this document).' }],
    tagDescriptions: API_TAGS,
    examples: OPENAPI_EXAMPLES,
  })
  registerRoutes(http, routes, { guard: (route) => guardOf.get(route.operationId) })
  http.notFound()
  let port: number
  try {
    await alerts.start()
    port = await http.listen(config.http.host, config.http.port)
  } catch (err) {
    supervisor.stopAll()
    models.stop()
    matching.stop()
    overrides.unwatch()
    await alerts.stop()
    await spreadHistory.close()
    if (ownsSimulator) await simulator?.close()
    await stopStore(store, ownsDb)
    throw err
  }

  let closed = false
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
    async close() {
      if (closed) return
      closed = true
      http.close()
      models.stop()
      matching.stop()
      overrides.unwatch()
      supervisor.stopAll()
      // The engine has stopped: queued firings reach the outbox, in-flight deliveries finish or are handed back.
      await alerts.stop()
      // The engine has stopped: write every sampled point before the store closes.
      await spreadHistory.close()
      if (ownsSimulator) await simulator?.close()
      await stopStore(store, ownsDb)
    },
  }
}

/**
 * Which key check a route gets: none (public, or a data route with AUTH_REQUIRED=false), `metered` (a token per
 * request) or `unmetered` (the usage endpoint). Key management always needs a key: the key names the account.
 */
function keyPolicy(route: AnyRoute, authRequired: boolean): 'none' | 'metered' | 'unmetered' {
  if (route.public === true) return 'none'
  if (ACCOUNT_OPERATIONS.has(route.operationId)) return UNMETERED_OPERATIONS.has(route.operationId) ? 'unmetered' : 'metered'
  return authRequired ? 'metered' : 'none'
}

async function startStore(config: Config, db: Db, clock: Clock, log: Logger): Promise<AppStore> {
  const a = config.auth
  const keys = new ApiKeyRepository(db)
  const alertRuleChanges = new AlertRuleChanges()
  const alertRules = new AlertRuleRepository(db, alertRuleChanges)
  const usageRepo = new UsageRepository(db)
  const authLog = log.child({ component: 'auth' })
  const auth = new Authenticator({
    keys,
    clock,
    keyPrefix: a.keyPrefix,
    rateLimit: a.rateLimit,
    maxKeys: a.cache.maxKeys,
    maxUnknownKeys: a.cache.maxUnknownKeys,
    unknownKeyTtlMs: a.cache.unknownKeyTtlMs,
    revalidateMs: a.cache.revalidateMs,
    maxPendingLookups: a.cache.maxPendingLookups,
    log: authLog,
  })
  const usage = new UsageMeter({ repo: usageRepo, clock, flushMs: a.usage.flushMs, retentionDays: a.usage.retentionDays, log: authLog })
  const watcher = new ChangeWatcher({
    db,
    keys,
    rules: alertRules,
    ruleChanges: alertRuleChanges,
    onKeysRevoked: (ids) => auth.evict(ids),
    clock,
    pollMs: a.revocationPollMs,
    log: log.child({ component: 'store-watcher' }),
  })
  await watcher.start()
  usage.start()
  const accounts = new AccountRepository(db)
  const developers = new DeveloperService({ accounts, keys, usage: usageRepo, meter: usage, auth, clock, keyPrefix: a.keyPrefix, maxActiveKeys: a.maxActiveKeysPerAccount })
  return { db, auth, developers, alertRules, alertRuleChanges, usage, watcher }
}

/** Stops the store's background work, writes the last usage counts, then closes the store if the app opened it. */
async function stopStore(store: AppStore, ownsDb: boolean): Promise<void> {
  await store.watcher.stop()
  await store.usage.stop()
  if (ownsDb) await store.db.close()
}

function dataSource(config: Config, simulator: Simulator | undefined): DataSource {
  if (simulator !== undefined) return { simulated: true, description: simulator.description }
  if (config.venues.mode === 'sim') return { simulated: true, description: `external venue simulator at ${config.venues.venuep.gammaUrl} and ${config.venues.venuek.restUrl}` }
  return { simulated: false, description: 'live venues' }
}

function pointAtSimulator(config: Config, sim: Simulator): Config {
  const p = sim.venuep.urls
  const k = sim.venuek.urls
  return validate({
    ...config,
    venues: {
      ...config.venues,
      venuep: { ...config.venues.venuep, gammaUrl: p.gamma, clobUrl: p.clob, clobWsUrl: p.clobWs, dataUrl: p.data, eventUrlTemplate: `${p.gamma}/events/slug/{slug}` },
      venuek: { ...config.venues.venuek, restUrl: k.rest, wsUrl: k.ws, eventUrlTemplate: `${k.rest}/events/{event_ticker}` },
    },
  })
}
