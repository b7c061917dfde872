import fc from 'fast-check'
import type { FeedEvent } from '../../../../src/venues/types.js'

/**
 * Random venue feed input for instrument `a` (with some noise on `b`), for properties of what is built from a book:
 * the book stream (book-source.property.test.ts) and the edge's mirror of it (test/bus/stream-state.property.test.ts).
 * Prices on a 0.005 grid so levels collide; sizes of every scale, zero removing a level.
 */
const price = fc.integer({ min: 1, max: 40 }).map((x) => x * 5_000 + 400_000)
const size = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 5_000 }).map((x) => x * 10_000),
  fc.integer({ min: 1, max: 1_000_000_000 }),
)
const side = fc.constantFrom('bid' as const, 'ask' as const)
/** One side of a book snapshot: up to 35 levels, none empty. */
export const bookLevels = fc.array(
  fc.tuple(
    price,
    size.filter((s) => s > 0),
  ),
  { maxLength: 35 },
)
const event: fc.Arbitrary<FeedEvent> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .record({ side, price, size })
      .map((e) => ({ type: 'level', instrumentId: 'a', venueTs: 5, ...e }) as const),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({ side, price, delta: fc.integer({ min: -3_000_000, max: 3_000_000 }) })
      .map((e) => ({ type: 'delta', instrumentId: 'a', venueTs: 6, ...e }) as const),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ bids: bookLevels, asks: bookLevels })
      .map((e) => ({ type: 'snapshot', instrumentId: 'a', venueTs: 7, ...e }) as const),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('stale: nothing received for 3000 ms', 'wss://x: closed (1006)', 'malformed frame')
      .map((reason) => ({ type: 'stale', instrumentIds: ['a', 'b'], reason }) as const),
  },
  {
    weight: 1,
    arbitrary: price.map((p) => ({ type: 'trade', instrumentId: 'a', price: p, size: 1, venueTs: 8 }) as const),
  },
  {
    weight: 1,
    arbitrary: price.map(
      (p) => ({ type: 'level', instrumentId: 'b', side: 'bid', price: p, size: 1, venueTs: 9 }) as const,
    ),
  },
)
/** Up to 40 steps of 1–4 feed events each (a step: what one read of the socket carries). */
export const bookFeedSteps = fc.array(fc.array(event, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 40 })
