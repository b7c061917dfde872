import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SimulatedClock, systemClock } from '../../src/core/clock.js'
import { preciseStamp, wholeMsStamp } from '../../src/core/precise-time.js'

/**
 * A precise stamp is the clock's whole ms plus where the wall clock is inside its millisecond: its floor is exactly
 * the integer stamp the clock gives (so it never contradicts any other time in the service), it has microseconds,
 * and successive stamps on the system clock never go backwards.
 */
test('precise stamps: floor is the clock, µs resolution, monotonic on the system clock', () => {
  const stamp = preciseStamp(systemClock)
  let previous = 0
  const fractions = new Set<number>()
  for (let i = 0; i < 20_000; i++) {
    const before = Date.now()
    const s = stamp()
    const after = Date.now()
    assert.ok(Math.floor(s) >= before && Math.floor(s) <= after, `${s} within [${before}, ${after}]`)
    assert.ok(s >= previous, `monotonic: ${previous} then ${s}`)
    assert.equal(Math.round((s - Math.floor(s)) * 1000) / 1000, Math.round((s % 1) * 1000) / 1000)
    fractions.add(Math.round((s % 1) * 1000))
    previous = s
  }
  // Not whole ms: many distinct fractions over 20,000 stamps (a loop of ~tens of ms).
  assert.ok(fractions.size > 20, `${fractions.size} distinct fractions`)
})

test('on a simulated clock: the simulated ms plus a fraction; the whole-ms stamp is the clock itself', () => {
  const clock = new SimulatedClock(1_781_159_489_961)
  const stamp = preciseStamp(clock)
  for (let i = 0; i < 100; i++) {
    const s = stamp()
    assert.equal(Math.floor(s), clock.now())
    clock.increment(7)
  }
  assert.equal(wholeMsStamp(clock)(), clock.now())
})
