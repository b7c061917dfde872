import { BookSide } from './book-side.js'

export type BookSideName = 'bid' | 'ask'

/** A price level in micro-units (price 0.47 → 470000; size 3.00 → 3000000). */
export type LevelMicros = readonly [price: number, size: number]

/**
 * Read-only view of a book for consumers outside its actor (the spread engine's depth walk, the order-book
 * endpoint). Readers must use it synchronously: the owning actor mutates the book between messages.
 */
export interface BookReader {
  readonly hasSnapshot: boolean
  bestBid(): number | undefined
  bestAsk(): number | undefined
  bestBidSize(): number | undefined
  bestAskSize(): number | undefined
  /** Levels from best to worst, at most `maxLevels`. */
  levels(side: BookSideName, maxLevels?: number): LevelMicros[]
  /** Number of levels on a side. */
  depth(side: BookSideName): number
  /** Price (micros) of the i-th level from the best (0 = best). */
  priceAt(side: BookSideName, i: number): number
  /** Size (micros) of the i-th level from the best. */
  sizeAt(side: BookSideName, i: number): number
  forEachLevel(side: BookSideName, visit: (price: number, size: number) => boolean | void, maxLevels?: number): void
}

/**
 * An order book for one instrument, in integer micro-units. Deltas are ignored until the first snapshot
 * (a delta-only view of a book is not a book); every snapshot replaces both sides.
 */
export class OrderBook implements BookReader {
  readonly bids = new BookSide(false)
  readonly asks = new BookSide(true)
  #hasSnapshot = false

  get hasSnapshot(): boolean {
    return this.#hasSnapshot
  }

  /** Replaces the book. Levels may come in any order; zero or negative sizes are skipped. */
  applySnapshot(bids: Iterable<LevelMicros>, asks: Iterable<LevelMicros>): void {
    this.bids.clear()
    this.asks.clear()
    for (const [price, size] of bids) this.bids.add(price, size)
    for (const [price, size] of asks) this.asks.add(price, size)
    this.#hasSnapshot = true
  }

  /** Forgets the book (disconnect, resync): readers see no snapshot until the next one arrives. */
  reset(): void {
    this.bids.clear()
    this.asks.clear()
    this.#hasSnapshot = false
  }

  /** Absolute level update (feeds that send a level's new total size, 0 removing it). */
  setLevel(side: BookSideName, price: number, size: number): boolean {
    if (!this.#hasSnapshot) return false
    return (side === 'bid' ? this.bids : this.asks).set(price, size)
  }

  /** Relative level update (feeds that send a change of a level's size). Returns the level's new size. */
  addToLevel(side: BookSideName, price: number, delta: number): number {
    if (!this.#hasSnapshot) return 0
    return (side === 'bid' ? this.bids : this.asks).add(price, delta)
  }

  bestBid(): number | undefined {
    return this.bids.bestPrice()
  }

  bestAsk(): number | undefined {
    return this.asks.bestPrice()
  }

  bestBidSize(): number | undefined {
    return this.bids.bestSize()
  }

  bestAskSize(): number | undefined {
    return this.asks.bestSize()
  }

  depth(side: BookSideName): number {
    return (side === 'bid' ? this.bids : this.asks).depth
  }

  priceAt(side: BookSideName, i: number): number {
    return (side === 'bid' ? this.bids : this.asks).priceFromBest(i) as number
  }

  sizeAt(side: BookSideName, i: number): number {
    return (side === 'bid' ? this.bids : this.asks).sizeFromBest(i) as number
  }

  levels(side: BookSideName, maxLevels = Infinity): LevelMicros[] {
    const out: LevelMicros[] = []
    this.forEachLevel(
      side,
      (p, s) => {
        out.push([p, s])
      },
      maxLevels,
    )
    return out
  }

  forEachLevel(side: BookSideName, visit: (price: number, size: number) => boolean | void, maxLevels = Infinity): void {
    ;(side === 'bid' ? this.bids : this.asks).forEachFromBest(visit, maxLevels)
  }
}
