import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { topK } from '../../src/core/top-k.js'

/** The bounded selection against sorting everything and slicing, on values with many ties (broken by id). */
test('topK(items, k) is sort-then-slice, for every k, with ties', () => {
  type Item = { readonly value: number; readonly id: number }
  const compare = (a: Item, b: Item) => b.value - a.value || a.id - b.id
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 80 }),
      fc.integer({ min: -1, max: 90 }),
      (values, k) => {
        const items = values.map((value, id) => ({ value, id }))
        const input = [...items]
        assert.deepEqual(topK(items, k, compare), [...items].sort(compare).slice(0, Math.max(0, k)))
        assert.deepEqual(items, input, 'the input is left as it was')
      },
    ),
    { seed: 19_005, numRuns: 2_000 },
  )
})
