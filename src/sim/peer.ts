import type { Config, SimConfig } from '../config/schema.js'
import type { Clock } from '../core/clock.js'
import type { Catalog } from '../model/types.js'
import type { AdapterContext } from '../venues/types.js'
import type { FaultPlan } from './faults.js'
import type { SimEngine, VenueMoves } from './world/engine.js'
import type { Rng } from './world/random.js'
import type { QuestionSpec } from './world/templates/types.js'
import type { Question, TruthLeg } from './world/types.js'
import type { World } from './world/world.js'

/**
 * What one simulated venue (a peer folder under src/sim/) gives the simulator: how it serves the shared world on
 * loopback, what the service needs to reach it, and what it adds to the simulator's description. The simulator,
 * the CLI and the test helpers take the peers from the sim list (peers.ts) and name no venue themselves.
 */
export interface PeerStartOptions {
  readonly world: World
  readonly engine: SimEngine
  readonly clock: Clock
  readonly config: SimConfig
  /** Listen on `config.ports` (the standalone simulator) instead of free ports (in-process use). */
  readonly portsFromConfig: boolean
}

/** A running peer: its fault knobs (faults.ts) and how to stop it. */
export interface StartedPeer {
  readonly faults: FaultPlan
  close(): Promise<void>
}

/**
 * How a venue lists and seeds the shared world. The builders (world/generate.ts, world/replay.ts) call every peer in
 * the sim list's order, with the random streams they called the venues with before there was a list, so a seed
 * gives the same world.
 */
export interface WorldPeer<C> {
  /** Lists a generated question on this venue (its part of `spec`), drawing from the world's listing stream. */
  list(world: World, q: Question, spec: QuestionSpec, rng: Rng): void
  /** What the venue lists alone, added after the planned questions and before the ground truth (`world.options`). */
  addOwnListings(world: World): void
  /** Books at the fair-value ladder for the venue's active markets; one `rng` for all peers, in list order. */
  buildBooks(world: World, rng: Rng): void
  /** The venue's past before the anchor: trades, wallets. */
  buildHistory(world: World, rng: Rng): void
  /** Reads and checks the venue's captured catalog in `dir` (world/capture-files.ts; world/capture-check.ts). */
  readCapture(dir: string): C
  /** The venue's captured catalog → its listing in a replayed world. */
  replay(world: World, captured: C, rng: Rng): void
  /** How many markets the venue's captured catalog lists. */
  capturedMarkets(captured: C): number
  /** Simulated traders that trade a replayed world from its start on (they have no past). */
  replayTraders(world: World, count: number, rng: Rng): void
  /** How the venue's books move and trade under the engine (world/engine.ts). */
  readonly moves: VenueMoves
  /** Where the venue lists a generated contract, for the ground truth (world/ground-truth.ts); undefined if it does not. */
  truthLeg(world: World, contractKey: string): TruthLeg | undefined
}

export interface SimPeer<V extends string, S extends StartedPeer, X extends object, C> {
  /** The venue id, as the service's registry (src/venues/index.ts) names it. */
  readonly venue: V
  readonly world: WorldPeer<C>
  start(options: PeerStartOptions): Promise<S>
  /** Fields the started peer adds to the simulator itself (e.g. the simulated account the service signs with). */
  simulatorFields(started: S): X
  /** How many events the peer lists (the simulator's description). */
  events(world: World): number
  /** Ladder events the generated world lists on this venue alone (`sim` config); undefined where a peer has none. */
  ownLadders(config: SimConfig): number | undefined
  /** The service environment that points at the running peer (service-env.ts); may write files under `dataDir`. */
  serviceEnv(started: S, dataDir: string): Record<string, string>
  /** The peer's catalog as the service maps it, fetched through the venue's real adapter (mapped-catalogs.ts). */
  mappedCatalog(
    started: S,
    config: Config,
    ctx: AdapterContext,
    closedLookbackDays: number | undefined,
  ): Promise<Catalog>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySimPeer = SimPeer<string, any, object, any>

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StartedOf<P> = P extends SimPeer<string, infer S, object, any> ? S : never

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type FieldsOf<P> = P extends SimPeer<string, StartedPeer, infer X, any> ? X : never

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CaptureOf<P> = P extends SimPeer<string, any, object, infer C> ? C : never

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never

/** Each started peer under its venue id, e.g. `sim[venue].urls`, `sim[venue].faults`. */
export type PeerHandles<L extends readonly AnySimPeer[]> = { readonly [P in L[number] as P['venue']]: StartedOf<P> }

/** What the peers add to the simulator besides their handles. */
export type PeerFields<L extends readonly AnySimPeer[]> = Intersection<FieldsOf<L[number]>>

/** One value per peer, under its venue id. */
export type PerPeer<L extends readonly AnySimPeer[], T> = { readonly [P in L[number] as P['venue']]: T }
