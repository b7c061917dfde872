import type { BookReader } from '../../book/order-book.js'
import { MICROS_PER_UNIT } from '../../core/numbers.js'
import { feePerContract, type FeeModel } from '../../model/types.js'

/**
 * What can actually be traded across a gap, from the two books: buy the outcome where it is cheap (at venue
 * A's asks) and sell it where it is dear (at venue B's bids — equivalently buy its complement there at
 * 1 − bid). Every contract pair pays $1 at resolution, so each matched contract earns bid_B − ask_A, less both
 * venues' taker fees. The walk takes levels best-first on both books while the marginal contract still earns
 * more than its fees.
 *
 * The spread engine's records hand out their edge live (an ExecutableEdge, rewritten in place), so the fields are
 * not `readonly`; readers never write them.
 */
export interface Executable {
  /** Best ask on the cheap venue. */
  buyPrice: number
  /** Best bid on the dear venue. */
  sellPrice: number
  /** sellPrice − buyPrice per contract. */
  edge: number
  /** edge less both taker fees, per contract at the top of the books. */
  netEdge: number
  /** Contracts available at a positive net edge, walking both books. */
  size: number
  /** Dollars paid for those contracts on the cheap venue (liquidity of the opportunity). */
  costDollars: number
  /** Total net profit in dollars if all of `size` is taken. */
  profitDollars: number
}

const MAX_LEVELS = 50

/** The executable edge of two books in a new object (undefined without both books); see `walkExecutable`. */
export function executableEdge(
  cheap: BookReader | undefined,
  dear: BookReader | undefined,
  cheapFees: FeeModel | undefined,
  dearFees: FeeModel | undefined,
): Executable | undefined {
  const edge = new ExecutableEdge()
  return walkExecutable(cheap, dear, cheapFees, dearFees, edge) ? edge : undefined
}

/**
 * Walks both books into `into` (the spread engine reuses one per pair); false, with `into` untouched, when
 * either book is missing, unsynced or empty on the side that matters.
 */
export function walkExecutable(
  cheap: BookReader | undefined,
  dear: BookReader | undefined,
  cheapFees: FeeModel | undefined,
  dearFees: FeeModel | undefined,
  into: ExecutableEdge,
): boolean {
  if (cheap === undefined || dear === undefined || !cheap.hasSnapshot || !dear.hasSnapshot) return false
  const askDepth = Math.min(MAX_LEVELS, cheap.depth('ask'))
  const bidDepth = Math.min(MAX_LEVELS, dear.depth('bid'))
  if (askDepth === 0 || bidDepth === 0) return false
  const net = (ask: number, bid: number) =>
    bid - ask - feePerContract(cheapFees, ask) - feePerContract(dearFees, 1 - bid)
  const topAsk = cheap.priceAt('ask', 0) / MICROS_PER_UNIT
  const topBid = dear.priceAt('bid', 0) / MICROS_PER_UNIT
  let size = 0
  let cost = 0
  let profit = 0
  let i = 0
  let j = 0
  let askLeft = cheap.sizeAt('ask', 0)
  let bidLeft = dear.sizeAt('bid', 0)
  // Levels are read by index from the best: no per-call arrays on the spread engine's hot path.
  while (i < askDepth && j < bidDepth) {
    const ask = cheap.priceAt('ask', i) / MICROS_PER_UNIT
    const bid = dear.priceAt('bid', j) / MICROS_PER_UNIT
    const e = net(ask, bid)
    if (e <= 0) break
    const take = Math.min(askLeft, bidLeft)
    const contracts = take / MICROS_PER_UNIT
    size += contracts
    cost += contracts * ask
    profit += contracts * e
    askLeft -= take
    bidLeft -= take
    if (askLeft === 0 && ++i < askDepth) askLeft = cheap.sizeAt('ask', i)
    if (bidLeft === 0 && ++j < bidDepth) bidLeft = dear.sizeAt('bid', j)
  }
  into.set(
    topAsk,
    topBid,
    round6(topBid - topAsk),
    round6(net(topAsk, topBid)),
    Math.round(size * 100) / 100,
    Math.round(cost * 100) / 100,
    Math.round(profit * 100) / 100,
  )
  return true
}

/**
 * An `Executable` that its owner fills in place. The spread engine keeps one per pair inside the pair's record
 * and rewrites it on every recompute: a quote change allocates no edge, so nothing of it survives into V8's old
 * generation (see SpreadRecordValue). Every field starts as a double (NaN) and only ever holds numbers, so V8
 * keeps each in a double field whose box it updates in place: a rewrite allocates nothing either.
 */
export class ExecutableEdge implements Executable {
  buyPrice = Number.NaN
  sellPrice = Number.NaN
  edge = Number.NaN
  netEdge = Number.NaN
  size = Number.NaN
  costDollars = Number.NaN
  profitDollars = Number.NaN

  set(
    buyPrice: number,
    sellPrice: number,
    edge: number,
    netEdge: number,
    size: number,
    costDollars: number,
    profitDollars: number,
  ): void {
    this.buyPrice = buyPrice
    this.sellPrice = sellPrice
    this.edge = edge
    this.netEdge = netEdge
    this.size = size
    this.costDollars = costDollars
    this.profitDollars = profitDollars
  }
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6
}
