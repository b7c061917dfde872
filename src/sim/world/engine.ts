import type { Clock, TimerHandle } from '../../core/clock.js'
import { MICROS_PER_UNIT } from '../../core/numbers.js'
import { rebalance, type LevelChange, type SimBook } from './book-model.js'
import { isOrdered } from './fair.js'
import { Rng } from './random.js'
import type { Contract, SimVenue } from './types.js'
import type { World } from './world.js'

/**
 * The simulator's clock-driven market activity: at a configured rate it moves books toward their fair value
 * (plus order churn), prints trades that take liquidity from the live book, and opens dislocations between the
 * venues on shared questions. How a venue's book moves and how it trades (its trade records, wallets, tick sizes)
 * is the venue's own: each peer of the sim list (peers.ts) gives its `VenueMoves` (e.g.
 * src/sim/<venue>/engine-moves.ts), which the engine calls with an `EngineContext`. Protocol servers subscribe to
 * the events and translate them into wire messages.
 */
/** An engine event; each venue's moves define their own (their `type` names which), and its servers read those. */
export interface EngineEvent {
  readonly type: string
  readonly ts: number
}

/** A market the engine walks: its contract's fair value drives its book. */
export interface EngineMarket {
  readonly contract: Contract
}

/** What the engine lends a venue's moves: the world, its random stream and counters, and the shared book steps. */
export interface EngineContext {
  readonly world: World
  readonly rng: Rng
  readonly counters: EngineCounters
  emit(event: EngineEvent): void
  /**
   * Requotes `book` toward the fair-value ladder around `fair`; returns the level changes (none: the book is as it
   * was). A change counts as one book change and stamps the book.
   */
  rebalance(book: SimBook, contract: Contract, fair: number, now: number): LevelChange[]
  /**
   * Order churn at the top of `book`: the best bid or best ask level is re-sized (orders added or cancelled there),
   * with no trade and no price move; returns the level changes, counted and stamped as `rebalance`'s.
   */
  churn(book: SimBook, contract: Contract, now: number): LevelChange[]
}

export interface EngineCounters {
  bookChanges: number
  trades: number
  dislocations: number
  tickSizeChanges: number
}

/** How one venue's markets move under the engine (a peer's `world.moves`, peer.ts). */
export interface VenueMoves<M extends EngineMarket = EngineMarket> {
  /** The markets the engine walks (a walking contract and a book of their own), in listing order. */
  active(world: World): M[]
  /** Requotes `m`'s book at the venue's fair value for it. */
  requote(m: M, ctx: EngineContext, now: number): void
  /** Order churn at the top of `m`'s book (`EngineContext.churn`). */
  churnTop(m: M, ctx: EngineContext, now: number): void
  /** A taker trade on `m`, taking liquidity from its live book. */
  trade(m: M, ctx: EngineContext, now: number): void
  /**
   * The market that lists `contract` on the venue, and the contract and sign a dislocation of `contract` moves there
   * (e.g. a market priced off another contract of the question moves opposite); undefined where it is not listed.
   */
  dislocation(
    world: World,
    contract: Contract,
  ): { readonly market: M; readonly contract: Contract; readonly sign: 1 | -1 } | undefined
}

/** One venue as the engine walks it: its moves, its active markets and the books it requotes together. */
interface WalkedVenue {
  readonly venue: SimVenue
  readonly moves: VenueMoves
  readonly active: EngineMarket[]
  /**
   * Per ordered question (a ladder, a deadline ladder) with more than one live book on the venue, those books: they
   * are requoted together, at one instant, so a venue never shows P(above $168) bid above P(above $160) ask (fair.ts
   * keeps the fair values ordered; books quoted at different instants would not be).
   */
  readonly siblings: Map<string, EngineMarket[]>
}

/** What the engine needs of a peer of the sim list: its venue and how that venue's markets move. */
export interface EnginePeer {
  readonly venue: SimVenue
  readonly world: { readonly moves: VenueMoves }
}

export interface EngineOptions {
  /** The sim list (src/sim/peers.ts `SIM_PEERS`), given rather than imported: the peers' contract names the engine. */
  readonly peers: readonly EnginePeer[]
  readonly clock: Clock
  /** Book changes per second across both venues. */
  readonly quoteChangesPerSec: number
  /** Trades per second across both venues. */
  readonly tradesPerSec: number
  /** How often the engine wakes up. */
  readonly stepMs: number
  /** Dislocations opened per minute on questions listed on both venues. */
  readonly dislocationsPerMin: number
  readonly seed?: number
}

