import type { SimBook } from '../world/book-model.js'
import { ONE_DOLLAR } from './format.js'

/**
 * venuek's view of a simulated market's book (venuek.md §7). The venue rests bids on both legs only; the
 * simulator keeps one YES book with bids and asks. A YES ask at `a` is a NO bid at `1 − a` with the same size,
 * so NO bids are derived from the YES asks here, in one place, and REST, the market object and the WS feed all
 * read the same derivation.
 */
export type Level = readonly [price: number, size: number]

export interface BidsOnlyBook {
  /** YES bids, ascending by price (best last), micro-units. */
  readonly yes: readonly Level[]
  /** NO bids at the NO-leg price, ascending (best last), micro-units. */
  readonly no: readonly Level[]
}

const EMPTY: BidsOnlyBook = { yes: [], no: [] }

export function bidsOnly(book: SimBook | undefined): BidsOnlyBook {
  if (book === undefined) return EMPTY
  const yes = book.sorted('bid')
  const asks = book.sorted('ask')
  // Ascending asks become descending NO prices: reverse to keep the venue's ascending order.
  const no: Level[] = new Array(asks.length)
  for (let i = 0; i < asks.length; i++) {
    const [a, size] = asks[asks.length - 1 - i] as [number, number]
    no[i] = [ONE_DOLLAR - a, size]
  }
  return { yes, no }
}

/** `use_yes_price:true` (WS only): NO levels re-priced at the YES leg (1 − n), still ascending. */
export function noAtYesPrice(no: readonly Level[]): Level[] {
  const out: Level[] = new Array(no.length)
  for (let i = 0; i < no.length; i++) {
    const [n, size] = no[no.length - 1 - i] as Level
    out[i] = [ONE_DOLLAR - n, size]
  }
  return out
}

/**
 * The venue's top of book in micro-units. With no NO bids the YES ask is $1.00 with size 0 (and the NO ask
 * likewise without YES bids): `yes_ask = 1 − best_no_bid` with a best NO bid of 0, which is what the real venue
 * returns for markets with an empty side (`"yes_ask_dollars":"1.0000"`, seen on illiquid markets).
 */
export interface TopOfBook {
  readonly yesBid: number
  readonly yesBidSize: number
  readonly yesAsk: number
  readonly yesAskSize: number
}

export const EMPTY_TOP: TopOfBook = { yesBid: 0, yesBidSize: 0, yesAsk: ONE_DOLLAR, yesAskSize: 0 }

export function topOfBook(book: SimBook | undefined): TopOfBook {
  if (book === undefined) return EMPTY_TOP
  const bid = book.bestBid()
  const ask = book.bestAsk()
  return {
    yesBid: bid ?? 0,
    yesBidSize: bid === undefined ? 0 : (book.bids.get(bid) as number),
    yesAsk: ask ?? ONE_DOLLAR,
    yesAskSize: ask === undefined ? 0 : (book.asks.get(ask) as number),
  }
}
