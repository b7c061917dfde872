import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import { SIM_PEERS } from '../../src/sim/peers.js'
import { openInterestByCondition } from '../../src/sim/venuep/market-stats.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { SimEngine } from '../../src/sim/world/engine.js'
import { generateWorld, type World } from '../../src/sim/world/generate.js'

/**
 * The simulated venue's open interest is read from the ledger's running totals: it must equal, for every market, the
 * larger of its two tokens' shares summed over every wallet's positions (what it was computed from before), from the
 * generated history and after the engine has traded for a while.
 */
const ANCHOR = Date.UTC(2026, 5, 1)

function fromPositions(world: World): Map<string, number> {
  const vp = venuepOf(world)
  const perToken = new Map<string, number>()
  for (const book of vp.ledger.wallets.values())
    for (const [tokenId, pos] of book.tokens)
      if (pos.shares > 0) perToken.set(tokenId, (perToken.get(tokenId) ?? 0) + pos.shares)
  const out = new Map<string, number>()
  for (const m of vp.marketsByCondition.values()) {
    const held = Math.max(perToken.get(m.tokenIds[0]) ?? 0, perToken.get(m.tokenIds[1]) ?? 0)
    if (held > 0) out.set(m.conditionId, held)
  }
  return out
}

function assertSame(world: World): number {
  const expected = fromPositions(world)
  const oi = openInterestByCondition(world)
  for (const cid of venuepOf(world).marketsByCondition.keys()) {
    const want = expected.get(cid)
    const got = oi.get(cid)
    if (want === undefined) assert.equal(got, undefined, cid)
    else assert.ok(got !== undefined && Math.abs(got - want) <= 1e-6 * Math.max(1, want), `${cid}: ${got} vs ${want}`)
  }
  return expected.size
}

test('open interest from running totals equals the sum over positions, before and after trading', () => {
  const world = generateWorld({ anchorMs: ANCHOR, questions: 200, wallets: 60 })
  const held = assertSame(world)
  assert.ok(held > 20, `markets with open interest in the generated history: ${held}`)
  const clock = new SimulatedClock(ANCHOR)
  const engine = new SimEngine(world, {
    peers: SIM_PEERS,
    clock,
    quoteChangesPerSec: 2000,
    tradesPerSec: 200,
    stepMs: 100,
    dislocationsPerMin: 6,
  })
  const activityBefore = venuepOf(world).activity.rows.length
  for (let i = 0; i < 600; i++) {
    clock.increment(100)
    engine.step(clock.now())
  }
  assert.ok(venuepOf(world).activity.rows.length > activityBefore + 100, 'the engine traded')
  assertSame(world)
})
