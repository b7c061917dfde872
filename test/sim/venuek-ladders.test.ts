import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { contractFair } from '../../src/sim/world/fair.js'
import { generateWorld, type World } from '../../src/sim/world/generate.js'
import { LADDER_SERIES } from '../../src/sim/venuek/ladders.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { venuekOf, type VenuekWorld } from '../../src/sim/venuek/state.js'

/**
 * `sim.venuekOnlyLadders` (SIM_VENUEK_ONLY_LADDERS): venuek-only ladder events added after the questions. The
 * world's own part stays exactly as without them, and they are venuek's alone, many markets each.
 */
const ANCHOR_MS = Date.UTC(2026, 10, 21, 12)
const LADDERS = 40

const digest = (w: World, vk: Pick<VenuekWorld, 'events' | 'books'> = venuekOf(w)) =>
  JSON.stringify([
    w.truth,
    venuepOf(w).events.map((e) => [
      e.slug,
      e.title,
      e.endDate,
      e.markets.map((m) => [m.question, m.tokenIds, m.conditionId]),
    ]),
    vk.events.map((e) => [
      e.eventTicker,
      e.title,
      e.markets.map((m) => [m.ticker, m.marketId, m.yesSubTitle, m.floorStrike, m.capStrike, m.closeTime]),
    ]),
    [...venuepOf(w).books].map(([id, b]) => [id, [...b.bids], [...b.asks]]),
    [...vk.books].map(([t, b]) => [t, [...b.bids], [...b.asks]]),
  ])

test('off by default; the env var sets it', () => {
  assert.equal(loadConfig({ env: {} }).sim.venuekOnlyLadders, 0)
  assert.equal(loadConfig({ env: { SIM_VENUEK_ONLY_LADDERS: '250' } }).sim.venuekOnlyLadders, 250)
})

test('the ladders are added after the world, which stays as it was; they are venuek-only and many markets each', () => {
  const plain = generateWorld({ anchorMs: ANCHOR_MS, questions: 300, wallets: 10, seed: 5 })
  const zero = generateWorld({ anchorMs: ANCHOR_MS, questions: 300, wallets: 10, seed: 5, ownLadders: { venuek: 0 } })
  const more = generateWorld({
    anchorMs: ANCHOR_MS,
    questions: 300,
    wallets: 10,
    seed: 5,
    ownLadders: { venuek: LADDERS },
  })
  assert.equal(digest(zero), digest(plain))

  // The world's own events, markets and books are those of the plain world, in the same order; the truth is the same.
  const base = venuekOf(plain).events.length
  assert.equal(venuekOf(more).events.length, base + LADDERS)
  const prefix = (w: World) => ({
    events: venuekOf(w).events.slice(0, base),
    books: new Map([...venuekOf(w).books].filter(([t]) => venuekOf(plain).books.has(t))),
  })
  assert.equal(digest(more, prefix(more)), digest(plain))
  assert.equal(venuepOf(more).events.length, venuepOf(plain).events.length)

  const ladders = venuekOf(more).events.slice(base)
  assert.equal(new Set(ladders.map((e) => e.series.ticker)).size, Math.min(LADDERS, LADDER_SERIES.length))
  for (const e of ladders) {
    const q = e.question!
    assert.equal(venuepOf(more).questionEvents.get(q.id), undefined, 'venuek only')
    assert.equal(q.lifecycle, 'active')
    assert.ok(e.markets.length >= 10 && e.markets.length <= 22, `${e.eventTicker}: ${e.markets.length} markets`)
    assert.ok(e.series.ticker.startsWith('KXSIM'), 'a synthetic series')
    for (const m of e.markets) {
      assert.ok(venuekOf(more).books.has(m.ticker), 'every market has a book')
      assert.ok(m.strikeType !== undefined && (m.floorStrike !== undefined || m.capStrike !== undefined))
      assert.ok(m.closeTime > ANCHOR_MS)
    }
    if (e.mutuallyExclusive) {
      // Ranges with a tail at each end cover the line once: their fair values add up to about 1.
      const sum = q.contracts.reduce((s, c) => s + contractFair(q, c.index, ANCHOR_MS), 0)
      assert.ok(sum > 0.95 && sum < 1.12, `${e.eventTicker}: ${sum}`)
      const [first, ...rest] = e.markets
      assert.equal(first!.strikeType, 'less_or_equal')
      assert.equal(rest.at(-1)!.strikeType, 'greater_or_equal')
    }
  }
  assert.equal(
    new Set(venuekOf(more).markets.map((m) => m.ticker)).size,
    venuekOf(more).markets.length,
    'tickers unique',
  )
  assert.equal(JSON.stringify(more.truth), JSON.stringify(plain.truth), 'not in the ground truth')
})

test('the simulator serves them as venuek events with nested markets', async () => {
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({
    config: { ...config.sim, questions: 50, venuekOnlyLadders: 3, venuekAuth: false },
    clock: new SimulatedClock(ANCHOR_MS),
    anchorMs: ANCHOR_MS,
    startEngine: false,
  })
  try {
    const e = venuekOf(sim.world).events.at(-1)!
    const res = await fetch(`${sim.venuek.urls.rest}/events/${e.eventTicker}?with_nested_markets=true`)
    assert.equal(res.status, 200)
    const body = (await res.json()) as {
      event: { event_ticker: string; markets: { ticker: string; strike_type: string; status: string }[] }
    }
    assert.equal(body.event.event_ticker, e.eventTicker)
    assert.deepEqual(
      body.event.markets.map((m) => m.ticker),
      e.markets.map((m) => m.ticker),
    )
    assert.ok(body.event.markets.every((m) => m.status === 'active'))
  } finally {
    await sim.close()
  }
})
