import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { mapSteps, sortNumbersSteps, sortSteps } from '../../src/core/array-steps.js'
import { runInSlices, runToEnd, type Steps } from '../../src/core/slices.js'
import { Rng } from '../../src/sim/world/random.js'

/** The sliced helpers against their one-go equivalents, and the event loop actually getting turns. */
interface Item {
  readonly key: number | undefined
  readonly id: string
  /** Input position: equal keys must keep it (stability). */
  readonly at: number
}

function items(rng: Rng, n: number): Item[] {
  return Array.from({ length: n }, (_, at) => ({
    key: rng.chance(0.1) ? undefined : rng.int(0, 30),
    id: `id${rng.int(0, n)}`,
    at,
  }))
}

const byKeyThenId = (a: Item, b: Item): number => {
  if (a.key === undefined || b.key === undefined) return a.key === b.key ? 0 : a.key === undefined ? 1 : -1
  return b.key - a.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

test('sortSteps equals Array.prototype.sort (stable, ties kept in input order) for any run length and size', () => {
  const rng = new Rng(7)
  for (const n of [0, 1, 2, 3, 17, 511, 512, 513, 1_000, 5_000]) {
    for (const run of [1, 2, 7, 64, 512]) {
      const input = items(rng, n)
      const expected = [...input].sort(byKeyThenId)
      assert.deepEqual(runToEnd(sortSteps(input, byKeyThenId, run)), expected, `n=${n} run=${run}`)
      assert.equal(input.length, n, 'the input is not modified')
    }
  }
})

test('sortSteps reads NaN from the comparator as a tie, like sort', () => {
  const input = [3, 1, 2].map((key, at) => ({ key, id: '', at }))
  assert.deepEqual(
    runToEnd(sortSteps(input, () => Number.NaN, 1)).map((i) => i.at),
    [0, 1, 2],
  )
})

test('mapSteps equals map', () => {
  const input = Array.from({ length: 100 }, (_, i) => i)
  assert.deepEqual(
    runToEnd(mapSteps(input, (x) => x * 2, 7)),
    input.map((x) => x * 2),
  )
})

test('runInSlices gives the event loop a turn between slices and returns what runToEnd returns', async () => {
  // ~60 ms of work in steps of ~1 ms: with a 5 ms budget, timers must run in between. Counted in steps, not in
  // wall time, so a busy machine descheduling the test cannot fail it.
  const order: string[] = []
  function* busy(record: boolean): Steps<number> {
    for (let step = 0; step < 60; step++) {
      const until = performance.now() + 1
      while (performance.now() < until) {
        // busy
      }
      if (record) order.push('s')
      yield
    }
    return 60
  }
  const tick = setInterval(() => order.push('|'), 1)
  const result = await runInSlices(busy(true), 5)
  clearInterval(tick)
  assert.equal(result, runToEnd(busy(false)))
  const perTurn = order
    .join('')
    .split('|')
    .map((run) => run.length)
  assert.ok(perTurn.length >= 4, `timers ran during the computation (${perTurn.length - 1} times)`)
  assert.ok(
    Math.max(...perTurn) <= 7,
    `steps between two timer turns: ${Math.max(...perTurn)} (budget 5 ms of 1 ms steps)`,
  )
})

test('computations running at once share one budget per event-loop turn, round-robin', async () => {
  // Three computations of 30 steps of ~1 ms. One budget each would hold every turn for ~15 ms.
  const order: string[] = []
  function* job(name: string): Steps<string> {
    for (let i = 0; i < 30; i++) {
      const until = performance.now() + 1
      while (performance.now() < until) {
        // busy
      }
      order.push(name)
      yield
    }
    return name
  }
  const tick = setInterval(() => order.push('|'), 1)
  const done = await Promise.all([runInSlices(job('a')), runInSlices(job('b')), runInSlices(job('c'))])
  clearInterval(tick)
  assert.deepEqual(done, ['a', 'b', 'c'])
  const steps = order.filter((x) => x !== '|')
  assert.ok(steps.indexOf('c') < steps.lastIndexOf('a'), 'c ran before a finished: they take turns')
  const perTurn = order
    .join('')
    .split('|')
    .map((run) => run.length)
  assert.ok(
    Math.max(...perTurn) <= 8,
    `steps between two timer turns: ${Math.max(...perTurn)} (budget 5 ms of 1 ms steps)`,
  )
})

test('sortNumbersSteps equals Float64Array sort (NaN last) for any run length and size', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(fc.double({ noDefaultInfinity: false }), fc.integer({ min: -5, max: 5 }), fc.constant(Number.NaN)),
        {
          maxLength: 400,
        },
      ),
      fc.integer({ min: 1, max: 64 }),
      (numbers, run) => {
        const values = Float64Array.from(numbers, (x) => (Object.is(x, -0) ? 0 : x))
        assert.deepEqual(runToEnd(sortNumbersSteps(values, run)), values.slice().sort(), `run=${run}`)
      },
    ),
    { numRuns: 500, seed: 20261206 },
  )
})
