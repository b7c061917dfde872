import type { SimConfig } from '../config/schema.js'
import type { Clock } from '../core/clock.js'
import type { PeerFields, PeerHandles, StartedPeer } from './peer.js'
import { SIM_PEERS, type SimPeers } from './peers.js'
import { SimEngine } from './world/engine.js'
import { readCapturedCatalogs } from './world/capture-files.js'
import { generateWorld } from './world/generate.js'
import { replayWorld } from './world/replay.js'
import type { World } from './world/world.js'

/**
 * The venue simulator: one seeded world (generated, or a replay of captured real catalogs when `config.catalog` is
 * set), its live engine, and every simulated venue's protocol server on loopback: the peers of the sim list
 * (peers.ts), each under its venue id (`sim[venue].urls`, `sim[venue].faults`). Everything it serves is SIMULATED (a
 * replay's listings are real, its books and trades are not); `description` says so wherever the service shows where
 * data comes from.
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

export interface SimulatorCore {
  readonly world: World
  readonly engine: SimEngine
  readonly clock: Clock
  readonly description: string
  close(): Promise<void>
}

/** The world and engine, each peer under its venue id, and what the peers add (peer.ts `simulatorFields`). */
export type Simulator = SimulatorCore & PeerHandles<SimPeers> & PeerFields<SimPeers>

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const { config, clock } = options
  const anchorMs = options.anchorMs ?? Math.floor(clock.now() / 60_000) * 60_000
  const world = buildWorld(config, anchorMs)
  const engine = new SimEngine(world, {
    peers: SIM_PEERS,
    clock,
    quoteChangesPerSec: config.quoteChangesPerSec,
    tradesPerSec: config.tradesPerSec,
    dislocationsPerMin: config.dislocationsPerMin,
    stepMs: config.stepMs,
  })
  const handles: Record<string, StartedPeer> = {}
  const fields: Record<string, unknown> = {}
  const started: StartedPeer[] = []
  try {
    for (const peer of SIM_PEERS) {
      const handle = await peer.start({
        world,
        engine,
        clock,
        config,
        portsFromConfig: options.portsFromConfig === true,
      })
      started.push(handle)
      handles[peer.venue] = handle
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each peer's own handle type, checked in its folder
      Object.assign(fields, peer.simulatorFields(handle as any))
    }
  } catch (err) {
    await Promise.all(started.map((p) => p.close()))
    throw err
  }
  if (options.startEngine !== false) engine.start()
  const simulator = {
    world,
    engine,
    clock,
    ...handles,
    ...fields,
    description: describe(config, world),
    async close() {
      engine.stop()
      await Promise.all(started.map((p) => p.close()))
    },
  }
  return simulator as Simulator
}

/** The generated world, or a replay of the captured catalogs in `config.catalog`. */
function buildWorld(config: SimConfig, anchorMs: number): World {
  const common = { seed: config.seed, wallets: config.wallets, bookDepth: config.bookDepth, anchorMs }
  if (config.catalog !== undefined) return replayWorld({ ...common, catalogs: readCapturedCatalogs(config.catalog) })
  // The schema admits only ISO dates and UTC instants, which Date.parse reads as UTC (NaN for a day that is none).
  const calendarMs = config.calendar === undefined ? undefined : Date.parse(config.calendar)
  if (calendarMs !== undefined && Number.isNaN(calendarMs))
    throw new Error(`sim.calendar (SIM_CALENDAR) "${config.calendar}" is not a date`)
  const ownLadders = Object.fromEntries(SIM_PEERS.map((p) => [p.venue, p.ownLadders(config) ?? 0]))
  return generateWorld({
    ...common,
    questions: config.questions,
    ownLadders,
    ...(calendarMs === undefined ? {} : { calendarMs }),
  })
}

function describe(config: SimConfig, world: World): string {
  const listed = SIM_PEERS.map((p) => `${p.events(world)} ${p.venue} events`).join(', ')
  if (world.replayOf !== undefined)
    return `replay of real venue catalogs from ${world.replayOf} (${listed}; simulated books and trades)`
  const ladders = SIM_PEERS.map((p) => ({ venue: p.venue, n: p.ownLadders(config) ?? 0 }))
    .filter((p) => p.n > 0)
    .map((p) => ` of which ${p.n} ${p.venue}-only ladder events`)
    .join('')
  const calendar = new Date(world.calendarMs).toISOString().replace(':00.000Z', 'Z')
  return `simulated venues (seed ${config.seed}, calendar ${calendar}, ${world.questions.length} questions${ladders}, ${listed})`
}
