import assert from 'node:assert/strict'
import { test } from 'node:test'
import { BucketIndex } from '../../../src/spreads/engine/bucket-index.js'
import { Rng } from '../../../src/sim/world/random.js'

test('descending order equals a sort of the current values after random updates and deletes', () => {
  const rng = new Rng(3)
  const index = new BucketIndex()
  const ref = new Map<number, number>()
  for (let i = 0; i < 50_000; i++) {
    const id = rng.int(0, 3_000)
    if (rng.chance(0.1)) {
      index.delete(id)
      ref.delete(id)
    } else {
      // Clustered values exercise ties inside buckets; extremes exercise the edges.
      const v = rng.chance(0.05) ? rng.pick([0, 1, 0.5]) : Math.round(rng.next() * 2_000) / 2_000
      index.set(id, v)
      ref.set(id, v)
    }
  }
  const expected = [...ref.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])
  const got: [number, number][] = []
  index.forEachDescending((id, v) => {
    got.push([id, v])
  })
  assert.equal(index.size, ref.size)
  assert.deepEqual(got, expected)
  const top: number[] = []
  index.forEachDescending((id) => top.push(id) < 10)
  assert.deepEqual(
    top,
    expected.slice(0, 10).map((e) => e[0]),
  )
  const above: number[] = []
  index.forEachDescending((id) => {
    above.push(id)
  }, 0.75)
  assert.deepEqual(
    above,
    expected.filter((e) => e[1] >= 0.75).map((e) => e[0]),
  )
})
