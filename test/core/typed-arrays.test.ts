import assert from 'node:assert/strict'
import { test } from 'node:test'
import { atLeast } from '../../src/core/typed-arrays.js'

test('atLeast keeps an array that is long enough and grows one that is not, contents kept and the tail zeroed', () => {
  const small = Int32Array.from([5, -1, 7])
  assert.equal(atLeast(small, 3), small)
  const grown = atLeast(small, 4)
  assert.ok(grown instanceof Int32Array)
  assert.deepEqual([...grown], [5, -1, 7, 0, 0, 0], 'at least twice as long')
  const far = atLeast(Float64Array.from([0.5]), 10)
  assert.ok(far instanceof Float64Array)
  assert.equal(far.length, 10)
  assert.deepEqual([...far.subarray(0, 2)], [0.5, 0])
})
