import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import type { VenuekEvent } from '../../src/sim/venuek/engine-moves.js'
import type { VenuepEvent } from '../../src/sim/venuep/engine-moves.js'
import { SimEngine, type EngineEvent } from '../../src/sim/world/engine.js'
import { generateWorld } from '../../src/sim/world/generate.js'
import type { SimBook } from '../../src/sim/world/book-model.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { venuekOf } from '../../src/sim/venuek/state.js'
import { SIM_PEERS } from '../../src/sim/peers.js'

const ANCHOR = Date.UTC(2026, 10, 21, 12)

function snapshot(book: SimBook): { bids: [number, number][]; asks: [number, number][] } {
  return { bids: book.sorted('bid'), asks: book.sorted('ask') }
}

// The benches' boost (bench/sim-child.ts) relies on this: each churn is one book event whose one change is the
// top level of one side, at the same price, so every call reaches a subscriber as a quote change.
test('top-of-book churn re-sizes the best bid or best ask and nothing else, as one event per venue', () => {
  const world = generateWorld({ anchorMs: ANCHOR, questions: 60, wallets: 10 })
  const clock = new SimulatedClock(ANCHOR)
  const engine = new SimEngine(world, {
    peers: SIM_PEERS,
    clock,
    quoteChangesPerSec: 0,
    tradesPerSec: 0,
    stepMs: 100,
    dislocationsPerMin: 0,
  })
  const events: EngineEvent[] = []
  engine.on((e) => events.push(e))
  const vp = venuepOf(world)
    .markets.filter((m) => venuepOf(world).books.has(m.conditionId))
    .slice(0, 10)
  const vk = venuekOf(world)
    .markets.filter((m) => venuekOf(world).books.has(m.ticker))
    .slice(0, 10)
  assert.ok(vp.length === 10 && vk.length === 10, 'the world has live books on both venues')
  const sides = new Set<string>()
  const churns: { book: SimBook; run: () => void; market: object }[] = [
    ...vp.map((m) => ({
      book: venuepOf(world).books.get(m.conditionId) as SimBook,
      market: m,
      run: () => engine.churnTop('venuep', m, clock.now()),
    })),
    ...vk.map((m) => ({
      book: venuekOf(world).books.get(m.ticker) as SimBook,
      market: m,
      run: () => engine.churnTop('venuek', m, clock.now()),
    })),
  ]
  for (const { book, market, run } of churns) {
    for (let round = 0; round < 4; round++) {
      clock.increment(10)
      const before = snapshot(book)
      const bestBid = book.bestBid()
      const bestAsk = book.bestAsk()
      events.length = 0
      run()
      if (events.length === 0) {
        // Drew the size the level already had: nothing changed, nothing was sent.
        assert.deepEqual(snapshot(book), before)
        continue
      }
      assert.equal(events.length, 1)
      const e = events[0] as Extract<VenuepEvent | VenuekEvent, { type: 'vp_book' | 'vk_book' }>
      assert.ok(e.type === 'vp_book' || e.type === 'vk_book')
      assert.equal(e.market, market)
      assert.equal(e.changes.length, 1)
      const c = e.changes[0]!
      assert.equal(c.price, c.side === 'bid' ? bestBid : bestAsk, 'the change is at the top of its side')
      assert.ok(c.size > 0 && c.size !== c.prevSize && c.size % 10_000 === 0, 'a new size in whole cents of a share')
      assert.equal(book.bestBid(), bestBid, 'prices do not move')
      assert.equal(book.bestAsk(), bestAsk)
      assert.equal(book.updatedAt, clock.now())
      const after = snapshot(book)
      const side = c.side === 'bid' ? 'bids' : 'asks'
      const other = c.side === 'bid' ? 'asks' : 'bids'
      assert.deepEqual(after[other], before[other])
      assert.deepEqual(
        after[side],
        before[side].map(([p, s]) => [p, p === c.price ? c.size : s]),
      )
      sides.add(c.side)
    }
  }
  assert.deepEqual([...sides].sort(), ['ask', 'bid'], 'both sides churn')
})
