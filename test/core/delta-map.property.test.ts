import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { DeltaMap } from '../../src/core/delta-map.js'

/**
 * DeltaMap (src/core/delta-map.ts): every version answers as a plain map given the same removals and sets would,
 * and making a version leaves its predecessor (still read by the old views) exactly as it was.
 */
const key = fc.integer({ min: 0, max: 40 })
const step = fc.record({
  removed: fc.array(key, { maxLength: 6 }),
  set: fc.array(fc.tuple(key, fc.integer()), { maxLength: 6 }),
  flatten: fc.boolean(),
})

const asSorted = (m: ReadonlyMap<number, number>) => [...m].sort((a, b) => a[0] - b[0])

function agrees(actual: DeltaMap<number, number>, expected: ReadonlyMap<number, number>): void {
  assert.equal(actual.size, expected.size)
  for (let k = -1; k <= 41; k++) {
    assert.equal(actual.get(k), expected.get(k), `get(${k})`)
    assert.equal(actual.has(k), expected.has(k), `has(${k})`)
  }
  assert.deepEqual(asSorted(actual), asSorted(expected))
  assert.deepEqual(
    [...actual.keys()].sort((a, b) => a - b),
    [...expected.keys()].sort((a, b) => a - b),
  )
  assert.equal([...actual.values()].length, expected.size)
  let n = 0
  actual.forEach((v, k, m) => {
    assert.equal(v, expected.get(k))
    assert.equal(m, actual)
    n++
  })
  assert.equal(n, expected.size)
}

test('every version equals a plain map given the same changes, and older versions do not change', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(key, fc.integer())), fc.array(step, { maxLength: 12 }), (initial, steps) => {
      const expected = new Map(initial)
      let version = DeltaMap.over(new Map(initial))
      const history: { version: DeltaMap<number, number>; expected: Map<number, number> }[] = []
      for (const s of steps) {
        history.push({ version, expected: new Map(expected) })
        for (const k of s.removed) expected.delete(k)
        for (const [k, v] of s.set) expected.set(k, v)
        version = version.with(s.removed, s.set)
        agrees(version, expected)
        if (s.flatten) {
          version = DeltaMap.over(version.flatten())
          assert.equal(version.deltaSize, 0)
          agrees(version, expected)
        }
      }
      for (const h of history) agrees(h.version, h.expected)
    }),
  )
})

test('a version costs its delta: keys set then removed again leave nothing behind', () => {
  const base = new Map([
    [1, 10],
    [2, 20],
  ])
  const v = DeltaMap.over(base)
    .with([], [[3, 30]])
    .with([3], [])
    .with([1], [])
  assert.equal(v.deltaSize, 1, 'only the removal of a base key is remembered')
  assert.deepEqual([...v], [[2, 20]])
  assert.equal(DeltaMap.over(v), v, 'a version is its own chain')
})
