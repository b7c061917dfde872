import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { generateWorld, type World } from '../../src/sim/world/generate.js'
import { Rng } from '../../src/sim/world/random.js'
import { TEMPLATES } from '../../src/sim/world/templates/index.js'
import type { Lifecycle } from '../../src/sim/world/types.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { venuekOf } from '../../src/sim/venuek/state.js'

/**
 * The generated world's ground truth is exact: its outcome pairs are exactly the contracts both venues list (venuep
 * token ↔ venuek market, as served), its hard negatives and decoys are never among them, and the same seed gives
 * the same world. Run on another seed than the shape tests.
 */
const ANCHOR_MS = Date.UTC(2026, 10, 21, 12)
type Json = Record<string, any>

let sim: Simulator
let w: World
/** Served venuep token → event slug and token index; served venuek ticker → event ticker. */
const vpServed = new Map<string, { slug: string; index: number }>()
const vkServed = new Map<string, string>()

async function get(url: string): Promise<any> {
  const res = await fetch(url)
  assert.equal(res.status, 200, url)
  return res.json()
}

before(async () => {
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  sim = await startSimulator({
    config: { ...config.sim, questions: 1500, seed: 7, venuekAuth: false },
    clock: new SimulatedClock(ANCHOR_MS),
    anchorMs: ANCHOR_MS,
    startEngine: false,
  })
  w = sim.world
  for (let offset = 0; ; offset += 500) {
    const page = (await get(`${sim.venuep.urls.gamma}/events?limit=500&offset=${offset}`)) as Json[]
    for (const e of page)
      for (const m of e.markets)
        (JSON.parse(m.clobTokenIds) as string[]).forEach((t, index) => vpServed.set(t, { slug: e.slug, index }))
    if (page.length < 500) break
  }
  for (let cursor = ''; ;) {
    const page = await get(`${sim.venuek.urls.rest}/events?with_nested_markets=true&limit=200&cursor=${cursor}`)
    for (const e of page.events) for (const m of e.markets) vkServed.set(m.ticker, e.event_ticker)
    cursor = page.cursor
    if (cursor === '') break
  }
})

after(async () => {
  await sim?.close()
})

describe('ground truth', () => {
  test('every outcome pair names two served outcomes of one contract, each outcome in one pair at most', () => {
    const pairs = w.truth.outcomePairs
    assert.ok(pairs.length > 1000)
    for (const p of pairs) {
      const served = vpServed.get(p.a.outcome)
      assert.deepEqual(served?.slug, p.a.event, `token of ${p.contractKey} served in its event`)
      assert.equal(vkServed.get(p.b.outcome), p.b.event, `ticker of ${p.contractKey} served in its event`)
      const vp = venuepOf(w).listing.get(p.contractKey)!
      assert.equal(vp.market.tokenIds[vp.index], p.a.outcome)
      assert.equal(served?.index, vp.index, 'the token that pays if the contract is true')
      assert.equal(venuekOf(w).listing.get(p.contractKey)?.ticker, p.b.outcome)
      assert.equal(venuekOf(w).marketsByTicker.get(p.b.outcome)!.contract.key, p.contractKey)
      assert.equal(w.questionsById.get(p.questionId)!.contracts.find((c) => c.key === p.contractKey)?.label, p.label)
    }
    assert.equal(new Set(pairs.map((p) => p.a.outcome)).size, pairs.length)
    assert.equal(new Set(pairs.map((p) => p.b.outcome)).size, pairs.length)
  })

  test('and there is one for every contract both venues list: the truth is complete', () => {
    let both = 0
    for (const q of w.questions)
      for (const c of q.contracts) if (venuepOf(w).listing.has(c.key) && venuekOf(w).listing.has(c.key)) both++
    assert.equal(w.truth.outcomePairs.length, both)
  })

  test('event pairs and shared questions are those of the outcome pairs; a question may span several venuep events', () => {
    const fromPairs = new Set(w.truth.outcomePairs.map((p) => `${p.questionId}|${p.a.event}|${p.b.event}`))
    assert.deepEqual(new Set(w.truth.eventPairs.map((e) => `${e.questionId}|${e.a.event}|${e.b.event}`)), fromPairs)
    assert.deepEqual(new Set(w.truth.sharedQuestions), new Set(w.truth.outcomePairs.map((p) => p.questionId)))
    const slugsPerQuestion = new Map<string, Set<string>>()
    for (const p of w.truth.outcomePairs)
      slugsPerQuestion.set(p.questionId, (slugsPerQuestion.get(p.questionId) ?? new Set()).add(p.a.event))
    assert.ok(
      [...slugsPerQuestion.values()].some((s) => s.size >= 2),
      'a deadline ladder split into single-market events',
    )
  })

  test('hard negatives are served outcomes of two different contracts, never a true pair', () => {
    const negatives = w.truth.hardNegatives ?? []
    assert.ok(negatives.length > 50)
    const truth = new Set(w.truth.outcomePairs.map((p) => `${p.a.outcome}|${p.b.outcome}`))
    for (const h of negatives) {
      assert.equal(vpServed.get(h.a.outcome)?.slug, h.a.event)
      assert.equal(vkServed.get(h.b.outcome), h.b.event)
      assert.ok(!truth.has(`${h.a.outcome}|${h.b.outcome}`), `${h.reason}: ${h.a.outcome} / ${h.b.outcome}`)
      const vpContract = venuepOf(w).tokens.get(h.a.outcome)!.market.contract.key
      assert.notEqual(vpContract, venuekOf(w).marketsByTicker.get(h.b.outcome)!.contract.key)
    }
  })

  test('decoys imitate a question on the other venue, for a stated reason, and are never paired', () => {
    const reasons = new Set<string>()
    const pairedQuestions = new Set(w.truth.sharedQuestions)
    for (const d of w.truth.decoys) {
      const decoy = w.questionsById.get(d.decoyId)!
      assert.equal(decoy.decoyOf, d.questionId)
      assert.ok(
        venuepOf(w).questionEvents.has(decoy.id) !== venuekOf(w).questionEvents.has(decoy.id),
        'listed on one venue only',
      )
      assert.ok(!pairedQuestions.has(d.decoyId))
      reasons.add(d.reason as string)
    }
    assert.ok(reasons.size >= 4, [...reasons].join(', '))
  })
})

