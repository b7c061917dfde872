import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox'
import { DEFAULT_HOLD_MAX_BYTES } from '../bus/stream/frame-hold.js'
import type { RegisteredVenueConfigs } from '../venues/index.js'

/**
 * The service's configuration: one schema with defaults and units, validated at boot (load.ts), then frozen
 * and passed explicitly. Units are in the names (`…Ms`, `…PerSec`). `additionalProperties: false` everywhere
 * so a misspelled key fails the boot instead of being silently ignored.
 */
const Ms = (def: number, min = 0) => Type.Integer({ minimum: min, default: def })

export const SimConfigSchema = Type.Object(
  {
    seed: Type.Integer({ default: 42 }),
    /** Canonical questions in the simulated world (each listed on one or both venues). */
    questions: Type.Integer({ minimum: 1, default: 2_400 }),
    /**
     * venuek-only ladder events added to the generated world (env `SIM_VENUEK_ONLY_LADDERS`), each 10-22 markets
     * (an index's daily close in ranges, a coin's hourly price in ranges or above strikes; src/sim/venuek/ladders.ts):
     * the real venuek catalog lists far more markets than venuep because of such series. Listed on venuek alone,
     * open and short-dated; not in the ground truth. 0 (the default) leaves the world exactly as without it.
     */
    venuekOnlyLadders: Type.Integer({ minimum: 0, default: 0 }),
    /**
     * The instant the generated world is laid out around (env `SIM_CALENDAR`), an ISO 8601 date or UTC instant
     * ("2027-01-01", "2027-01-01T12:00:00Z"); unset, src/sim/world/calendar.ts's (2026-11-21T12:00Z). Identifiers,
     * titles and dates are a function of the seed, the sizes and this; started later, the world has aged (questions
     * past their end are closed or resolved), and a later calendar lays out a fresh world with other identifiers.
     */
    calendar: Type.Optional(
      Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?Z)?$' }),
    ),
    /**
     * Replay real captured catalogs instead of generating a world (env `SIM_CATALOG`): a directory holding
     * `venuep.json` and `venuek.json` in the format of test/fixtures/real-venues/FORMAT.md, relative to the process's
     * working directory. Events and markets are served as captured; books start at the captured prices and are
     * then simulated (`questions` is ignored). Data is still labelled simulated.
     */
    catalog: Type.Optional(Type.String({ minLength: 1 })),
    wallets: Type.Integer({ minimum: 0, default: 400 }),
    bookDepth: Type.Integer({ minimum: 1, maximum: 100, default: 12 }),
    quoteChangesPerSec: Type.Number({ minimum: 0, default: 400 }),
    tradesPerSec: Type.Number({ minimum: 0, default: 4 }),
    dislocationsPerMin: Type.Number({ minimum: 0, default: 3 }),
    stepMs: Ms(50, 1),
    /** Require RSA-PSS signed venuek WebSocket handshakes (the service then signs with a generated key). */
    venuekAuth: Type.Boolean({ default: true }),
    host: Type.String({ default: '127.0.0.1' }),
    /**
     * Use a simulator that is already running (`npm run sim`) at the configured venue URLs instead of starting
     * one in-process. Data is still labelled simulated.
     */
    external: Type.Boolean({ default: false }),
    /** Ports of the standalone simulator (`npm run sim`); 0 picks free ports. */
    ports: Type.Object(
      {
        gamma: Type.Integer({ minimum: 0, maximum: 65_535, default: 7101 }),
        clob: Type.Integer({ minimum: 0, maximum: 65_535, default: 7102 }),
        data: Type.Integer({ minimum: 0, maximum: 65_535, default: 7103 }),
        venuek: Type.Integer({ minimum: 0, maximum: 65_535, default: 7104 }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false },
)

/**
 * API keys, authentication and rate limits (issue 4). Keys are checked on every data endpoint unless `required`
 * is false (AUTH_REQUIRED=false, local use only); developer key management always needs a key.
 */
export const AuthConfigSchema = Type.Object(
  {
    /** Require `X-API-Key` on data and alert endpoints. */
    required: Type.Boolean({ default: true }),
    /** Fixed service prefix of every key value (the spec's `<API_KEY_PREFIX>`). Changing it invalidates no key. */
    keyPrefix: Type.String({ pattern: '^[a-z][a-z0-9_]{1,15}$', default: 'pmk_live_' }),
    /** Active (unrevoked) keys one account may hold; rate limits are per key, so this also caps an account's rate. */
    maxActiveKeysPerAccount: Type.Integer({ minimum: 1, maximum: 1_000, default: 20 }),
    cache: Type.Object(
      {
        /** Validated keys kept in memory (LRU), with their rate-limit buckets. */
        maxKeys: Type.Integer({ minimum: 10, default: 10_000 }),
        /** Unknown keys remembered (LRU), so repeated bad keys do not reach the database. */
        maxUnknownKeys: Type.Integer({ minimum: 10, default: 10_000 }),
        unknownKeyTtlMs: Ms(60_000, 0),
        /** A cached key is re-read from the database in the background this often (belt and braces). */
        revalidateMs: Ms(300_000, 1_000),
        /** Concurrent database lookups of uncached keys; beyond it, 503 (a flood of random keys). */
        maxPendingLookups: Type.Integer({ minimum: 1, default: 256 }),
      },
      { additionalProperties: false, default: {} },
    ),
    /**
     * How often each replica polls for keys revoked elsewhere: the bound on revocation reaching another replica
     * when NOTIFY is not heard (on Postgres it usually arrives within milliseconds).
     */
    revocationPollMs: Ms(1_000, 50),
    /**
     * Public signup (`POST /api/v2/developers/signup`), which needs no key, is limited per client address instead: a
     * token bucket per IPv4 address or IPv6 /64 and replica (src/http/client-address.ts). 429 `rate_limited` with
     * `Retry-After` when empty. The client is the connection's peer; X-Forwarded-For counts only from
     * `http.trustedProxies`.
     */
    signupRateLimit: Type.Object(
      {
        /** Refill: signups per minute per client (SIGNUP_RATE_LIMIT_PER_MIN). */
        perMinute: Type.Number({ exclusiveMinimum: 0, default: 5 }),
        /** Bucket size: signups a client may make at once (SIGNUP_RATE_LIMIT_BURST). */
        burst: Type.Integer({ minimum: 1, default: 10 }),
        /** Clients whose buckets are kept (LRU); a client pushed out starts again with a full bucket. */
        maxClients: Type.Integer({ minimum: 100, default: 10_000 }),
      },
      { additionalProperties: false, default: {} },
    ),
    rateLimit: Type.Object(
      {
        /** Token bucket per key and replica: refill rate (requests per second). */
        perSecond: Type.Number({ exclusiveMinimum: 0, default: 20 }),
        /** Bucket size: requests a key may make at once after being idle (also `X-RateLimit-Limit`). */
        burst: Type.Integer({ minimum: 1, default: 40 }),
      },
      { additionalProperties: false, default: {} },
    ),
    usage: Type.Object(
      {
        /** Request counts are kept in memory and written to the store this often (one statement per flush). */
        flushMs: Ms(10_000, 100),
        retentionDays: Type.Integer({ minimum: 1, maximum: 400, default: 30 }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
)

/**
 * Spread history (issue 5): what the sampler records, how it writes, how long raw points are kept. The rules are in
 * src/spreads/history/history-sampler.ts and the storage policy in migration 0004.
 */
export const SpreadHistoryConfigSchema = Type.Object(
  {
    /** At most one point per pair per this long; a change held back is written when the window opens. */
    minIntervalMs: Ms(60_000, 1_000),
    /** A point is recorded when the spread moved at least this much (basis points) since the pair's last point… */
    minChangeBps: Type.Number({ minimum: 0, maximum: 10_000, default: 10 }),
    /** …or when platform_a flipped, or when a smaller price move has waited this long (slow drift still shows). */
    heartbeatMs: Ms(3_600_000, 1_000),
    /** Points waiting to be written; beyond it, superseded points are thinned, then the oldest dropped (counted). */
    queueCapacity: Type.Integer({ minimum: 100, default: 100_000 }),
    /** Points per insert statement; a full batch is written at once, without waiting for the flush timer. */
    batchSize: Type.Integer({ minimum: 1, maximum: 10_000, default: 1_000 }),
    /** The queue is written (and held-back points released) at least this often. */
    flushMs: Ms(1_000, 10),
    /** Raw points are kept this many days; daily closes forever. At least 31: the `1m` range reads 30 days. */
    retentionDays: Type.Integer({ minimum: 31, maximum: 3_650, default: 35 }),
    /** Rows per retention DELETE statement. */
    retentionBatchSize: Type.Integer({ minimum: 100, maximum: 100_000, default: 5_000 }),
    /** Statements per retention run at most; the rest waits for the next run. */
    retentionMaxBatches: Type.Integer({ minimum: 1, default: 200 }),
    /** Retention run period (the first run is a minute after boot). */
    retentionIntervalMs: Ms(3_600_000, 1_000),
    /** Graceful shutdown retries writing the queue for at most this long before giving up (logged, counted). */
    closeTimeoutMs: Ms(10_000, 0),
  },
  { additionalProperties: false, default: {} },
)

/**
 * Alert evaluation and delivery (issue 5): src/alerts/. Semantics of triggers, hysteresis and cooldown are in
 * src/alerts/trigger-machine.ts and evaluator.ts; delivery (outbox, leases, retries) in delivery-worker.ts.
 */
export const AlertDeliveryConfigSchema = Type.Object(
  {
    /** Deliveries in flight at once on this replica; 0: this replica evaluates but leaves delivery to others. */
    concurrency: Type.Integer({ minimum: 0, maximum: 256, default: 8 }),
    /** Outbox poll period. This replica's own firings and test deliveries are claimed at once, without waiting. */
    pollMs: Ms(1_000, 10),
    /** A claimed delivery is its worker's for this long; a crashed worker's deliveries are claimed again after it. */
    leaseMs: Ms(60_000, 1_000),
    /** Attempts per delivery before it is marked failed. */
    maxAttempts: Type.Integer({ minimum: 1, maximum: 50, default: 8 }),
    /** Retry backoff: doubling from this, capped at backoffMaxMs, with jitter (src/alerts/retry-policy.ts). */
    backoffBaseMs: Ms(30_000, 1),
    backoffMaxMs: Ms(3_600_000, 1),
    /** A webhook that has not answered within this long has failed the attempt. Must be below leaseMs. */
    webhookTimeoutMs: Ms(10_000, 100),
    /** Graceful shutdown: in-flight deliveries get this long, then are aborted and handed back to the outbox. */
    shutdownGraceMs: Ms(5_000, 0),
    /** Delivered and failed deliveries are kept this many days (the delivery log). */
    retentionDays: Type.Integer({ minimum: 1, maximum: 3_650, default: 30 }),
  },
  { additionalProperties: false, default: {} },
)

/**
 * Where webhooks may go (src/alerts/target-policy.ts). By default only to public addresses: a webhook URL whose
 * host is, or resolves to, a loopback, private (RFC 1918, fc00::/7), shared (100.64/10), link-local, unspecified,
 * multicast, broadcast, reserved or cloud-metadata address is refused at rule creation (422) and at every delivery
 * attempt (`target_not_allowed`, failed at once). The delivery connects only to the addresses it checked.
 */
export const WebhookTargetConfigSchema = Type.Object(
  {
    /**
     * Allow non-public addresses (an internal receiver; ALERTS_WEBHOOK_ALLOW_PRIVATE_TARGETS). Unspecified,
     * link-local (where cloud metadata services live), multicast and broadcast stay refused: list them in
     * allowedCidrs if you really mean it.
     */
    allowPrivateTargets: Type.Boolean({ default: false }),
    /**
     * Blocks allowed whatever they are, e.g. `["10.20.0.0/16"]` or `["127.0.0.0/8", "::1"]` (a bare address is a
     * block of one; ALERTS_WEBHOOK_ALLOWED_CIDRS, comma-separated). The precise alternative to allowPrivateTargets.
     */
    allowedCidrs: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** A DNS lookup of a webhook host that takes longer has failed: 503 `dns_unavailable` at creation, retried at delivery. */
    resolveTimeoutMs: Ms(5_000, 100),
  },
  { additionalProperties: false, default: {} },
)

/** SMTP server for e-mail alerts. Unset url and host: e-mail deliveries fail at once with `smtp_not_configured`. */
export const SmtpConfigSchema = Type.Object(
  {
    /** `smtp://user:pass@host:587` or `smtps://…:465` (SMTP_URL); wins over the fields below. */
    url: Type.Optional(Type.String({ minLength: 1 })),
    host: Type.Optional(Type.String({ minLength: 1 })),
    port: Type.Integer({ minimum: 1, maximum: 65_535, default: 587 }),
    /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
    secure: Type.Boolean({ default: false }),
    /** Refuse to send over a connection that was not upgraded with STARTTLS. */
    requireTls: Type.Boolean({ default: false }),
    user: Type.Optional(Type.String({ minLength: 1 })),
    password: Type.Optional(Type.String()),
    /** Sender address (SMTP_FROM). */
    from: Type.String({ minLength: 3, default: 'Spread alerts <alerts@localhost>' }),
    /** Connection, greeting and socket inactivity timeout. */
    timeoutMs: Ms(10_000, 100),
  },
  { additionalProperties: false, default: {} },
)

/**
 * The streaming WebSocket `GET /api/v2/stream` (issue 21, docs: ../shared/STREAMING.md): the limits stated in its
 * `welcome` frame, the slow-consumer policy, heartbeats and the resume window (src/stream/server/).
 */
export const StreamConfigSchema = Type.Object(
  {
    /** Open connections one API key may hold on this replica; beyond it, CONNECTION_LIMIT and close 4029. */
    connectionsPerKey: Type.Integer({ minimum: 1, default: 10 }),
    /** Streams (keys) one connection may hold; beyond it, each key is rejected with SUBSCRIPTION_LIMIT. */
    keysPerConnection: Type.Integer({ minimum: 1, default: 500 }),
    /** Commands per second per connection (token bucket of that size); beyond it RATE_LIMITED, then close 4029. */
    commandsPerSecond: Type.Integer({ minimum: 1, default: 20 }),
    /** A connection is closed after this long with `bye` and 1001 (the client reconnects and resumes). */
    maxLifetimeS: Type.Integer({ minimum: 1, default: 86_400 }),
    /** A client frame above this size gets BAD_REQUEST and close 4400. */
    maxFrameBytes: Type.Integer({ minimum: 256, maximum: 1_048_576, default: 16_384 }),
    /** A socket whose send buffer passes this drops frames (and is re-snapshotted or closed): uWS maxBackpressure. */
    maxBackpressureBytes: Type.Integer({ minimum: 1_024, default: 1_048_576 }),
    /** Without a key on the upgrade, the first-frame `auth` must arrive within this long, else close 4401. */
    authTimeoutMs: Ms(5_000, 1),
    /** App-level `hb` period. */
    heartbeatMs: Ms(1_000, 10),
    /** Protocol-level: uWS closes a socket silent this long (it sends pings on its own before). */
    idleTimeoutS: Type.Integer({ minimum: 8, maximum: 960, default: 120 }),
    /** `bye.reconnect_after_ms` on shutdown and at the end of a connection's lifetime. */
    reconnectAfterMs: Ms(1_000, 0),
    /** The `snapshot` command serves one key at most this often per connection. */
    snapshotMinIntervalMs: Ms(1_000, 0),
    slowConsumer: Type.Object(
      {
        /** More re-snapshot rounds than this within `windowMs` close the socket with 4008. */
        maxResnapshots: Type.Integer({ minimum: 0, default: 3 }),
        windowMs: Ms(60_000, 1),
        /** A socket lagging this long without draining is closed with 4008. */
        maxLagMs: Ms(10_000, 1),
      },
      { additionalProperties: false, default: {} },
    ),
    /**
     * `lts` and `pts` with microseconds (e.g. `1781159489961.237`) instead of whole ms (STREAM_PRECISE_TIMES): for
     * clients that measure latency through the service to better than a millisecond. Off by default: the contract's
     * example and clients that parse them as integers (core/precise-time.ts).
     */
    preciseTimes: Type.Boolean({ default: false }),
    /** Resume window per stream: the last this-many frames, no older than `resumeWindowMs`. */
    resumeWindowFrames: Type.Integer({ minimum: 0, default: 1_024 }),
    resumeWindowMs: Ms(120_000, 0),
  },
  { additionalProperties: false, default: {} },
)

/** Everything but `venues`, whose sections come from the registered venues (`configSchema`). */
const BaseConfigSchema = Type.Object(
  {
    /** Which config profile produced this object (default, live, test), for logs and /readyz. */
    profile: Type.String({ default: 'default' }),
    http: Type.Object(
      {
        host: Type.String({ default: '127.0.0.1' }),
        port: Type.Integer({ minimum: 0, maximum: 65_535, default: 8080 }),
        /**
         * Reverse proxies (CIDR blocks or addresses; TRUSTED_PROXIES, comma-separated) whose `X-Forwarded-For` names
         * the client for per-client limits (signup). Empty by default: the header is ignored, since any client can
         * send it, and the connection's peer is the client. Behind a proxy, list it or every client shares its bucket.
         */
        trustedProxies: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
        /**
         * Browser origins allowed to read the API cross-origin (CORS_ALLOWED_ORIGINS, comma-separated): exact origins
         * (`https://app.example.com`, scheme and host, a port when not the default, no path or trailing slash), or
         * `*` for any. Empty by default: no CORS headers, so only same-origin pages (and non-browser clients) read it.
         * `*` is safe with keys in `X-API-Key` (no cookies, so a page can only send a key it already holds), but not
         * with AUTH_REQUIRED=false on a private network: any page a user opens could then read and write it. See
         * src/http/cors.ts.
         */
        corsAllowedOrigins: Type.Array(Type.String({ pattern: '^(\\*|[A-Za-z][A-Za-z0-9+.-]*://[^/\\s]+)$' }), {
          default: [],
        }),
      },
      { additionalProperties: false },
    ),
    /**
     * What this process runs (ROLE; docs/SCALE-OUT.md): `all`, everything in one process with no broker (the
     * default); `ingest`, the venue actors, matcher, spread engine and store writers, publishing to the broker; `edge`,
     * REST reads and `/api/v2/stream` from the state it rebuilds from the broker, with no venue connection.
     */
    role: Type.Union([Type.Literal('all'), Type.Literal('ingest'), Type.Literal('edge')], { default: 'all' }),
    /** The broker of `ingest` and `edge` (NATS_URL); unused by `all`. */
    nats: Type.Object(
      {
        url: Type.String({ minLength: 1, default: 'nats://127.0.0.1:4222' }),
        /**
         * Ingest: bytes of stream frames held through a broker outage (NATS_HOLD_MAX_BYTES; the default's reasoning is
         * at DEFAULT_HOLD_MAX_BYTES). Past it the streams start over from their snapshots at the edges.
         */
        holdMaxBytes: Type.Integer({ minimum: 0, default: DEFAULT_HOLD_MAX_BYTES }),
      },
      { additionalProperties: false, default: {} },
    ),
    dataDir: Type.String({ minLength: 1, default: './data' }),
    /** Postgres connection string; when absent the embedded PGlite in dataDir is used. */
    databaseUrl: Type.Optional(Type.String({ minLength: 1 })),
    logLevel: Type.Union(
      [
        Type.Literal('fatal'),
        Type.Literal('error'),
        Type.Literal('warn'),
        Type.Literal('info'),
        Type.Literal('debug'),
        Type.Literal('trace'),
        Type.Literal('silent'),
      ],
      { default: 'info' },
    ),
    sim: SimConfigSchema,
    spreads: Type.Object(
      {
        /** Manual cross-venue matches (JSON), relative to the working directory. */
        manualMatchesPath: Type.String({ default: 'config/matches.json' }),
        /** Reviewed name aliases for matching (JSON, src/spreads/matching/aliases.ts), relative to the working directory. */
        aliasesPath: Type.String({ default: 'config/aliases.json' }),
        /**
         * Measured precision of each automatic match quality (JSON, written by `npm run eval:matching`), relative to
         * the working directory; it scales the spreads' confidence. Absent: fixed weights (0.9 high, 0.7 medium).
         */
        matchCalibrationPath: Type.String({ default: 'config/match-calibration.json' }),
        /** Freshness re-score period of the spread engine. */
        rescoreMs: Ms(60_000, 100),
        history: SpreadHistoryConfigSchema,
      },
      { additionalProperties: false, default: {} },
    ),
    database: Type.Object(
      {
        /** Connections per replica in the `pg` pool (Postgres only). */
        poolMax: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
        connectTimeoutMs: Ms(5_000, 100),
        /** Server-side statement timeout: a stuck query fails (503 to the client) instead of hanging. */
        statementTimeoutMs: Ms(10_000, 100),
      },
      { additionalProperties: false, default: {} },
    ),
    auth: AuthConfigSchema,
    alerts: Type.Object(
      {
        /** Rules (active or paused) one user may have under one account. */
        maxRulesPerUser: Type.Integer({ minimum: 1, maximum: 10_000, default: 100 }),
        /** `cooldown_seconds` of a rule created without one: the least time between two deliveries of a rule. */
        defaultCooldownSeconds: Type.Integer({ minimum: 0, maximum: 604_800, default: 300 }),
        /**
         * Hysteresis band (probability points): spread_threshold re-arms only below threshold − band, and
         * spread_collapse fires only there; capped per rule at half its threshold.
         */
        hysteresis: Type.Number({ minimum: 0, maximum: 0.5, default: 0.005 }),
        /** Evaluator decisions waiting to be written; when full, new ones are refused (counted) and re-derived later. */
        queueCapacity: Type.Integer({ minimum: 100, default: 10_000 }),
        /** new_pair: a pair counts as new for this long after the deployment first saw it priced on both venues. */
        newPairWindowMs: Ms(86_400_000, 0),
        /** new_pair: pairs first seen within this long of the deployment's first sighting are the initial catalog. */
        newPairSettleMs: Ms(600_000, 0),
        delivery: AlertDeliveryConfigSchema,
        webhook: WebhookTargetConfigSchema,
        smtp: SmtpConfigSchema,
      },
      { additionalProperties: false, default: {} },
    ),
    stream: StreamConfigSchema,
    actors: Type.Object(
      {
        mailboxCapacity: Type.Integer({ minimum: 16, default: 100_000 }),
        restartInitialBackoffMs: Ms(250, 1),
        restartMaxBackoffMs: Ms(30_000, 1),
        /**
         * Each venue's last installed catalog is written to `dataDir/catalogs/<venue>.jsonl` once the venue is first
         * ready, then at most this often, and a restart serves it at once (src/actors/catalog-file.ts). 0: no catalog
         * file. Never with the in-process simulator, whose world is new at every start.
         */
        catalogFileEveryMs: Ms(300_000, 0),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)

/** `sim`: start the venue simulator in-process and point the adapters at it; `live`: the real venues. */
const VenueModeSchema = Type.Union([Type.Literal('sim'), Type.Literal('live')], { default: 'sim' })

/** A registered venue's config section: `venues.<id>` (src/venues/<venue>/config.ts). */
export interface VenueConfigSection {
  readonly id: string
  readonly config: { readonly schema: TObject }
}

/**
 * The whole schema for these venues: `venues` holds `mode` and one section per venue (its own schema, defaults and
 * units), so the config file format stays `venues.<id>.…` whatever venues are registered.
 */
export function configSchema(venues: readonly VenueConfigSection[]): TObject {
  const sections = Object.fromEntries(venues.map((v) => [v.id, v.config.schema]))
  const venuesSchema = Type.Object({ mode: VenueModeSchema, ...sections }, { additionalProperties: false })
  // In the documented order (after logLevel), so validation lists problems as before.
  const properties: Record<string, TSchema> = {}
  for (const [key, schema] of Object.entries(BaseConfigSchema.properties)) {
    properties[key] = schema
    if (key === 'logLevel') properties.venues = venuesSchema
  }
  return Type.Object(properties, { additionalProperties: false })
}

/**
 * `venues`: the mode and each venue's section, typed for the registered ones (a venue added at run time, as in a
 * test, is read with `venueConfig`, src/venues/module.ts).
 */
export type VenuesConfig = { readonly mode: Static<typeof VenueModeSchema> } & RegisteredVenueConfigs & {
    readonly [venue: string]: unknown
  }
export type Config = Static<typeof BaseConfigSchema> & { readonly venues: VenuesConfig }
export type SimConfig = Static<typeof SimConfigSchema>
export type AuthConfig = Static<typeof AuthConfigSchema>
export type AlertsConfig = Config['alerts']
export type SpreadHistoryConfig = Static<typeof SpreadHistoryConfigSchema>
export type StreamConfig = Static<typeof StreamConfigSchema>
