import type { CapturedCatalogs } from './capture-files.js'
import { World, type WorldOptions } from './world.js'
import { Rng } from './random.js'
import { replayVenuek } from './replay-venuek.js'
import { replayVenuep } from './replay-venuep.js'
import type { GroundTruth } from './types.js'
import { generateWallets } from './wallets.js'

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
  const markets = catalogs.venuep.reduce((n, e) => n + e.markets.length, 0) + catalogs.venuek.reduce((n, e) => n + e.markets.length, 0)
  const worldOptions: WorldOptions = { seed: options.seed, questions: markets, anchorMs: options.anchorMs, wallets: options.wallets, bookDepth: options.bookDepth, shareBoth: 0, decoyRate: 0, venuekOnlyLadders: 0 }
  const world = new World(worldOptions)
  world.historyStartMs = options.anchorMs
  world.replayOf = catalogs.dir
  const rng = new Rng(options.seed)
  replayVenuep(world, catalogs.venuep, rng.fork(1))
  replayVenuek(world, catalogs.venuek, rng.fork(2))
  // Simulated wallets trade the replayed markets from the start on; they have no past.
  for (const w of generateWallets(rng.fork(3), options.wallets, options.anchorMs)) {
    world.vpWallets.push(w)
    world.vpWalletsByAddress.set(w.address, w)
  }
  world.truth = EMPTY_TRUTH
  return world
}
