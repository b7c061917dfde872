import { startApp, type App } from '../../src/app.js'
import { loadConfig, type DeepPartial } from '../../src/config/load.js'
import type { Config } from '../../src/config/schema.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { MICROS_PER_UNIT } from '../../src/core/numbers.js'
import type { LevelMicros } from '../../src/book/order-book.js'
import type { CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import type { Outcome } from '../../src/model/types.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import type { Db } from '../../src/store/db.js'
import type { VenueModule } from '../../src/venues/module.js'
import { checkedLogger, type CheckedLogger, type CheckedLoggerOptions } from './checked-logger.js'
import { freshPGlite, type Backend } from './db.js'
import { FakeResolver } from './resolver.js'
import { waitFor } from './wait.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { venuekOf } from '../../src/sim/venuek/state.js'

/** Midday, 21 Nov 2026: every test world is laid out around the same instant. */
export const TEST_ANCHOR_MS = Date.UTC(2026, 10, 21, 12)

export interface TestService {
  readonly sim: Simulator
  readonly app: App
  readonly clock: SimulatedClock
  readonly baseUrl: string
  /** The service's store: an in-memory PGlite (or the `backend` asked for), migrated, closed with the service. */
  readonly db: Db
  /**
   * A key of a developer account signed up at start (`auth: 'key'`, the default), which `call()` in api.ts sends;
   * undefined with `auth: 'off'` (AUTH_REQUIRED=false).
   */
  readonly apiKey: string | undefined
  /** Headers for a raw fetch of a data endpoint (`X-API-Key`, when there is a key). */
  readonly authHeaders: Readonly<Record<string, string>>
  /** How the service resolves webhook hosts (no real DNS in tests): set a host's answer before using it. */
  readonly resolver: FakeResolver
  /** The service's log (debug level): `warnings()` are its lines at warn level or above, parsed. */
  readonly logs: CheckedLogger
  /** Moves simulated time by `ms` in `stepMs` steps, letting the engine trade and move books at each step. */
  advance(ms: number, stepMs?: number): void
  close(): Promise<void>
}

export interface TestServiceOptions {
  readonly questions?: number
  readonly wallets?: number
  readonly config?: DeepPartial<Config>
  readonly venuekAuth?: boolean
  /** `key` (default): auth on, as in production, with a signed-up key; `off`: AUTH_REQUIRED=false. */
  readonly auth?: 'key' | 'off'
  /** Webhook host resolution; a FakeResolver with its default hosts when absent. */
  readonly resolver?: FakeResolver
  /** The store's backend (helpers/db.ts); an in-memory PGlite when absent. */
  readonly backend?: Backend
  /**
   * Replay the captured catalogs in this directory (config `sim.catalog`) instead of a generated world, e.g.
   * REAL_CATALOG_DIR; `questions` is then ignored.
   */
  readonly catalog?: string
  /**
   * Where the clock starts and the simulator is started (default TEST_ANCHOR_MS): the generated world is laid out on
   * its fixed calendar whatever this is, and has aged by then (src/sim/world/calendar.ts).
   */
  readonly anchorMs?: number
  /** The service's log: level and whether every line is kept (checked-logger.ts); default debug, not kept. */
  readonly log?: CheckedLoggerOptions
  /** The venues to serve (default the registered ones); a test adds one, its section set in `config`. */
  readonly venues?: readonly VenueModule[]
}

/**
 * The whole service in-process against the simulator, on a SimulatedClock: catalogs, feeds and HTTP are real
 * (loopback sockets); time (engine activity, staleness, reconnect backoff, rate-limit refills) moves only when the
 * test says so. The store is an in-memory PGlite; auth is on and the suite holds a real key (see `apiKey`), so every
 * endpoint suite also exercises authentication on real data endpoints.
 */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const anchorMs = options.anchorMs ?? TEST_ANCHOR_MS
  const clock = new SimulatedClock(anchorMs)
  const auth = options.auth ?? 'key'
  const overrides: DeepPartial<Config> =
    auth === 'off' ? { ...options.config, auth: { ...options.config?.auth, required: false } } : { ...options.config }
  const config = loadConfig({ env: { NODE_ENV: 'test' }, overrides, venues: options.venues })
  const sim = await startSimulator({
    config: {
      ...config.sim,
      questions: options.questions ?? 120,
      wallets: options.wallets ?? 20,
      venuekAuth: options.venuekAuth ?? true,
      catalog: options.catalog,
    },
    clock,
    anchorMs,
    startEngine: false,
  })
  const store =
    options.backend === undefined
      ? await freshPGlite().then((db) => ({ db, dispose: () => db.close() }))
      : await options.backend.open()
  const db = store.db
  // The service logs as in production (at debug level) into a sink that fails close() on an unreadable line.
  const logs = checkedLogger(options.log)
  const resolver = options.resolver ?? new FakeResolver()
  let app: App
  try {
    app = await startApp({
      config,
      log: logs.log,
      clock,
      simulator: sim,
      db,
      resolveHost: resolver.resolve,
      venues: options.venues,
    })
  } catch (err) {
    await sim.close()
    await store.dispose()
    throw err
  }
  const baseUrl = `http://127.0.0.1:${app.port}`
  const apiKey = auth === 'key' ? await signUp(baseUrl, 'test-suite@example.com') : undefined
  await waitFor(() => Object.values(app.venues).every((v) => v.ready), 15_000, 'every venue ready')
  // Matching and the read-model rebuild run in event-loop slices after the catalogs install: tests read the views
  // the venues' catalogs and cross-venue links give, not an earlier build, and spreads once the pairs are priced.
  await waitFor(
    () => app.matching.runs > 0 && app.matching.settled && app.models.settled && app.spreads.ready,
    15_000,
    'matching, read models and spreads settled',
  )
  return {
    sim,
    app,
    clock,
    baseUrl,
    db,
    apiKey,
    authHeaders: apiKey === undefined ? {} : { 'x-api-key': apiKey },
    resolver,
    logs,
    advance(ms: number, stepMs = 50) {
      for (let t = 0; t < ms; t += stepMs) {
        clock.increment(stepMs)
        sim.engine.step(clock.now())
      }
    },
    async close() {
      await app.close()
      await sim.close()
      await store.dispose()
      const bad = logs.problems()
      if (bad.length > 0)
        throw new Error(
          `${bad.length} of ${logs.lines()} log lines a machine cannot read:\n${bad.slice(0, 10).join('\n')}`,
        )
    },
  }
}

