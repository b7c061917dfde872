import assert from 'node:assert/strict'
import { test } from 'node:test'
import { OrderBook } from '../../src/book/order-book.js'
import { Rng } from '../../src/sim/world/random.js'

const P = (x: number) => Math.round(x * 1e6)

test('snapshot in any order, best levels and depth from best to worst', () => {
  const b = new OrderBook()
  // venuep's wire order: bids ascending, asks descending (best last).
  b.applySnapshot(
    [
      [P(0.48), P(1500)],
      [P(0.49), P(820.5)],
      [P(0.5), P(200)],
    ],
    [
      [P(0.55), P(3000)],
      [P(0.53), P(410)],
      [P(0.52), P(125.25)],
    ],
  )
  assert.equal(b.bestBid(), P(0.5))
  assert.equal(b.bestAsk(), P(0.52))
  assert.equal(b.bestBidSize(), P(200))
  assert.equal(b.bestAskSize(), P(125.25))
  assert.deepEqual(b.levels('bid'), [
    [P(0.5), P(200)],
    [P(0.49), P(820.5)],
    [P(0.48), P(1500)],
  ])
  assert.deepEqual(b.levels('ask', 2), [
    [P(0.52), P(125.25)],
    [P(0.53), P(410)],
  ])
})

test('deltas before the first snapshot are ignored; reset forgets the book', () => {
  const b = new OrderBook()
  assert.equal(b.setLevel('bid', P(0.4), P(10)), false)
  assert.equal(b.addToLevel('ask', P(0.6), P(10)), 0)
  assert.equal(b.bestBid(), undefined)
  b.applySnapshot([[P(0.4), P(1)]], [])
  assert.equal(b.hasSnapshot, true)
  b.reset()
  assert.equal(b.hasSnapshot, false)
  assert.equal(b.bestBid(), undefined)
})

test('absolute updates: insert, change, remove with size 0, including the best level', () => {
  const b = new OrderBook()
  b.applySnapshot([[P(0.4), P(10)]], [[P(0.6), P(10)]])
  b.setLevel('bid', P(0.45), P(5))
  b.setLevel('ask', P(0.55), P(7))
  assert.equal(b.bestBid(), P(0.45))
  assert.equal(b.bestAsk(), P(0.55))
  b.setLevel('bid', P(0.45), 0)
  b.setLevel('ask', P(0.6), 0)
  assert.deepEqual(b.levels('bid'), [[P(0.4), P(10)]])
  assert.deepEqual(b.levels('ask'), [[P(0.55), P(7)]])
  assert.equal(b.setLevel('bid', P(0.3), 0), false, 'removing an absent level changes nothing')
})

test('relative deltas are exact in micro-units and drop the level at zero', () => {
  const b = new OrderBook()
  b.applySnapshot([[P(0.47), P(3)]], [])
  assert.equal(b.addToLevel('bid', P(0.47), P(-3)), 0)
  assert.equal(b.bestBid(), undefined)
  b.addToLevel('bid', P(0.47), P(0.1))
  b.addToLevel('bid', P(0.47), P(0.2))
  assert.equal(b.bestBidSize(), P(0.3), '0.1 + 0.2 is exactly 0.3 in micros')
})

test('matches a naive reference book on a random sequence of updates', () => {
  const rng = new Rng(7)
  const b = new OrderBook()
  const ref = { bid: new Map<number, number>(), ask: new Map<number, number>() }
  b.applySnapshot([], [])
  for (let i = 0; i < 20_000; i++) {
    const side = rng.chance(0.5) ? 'bid' : 'ask'
    const price = rng.int(1, 99) * 10_000
    if (rng.chance(0.5)) {
      const size = rng.chance(0.3) ? 0 : rng.int(1, 1000) * 10_000
      b.setLevel(side, price, size)
      if (size === 0) ref[side].delete(price)
      else ref[side].set(price, size)
    } else {
      const delta = rng.int(-500, 500) * 10_000
      b.addToLevel(side, price, delta)
      const next = (ref[side].get(price) ?? 0) + delta
      if (next <= 0) ref[side].delete(price)
      else if (ref[side].has(price) || delta > 0) ref[side].set(price, next)
    }
  }
  const sorted = (m: Map<number, number>, desc: boolean) =>
    [...m.entries()].sort((a, c) => (desc ? c[0] - a[0] : a[0] - c[0]))
  assert.deepEqual(b.levels('bid'), sorted(ref.bid, true))
  assert.deepEqual(b.levels('ask'), sorted(ref.ask, false))
  // The indexed reads (the spread engine's depth walk, the stream's top levels) agree with the walk.
  for (const side of ['bid', 'ask'] as const) {
    const levels = sorted(ref[side], side === 'bid')
    assert.equal(b.depth(side), levels.length)
    levels.forEach(([price, size], i) => {
      assert.equal(b.priceAt(side, i), price)
      assert.equal(b.sizeAt(side, i), size)
    })
    assert.deepEqual(b.levels(side, 3), levels.slice(0, 3))
  }
  assert.deepEqual([b.bestBid(), b.bestBidSize()], sorted(ref.bid, true)[0] ?? [undefined, undefined])
  assert.deepEqual([b.bestAsk(), b.bestAskSize()], sorted(ref.ask, false)[0] ?? [undefined, undefined])
})
