import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { CatalogSnapshot } from '../../../src/actors/catalog-snapshot.js'
import type { Simulator } from '../../../src/sim/simulator.js'
import { matchEvents, type EventMatch } from '../../../src/spreads/matching/matcher.js'
import { simulatorCatalogs } from '../../helpers/catalogs.js'
import { venuekOf } from '../../../src/sim/venuek/state.js'
import { venuepOf } from '../../../src/sim/venuep/state.js'

/**
 * The matcher on the simulator's default world against its ground truth. Precision matters more than recall:
 * a false pair is a phantom arbitrage. Decoys (same wording, another date or threshold) must never pair.
 */
let world: { sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }
let matches: EventMatch[]

before(async () => {
  world = await simulatorCatalogs(2400)
  matches = matchEvents(world.venuep, world.venuek)
})

after(async () => {
  await world?.sim.close()
})

function score(
  ms: readonly EventMatch[],
  w: typeof world,
): { precision: number; recall: number; predicted: number; truth: number } {
  const truth = w.sim.world.truth.outcomePairs.filter(
    (p) => w.venuep.outcomesById.has(p.a.outcome) && w.venuek.outcomesById.has(p.b.outcome),
  )
  const truthKeys = new Set(truth.map((p) => `${p.a.outcome}|${p.b.outcome}`))
  const predicted = ms.flatMap((m) => m.outcomes.map((o) => `${o.a.outcomeId}|${o.b.outcomeId}`))
  const tp = predicted.filter((k) => truthKeys.has(k)).length
  return {
    precision: tp / predicted.length,
    recall: tp / truth.length,
    predicted: predicted.length,
    truth: truth.length,
  }
}

describe('cross-venue matcher on the default simulated world', () => {
  test('outcome-pair precision ≥ 0.99 and recall ≥ 0.90', () => {
    const s = score(matches, world)
    assert.ok(s.truth > 2000, `enough true pairs to measure (${s.truth})`)
    assert.ok(s.precision >= 0.99, `precision ${s.precision.toFixed(4)} (${s.predicted} predicted)`)
    assert.ok(s.recall >= 0.9, `recall ${s.recall.toFixed(4)} of ${s.truth}`)
  })

  test('no decoy is paired with the question it imitates', () => {
    const w = world.sim.world
    const pairs = new Set(matches.map((m) => `${m.a.eventId}|${m.b.eventId}`))
    let checked = 0
    for (const d of w.truth.decoys) {
      const original = w.questionsById.get(d.questionId)!
      const decoy = w.questionsById.get(d.decoyId)!
      for (const [p, k] of [
        [venuepOf(w).questionEvents.get(original.id)?.slug, venuekOf(w).questionEvents.get(decoy.id)?.eventTicker],
        [venuepOf(w).questionEvents.get(decoy.id)?.slug, venuekOf(w).questionEvents.get(original.id)?.eventTicker],
      ]) {
        if (p === undefined || k === undefined || !world.venuep.eventsById.has(p) || !world.venuek.eventsById.has(k))
          continue
        checked++
        assert.ok(!pairs.has(`${p}|${k}`), `decoy paired: ${p} <-> ${k}`)
      }
    }
    assert.ok(checked > 50, `decoys present in the catalogs (${checked})`)
  })

  test('no hard negative (same subject, another deadline, strike, role or team) is paired', () => {
    const published = new Set(matches.flatMap((m) => m.outcomes.map((o) => `${o.a.outcomeId}|${o.b.outcomeId}`)))
    const negatives = (world.sim.world.truth.hardNegatives ?? []).filter(
      (n) => world.venuep.outcomesById.has(n.a.outcome) && world.venuek.outcomesById.has(n.b.outcome),
    )
    assert.ok(negatives.length > 50, `hard negatives in the catalogs (${negatives.length})`)
    assert.deepEqual(
      negatives
        .filter((n) => published.has(`${n.a.outcome}|${n.b.outcome}`))
        .map((n) => `${n.a.event} ~ ${n.b.outcome}: ${n.reason}`),
      [],
    )
  })

  test('strategies and qualities are the spec values; each outcome pairs at most once, each event pair is one match', () => {
    const strategies = new Set(['auto_canonical', 'manual_override', 'normalized_title_fallback', 'event_key'])
    const qualities = new Set(['manual', 'auto_high', 'auto_medium'])
    for (const m of matches) {
      assert.ok(strategies.has(m.strategy) && qualities.has(m.quality))
      assert.ok(m.outcomes.length > 0)
      for (const o of m.outcomes) assert.match(o.outcomeKey, /^text:/)
    }
    const outcomes = matches.flatMap((m) => m.outcomes)
    assert.equal(new Set(outcomes.map((o) => o.a.outcomeId)).size, outcomes.length)
    assert.equal(new Set(outcomes.map((o) => o.b.outcomeId)).size, outcomes.length)
    assert.equal(new Set(matches.map((m) => `${m.a.eventId}|${m.b.eventId}`)).size, matches.length)
  })

  test('a manual override wins over the automatic match, with its own outcome pairs', () => {
    const auto = matches.find((m) => m.strategy === 'event_key' && m.outcomes.length >= 2)!
    // Deliberately pair the venuep event with another venuek event: an operator's decision is final.
    const other = world.venuek.events.find((e) => e.eventId !== auto.b.eventId && e.markets[0]!.outcomes.length >= 2)!
    const pOutcome = world.venuep.eventsById.get(auto.a.eventId)!.markets[0]!.outcomes[0]!
    const kOutcome = other.markets[0]!.outcomes[0]!
    const result = matchEvents(world.venuep, world.venuek, {
      manual: [
        {
          a: auto.a,
          b: { venue: other.venue, eventId: other.eventId },
          outcomes: [{ a: pOutcome.outcomeId, b: kOutcome.outcomeId }],
        },
      ],
    })
    const manual = result.find((m) => m.a.eventId === auto.a.eventId)!
    assert.deepEqual([manual.b.eventId, manual.strategy, manual.quality], [other.eventId, 'manual_override', 'manual'])
    assert.deepEqual(
      manual.outcomes.map((o) => [o.a.outcomeId, o.b.outcomeId]),
      [[pOutcome.outcomeId, kOutcome.outcomeId]],
    )
    const automatic = result.filter((m) => m.strategy !== 'manual_override').flatMap((m) => m.outcomes)
    assert.ok(
      !automatic.some((o) => o.a.outcomeId === pOutcome.outcomeId || o.b.outcomeId === kOutcome.outcomeId),
      'the manually paired outcomes are not reused',
    )
  })
})

test('precision and recall hold on another seed (the matcher was tuned on seed 42)', async () => {
  const w = await simulatorCatalogs(1500, 7)
  try {
    const s = score(matchEvents(w.venuep, w.venuek), w)
    assert.ok(s.precision >= 0.99 && s.recall >= 0.9, JSON.stringify(s))
  } finally {
    await w.sim.close()
  }
})
