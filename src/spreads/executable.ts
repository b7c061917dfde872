import type { BookReader } from '../book/order-book.js'
import { MICROS_PER_UNIT } from '../core/numbers.js'
import { feePerContract, type FeeModel } from '../model/types.js'

/**
 * What can actually be traded across a gap, from the two books: buy the outcome where it is cheap (at venue
 * A's asks) and sell it where it is dear (at venue B's bids — equivalently buy its complement there at
 * 1 − bid). Every contract pair pays $1 at resolution, so each matched contract earns bid_B − ask_A, less both
 * venues' taker fees. The walk takes levels best-first on both books while the marginal contract still earns
 * more than its fees.
 */
export interface Executable {
  /** Best ask on the cheap venue. */
  readonly buyPrice: number
  /** Best bid on the dear venue. */
  readonly sellPrice: number
  /** sellPrice − buyPrice per contract. */
  readonly edge: number
  /** edge less both taker fees, per contract at the top of the books. */
  readonly netEdge: number
  /** Contracts available at a positive net edge, walking both books. */
  readonly size: number
  /** Dollars paid for those contracts on the cheap venue (liquidity of the opportunity). */
  readonly costDollars: number
  /** Total net profit in dollars if all of `size` is taken. */
  readonly profitDollars: number
}

const MAX_LEVELS = 50

export function executableEdge(cheap: BookReader | undefined, dear: BookReader | undefined, cheapFees: FeeModel | undefined, dearFees: FeeModel | undefined): Executable | undefined {
  if (cheap === undefined || dear === undefined || !cheap.hasSnapshot || !dear.hasSnapshot) return undefined
  const askDepth = Math.min(MAX_LEVELS, cheap.depth('ask'))
  const bidDepth = Math.min(MAX_LEVELS, dear.depth('bid'))
  if (askDepth === 0 || bidDepth === 0) return undefined
  const net = (ask: number, bid: number) => bid - ask - feePerContract(cheapFees, ask) - feePerContract(dearFees, 1 - bid)
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
  return new ExecutableEdge(topAsk, topBid, round6(topBid - topAsk), round6(net(topAsk, topBid)), Math.round(size * 100) / 100, Math.round(cost * 100) / 100, Math.round(profit * 100) / 100)
}

/**
 * An `Executable` made by a constructor, not an object literal: V8 pretenures a literal's allocation site once most
 * of its objects survive (as every record of a pair install does), and from then on every one would be allocated
 * in old space and die there; constructed objects have no allocation site. See SpreadRecordValue.
 */
export class ExecutableEdge implements Executable {
  constructor(
    readonly buyPrice: number,
    readonly sellPrice: number,
    readonly edge: number,
    readonly netEdge: number,
    readonly size: number,
    readonly costDollars: number,
    readonly profitDollars: number,
  ) {}
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6
}