const MAX_CATCH_UP_SEC = 2

export class SimEngine {
  readonly #world: World
  readonly #options: EngineOptions
  readonly #rng: Rng
  readonly #listeners = new Set<(event: EngineEvent) => void>()
  /** The peers of the sim list, in list order (the order the random picks index them). */
  readonly #venues: WalkedVenue[]
  readonly #byVenue = new Map<SimVenue, WalkedVenue>()
  readonly #sharedContracts: Contract[]
  readonly #context: EngineContext
  #timer: TimerHandle | undefined
  #lastStep: number
  #quoteCarry = 0
  #tradeCarry = 0
  #dislocationCarry = 0
  /** Counters for tests and the simulator's own status output. */
  readonly counters: EngineCounters = { bookChanges: 0, trades: 0, dislocations: 0, tickSizeChanges: 0 }

  constructor(world: World, options: EngineOptions) {
    this.#world = world
    this.#options = options
    this.#rng = new Rng(options.seed ?? world.options.seed ^ 0x2545f491)
    this.#venues = options.peers.map((peer) => {
      const moves: VenueMoves = peer.world.moves
      // A book whose contract has no fair-value path (a replayed market not trading when captured) stays as seeded.
      const active = moves.active(world)
      return { venue: peer.venue, moves, active, siblings: groupOrdered(world, active) }
    })
    for (const v of this.#venues) this.#byVenue.set(v.venue, v)
    const shared = new Set(world.truth.outcomePairs.map((p) => p.contractKey))
    this.#sharedContracts = world.questions.flatMap((q) => q.contracts.filter((c) => shared.has(c.key)))
    this.#context = {
      world,
      rng: this.#rng,
      counters: this.counters,
      emit: (event) => this.#emit(event),
      rebalance: (book, contract, fair, now) => {
        const changes: LevelChange[] = []
        rebalance(book, this.#ladder(contract, fair), this.#rng, changes)
        return this.#changed(book, changes, now)
      },
      churn: (book, contract, now) => this.#churnTop(book, contract, now),
    }
    this.#lastStep = options.clock.now()
  }

  on(listener: (event: EngineEvent) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  start(): void {
    if (this.#timer !== undefined) return
    this.#lastStep = this.#options.clock.now()
    this.#timer = this.#options.clock.setInterval(() => this.step(this.#options.clock.now()), this.#options.stepMs)
  }

  stop(): void {
    this.#options.clock.clearInterval(this.#timer)
    this.#timer = undefined
  }

  /** Advances activity to `now`. Public so tests and benchmarks can drive the engine deterministically. */
  step(now: number): void {
    const dtSec = Math.min(MAX_CATCH_UP_SEC, Math.max(0, (now - this.#lastStep) / 1000))
    this.#lastStep = now
    this.#quoteCarry += this.#options.quoteChangesPerSec * dtSec
    this.#tradeCarry += this.#options.tradesPerSec * dtSec
    this.#dislocationCarry += (this.#options.dislocationsPerMin / 60) * dtSec
    while (this.#dislocationCarry >= 1) {
      this.#dislocationCarry -= 1
      this.openRandomDislocation(now)
    }
    // A ladder's books move together: each counts against the rate.
    while (this.#quoteCarry >= 1) this.#quoteCarry -= Math.max(1, this.moveRandomBook(now))
    while (this.#tradeCarry >= 1) {
      this.#tradeCarry -= 1
      this.randomTrade(now)
    }
  }

  /** Moves one random active book (any venue), with its ladder's on that venue; returns how many books it requoted. */
  moveRandomBook(now: number): number {
    const picked = this.#pickActive()
    return picked === undefined ? 0 : this.#move(picked[0], picked[1], now)
  }

  /** Requotes `m`'s book on `venue` at its fair value, and its ladder's other books there with it; returns how many. */
  moveBook(venue: SimVenue, m: EngineMarket, now: number): number {
    return this.#move(this.#walked(venue), m, now)
  }

  /**
   * Order churn at the top of `m`'s book on `venue`: the best bid or best ask level is re-sized (orders added or
   * cancelled there), one book event whose only change is the top of book, with no trade and no price move.
   */
  churnTop(venue: SimVenue, m: EngineMarket, now: number): void {
    this.#walked(venue).moves.churnTop(m, this.#context, now)
  }

  randomTrade(now: number): void {
    const picked = this.#pickActive()
    if (picked !== undefined) picked[0].moves.trade(picked[1], this.#context, now)
  }

  /** A taker trade on `m` on `venue` (the venue's moves say who trades and what it records). */
  trade(venue: SimVenue, m: EngineMarket, now: number): void {
    this.#walked(venue).moves.trade(m, this.#context, now)
  }

  /**
   * Opens a price dislocation: `venue` quotes `contract` off its fair value by `offset` (logit units) for
   * `durationMs`, and the affected book moves at once. Used by tests to create a known spread.
   */
  openDislocation(contract: Contract, venue: SimVenue, offset: number, durationMs: number, now: number): void {
    const walked = this.#byVenue.get(venue)
    const target = walked?.moves.dislocation(this.#world, contract)
    if (target !== undefined) {
      contract = target.contract
      offset *= target.sign
    }
    const log = this.#world.dislocations.get(contract.key) ?? []
    log.push({ venue, start: now, end: now + durationMs, offset })
    this.#world.dislocations.set(contract.key, log)
    this.counters.dislocations++
    if (walked !== undefined && target !== undefined) this.#move(walked, target.market, now)
  }

  openRandomDislocation(now: number): void {
    if (this.#sharedContracts.length === 0) return
    const contract = this.#rng.pick(this.#sharedContracts)
    const q = this.#world.questionsById.get(contract.questionId)
    if (q?.lifecycle !== 'active') return
    // The shared contracts are the ground truth's: listed on the first two venues of the list, which it pairs.
    const [first, second] = this.#venues as [WalkedVenue, WalkedVenue]
    const venue = this.#rng.chance(0.5) ? first.venue : second.venue
    const offset = (this.#rng.chance(0.5) ? 1 : -1) * (0.3 + this.#rng.next() * 0.7)
    this.openDislocation(contract, venue, offset, (2 + this.#rng.next() * 13) * 60_000, now)
  }

  /** One random active market of any venue, every market as likely as any other. */
  #pickActive(): [WalkedVenue, EngineMarket] | undefined {
    const total = this.#venues.reduce((n, v) => n + v.active.length, 0)
    if (total === 0) return undefined
    let i = Math.floor(this.#rng.next() * total)
    for (const v of this.#venues) {
      if (i < v.active.length) return [v, v.active[i] as EngineMarket]
      i -= v.active.length
    }
    return undefined
  }

  #move(v: WalkedVenue, m: EngineMarket, now: number): number {
    const siblings = v.siblings.get(m.contract.questionId)
    if (siblings === undefined) {
      v.moves.requote(m, this.#context, now)
      return 1
    }
    for (const sibling of siblings) v.moves.requote(sibling, this.#context, now)
    return siblings.length
  }

  #walked(venue: SimVenue): WalkedVenue {
    const v = this.#byVenue.get(venue)
    if (v === undefined) throw new Error(`no simulated venue ${venue}`)
    return v
  }

  #churnTop(book: SimBook, contract: Contract, now: number): LevelChange[] {
    const changes: LevelChange[] = []
    const side = this.#rng.chance(0.5) ? 'bid' : 'ask'
    const price = side === 'bid' ? book.bestBid() : book.bestAsk()
    if (price === undefined) return changes
    // Between a fifth and twice the contract's typical level size, in whole cents of a share like the ladder.
    const size =
      Math.max(1, Math.round(contract.depthSize * (0.2 + this.#rng.next() * 1.8) * 100)) * (MICROS_PER_UNIT / 100)
    book.set(side, price, size, changes)
    return this.#changed(book, changes, now)
  }

  #changed(book: SimBook, changes: LevelChange[], now: number): LevelChange[] {
    if (changes.length === 0) return changes
    book.updatedAt = now
    this.counters.bookChanges++
    return changes
  }

  #ladder(contract: Contract, fair: number) {
    return {
      fair,
      halfSpread: contract.halfSpread,
      depthLevels: this.#world.options.bookDepth,
      depthSize: contract.depthSize,
    }
  }

  #emit(event: EngineEvent): void {
    for (const listener of this.#listeners) listener(event)
  }
}

/**
 * The live markets of each ordered question that has more than one on the venue (the engine's active books), in
 * listing order.
 */
function groupOrdered(world: World, active: readonly EngineMarket[]): Map<string, EngineMarket[]> {
  const out = new Map<string, EngineMarket[]>()
  for (const m of active) {
    const q = world.questionsById.get(m.contract.questionId)
    if (q === undefined || !isOrdered(q)) continue
    const list = out.get(q.id)
    if (list === undefined) out.set(q.id, [m])
    else list.push(m)
  }
  for (const [id, list] of out) if (list.length < 2) out.delete(id)
  return out
}
