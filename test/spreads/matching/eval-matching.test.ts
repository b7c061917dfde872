import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CALIBRATION_JSON, calibrationOf, evaluateMatching } from '../../../bench/sections/matching.js'
import { loadMatchWeights } from '../../../src/spreads/matching/calibration.js'

/**
 * `npm run eval:matching`, as CI runs it: its judged rows hold (every dev label of both real sets right, each
 * head-to-head on its labelled outcome; precision ≥ 0.99 and recall ≥ 0.90 on both simulated worlds), and the
 * calibration the service loads (config/match-calibration.json) is the one this code measures: a matcher change
 * that moves a quality's measured precision must re-run the eval.
 */
test('the matching eval: dev labels all right, simulated worlds within target, committed calibration current', async () => {
  const { labelled, sims, total } = await evaluateMatching()
  assert.deepEqual(
    labelled.map((r) => r.name),
    ['long-dated', 'short-dated'],
  )
  for (const run of labelled) {
    const wrong = run.verdicts.filter((v) => !v.correct || v.wrongOutcome).map((v) => `${v.pair.label}: ${v.decidedBy}`)
    assert.deepEqual(wrong, [], run.name)
    assert.deepEqual({ fp: run.scores.fp, fn: run.scores.fn }, { fp: 0, fn: 0 }, run.name)
  }
  assert.ok(labelled[1]!.scores.tp >= 180, 'the short-dated same pairs are found')
  for (const s of sims)
    assert.ok(s.scores.precision >= 0.99 && s.scores.recall >= 0.9, `seed ${s.seed}: ${JSON.stringify(s.scores)}`)
  const measured = calibrationOf(total)
  const committed = loadMatchWeights(CALIBRATION_JSON)
  assert.deepEqual(
    { auto_high: committed.auto_high, auto_medium: committed.auto_medium },
    { auto_high: measured.qualities.auto_high.lower95, auto_medium: measured.qualities.auto_medium.lower95 },
    'run npm run eval:matching and commit config/match-calibration.json',
  )
})