/** Signs up a developer account through the API and returns its first key. */
export async function signUp(baseUrl: string, email: string, company = 'Test Co', useCase = 'tests'): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v2/developers/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ email, company, use_case: useCase }),
  })
  const body = (await res.json()) as { api_key?: string | null }
  if (res.status !== 201 || typeof body.api_key !== 'string')
    throw new Error(`signup ${email}: ${res.status} ${JSON.stringify(body)}`)
  return body.api_key
}

/**
 * The simulator's authoritative book for an instrument, in the service's normalized form (best first):
 * venuep token 0 is the market's book, token 1 its mirror; venuek markets are YES books.
 */
export function simulatorLevels(
  sim: Simulator,
  venue: 'venuep' | 'venuek',
  instrumentId: string,
): { bids: LevelMicros[]; asks: LevelMicros[] } | undefined {
  const w = sim.world
  if (venue === 'venuek') {
    const book = venuekOf(w).books.get(instrumentId)
    if (book === undefined) return undefined
    return { bids: book.sorted('bid').reverse(), asks: book.sorted('ask') }
  }
  const token = venuepOf(w).tokens.get(instrumentId)
  const book = token === undefined ? undefined : venuepOf(w).books.get(token.market.conditionId)
  if (token === undefined || book === undefined) return undefined
  if (token.index === 0) return { bids: book.sorted('bid').reverse(), asks: book.sorted('ask') }
  const flip = ([p, s]: [number, number]): LevelMicros => [MICROS_PER_UNIT - p, s]
  return { bids: book.sorted('ask').map(flip), asks: book.sorted('bid').reverse().map(flip) }
}

/** A catalog's outcomes by the instrument (book) that prices them, in catalog order. */
export function outcomesByInstrument(catalog: CatalogSnapshot): Map<string, Outcome[]> {
  const out = new Map<string, Outcome[]>()
  for (const e of catalog.events)
    for (const m of e.markets)
      for (const o of m.outcomes) {
        const list = out.get(o.instrumentId)
        if (list === undefined) out.set(o.instrumentId, [o])
        else list.push(o)
      }
  return out
}

/** Instruments whose actor book differs from the simulator's (empty when fully in sync). */
export function booksOutOfSync(service: TestService, venue: 'venuep' | 'venuek'): string[] {
  const actor = service.app.venues[venue]
  const out: string[] = []
  const catalog = actor.catalog()
  if (catalog === undefined) return ['<no catalog>']
  for (const instrumentId of outcomesByInstrument(catalog).keys()) {
    const expected = simulatorLevels(service.sim, venue, instrumentId)
    if (expected === undefined) continue
    const book = actor.book(instrumentId)
    if (book === undefined || !book.hasSnapshot) {
      out.push(instrumentId)
      continue
    }
    if (
      JSON.stringify(book.levels('bid')) !== JSON.stringify(expected.bids) ||
      JSON.stringify(book.levels('ask')) !== JSON.stringify(expected.asks)
    )
      out.push(instrumentId)
  }
  return out
}
