import { readFileSync, existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Value } from '@sinclair/typebox/value'
import { VENUES } from '../venues/index.js'
import type { VenueModule } from '../venues/module.js'
import { defined, toInt } from './env-values.js'
import { configSchema, type Config } from './schema.js'
import { pushAll } from '../core/arrays.js'

/**
 * Loads the configuration: config/default.json, then config/live.json when VENUES=live, then
 * config/test.json when NODE_ENV=test (or CONFIG_PROFILE=test), then environment overrides, then explicit
 * `overrides` (tests). Validates against the schema, listing every problem, and returns a deep-frozen object.
 * This is the only module of the service that reads process.env (the webhook-receiver dev tool reads its own).
 */
export interface LoadOptions {
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Directory holding default.json, live.json, test.json; defaults to the repository's config/. */
  readonly configDir?: string
  /** Deep-merged last; for tests. */
  readonly overrides?: DeepPartial<Config>
  /** The venues whose sections `venues.<id>` holds; the registered ones (src/venues/index.ts) when absent. */
  readonly venues?: readonly VenueModule[]
}

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K]
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`)
    this.name = 'ConfigError'
  }
}

const REPO_CONFIG_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../config')

export function loadConfig(options: LoadOptions = {}): Config {
  const env = options.env ?? process.env
  const dir = options.configDir ?? REPO_CONFIG_DIR
  const layers: unknown[] = [readJson(join(dir, 'default.json'))]
  const profiles = ['default']
  if (env.VENUES === 'live') {
    layers.push(readJson(join(dir, 'live.json')))
    profiles.push('live')
  }
  if (env.CONFIG_PROFILE === 'test' || env.NODE_ENV === 'test') {
    layers.push(readJson(join(dir, 'test.json')))
    profiles.push('test')
  }
  const venues = options.venues ?? VENUES
  layers.push(fromEnv(env, venues))
  if (options.overrides !== undefined) layers.push(options.overrides)
  const merged = layers.reduce<Record<string, unknown>>(
    (acc, layer) => deepMerge(acc, layer as Record<string, unknown>),
    {},
  )
  merged.profile = profiles.join('+')
  return validate(merged, venues)
}

/** One schema per venue list (the registered one, or a test's with one more). */
const schemas = new WeakMap<readonly VenueModule[], ReturnType<typeof configSchema>>()

/** Validates a raw object against the schema for these venues (defaults applied), then deep-freezes it. */
export function validate(raw: unknown, venues: readonly VenueModule[] = VENUES): Config {
  let schema = schemas.get(venues)
  if (schema === undefined) schemas.set(venues, (schema = configSchema(venues)))
  const withDefaults = Value.Default(schema, structuredClone(raw))
  const problems = [...Value.Errors(schema, withDefaults)].map((e) => `${e.path || '/'}: ${e.message}`)
  if (problems.length === 0) pushAll(problems, crossFieldProblems(withDefaults as Config))
  if (problems.length > 0) throw new ConfigError(problems)
  return deepFreeze(withDefaults as Config)
}

/**
 * Settings valid one by one but not together. An ingest and its edges share accounts, keys, alert rules and history
 * through one Postgres: each on its own embedded PGlite, a key made on one edge is unknown to the others, so with keys
 * required the deployment would answer 401 at random. Without keys (AUTH_REQUIRED=false, a test deployment) it works.
 */
function crossFieldProblems(c: Config): string[] {
  if (c.role !== 'all' && c.databaseUrl === undefined && c.auth.required)
    return [
      `/role: ROLE=${c.role} shares accounts, keys and history with the deployment's other processes through Postgres: set DATABASE_URL (or AUTH_REQUIRED=false for a keyless test deployment)`,
    ]
  return []
}

