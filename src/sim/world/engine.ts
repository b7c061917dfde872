import type { Clock, TimerHandle } from '../../core/clock.js'
import { MICROS_PER_UNIT } from '../../core/numbers.js'
import { rebalance, type LevelChange, type SimBook } from './book-model.js'
import { isOrdered } from './fair.js'
import type { World } from './world.js'
import type { VpActivity } from '../venuep/ledger.js'
import { Rng, uuid } from './random.js'
import type { VkTrade } from './trade-store.js'
import type { Contract, SimVenue } from './types.js'
import type { VkMarket } from '../venuek/types.js'
import type { VpMarket } from '../venuep/types.js'

/**
 * The simulator's clock-driven market activity: at a configured rate it moves books toward their fair value
 * (plus order churn), prints trades that take liquidity from the live book (and land in the trade store and
 * the wallet ledger), changes venuep tick sizes near the extremes, and opens dislocations between the venues
 * on shared questions. Protocol servers subscribe to its events and translate them into wire messages.
 */
export type EngineEvent =
  | { readonly type: 'vp_book'; readonly market: VpMarket; readonly book: SimBook; readonly changes: readonly LevelChange[]; readonly ts: number }
  | { readonly type: 'vk_book'; readonly market: VkMarket; readonly book: SimBook; readonly changes: readonly LevelChange[]; readonly ts: number }
  | { readonly type: 'vp_trade'; readonly activity: VpActivity; readonly ts: number }
  | { readonly type: 'vk_trade'; readonly trade: VkTrade; readonly ts: number }
  | { readonly type: 'vp_tick_size'; readonly market: VpMarket; readonly oldTick: number; readonly newTick: number; readonly ts: number }

export interface EngineOptions {
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
  readonly #activeVp: VpMarket[]
  readonly #activeVk: VkMarket[]
  readonly #sharedContracts: Contract[]
  /**
   * Per ordered question (a ladder, a deadline ladder) with more than one live book on a venue, those books: they are
   * requoted together, at one instant, so a venue never shows P(above $168) bid above P(above $160) ask (fair.ts
   * keeps the fair values ordered; books quoted at different instants would not be).
   */
  readonly #vpSiblings = new Map<string, VpMarket[]>()
  readonly #vkSiblings = new Map<string, VkMarket[]>()
  #timer: TimerHandle | undefined
  #lastStep: number
  #quoteCarry = 0
  #tradeCarry = 0
  #dislocationCarry = 0
  /** Counters for tests and the simulator's own status output. */
  readonly counters = { bookChanges: 0, trades: 0, dislocations: 0, tickSizeChanges: 0 }

