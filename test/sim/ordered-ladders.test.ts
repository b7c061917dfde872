import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import type { SimBook } from '../../src/sim/world/book-model.js'
import { SimEngine } from '../../src/sim/world/engine.js'
import { generateWorld, type World } from '../../src/sim/world/generate.js'
import type { Question, SimVenue } from '../../src/sim/world/types.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { venuekOf } from '../../src/sim/venuek/state.js'
import { SIM_PEERS } from '../../src/sim/peers.js'

/**
 * Ladders are ordered (src/sim/world/fair.ts): P(above $160) ≥ P(above $168), P(below 2%) ≤ P(below 3%),
 * P(before Jul 1) ≤ P(before Jan 1), on each venue, at every instant, dislocations included; and the books of one
 * ladder on one venue never cross each other: the more likely contract's best ask is above the less likely one's
 * best bid, so no venue sells the dominating contract below what it pays for the dominated one.
 */
const ANCHOR = Date.UTC(2026, 10, 21, 12)
const DAY = 86_400_000

/** The question's ordered families of contract indexes, most likely first; a range (two finite ends) is in none. */
function families(q: Question): number[][] {
  const m = q.model
  if (m.kind === 'deadline')
    return [q.contracts.map((c) => c.index).sort((a, b) => (m.deadlines[b] as number) - (m.deadlines[a] as number))]
  if (m.kind !== 'ladder') return []
  const bounds = (i: number): readonly [number, number] =>
    m.bounds?.[i] ?? [q.contracts[i]!.threshold as number, Number.POSITIVE_INFINITY]
  const idx = q.contracts.map((c) => c.index)
  const above = idx.filter((i) => bounds(i)[1] === Number.POSITIVE_INFINITY).sort((a, b) => bounds(a)[0] - bounds(b)[0])
  const below = idx
    .filter((i) => bounds(i)[0] === 0 && bounds(i)[1] !== Number.POSITIVE_INFINITY)
    .sort((a, b) => bounds(b)[1] - bounds(a)[1])
  return [above, below].filter((f) => f.length > 1)
}

function orderedQuestions(w: World): Question[] {
  return w.questions.filter((q) => families(q).length > 0)
}

/** The book a venue quotes contract `index` of `q` on (its YES book), if the venue lists it and it trades. */
function bookOf(w: World, q: Question, index: number, venue: SimVenue): SimBook | undefined {
  const c = q.contracts[index]!
  if (venue === 'venuep') {
    const at = venuepOf(w).listing.get(c.key)
    return at === undefined || at.index !== 0 ? undefined : venuepOf(w).books.get(at.market.conditionId)
  }
  const m = venuekOf(w).listing.get(c.key)
  return m === undefined ? undefined : venuekOf(w).books.get(m.ticker)
}

function assertFairsOrdered(w: World, t: number): number {
  let pairs = 0
  for (const q of orderedQuestions(w)) {
    for (const venue of ['venuep', 'venuek'] as const) {
      for (const family of families(q)) {
        for (let k = 1; k < family.length; k++) {
          const [likely, unlikely] = [family[k - 1]!, family[k]!]
          const [a, b] = [w.venueFair(q.contracts[likely]!, venue, t), w.venueFair(q.contracts[unlikely]!, venue, t)]
          assert.ok(
            a >= b,
            `${q.id} on ${venue} at ${new Date(t).toISOString()}: ${q.contracts[likely]!.label} ${a} < ${q.contracts[unlikely]!.label} ${b}`,
          )
          pairs++
        }
      }
    }
  }
  return pairs
}

function assertBooksUncrossed(w: World, when: string): number {
  let pairs = 0
  for (const q of orderedQuestions(w)) {
    for (const venue of ['venuep', 'venuek'] as const) {
      for (const family of families(q)) {
        const books = family
          .map((i) => [i, bookOf(w, q, i, venue)] as const)
          .filter((x): x is readonly [number, SimBook] => x[1] !== undefined)
        // Every more likely contract against every less likely one, not only neighbours: a venue may skip a rung.
        for (let i = 0; i < books.length; i++) {
          for (let j = i + 1; j < books.length; j++) {
            const ask = books[i]![1].bestAsk()
            const bid = books[j]![1].bestBid()
            if (ask === undefined || bid === undefined) continue
            pairs++
            assert.ok(
              ask > bid,
              `${when}: ${q.id} on ${venue}: ${q.contracts[books[i]![0]]!.label} ask ${ask} ≤ ${q.contracts[books[j]![0]]!.label} bid ${bid}`,
            )
          }
        }
      }
    }
  }
  return pairs
}

