import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  afterFiring,
  decide,
  hysteresisFor,
  initialState,
  watchesFall,
  type Decision,
} from '../../src/alerts/trigger-machine.js'
import type { TriggerType } from '../../src/alerts/rule-types.js'

/** Runs a trigger over a spread series (applying its own decisions) and returns what it decided at each step. */
function run(trigger: TriggerType, threshold: number, h: number, series: readonly number[], isNew = false): Decision[] {
  const state = initialState(trigger)
  return series.map((spread) => {
    const d = decide(trigger, threshold, h, state, spread, { isNew })
    if (d === 'fire') afterFiring(trigger, state, spread)
    if (d === 'arm') state.armed = true
    return d
  })
}

describe('trigger state machines', () => {
  test('spread_threshold: fires once past the threshold; a gap flickering inside the band does not fire again', () => {
    // 0.05 threshold, 0.005 band: re-arms only below 0.045.
    const series = [0.03, 0.05, 0.049, 0.051, 0.046, 0.06, 0.0449, 0.05, 0.049]
    assert.deepEqual(run('spread_threshold', 0.05, 0.005, series), [
      'none',
      'fire',
      'none',
      'none',
      'none',
      'none',
      'arm',
      'fire',
      'none',
    ])
  })

  test('spread_collapse: arms at the threshold, fires below the band, then waits to be above again', () => {
    const series = [0.02, 0.04, 0.06, 0.047, 0.044, 0.03, 0.02, 0.05, 0.01]
    assert.deepEqual(run('spread_collapse', 0.05, 0.005, series), [
      'none',
      'none',
      'arm',
      'none',
      'fire',
      'none',
      'none',
      'arm',
      'fire',
    ])
  })

  test('spread_expansion: growth of the threshold from the lowest spread since the last firing', () => {
    // Baseline 0.03 → fires at 0.08 (+0.05); new baseline 0.08 → trough 0.06 → fires at 0.11.
    const series = [0.04, 0.03, 0.07, 0.08, 0.1, 0.06, 0.1, 0.11]
    assert.deepEqual(run('spread_expansion', 0.05, 0.005, series), [
      'none',
      'none',
      'none',
      'fire',
      'none',
      'none',
      'none',
      'fire',
    ])
  })

  test('new_pair: once, only for a new pair at or above the threshold', () => {
    assert.deepEqual(run('new_pair', 0.05, 0.005, [0.01, 0.06, 0.07, 0.01, 0.09], true), [
      'none',
      'fire',
      'none',
      'none',
      'none',
    ])
    assert.deepEqual(run('new_pair', 0.05, 0.005, [0.06, 0.09], false), ['none', 'none'])
  })

  test('hysteresis is the configured band, at most half the threshold', () => {
    assert.equal(hysteresisFor(0.05, 0.005), 0.005)
    assert.equal(hysteresisFor(0.004, 0.005), 0.002)
    assert.deepEqual(run('spread_threshold', 0.004, hysteresisFor(0.004, 0.005), [0.004, 0.0025, 0.0019, 0.004]), [
      'fire',
      'none',
      'arm',
      'fire',
    ])
  })

  test('which states must be watched while the spread falls', () => {
    assert.equal(watchesFall('spread_threshold', { armed: false, baseline: undefined }), true, 'fired: waits to re-arm')
    assert.equal(watchesFall('spread_threshold', { armed: true, baseline: undefined }), false)
    assert.equal(
      watchesFall('spread_collapse', { armed: true, baseline: undefined }),
      true,
      'armed: fires on the way down',
    )
    assert.equal(watchesFall('new_pair', { armed: false, baseline: undefined }), false, 'never re-arms')
    assert.equal(watchesFall('spread_expansion', { armed: true, baseline: 0.1 }), false, 'reached through the index')
  })
})
