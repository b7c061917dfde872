import type { Outcome, VenueId } from '../../model/types.js'
import type { MatchExplanation, MatchingStrategy, MatchQuality } from '../matching/matcher.js'
import type { Executable } from './executable.js'

/**
 * The spread engine's shared types: what a pair is (its spec, two legs on two venues), what the engine says of it
 * (its record) and what it tells subscribers (changes). The engine, its pair plan and its record formula all read
 * them; keeping them here keeps those modules from importing one another in a circle.
 */

/** One side of a pair: the outcome on one venue, and the page a user opens for it. */
export interface PairLeg {
  readonly venue: VenueId
  readonly outcome: Outcome
  readonly url: string
}

/**
 * A matched outcome pair: the same contract on two venues. Legs follow the venue registry order (`a` is the
 * venue registered first), so a pair's orientation does not change with prices; the record says which leg is
 * the cheaper one (platform A).
 */
export interface SpreadPairSpec {
  /** `${eventSlug}|${outcomeKey}`: stable across restarts, so history and alerts can refer to it. */
  readonly key: string
  readonly eventSlug: string
  readonly eventTitle: string
  /** The event's category slug (its venue-`a` event's, which leads the service event: /api/v2/events' `category`). */
  readonly category: string
  readonly outcomeKey: string
  readonly outcomeTitle: string
  readonly a: PairLeg
  readonly b: PairLeg
  readonly strategy: MatchingStrategy
  readonly quality: MatchQuality
  /** Why the two outcomes were paired (the API's `match`). */
  readonly match: MatchExplanation
}

/**
 * What changed from one array of specs to the next (matching/pair-specs.ts), by identity: the engine installs these
 * alone when it holds `from` (SpreadEngine.setPairsInSlices).
 */
export interface SpecsChange {
  /** The specs these are the changes from. */
  readonly from: readonly SpreadPairSpec[]
  /** Specs of `from` the next array does not hold. */
  readonly removed: readonly SpreadPairSpec[]
  /** Specs the next array holds that `from` did not. */
  readonly added: readonly SpreadPairSpec[]
}

/**
 * A pair's spread as of its last recompute. The engine's records are live (SpreadRecordValue): rewritten in place
 * by each recompute of the pair, `version` bumped, so the fields a recompute rewrites are not `readonly` here.
 * Read them synchronously and never write them; `snapshotRecord` keeps a frozen copy past the turn.
 */
export interface SpreadRecord {
  readonly pairId: number
  /** The pair's public id (pair-id.ts): a short hash of `key`, stable across restarts; the API's `id`. */
  readonly id: string
  /** Bumped by every rewrite of the record: caches of what it says compare it. */
  version: number
  readonly key: string
  readonly eventSlug: string
  readonly eventTitle: string
  readonly category: string
  readonly outcomeTitle: string
  readonly outcomeKey: string
  /** Venue of the cheaper leg (ties: leg `a`). */
  platformA: VenueId
  platformB: VenueId
  priceA: number
  priceB: number
  /** priceB − priceA. */
  spread: number
  spreadBps: number
  confidence: number
  /** Venue time of the newer quote (ms). */
  updatedAt: number
  /** Venue time of the older quote (ms): staleness is judged on it. */
  olderQuoteAt: number
  /** Either feed is disconnected or resyncing. */
  feedStale: boolean
  platformAUrl: string
  platformBUrl: string
  readonly strategy: MatchingStrategy
  readonly quality: MatchQuality
  readonly match: MatchExplanation
  /** The thinner venue's outcome volume ($). */
  minVolume: number | undefined
  /** Live too: the engine rewrites the pair's edge in place (ExecutableEdge). */
  executable: Executable | undefined
}

/** A pair whose record changed in something subscribers act on (see RecordDigests); `record` undefined: gone. */
export interface SpreadChange {
  readonly spec: SpreadPairSpec
  readonly record: SpreadRecord | undefined
}
