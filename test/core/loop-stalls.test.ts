import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { SimulatedClock, systemClock } from '../../src/core/clock.js'
import { LoopStallMeter, loopStallsOf, noLoopStalls } from '../../src/core/loop-stalls.js'

/**
 * The stall meter: a timer due every 50 ms that runs `gap` after its last run shows a stall of `gap - 50` before it;
 * lateness under 10 ms is the timer's own. `stalledWithin` is what of a span those stalls cover, the one still going
 * on (the caller running late, before the timer could) included.
 */
test('a late run of the timer is a stall before it; ordinary lateness is not', () => {
  const clock = new SimulatedClock(0)
  const meter = new LoopStallMeter(clock, { tickMs: 50, minStallMs: 10 })
  for (let t = 52; t <= 500; t += 52) meter.tick(t) // 2 ms late each time
  assert.equal(meter.stalledWithin(0, 500), 0)
  meter.tick(1_650) // last run at 468: stalled from 518 to 1,650
  assert.equal(meter.stalledWithin(0, 1_650), 1_132)
  assert.equal(meter.stalledWithin(0, 2_000), 1_132 + 300, 'and, read at 2,000, the stall since 1,700 still going on')
  assert.equal(meter.stalledWithin(1_000, 1_200), 200)
  assert.equal(meter.stalledWithin(400, 600), 82)
  assert.equal(meter.stalledWithin(1_650, 1_690), 0)
})

test('the stall under way counts before the timer has run again', () => {
  const meter = new LoopStallMeter(new SimulatedClock(0), { tickMs: 50 })
  meter.tick(50)
  meter.tick(100)
  // Read at 1,300 with no run since 100: stalled since 150.
  assert.equal(meter.stalledWithin(0, 1_300), 1_150)
  assert.equal(meter.stalledWithin(1_000, 1_300), 300)
  assert.equal(meter.stalledWithin(0, 155), 0, 'under minStallMs late: not a stall yet')
})

test('property: stalledWithin equals the overlap of the recorded stalls, the oldest beyond `keep` forgotten', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 3_000 }), { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 0, max: 100_000 }),
      fc.integer({ min: 0, max: 20_000 }),
      (gaps, fromSeed, span) => {
        const keep = 16
        const meter = new LoopStallMeter(new SimulatedClock(0), { tickMs: 50, minStallMs: 10, keep })
        const stalls: Array<[number, number]> = []
        let t = 0
        for (const gap of gaps) {
          const at = t + gap
          if (at - (t + 50) >= 10) stalls.push([t + 50, at])
          meter.tick(at)
          t = at
        }
        const from = fromSeed % (t + 1)
        const to = from + span
        const kept = stalls.slice(-keep)
        const ongoing: Array<[number, number]> = to - (t + 50) >= 10 ? [[t + 50, to]] : []
        const expected = [...kept, ...ongoing].reduce(
          (sum, [a, b]) => sum + Math.max(0, Math.min(b, to) - Math.max(a, from)),
          0,
        )
        // Stalls older than the ring are forgotten: only spans that start after the oldest kept one are exact.
        if (stalls.length > keep && from < (stalls[stalls.length - keep] as [number, number])[0]) return
        assert.equal(meter.stalledWithin(from, to), expected)
      },
    ),
    { numRuns: 500 },
  )
})

test('the system clock has one meter for the process; a simulated clock has none', () => {
  assert.equal(loopStallsOf(new SimulatedClock(0)), noLoopStalls)
  const meter = loopStallsOf(systemClock)
  assert.equal(loopStallsOf(systemClock), meter)
  assert.ok(meter instanceof LoopStallMeter)
})
