import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { PublishedQuote, snapshotQuote } from '../../src/actors/published-quote.js'
import { QuoteRows } from '../../src/actors/quote-rows.js'
import type { Quote } from '../../src/model/types.js'

/**
 * A venue actor's quotes keep their numbers in shared rows (quote-rows.ts), and a quote whose instrument left gives its
 * row back (`detach`). What a reader depends on: a quote reads what it was last given, whoever else holds a row, and a
 * detached quote reads the same forever after, even once its row is another quote's.
 */
const price = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined })
const size = fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: undefined })
const prices = fc.tuple(price, size, price, size, price, price)
const stamp = fc.tuple(fc.integer({ min: 0, max: 2 ** 42 }), fc.double({ min: 0, max: 2 ** 42, noNaN: true }))

const op = fc.oneof(
  fc.record({ kind: fc.constant('new' as const) }),
  fc.record({ kind: fc.constant('set' as const), pick: fc.nat(), prices, stamp, stale: fc.boolean() }),
  fc.record({ kind: fc.constant('detach' as const), pick: fc.nat() }),
)

test('quotes read what they were given across rows taken, given back and reused; detached quotes never change', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
      const rows = new QuoteRows()
      const live: { quote: PublishedQuote; expected: Quote }[] = []
      const detached: { quote: PublishedQuote; expected: Quote }[] = []
      let slot = 0
      for (const o of ops) {
        if (o.kind === 'new') {
          const quote = new PublishedQuote('venuep', `i${slot}`, slot, rows)
          slot++
          live.push({ quote, expected: snapshotQuote(quote) })
        } else if (live.length > 0) {
          const at = o.pick % live.length
          const held = live[at] as { quote: PublishedQuote; expected: Quote }
          if (o.kind === 'set') {
            held.quote.setPrices(...o.prices).stamp(o.stamp[0], o.stamp[1], o.stale, held.quote.seq + 1)
            held.expected = snapshotQuote(held.quote)
            const [bestBid, bestBidSize, bestAsk, bestAskSize, lastTradePrice, probability] = o.prices
            assert.deepEqual(
              { bestBid, bestBidSize, bestAsk, bestAskSize, lastTradePrice, probability },
              {
                bestBid: held.quote.bestBid,
                bestBidSize: held.quote.bestBidSize,
                bestAsk: held.quote.bestAsk,
                bestAskSize: held.quote.bestAskSize,
                lastTradePrice: held.quote.lastTradePrice,
                probability: held.quote.probability,
              },
            )
          } else {
            held.quote.detach()
            live.splice(at, 1)
            detached.push(held)
          }
        }
        for (const { quote, expected } of [...live, ...detached]) assert.deepEqual(snapshotQuote(quote), expected)
      }
      assert.equal(rows.used, live.length, 'every live quote holds one row, every detached one none')
      assert.ok(rows.cut <= slot, 'rows given back are taken again before a new one is cut')
    }),
    { numRuns: 200 },
  )
})

test('a new quote on a reused row starts with nothing, not its predecessor numbers', () => {
  const rows = new QuoteRows()
  const first = new PublishedQuote('venuek', 'A', 0, rows)
    .setPrices(0.4, 10, 0.45, 20, 0.42, 0.425)
    .stamp(5, 6, false, 1)
  first.detach()
  const second = new PublishedQuote('venuek', 'B', 1, rows)
  assert.equal(rows.cut, 1, 'the row was reused')
  assert.deepEqual(
    [second.bestBid, second.bestBidSize, second.bestAsk, second.bestAskSize, second.lastTradePrice, second.probability],
    [undefined, undefined, undefined, undefined, undefined, undefined],
  )
  assert.ok(Number.isNaN(second.venueTs) && Number.isNaN(second.receivedAt))
  second.setPrices(0.1, 1, 0.2, 2, undefined, 0.15).stamp(7, 8, false, 2)
  assert.deepEqual([first.bestBid, first.bestAsk, first.venueTs, first.seq], [0.4, 0.45, 5, 1])
})
