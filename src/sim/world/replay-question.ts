import { binaryBaseThrough } from './fair.js'
import { hashString } from './random.js'
import type { Contract, Lifecycle, Question, SimVenue } from './types.js'

/**
 * Each replayed market is its own one-contract question, so it gets its own fair-value path (a binary model whose
 * path passes through the captured price when the replay starts) and its own lifecycle, as captured. Markets of
 * one event are independent: a capture says nothing about how they move together.
 */
export interface ReplayedMarket {
  /** Stable id, e.g. `<venue>:<market id>`: the seed of the market's path. */
  readonly id: string
  readonly venue: SimVenue
  readonly label: string
  readonly lifecycle: Lifecycle
  /** The captured end; an open market stays open however long the replay runs (Infinity). */
  readonly endTime: number
  readonly won: boolean | undefined
  /** Captured price at the replay's start; undefined when there is none or the market was not trading. */
  readonly startPrice: number | undefined
  readonly halfSpread: number
  readonly depthSize: number
}

/** Path volatility of replayed markets: calmer than the generated world's, so a run drifts from the capture slowly. */
const REPLAY_VOLATILITY = 0.4
/** Mean seconds between trades per market (unused by the live engine, which trades at a global rate). */
const TRADE_INTERVAL_SEC = 900

export function replayQuestion(r: ReplayedMarket, worldSeed: number, anchorMs: number): Question {
  const seed = (hashString(r.id) ^ worldSeed) >>> 0
  const walks = r.startPrice !== undefined
  const contract: Contract = {
    key: `${r.id}:0`,
    questionId: r.id,
    index: 0,
    label: r.label,
    threshold: undefined,
    won: r.won,
    halfSpread: r.halfSpread,
    depthSize: r.depthSize,
    tradeIntervalSec: TRADE_INTERVAL_SEC,
    walks,
  }
  return {
    id: r.id,
    seed,
    category: undefined,
    kind: 'binary',
    lifecycle: r.lifecycle,
    subject: r.label,
    createdAt: anchorMs,
    endTime: r.endTime,
    // When it resolved is not captured; nothing reads it for a market the replay does not walk.
    resolvedAt: undefined,
    volatility: REPLAY_VOLATILITY,
    contracts: [contract],
    model: {
      kind: 'binary',
      base: walks ? binaryBaseThrough(seed, REPLAY_VOLATILITY, r.venue, anchorMs, r.startPrice as number) : 0,
    },
    decoyOf: undefined,
  }
}
