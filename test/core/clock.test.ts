import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import { backoffDelayMs } from '../../src/core/backoff.js'

test('SimulatedClock fires timers in due order, each seeing its own due time', () => {
  const clock = new SimulatedClock(1_000)
  const fired: [string, number][] = []
  clock.setTimeout(() => fired.push(['b', clock.now()]), 200)
  clock.setTimeout(() => fired.push(['a', clock.now()]), 100)
  const h = clock.setTimeout(() => fired.push(['cancelled', clock.now()]), 150)
  const i = clock.setInterval(() => fired.push(['tick', clock.now()]), 120)
  clock.clearTimeout(h)
  clock.increment(250)
  assert.deepEqual(fired, [
    ['a', 1_100],
    ['tick', 1_120],
    ['b', 1_200],
    ['tick', 1_240],
  ])
  assert.equal(clock.now(), 1_250)
  clock.clearInterval(i)
  clock.increment(1_000)
  assert.equal(fired.length, 4)
  assert.throws(() => clock.set(0), /back in time/)
})

test('a timer scheduled by a timer fires in the same increment when due', () => {
  const clock = new SimulatedClock(0)
  const fired: number[] = []
  clock.setTimeout(() => clock.setTimeout(() => fired.push(clock.now()), 10), 10)
  clock.increment(25)
  assert.deepEqual(fired, [20])
})

test('backoff grows exponentially, is capped, jittered, and never zero', () => {
  const opts = { baseMs: 100, maxMs: 1_000 }
  assert.equal(backoffDelayMs(0, { ...opts, random: () => 0.999 }), 99)
  assert.equal(backoffDelayMs(3, { ...opts, random: () => 0.999 }), 799)
  assert.equal(backoffDelayMs(10, { ...opts, random: () => 0.999 }), 999)
  assert.equal(backoffDelayMs(10, { ...opts, random: () => 0 }), 50)
})
