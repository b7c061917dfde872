import { generateKeyPairSync } from 'node:crypto'
import type { SimConfig } from '../config/schema.js'
import type { Clock } from '../core/clock.js'
import type { VenuekCredentials } from '../venues/venuek/signing.js'
import { FaultPlan } from './faults.js'
import { SimEngine } from './world/engine.js'
import { readCapturedCatalogs } from './world/capture-files.js'
import { generateWorld, type World } from './world/generate.js'
import { replayWorld } from './world/replay.js'
import { startVenuekSim, type VenuekSim } from './venuek/index.js'
import { startVenuepSim, type VenuepSim } from './venuep/index.js'

/**
 * The venue simulator: one seeded world (generated, or a replay of captured real catalogs when `config.catalog` is
 * set), its live engine, and both venues' protocol servers on loopback. Everything it serves is SIMULATED (a replay's
 * listings are real, its books and trades are not); `description` says so wherever the service shows where data
 * comes from.
 */
export interface SimulatorOptions {
  readonly config: SimConfig
  readonly clock: Clock
  /** The world's "now" at generation; defaults to the clock's current minute. */
  readonly anchorMs?: number
  /** Start the clock-driven engine (default true); tests drive `engine.step` themselves. */
  readonly startEngine?: boolean
  /** Listen on `config.ports` (the standalone simulator) instead of free ports (in-process use). */
  readonly portsFromConfig?: boolean
}

export interface Simulator {
  readonly world: World
  readonly engine: SimEngine
  readonly clock: Clock
  readonly venuep: VenuepSim & { readonly faults: FaultPlan }
  readonly venuek: VenuekSim & { readonly faults: FaultPlan }
  /** The simulator's venuek API key, present when signed WebSocket handshakes are required. */
  readonly venuekCredentials: VenuekCredentials | undefined
  readonly venuekPublicKeyPem: string | undefined
  readonly description: string
  close(): Promise<void>
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const { config, clock } = options
  const anchorMs = options.anchorMs ?? Math.floor(clock.now() / 60_000) * 60_000
  const world = buildWorld(config, anchorMs)
  const engine = new SimEngine(world, {
    clock,
    quoteChangesPerSec: config.quoteChangesPerSec,
    tradesPerSec: config.tradesPerSec,
    dislocationsPerMin: config.dislocationsPerMin,
    stepMs: config.stepMs,
  })
  const credentials = config.venuekAuth ? simulatorKey(config.seed) : undefined
  const venuepFaults = new FaultPlan()
  const venuekFaults = new FaultPlan()
  const ports = options.portsFromConfig === true ? config.ports : { gamma: 0, clob: 0, data: 0, venuek: 0 }
  const venuep = await startVenuepSim({ world, engine, clock, faults: venuepFaults, host: config.host, ports })
  let venuek: VenuekSim
  try {
    venuek = await startVenuekSim({
      world,
      engine,
      clock,
      faults: venuekFaults,
      host: config.host,
      port: ports.venuek,
      auth: credentials === undefined ? undefined : { required: true, publicKeys: new Map([[credentials.keyId, credentials.publicKeyPem]]) },
    })
  } catch (err) {
    await venuep.close()
    throw err
  }
  if (options.startEngine !== false) engine.start()
  return {
    world,
    engine,
    clock,
    venuep: Object.assign(venuep, { faults: venuepFaults }),
    venuek: Object.assign(venuek, { faults: venuekFaults }),
    venuekCredentials: credentials === undefined ? undefined : { keyId: credentials.keyId, privateKeyPem: credentials.privateKeyPem },
    venuekPublicKeyPem: credentials?.publicKeyPem,
    description: describe(config, world),
    async close() {
      engine.stop()
      await Promise.all([venuep.close(), venuek.close()])
    },
  }
}

/** The generated world, or a replay of the captured catalogs in `config.catalog`. */
function buildWorld(config: SimConfig, anchorMs: number): World {
  const common = { seed: config.seed, wallets: config.wallets, bookDepth: config.bookDepth, anchorMs }
  if (config.catalog !== undefined) return replayWorld({ ...common, catalogs: readCapturedCatalogs(config.catalog) })
  // The schema admits only ISO dates and UTC instants, which Date.parse reads as UTC (NaN for a day that is none).
  const calendarMs = config.calendar === undefined ? undefined : Date.parse(config.calendar)
  if (calendarMs !== undefined && Number.isNaN(calendarMs)) throw new Error(`sim.calendar (SIM_CALENDAR) "${config.calendar}" is not a date`)
  return generateWorld({ ...common, questions: config.questions, venuekOnlyLadders: config.venuekOnlyLadders, ...(calendarMs === undefined ? {} : { calendarMs }) })
}

function describe(config: SimConfig, world: World): string {
  const listed = `${world.vpEvents.length} venuep events, ${world.vkEvents.length} venuek events`
  if (world.replayOf !== undefined) return `replay of real venue catalogs from ${world.replayOf} (${listed}; simulated books and trades)`
  const ladders = config.venuekOnlyLadders > 0 ? ` of which ${config.venuekOnlyLadders} venuek-only ladder events` : ''
  const calendar = new Date(world.calendarMs).toISOString().replace(':00.000Z', 'Z')
  return `simulated venues (seed ${config.seed}, calendar ${calendar}, ${world.questions.length} questions${ladders}, ${listed})`
}

/** A fresh RSA key for the simulated venuek account (the real venue issues RSA keys only). */
function simulatorKey(seed: number): { keyId: string; privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    keyId: `sim-key-${seed}`,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  }
}