function fromEnv(
  env: Readonly<Record<string, string | undefined>>,
  registered: readonly VenueModule[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const http: Record<string, unknown> = {}
  if (env.PORT !== undefined) http.port = toInt('PORT', env.PORT)
  if (env.HOST !== undefined) http.host = env.HOST
  if (env.TRUSTED_PROXIES !== undefined) http.trustedProxies = toList(env.TRUSTED_PROXIES)
  if (env.CORS_ALLOWED_ORIGINS !== undefined) http.corsAllowedOrigins = toList(env.CORS_ALLOWED_ORIGINS)
  if (Object.keys(http).length > 0) out.http = http
  if (env.DATA_DIR !== undefined) out.dataDir = env.DATA_DIR
  if (env.CATALOG_FILE_EVERY_MS !== undefined)
    out.actors = { catalogFileEveryMs: toInt('CATALOG_FILE_EVERY_MS', env.CATALOG_FILE_EVERY_MS) }
  if (env.ROLE !== undefined) out.role = env.ROLE
  const nats: Record<string, unknown> = {}
  if (env.NATS_URL !== undefined) nats.url = env.NATS_URL
  if (env.NATS_HOLD_MAX_BYTES !== undefined) nats.holdMaxBytes = toInt('NATS_HOLD_MAX_BYTES', env.NATS_HOLD_MAX_BYTES)
  if (Object.keys(nats).length > 0) out.nats = nats
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '') out.databaseUrl = env.DATABASE_URL
  if (env.LOG_LEVEL !== undefined) out.logLevel = env.LOG_LEVEL
  const database: Record<string, unknown> = {}
  if (env.DATABASE_POOL_MAX !== undefined) database.poolMax = toInt('DATABASE_POOL_MAX', env.DATABASE_POOL_MAX)
  if (Object.keys(database).length > 0) out.database = database
  const auth: Record<string, unknown> = {}
  if (env.AUTH_REQUIRED !== undefined) auth.required = toBool('AUTH_REQUIRED', env.AUTH_REQUIRED)
  if (env.API_KEY_PREFIX !== undefined) auth.keyPrefix = env.API_KEY_PREFIX
  const rateLimit: Record<string, unknown> = {}
  if (env.RATE_LIMIT_PER_SEC !== undefined) rateLimit.perSecond = toNumber('RATE_LIMIT_PER_SEC', env.RATE_LIMIT_PER_SEC)
  if (env.RATE_LIMIT_BURST !== undefined) rateLimit.burst = toInt('RATE_LIMIT_BURST', env.RATE_LIMIT_BURST)
  if (Object.keys(rateLimit).length > 0) auth.rateLimit = rateLimit
  const signup: Record<string, unknown> = {}
  if (env.SIGNUP_RATE_LIMIT_PER_MIN !== undefined)
    signup.perMinute = toNumber('SIGNUP_RATE_LIMIT_PER_MIN', env.SIGNUP_RATE_LIMIT_PER_MIN)
  if (env.SIGNUP_RATE_LIMIT_BURST !== undefined)
    signup.burst = toInt('SIGNUP_RATE_LIMIT_BURST', env.SIGNUP_RATE_LIMIT_BURST)
  if (Object.keys(signup).length > 0) auth.signupRateLimit = signup
  if (Object.keys(auth).length > 0) out.auth = auth
  const alerts: Record<string, unknown> = {}
  const smtp = defined({ url: env.SMTP_URL, from: env.SMTP_FROM })
  if (smtp !== undefined) alerts.smtp = smtp
  const webhook: Record<string, unknown> = {}
  if (env.ALERTS_WEBHOOK_ALLOW_PRIVATE_TARGETS !== undefined)
    webhook.allowPrivateTargets = toBool(
      'ALERTS_WEBHOOK_ALLOW_PRIVATE_TARGETS',
      env.ALERTS_WEBHOOK_ALLOW_PRIVATE_TARGETS,
    )
  if (env.ALERTS_WEBHOOK_ALLOWED_CIDRS !== undefined) webhook.allowedCidrs = toList(env.ALERTS_WEBHOOK_ALLOWED_CIDRS)
  if (Object.keys(webhook).length > 0) alerts.webhook = webhook
  if (Object.keys(alerts).length > 0) out.alerts = alerts
  if (env.SPREADS_RESCORE_MS !== undefined)
    out.spreads = { rescoreMs: toInt('SPREADS_RESCORE_MS', env.SPREADS_RESCORE_MS) }
  const stream: Record<string, unknown> = {}
  if (env.STREAM_PRECISE_TIMES !== undefined)
    stream.preciseTimes = toBool('STREAM_PRECISE_TIMES', env.STREAM_PRECISE_TIMES)
  if (Object.keys(stream).length > 0) out.stream = stream
  const venues: Record<string, unknown> = {}
  if (env.VENUES !== undefined) venues.mode = env.VENUES
  // One catalog refresh interval for every venue (how often the whole catalog is re-read over REST).
  const refreshMs =
    env.CATALOG_REFRESH_MS === undefined
      ? undefined
      : { catalog: { refreshMs: toInt('CATALOG_REFRESH_MS', env.CATALOG_REFRESH_MS) } }
  for (const venue of registered) {
    // Per-venue endpoint overrides (for a standalone simulator or a staging venue), like tardis' WSS_URL_<X>.
    const own = venue.config.fromEnv(env)
    if (own === undefined && refreshMs === undefined) continue
    const catalog = { ...(own?.catalog as object | undefined), ...refreshMs?.catalog }
    venues[venue.id] = { ...own, ...(Object.keys(catalog).length > 0 ? { catalog } : {}) }
  }
  if (Object.keys(venues).length > 0) out.venues = venues
  const sim: Record<string, unknown> = {}
  if (env.SIM_SEED !== undefined) sim.seed = toInt('SIM_SEED', env.SIM_SEED)
  if (env.SIM_QUESTIONS !== undefined) sim.questions = toInt('SIM_QUESTIONS', env.SIM_QUESTIONS)
  if (env.SIM_VENUEK_ONLY_LADDERS !== undefined)
    sim.venuekOnlyLadders = toInt('SIM_VENUEK_ONLY_LADDERS', env.SIM_VENUEK_ONLY_LADDERS)
  if (env.SIM_BOOK_DEPTH !== undefined) sim.bookDepth = toInt('SIM_BOOK_DEPTH', env.SIM_BOOK_DEPTH)
  if (env.SIM_QUOTE_CHANGES_PER_SEC !== undefined)
    sim.quoteChangesPerSec = toNumber('SIM_QUOTE_CHANGES_PER_SEC', env.SIM_QUOTE_CHANGES_PER_SEC)
  if (env.SIM_CATALOG !== undefined && env.SIM_CATALOG !== '') sim.catalog = env.SIM_CATALOG
  if (env.SIM_CALENDAR !== undefined && env.SIM_CALENDAR !== '') sim.calendar = env.SIM_CALENDAR
  if (env.SIM_EXTERNAL !== undefined) sim.external = env.SIM_EXTERNAL === '1' || env.SIM_EXTERNAL === 'true'
  if (env.SIM_PORT_BASE !== undefined) {
    const base = toInt('SIM_PORT_BASE', env.SIM_PORT_BASE)
    // 0: every venue on a free port of its own (not ports 1, 2 and 3).
    const at = (offset: number) => (base === 0 ? 0 : (base as number) + offset)
    sim.ports = typeof base === 'number' ? { gamma: at(0), clob: at(1), data: at(2), venuek: at(3) } : base
  }
  if (Object.keys(sim).length > 0) out.sim = sim
  return out
}

function toNumber(name: string, value: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : `${value} (from ${name})`
}

/** A comma-separated list, entries trimmed, empty entries dropped (`""` is the empty list). */
function toList(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '')
}

/** `true`/`1`/`false`/`0`; anything else stays a string so validation names the key. */
function toBool(name: string, value: string): boolean | string {
  const v = value.trim().toLowerCase()
  if (v === 'true' || v === '1') return true
  if (v === 'false' || v === '0') return false
  return `${value} (from ${name})`
}

function readJson(path: string): Record<string, unknown> {
  if (!existsSync(path)) throw new ConfigError([`${path}: file not found`])
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  } catch (err) {
    throw new ConfigError([`${path}: ${err instanceof Error ? err.message : String(err)}`])
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function deepMerge(base: Record<string, unknown>, layer: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(layer)) {
    if (v === undefined) continue
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? deepMerge(out[k] as Record<string, unknown>, v) : v
  }
  return out
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v)
  }
  return value
}
