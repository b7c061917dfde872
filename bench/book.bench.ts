import { OrderBook } from '../src/book/order-book.js'
import { measureBatches, type Measured } from './harness.js'
import { bookUpdateScenario } from './scenarios.js'

/**
 * Book apply: level updates per second on one core, on a 20-levels-a-side book, for venuep's absolute
 * updates (`setLevel`) and venuek's relative deltas (`addToLevel`).
 */
export async function benchBookApply(): Promise<Measured[]> {
  const UPDATES = 50_000
  const { bids, asks, updates } = bookUpdateScenario(1, UPDATES)
  const absolute = new OrderBook()
  absolute.applySnapshot(bids, asks)
  const relative = new OrderBook()
  relative.applySnapshot(bids, asks)
  let sign = 1
  return measureBatches('book apply', [
    {
      name: 'absolute level updates (venuep price_change)',
      unitsPerCall: UPDATES,
      fn: () => {
        for (let i = 0; i < updates.length; i++) {
          const u = updates[i]!
          absolute.setLevel(u.side, u.price, u.size)
        }
      },
    },
    {
      name: 'relative level deltas (venuek orderbook_delta)',
      unitsPerCall: UPDATES,
      fn: () => {
        // Alternate signs per pass so the book neither drains nor grows without bound.
        sign = -sign
        for (let i = 0; i < updates.length; i++) {
          const u = updates[i]!
          relative.addToLevel(u.side, u.price, sign * (u.size === 0 ? 10_000 : u.size))
        }
      },
    },
  ])
}
