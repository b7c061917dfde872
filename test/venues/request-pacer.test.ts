import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import { RequestPacer } from '../../src/venues/request-pacer.js'

/** Lets the promises resolved by the clock's timers run their continuations. */
const flush = () => new Promise((resolve) => setImmediate(resolve))

describe('RequestPacer', () => {
  test('callers asking at once start one interval apart, in the order they asked', async () => {
    const clock = new SimulatedClock(1_000)
    const pacer = new RequestPacer(clock, 20)
    const started: [string, number][] = []
    const ask = (who: string) => pacer.turn().then(() => started.push([who, clock.now()]))
    const all = Promise.all(['a', 'b', 'c', 'd'].map(ask))
    await flush()
    assert.deepEqual(started, [['a', 1_000]])
    clock.increment(49)
    await flush()
    assert.deepEqual(started, [['a', 1_000]], 'not before its interval')
    for (let t = 1_050; t <= 1_150; t += 50) {
      clock.set(t)
      await flush()
    }
    await all
    assert.deepEqual(started, [
      ['a', 1_000],
      ['b', 1_050],
      ['c', 1_100],
      ['d', 1_150],
    ])
  })

  test('after a pause longer than an interval the next turn starts at once: no burst is saved up', async () => {
    const clock = new SimulatedClock(0)
    const pacer = new RequestPacer(clock, 10)
    await pacer.turn()
    clock.increment(5_000)
    await pacer.turn()
    const second = pacer.turn().then(() => clock.now())
    clock.increment(100)
    assert.equal(await second, 5_100, 'the turn after the one at 5,000 waits its 100 ms')
  })

  test('an aborted wait rejects with the reason and leaves no timer behind', async () => {
    const clock = new SimulatedClock(0)
    const pacer = new RequestPacer(clock, 1)
    await pacer.turn()
    const abort = new AbortController()
    const waiting = pacer.turn(abort.signal)
    abort.abort(new Error('sync cancelled'))
    await assert.rejects(waiting, /sync cancelled/)
    assert.equal(clock.pendingTimers, 0)
    assert.throws(() => new RequestPacer(clock, 0), /must be positive/)
  })
})
