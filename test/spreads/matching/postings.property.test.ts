import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import {
  addPosting,
  eachHolder,
  hold,
  holderCount,
  lastHolder,
  release,
  removePosting,
  type Holders,
} from '../../../src/spreads/matching/postings.js'

/**
 * The blocking indexes' posting lists (postings.ts) hold, for any sequence of adds and removes, exactly the values a
 * plain multiset would, with no empty list left behind; a list taken from the map before an add to a short list is not
 * changed by it (short lists are replaced, not grown).
 */
const ops = fc.array(
  fc.record({ add: fc.boolean(), key: fc.integer({ min: 0, max: 3 }), value: fc.integer({ min: 0, max: 40 }) }),
  { maxLength: 400 },
)

test('posting lists hold what a multiset would, and no empty list', () => {
  fc.assert(
    fc.property(ops, (steps) => {
      const map = new Map<number, readonly number[]>()
      const model = new Map<number, number[]>()
      for (const { add, key, value } of steps) {
        const held = model.get(key) ?? []
        if (add) {
          const before = map.get(key)
          const snapshot = before === undefined ? undefined : [...before]
          addPosting(map, key, value)
          held.push(value)
          if (before !== undefined && before.length < 16) assert.deepEqual(before, snapshot, 'a short list is replaced')
        } else {
          const i = held.indexOf(value)
          assert.equal(removePosting(map, key, value), i !== -1)
          if (i !== -1) held.splice(i, 1)
        }
        if (held.length === 0) model.delete(key)
        else model.set(key, held)
      }
      assert.deepEqual(
        [...map.keys()].sort((a, b) => a - b),
        [...model.keys()].sort((a, b) => a - b),
      )
      for (const [key, values] of model)
        assert.deepEqual(
          [...(map.get(key) ?? [])].sort((a, b) => a - b),
          [...values].sort((a, b) => a - b),
        )
    }),
    { numRuns: 300 },
  )
})

test('index holders (one bare, several in a list) hold what a multiset would, a lone value bare, no empty key', () => {
  fc.assert(
    fc.property(ops, (steps) => {
      // Objects, as the indexes hold (a holder must not be an array).
      const values = Array.from({ length: 41 }, (_, i) => ({ i }))
      const map = new Map<number, Holders<{ i: number }>>()
      const model = new Map<number, { i: number }[]>()
      for (const { add, key, value } of steps) {
        const v = values[value] as { i: number }
        const held = model.get(key) ?? []
        if (add) {
          hold(map, key, v)
          held.push(v)
          assert.equal(lastHolder(map.get(key)), v, 'the value held last')
        } else {
          const i = held.indexOf(v)
          assert.equal(release(map, key, v), i !== -1)
          if (i !== -1) held.splice(i, 1)
        }
        if (held.length === 0) model.delete(key)
        else model.set(key, held)
        const now = map.get(key)
        assert.equal(holderCount(now), held.length)
        assert.equal(Array.isArray(now), held.length > 1, 'one value is held bare, more in a list')
      }
      assert.deepEqual(
        [...map.keys()].sort((a, b) => a - b),
        [...model.keys()].sort((a, b) => a - b),
      )
      for (const [key, expected] of model) {
        const seen: number[] = []
        eachHolder(map.get(key), (x) => seen.push(x.i))
        assert.deepEqual(
          seen.sort((a, b) => a - b),
          expected.map((x) => x.i).sort((a, b) => a - b),
        )
      }
    }),
    { numRuns: 300 },
  )
})