describe('ordered ladders', () => {
  test('fair values are ordered on each venue: thresholds, floors and deadlines, open and resolved questions, over weeks', () => {
    const w = generateWorld({ anchorMs: ANCHOR, questions: 400, wallets: 10, ownLadders: { venuek: 26 } })
    const kinds = new Set(orderedQuestions(w).map((q) => `${q.model.kind}/${q.lifecycle}`))
    for (const k of ['ladder/active', 'deadline/active', 'ladder/resolved'])
      assert.ok(kinds.has(k), `the world has ${k} questions`)
    let pairs = 0
    for (let t = ANCHOR - 20 * DAY; t <= ANCHOR + 2 * DAY; t += 3 * 3_600_000 + 37 * 60_000 + 11_000)
      pairs += assertFairsOrdered(w, t)
    assert.ok(pairs > 50_000, `${pairs} ordered pairs checked`)
  })

  test('books of one ladder never cross, through requotes, trades, tick changes and dislocations', () => {
    const w = generateWorld({ anchorMs: ANCHOR, questions: 300, wallets: 20, ownLadders: { venuek: 13 } })
    const clock = new SimulatedClock(ANCHOR)
    // Brisk: every book moves many times, trades take top levels, and a dislocation opens every few seconds.
    const engine = new SimEngine(w, {
      peers: SIM_PEERS,
      clock,
      quoteChangesPerSec: 400,
      tradesPerSec: 60,
      stepMs: 250,
      dislocationsPerMin: 20,
    })
    let pairs = assertBooksUncrossed(w, 'at the start')
    for (let step = 0; step < 1200; step++) {
      clock.increment(250)
      engine.step(clock.now())
      if (step % 10 === 9) pairs += assertBooksUncrossed(w, `after ${(step + 1) / 4} s`)
    }
    // A ladder's dislocation moves the ladder: its fair values stay ordered while it lasts.
    assertFairsOrdered(w, clock.now())
    assert.ok(engine.counters.trades > 10_000 && engine.counters.dislocations > 50, JSON.stringify(engine.counters))
    assert.ok(pairs > 20_000, `${pairs} book pairs checked`)
  })

  test('a dislocation on one strike moves its whole ladder on that venue, and only on that venue', () => {
    const w = generateWorld({ anchorMs: ANCHOR, questions: 300, wallets: 20 })
    const clock = new SimulatedClock(ANCHOR)
    const engine = new SimEngine(w, {
      peers: SIM_PEERS,
      clock,
      quoteChangesPerSec: 0,
      tradesPerSec: 0,
      stepMs: 250,
      dislocationsPerMin: 0,
    })
    const q = orderedQuestions(w).find(
      (x) =>
        x.lifecycle === 'active' &&
        x.model.kind === 'ladder' &&
        families(x)[0]!.filter((i) => venuekOf(w).listing.has(x.contracts[i]!.key)).length >= 3,
    )!
    const listed = families(q)[0]!.filter((i) => venuekOf(w).listing.has(q.contracts[i]!.key))
    const fairs = (venue: SimVenue) => listed.map((i) => w.venueFair(q.contracts[i]!, venue, clock.now()))
    const [vkBefore, vpBefore] = [fairs('venuek'), fairs('venuep')]
    engine.openDislocation(q.contracts[listed[1]!]!, 'venuek', 1.5, 60_000, clock.now())
    const [vkAfter, vpAfter] = [fairs('venuek'), fairs('venuep')]
    assert.deepEqual(vpAfter, vpBefore, 'venuep untouched')
    for (const [k, p] of vkAfter.entries()) assert.ok(p >= vkBefore[k]!, `rung ${k} moved up with the ladder`)
    assert.ok(vkAfter[1]! - vkBefore[1]! > 0.05, `the dislocated rung moved: ${vkBefore[1]} → ${vkAfter[1]}`)
    // Its books were requoted at once, together.
    const updated = listed.map(
      (i) => venuekOf(w).books.get(venuekOf(w).listing.get(q.contracts[i]!.key)!.ticker)!.updatedAt,
    )
    assert.deepEqual(
      updated,
      listed.map(() => clock.now()),
    )
  })

  test('a range ladder with a tail at each end sums to about one on each venue', () => {
    const w = generateWorld({ anchorMs: ANCHOR, questions: 20, wallets: 5, ownLadders: { venuek: 26 } })
    const ranges = w.questions.filter(
      (q) => venuekOf(w).questionEvents.get(q.id)?.mutuallyExclusive === true && q.id.startsWith('k'),
    )
    assert.ok(ranges.length >= 10)
    for (const q of ranges) {
      for (const venue of ['venuep', 'venuek'] as const) {
        const sum = q.contracts.reduce((s, c) => s + w.venueFair(c, venue, ANCHOR), 0)
        // Each bracket is clamped to at least 0.004 (a live price), so the far brackets add a little.
        assert.ok(Math.abs(sum - 1) <= 0.004 * q.contracts.length, `${q.id} on ${venue}: ${sum}`)
      }
    }
  })
})
