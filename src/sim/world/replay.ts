import type { CapturedCatalogs } from './capture-files.js'
import { World, type WorldOptions } from './world.js'
import { SIM_PEERS } from '../peers.js'
import { Rng } from './random.js'
import type { GroundTruth } from './types.js'

/**
 * A world that replays real captured catalogs (test/fixtures/real-venues) instead of generating one: every event
 * and market as captured (ids, slugs, tickers, titles, dates, statuses, volumes, categories and tags, served from
 * each record's `capture`), books seeded from the captured top of book, and each market that was trading given its
 * own fair-value path from its captured price, which the usual engine then walks. Everything that moves after the
 * start (books, trades, the simulated wallets that trade) is SIMULATED.
 *
 * Nothing before the replay's start is invented: no price history, no past trades, no wallet history. Which
 * markets of the two venues are the same is unknown, so the ground truth is empty.
 */
export interface ReplayOptions {
  readonly catalogs: CapturedCatalogs
  /** The replay's start: captured prices are the prices at this instant. */
  readonly anchorMs: number
  readonly seed: number
  readonly wallets: number
  readonly bookDepth: number
}

export const EMPTY_TRUTH: GroundTruth = { sharedQuestions: [], eventPairs: [], outcomePairs: [], decoys: [] }

export function replayWorld(options: ReplayOptions): World {
  const { catalogs } = options
  // Each peer's capture is its own type (peer.ts `readCapture`): looked up by its venue id, typed in its folder.
  const captured = (venue: string) => (catalogs as unknown as Record<string, never>)[venue] as never
  const markets = SIM_PEERS.reduce((n, peer) => n + peer.world.capturedMarkets(captured(peer.venue)), 0)
  const worldOptions: WorldOptions = {
    seed: options.seed,
    questions: markets,
    anchorMs: options.anchorMs,
    wallets: options.wallets,
    bookDepth: options.bookDepth,
    shareBoth: 0,
    decoyRate: 0,
  }
  const world = new World(worldOptions)
  world.historyStartMs = options.anchorMs
  world.replayOf = catalogs.dir
  const rng = new Rng(options.seed)
  // Each peer of the sim list (peers.ts) replays its own capture, from its own stream.
  SIM_PEERS.forEach((peer, i) => peer.world.replay(world, captured(peer.venue), rng.fork(1 + i)))
  // Simulated traders trade the replayed markets from the start on; they have no past.
  const traders = rng.fork(1 + SIM_PEERS.length)
  for (const peer of SIM_PEERS) peer.world.replayTraders(world, options.wallets, traders)
  world.truth = EMPTY_TRUTH
  return world
}