describe('generation', () => {
  test('the same seed gives the same world, truth included; another seed another', () => {
    const digest = (x: World) =>
      JSON.stringify([
        x.truth,
        venuepOf(x).events.map((e) => [
          e.slug,
          e.title,
          e.endDate,
          e.tags.map((t) => t.label),
          e.markets.map((m) => [m.question, m.groupItemTitle, m.tokenIds, m.active, m.endDate]),
        ]),
        venuekOf(x).events.map((e) => [
          e.eventTicker,
          e.subTitle,
          e.series.category,
          e.markets.map((m) => [
            m.ticker,
            m.yesSubTitle,
            m.strikeType,
            m.floorStrike,
            m.capStrike,
            m.closeTime,
            m.expectedExpiration,
          ]),
        ]),
      ])
    const a = generateWorld({ anchorMs: ANCHOR_MS, questions: 500, wallets: 10, seed: 3 })
    const b = generateWorld({ anchorMs: ANCHOR_MS, questions: 500, wallets: 10, seed: 3 })
    const c = generateWorld({ anchorMs: ANCHOR_MS, questions: 500, wallets: 10, seed: 4 })
    assert.equal(digest(a), digest(b))
    assert.notEqual(digest(a), digest(c))
  })

  test("each template's cheap key is the key of the spec it builds, and its look-alike is another question", () => {
    const rng = new Rng(11)
    for (const t of TEMPLATES) {
      for (let i = 0; i < 40; i++) {
        const params = t.pick(new Rng(rng.int(1, 2 ** 31 - 1)))
        const lifecycle: Lifecycle = i % 3 === 0 ? 'resolved' : 'active'
        const end =
          lifecycle === 'active'
            ? ANCHOR_MS + (t.horizonDays[0] + rng.next() * (t.horizonDays[1] - t.horizonDays[0])) * 86_400_000
            : ANCHOR_MS - 10 * 86_400_000
        const ctx = { lifecycle, createdAt: end - 400 * 86_400_000 }
        const spec = t.build(params, end, new Rng(i), ctx)
        assert.equal(t.key(params, end, ctx), spec.key, t.id)
        const decoy = t.decoy?.(params, end, new Rng(i), ctx)
        if (decoy !== undefined) assert.ok(decoy.spec.key !== spec.key && decoy.reason.length > 0, t.id)
      }
    }
  })
})