  constructor(world: World, options: EngineOptions) {
    this.#world = world
    this.#options = options
    this.#rng = new Rng(options.seed ?? world.options.seed ^ 0x2545f491)
    // A book whose contract has no fair-value path (a replayed market not trading when captured) stays as seeded.
    this.#activeVp = world.vpMarkets.filter((m) => m.contract.walks && world.vpBooks.has(m.conditionId))
    this.#activeVk = world.vkMarkets.filter((m) => m.contract.walks && world.vkBooks.has(m.ticker))
    const shared = new Set(world.truth.outcomePairs.map((p) => p.contractKey))
    this.#sharedContracts = world.questions.flatMap((q) => q.contracts.filter((c) => shared.has(c.key)))
    groupOrdered(world, this.#activeVp, this.#vpSiblings)
    groupOrdered(world, this.#activeVk, this.#vkSiblings)
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

  /** Moves one random active book (either venue), with its ladder's on that venue; returns how many books it requoted. */
  moveRandomBook(now: number): number {
    const total = this.#activeVp.length + this.#activeVk.length
    if (total === 0) return 0
    const i = Math.floor(this.#rng.next() * total)
    if (i < this.#activeVp.length) return this.moveVenuepBook(this.#activeVp[i] as VpMarket, now)
    return this.moveVenuekBook(this.#activeVk[i - this.#activeVp.length] as VkMarket, now)
  }

  /** Requotes `m`'s book at its fair value, and its ladder's other books on venuep with it; returns how many. */
  moveVenuepBook(m: VpMarket, now: number): number {
    const siblings = this.#vpSiblings.get(m.contract.questionId)
    if (siblings === undefined) {
      this.#requoteVenuep(m, now)
      return 1
    }
    for (const sibling of siblings) this.#requoteVenuep(sibling, now)
    return siblings.length
  }

  /** venuek's `moveVenuepBook`. */
  moveVenuekBook(m: VkMarket, now: number): number {
    const siblings = this.#vkSiblings.get(m.contract.questionId)
    if (siblings === undefined) {
      this.#requoteVenuek(m, now)
      return 1
    }
    for (const sibling of siblings) this.#requoteVenuek(sibling, now)
    return siblings.length
  }

  #requoteVenuep(m: VpMarket, now: number): void {
    const book = this.#world.vpBooks.get(m.conditionId)
    if (book === undefined) return
    const fair = this.#world.venueFair(m.contract, 'venuep', now)
    this.#maybeChangeTick(m, book, fair, now)
    const changes: LevelChange[] = []
    rebalance(book, this.#ladder(m.contract, fair), this.#rng, changes)
    if (changes.length === 0) return
    book.updatedAt = now
    this.counters.bookChanges++
    this.#emit({ type: 'vp_book', market: m, book, changes, ts: now })
  }

  #requoteVenuek(m: VkMarket, now: number): void {
    const book = this.#world.vkBooks.get(m.ticker)
    if (book === undefined) return
    const changes: LevelChange[] = []
    rebalance(book, this.#ladder(m.contract, this.#world.venueFair(m.contract, 'venuek', now)), this.#rng, changes)
    if (changes.length === 0) return
    book.updatedAt = now
    this.counters.bookChanges++
    this.#emit({ type: 'vk_book', market: m, book, changes, ts: now })
  }

  /**
   * Order churn at the top of a venuep book: the best bid or best ask level is re-sized (orders added or
   * cancelled there), one book event whose only change is the top of book, with no trade and no price move.
   */
  churnVenuepTop(m: VpMarket, now: number): void {
    const book = this.#world.vpBooks.get(m.conditionId)
    if (book !== undefined) this.#churnTop(book, m.contract, now, (changes) => this.#emit({ type: 'vp_book', market: m, book, changes, ts: now }))
  }

  /** venuek's `churnVenuepTop`. */
  churnVenuekTop(m: VkMarket, now: number): void {
    const book = this.#world.vkBooks.get(m.ticker)
    if (book !== undefined) this.#churnTop(book, m.contract, now, (changes) => this.#emit({ type: 'vk_book', market: m, book, changes, ts: now }))
  }

  #churnTop(book: SimBook, contract: Contract, now: number, emit: (changes: LevelChange[]) => void): void {
    const side = this.#rng.chance(0.5) ? 'bid' : 'ask'
    const price = side === 'bid' ? book.bestBid() : book.bestAsk()
    if (price === undefined) return
    // Between a fifth and twice the contract's typical level size, in whole cents of a share like the ladder.
    const size = Math.max(1, Math.round(contract.depthSize * (0.2 + this.#rng.next() * 1.8) * 100)) * (MICROS_PER_UNIT / 100)
    const changes: LevelChange[] = []
    book.set(side, price, size, changes)
    if (changes.length === 0) return
    book.updatedAt = now
    this.counters.bookChanges++
    emit(changes)
  }

  randomTrade(now: number): void {
    const total = this.#activeVp.length + this.#activeVk.length
    if (total === 0) return
    const i = Math.floor(this.#rng.next() * total)
    if (i < this.#activeVp.length) this.tradeVenuep(this.#activeVp[i] as VpMarket, now)
    else this.tradeVenuek(this.#activeVk[i - this.#activeVp.length] as VkMarket, now)
  }

  /** A taker trade on venuep by a random wallet: sells what it holds sometimes, buys otherwise. */
  tradeVenuep(m: VpMarket, now: number): void {
    const book = this.#world.vpBooks.get(m.conditionId)
    const wallets = this.#world.vpWallets
    if (book === undefined || wallets.length === 0) return
    const wallet = (this.#rng.pick(wallets)).address
    const tokenIndex: 0 | 1 = this.#rng.chance(0.6) ? 0 : 1
    const held = this.#world.ledger.sharesOf(wallet, m.tokenIds[tokenIndex])
    const side: 'BUY' | 'SELL' = held > 1 && this.#rng.chance(0.4) ? 'SELL' : 'BUY'
    // Token 0 trades against its own book; token 1's book is the mirror (its ask = 1 − token-0 bid).
    const takesAsk0 = (tokenIndex === 0) === (side === 'BUY')
    const level = takesAsk0 ? book.bestAsk() : book.bestBid()
    if (level === undefined) return
    const levelSize = (takesAsk0 ? book.asks : book.bids).get(level) as number
    const price0 = level / MICROS_PER_UNIT
    const price = tokenIndex === 0 ? price0 : Number((1 - price0).toFixed(6))
    let size = Math.max(1, Math.round(this.#rng.logNormal(40, 0.9) * 100) / 100)
    size = Math.min(size, levelSize / MICROS_PER_UNIT)
    if (side === 'SELL') size = Math.min(size, Math.floor(held * 100) / 100)
    if (size <= 0) return
    const activity: VpActivity = {
      ts: now,
      wallet,
      type: 'TRADE',
      market: m,
      size,
      usdcSize: Math.round(size * price * 100) / 100,
      price,
      side,
      tokenIndex,
      txHash: `0x${this.#rng.hex(64)}`,
    }
    this.#world.ledger.apply(activity)
    this.#world.trades.addVp(activity, true)
    book.lastTradePrice = level
    book.lastTradeSide = takesAsk0 ? 'BUY' : 'SELL'
    this.counters.trades++
    this.#emit({ type: 'vp_trade', activity, ts: now })
    const changes: LevelChange[] = []
    book.set(takesAsk0 ? 'ask' : 'bid', level, levelSize - Math.round(size * MICROS_PER_UNIT), changes)
    if (changes.length > 0) {
      book.updatedAt = now
      this.#emit({ type: 'vp_book', market: m, book, changes, ts: now })
    }
  }

  tradeVenuek(m: VkMarket, now: number): void {
    const book = this.#world.vkBooks.get(m.ticker)
    if (book === undefined) return
    const takerYes = this.#rng.chance(0.5)
    const level = takerYes ? book.bestAsk() : book.bestBid()
    if (level === undefined) return
    const levelSize = (takerYes ? book.asks : book.bids).get(level) as number
    const count = Math.min(Math.max(1, Math.round(this.#rng.logNormal(30, 1) * 100) / 100), levelSize / MICROS_PER_UNIT)
    const trade: VkTrade = {
      tradeId: uuid(this.#rng),
      market: m,
      ts: now,
      yesPrice: level / MICROS_PER_UNIT,
      count,
      takerOutcomeSide: takerYes ? 'yes' : 'no',
      takerBookSide: takerYes ? 'bid' : 'ask',
    }
    this.#world.trades.addVk(trade, true)
    book.lastTradePrice = level
    book.lastTradeSide = takerYes ? 'BUY' : 'SELL'
    this.counters.trades++
    this.#emit({ type: 'vk_trade', trade, ts: now })
    const changes: LevelChange[] = []
    book.set(takerYes ? 'ask' : 'bid', level, levelSize - Math.round(count * MICROS_PER_UNIT), changes)
    if (changes.length > 0) {
      book.updatedAt = now
      this.#emit({ type: 'vk_book', market: m, book, changes, ts: now })
    }
  }

  /**
   * Opens a price dislocation: `venue` quotes `contract` off its fair value by `offset` (logit units) for
   * `durationMs`, and the affected book moves at once. Used by tests to create a known spread.
   */
  openDislocation(contract: Contract, venue: SimVenue, offset: number, durationMs: number, now: number): void {
    // A head-to-head lists both sides as one venuep market priced off contract 0: moving contract 1 up on
    // venuep is moving contract 0 down there.
    const vpMarket = this.#world.vpListing.get(contract.key)?.market
    if (venue === 'venuep' && vpMarket !== undefined && vpMarket.contract.key !== contract.key) {
      contract = vpMarket.contract
      offset = -offset
    }
    const log = this.#world.dislocations.get(contract.key) ?? []
    log.push({ venue, start: now, end: now + durationMs, offset })
    this.#world.dislocations.set(contract.key, log)
    this.counters.dislocations++
    if (venue === 'venuep') {
      if (vpMarket !== undefined) this.moveVenuepBook(vpMarket, now)
    } else {
      const m = this.#world.vkListing.get(contract.key)
      if (m !== undefined) this.moveVenuekBook(m, now)
    }
  }

  openRandomDislocation(now: number): void {
    if (this.#sharedContracts.length === 0) return
    const contract = this.#rng.pick(this.#sharedContracts)
    const q = this.#world.questionsById.get(contract.questionId)
    if (q?.lifecycle !== 'active') return
    const venue: SimVenue = this.#rng.chance(0.5) ? 'venuep' : 'venuek'
    const offset = (this.#rng.chance(0.5) ? 1 : -1) * (0.3 + this.#rng.next() * 0.7)
    this.openDislocation(contract, venue, offset, (2 + this.#rng.next() * 13) * 60_000, now)
  }

  #ladder(contract: Contract, fair: number) {
    return { fair, halfSpread: contract.halfSpread, depthLevels: this.#world.options.bookDepth, depthSize: contract.depthSize }
  }

  /** venuep tightens the tick from 0.01 to 0.001 near the extremes and relaxes it back (tick_size_change). */
  #maybeChangeTick(m: VpMarket, book: SimBook, fair: number, now: number): void {
    const coarse = Math.round(0.01 * MICROS_PER_UNIT)
    const fine = Math.round(0.001 * MICROS_PER_UNIT)
    let next = book.tickMicros
    if (book.tickMicros === coarse && (fair < 0.04 || fair > 0.96)) next = fine
    else if (book.tickMicros === fine && m.tickSize === 0.01 && fair > 0.06 && fair < 0.94) next = coarse
    if (next === book.tickMicros) return
    const oldTick = book.tickMicros / MICROS_PER_UNIT
    book.tickMicros = next
    this.counters.tickSizeChanges++
    this.#emit({ type: 'vp_tick_size', market: m, oldTick, newTick: next / MICROS_PER_UNIT, ts: now })
  }

  #emit(event: EngineEvent): void {
    for (const listener of this.#listeners) listener(event)
  }
}

/**
 * Fills `out` with the live markets of each ordered question that has more than one on the venue (the engine's
 * active books), in listing order.
 */
function groupOrdered<M extends VpMarket | VkMarket>(world: World, active: readonly M[], out: Map<string, M[]>): void {
  for (const m of active) {
    const q = world.questionsById.get(m.contract.questionId)
    if (q === undefined || !isOrdered(q)) continue
    const list = out.get(q.id)
    if (list === undefined) out.set(q.id, [m])
    else list.push(m)
  }
  for (const [id, list] of out) if (list.length < 2) out.delete(id)
}
