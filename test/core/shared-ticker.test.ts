import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import { SharedTicker } from '../../src/core/shared-ticker.js'

/**
 * SharedTicker: checks of one period on one clock run on one timer, each once per period from its first tick, until it
 * leaves; the timer stops with the last check and starts again with the next; periods and clocks do not share.
 */
test('checks joined at different moments share one timer and each runs once a period', () => {
  const clock = new SimulatedClock(0)
  const runs: Array<[string, number]> = []
  const leaveA = SharedTicker.join(clock, 250, () => runs.push(['a', clock.now()]))
  clock.increment(100)
  const leaveB = SharedTicker.join(clock, 250, () => runs.push(['b', clock.now()]))
  assert.equal(clock.pendingTimers, 1, 'one timer for both')
  assert.equal(SharedTicker.joined(clock, 250), 2)
  clock.increment(650) // t = 750
  assert.deepEqual(runs, [
    ['a', 250],
    ['b', 250],
    ['a', 500],
    ['b', 500],
    ['a', 750],
    ['b', 750],
  ])
  runs.length = 0
  leaveA()
  clock.increment(250)
  assert.deepEqual(runs, [['b', 1_000]], 'a left: only b runs')
  leaveB()
  assert.equal(clock.pendingTimers, 0, 'the last check out stops the timer')
  assert.equal(SharedTicker.joined(clock, 250), 0)
  clock.increment(1_000)
  assert.deepEqual(runs, [['b', 1_000]])
  // A check joining an idle ticker starts its timer again.
  const leaveC = SharedTicker.join(clock, 250, () => runs.push(['c', clock.now()]))
  assert.equal(clock.pendingTimers, 1)
  clock.increment(250)
  assert.deepEqual(runs.at(-1), ['c', 2_250])
  leaveC()
})

test('leaving twice, a check joined twice, and leaving or joining during a tick', () => {
  const clock = new SimulatedClock(0)
  let count = 0
  const check = () => count++
  const first = SharedTicker.join(clock, 100, check)
  const second = SharedTicker.join(clock, 100, check)
  clock.increment(100)
  assert.equal(count, 2, 'joined twice: runs twice')
  first()
  first()
  assert.equal(SharedTicker.joined(clock, 100), 1, 'a second leave is a no-op, not the other membership')
  clock.increment(100)
  assert.equal(count, 3)
  second()

  // A check that makes a later one leave: the later one does not run in that tick.
  const order: string[] = []
  let leaveLater: () => void = () => {}
  const leaveEarly = SharedTicker.join(clock, 100, () => {
    order.push('early')
    leaveLater()
  })
  leaveLater = SharedTicker.join(clock, 100, () => order.push('later'))
  clock.increment(100)
  assert.deepEqual(order, ['early'])
  // A check joined during a tick runs in it (a connection restarted by its own check is checked at once).
  let joinedLate = false
  const leaveJoiner = SharedTicker.join(clock, 100, () => {
    if (!joinedLate) SharedTicker.join(clock, 100, () => order.push('joined during the tick'))
    joinedLate = true
  })
  clock.increment(100)
  assert.deepEqual(order, ['early', 'early', 'joined during the tick'])
  leaveEarly()
  leaveJoiner()
})

test('different periods and different clocks keep timers of their own', () => {
  const one = new SimulatedClock(0)
  const other = new SimulatedClock(0)
  const leaves = [
    SharedTicker.join(one, 250, () => {}),
    SharedTicker.join(one, 1_000, () => {}),
    SharedTicker.join(other, 250, () => {}),
  ]
  assert.equal(one.pendingTimers, 2)
  assert.equal(other.pendingTimers, 1)
  for (const leave of leaves) leave()
  assert.equal(one.pendingTimers + other.pendingTimers, 0)
})
