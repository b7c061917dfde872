import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { maxOf, minOf, pushAll, withoutThenWith } from '../../src/core/arrays.js'

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

test('withoutThenWith: the list filtered and appended to, whether few or many items go, and the list left as it was', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 300 }),
      fc.array(fc.nat(), { maxLength: 40 }),
      fc.array(fc.integer({ min: 1_000 }), { maxLength: 5 }),
      (size, picks, added) => {
        const list = Array.from({ length: size }, (_, i) => ({ i }))
        // Items of the list, and now and then one it does not hold.
        const gone = new Set(
          picks.map((p) => (p % 9 === 8 ? { i: -1 } : list[p % Math.max(size, 1)])).filter((x) => x !== undefined),
        )
        const extra = added.map((i) => ({ i }))
        const before = [...list]
        const out = withoutThenWith(list, gone, extra)
        assert.deepEqual(out, [...list.filter((x) => !gone.has(x)), ...extra])
        out.forEach((x, k) => assert.equal(x, [...list.filter((y) => !gone.has(y)), ...extra][k]))
        assert.deepEqual(list, before)
      },
    ),
    { seed: 35 },
  )
})

test("withoutThenWith: runs of neighbouring items gone (an event's outcomes), in any order, and items that are arrays", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 400 }),
      fc.array(fc.record({ at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }), { maxLength: 6 }),
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 4 }),
      (size, runs, reversed, added) => {
        // Items are arrays: a copy that spread them would show.
        const list = Array.from({ length: size }, (_, i) => [i])
        const picked = runs.flatMap(({ at, length }) =>
          size === 0 ? [] : list.slice(at % size, Math.min(size, (at % size) + length)),
        )
        const gone = new Set(reversed ? picked.reverse() : picked)
        const extra = added.map((i) => [1_000 + i])
        const expected = [...list.filter((x) => !gone.has(x)), ...extra]
        const out = withoutThenWith(list, gone, extra)
        assert.equal(out.length, expected.length)
        out.forEach((x, k) => assert.equal(x, expected[k]))
        assert.equal(list.length, size)
      },
    ),
    { seed: 36 },
  )
})
