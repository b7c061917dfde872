import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { maxOf, minOf, pushAll } from '../../src/core/arrays.js'

/**
 * The replacements for spread arguments (src/core/arrays.ts, enforced by the lint in src/): the same results as
 * `push(...)`, `Math.min(...)` and `Math.max(...)` where those work, and no stack overflow where they do not.
 */
test('equal to the spread forms on any short list (NaN and signed zeros included)', () => {
  fc.assert(
    fc.property(fc.array(fc.double()), fc.array(fc.oneof(fc.double(), fc.constantFrom(0, -0, NaN))), (head, items) => {
      assert.deepEqual(pushAll([...head], items), [...head, ...items])
      assert.deepEqual(minOf(items), items.length === 0 ? undefined : Math.min(...items))
      assert.deepEqual(maxOf(items), items.length === 0 ? undefined : Math.max(...items))
    }),
  )
})

test('a list longer than the call stack takes as arguments', () => {
  const n = 2_000_000
  const long = Array.from({ length: n }, (_, i) => (i * 7919) % n)
  assert.throws(() => [].push(...(long as never[])), RangeError, 'the spread form overflows at this length')
  assert.equal(pushAll([-1], long).length, n + 1)
  assert.equal(minOf(long), 0)
  assert.equal(maxOf(long), n - 1)
  assert.equal(maxOf(new Set(long).values()), n - 1, 'any iterable')
})
