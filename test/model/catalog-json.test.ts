import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { nullAsUndefined, undefinedAsNull } from '../../src/model/catalog-json.js'

/**
 * The model's records as JSON and back (src/model/catalog-json.ts), which the catalog file, the match file and the
 * bus's catalog objects rely on: any record whose unknown values are `undefined` (never `null`) comes back equal,
 * every key kept, nested objects and arrays included.
 */
const withUndefined = (v: unknown): unknown => {
  if (v === null) return undefined
  // JSON has no -0 (it writes 0); the records are read from JSON in the first place.
  if (Object.is(v, -0)) return 0
  if (Array.isArray(v)) return v.map(withUndefined)
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withUndefined(x)]))
  return v
}

test('a record with undefined anywhere round-trips through JSON exactly', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), (json) => {
      const record = withUndefined(json)
      const back = nullAsUndefined(JSON.parse(JSON.stringify(record, undefinedAsNull)))
      assert.deepStrictEqual(back, record)
    }),
    { numRuns: 1_000, seed: 20261207 },
  )
})
