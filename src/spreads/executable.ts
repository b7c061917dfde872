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
  return {
    buyPrice: topAsk,
    sellPrice: topBid,
    edge: round6(topBid - topAsk),
    netEdge: round6(net(topAsk, topBid)),
    size: Math.round(size * 100) / 100,
    costDollars: Math.round(cost * 100) / 100,
    profitDollars: Math.round(profit * 100) / 100,
  }
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6
}
