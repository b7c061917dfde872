import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { ChunkedList } from '../../src/core/chunked-list.js'

/**
 * ChunkedList (src/core/chunked-list.ts) against a plain array, along random chains of edits: every read (`at`, `slice`,
 * iteration, `filter`, `firstWhere`) of every version gives what the array gives, and an edit leaves the version it
 * was made from as it was. Lists span many chunks (512 items each), edits hit chunk edges, empty chunks and splits.
 */
type Edit = { readonly removed: number[]; readonly inserted: [number, number][] }

const edit = fc.record({
  removed: fc.array(fc.nat(), { maxLength: 40 }),
  inserted: fc.array(fc.tuple(fc.nat(), fc.integer()), { maxLength: 40 }),
  // A run of removals from one place: empties a chunk now and then.
  run: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 700 })), { nil: undefined }),
  // A run of insertions at one place: makes a chunk past twice its size, which splits.
  burst: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 1_200 })), { nil: undefined }),
})

/** The same edit on an array: removals by index into the original, insertions before the original's item there. */
function applied(items: readonly number[], e: Edit): number[] {
  const gone = new Set(e.removed)
  const byPlace = new Map<number, number[]>()
  for (const [at, v] of e.inserted) byPlace.set(at, [...(byPlace.get(at) ?? []), v])
  const out: number[] = []
  for (let i = 0; i <= items.length; i++) {
    for (const v of byPlace.get(i) ?? []) out.push(v)
    if (i < items.length && !gone.has(i)) out.push(items[i] as number)
  }
  return out
}

function sameReads(list: ChunkedList<number>, items: readonly number[], probe: number): void {
  assert.equal(list.length, items.length)
  assert.deepEqual([...list], items)
  assert.deepEqual(list.toArray(), items)
  for (const i of [0, 1, 511, 512, 513, 1023, 1024, items.length - 1, items.length, -1, probe % (items.length + 1)])
    assert.equal(list.at(i), i >= 0 && i < items.length ? items[i] : undefined, `at(${i})`)
  const a = probe % (items.length + 2)
  const b = (probe * 7) % (items.length + 600)
  assert.deepEqual(list.slice(a, b), items.slice(a, b), `slice(${a}, ${b})`)
  assert.deepEqual(
    list.filter((v) => v % 3 === 0),
    items.filter((v) => v % 3 === 0),
  )
  // firstWhere on a sorted copy: the first place not below a value.
  const sorted = ChunkedList.from([...items].sort((x, y) => x - y))
  const plain = [...items].sort((x, y) => x - y)
  const value = plain[probe % Math.max(plain.length, 1)] ?? 0
  const expected = plain.findIndex((v) => v >= value)
  assert.equal(
    sorted.firstWhere((v) => v >= value),
    expected < 0 ? plain.length : expected,
  )
  assert.equal(
    sorted.firstWhere(() => false),
    plain.length,
  )
}

test('every version of a chunked list reads as the array it models, and edits leave their base as it was', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 3_000 }),
      fc.array(edit, { minLength: 1, maxLength: 8 }),
      fc.nat(),
      (size, edits, probe) => {
        let items = Array.from({ length: size }, (_, i) => i * 2)
        let list = ChunkedList.from(items)
        sameReads(list, items, probe)
        for (const drawn of edits) {
          const n = items.length
          const removed = new Set(n === 0 ? [] : drawn.removed.map((i) => i % n))
          if (drawn.run !== undefined && n > 0) {
            const [from, length] = drawn.run
            for (let i = from % n; i < Math.min(n, (from % n) + length); i++) removed.add(i)
          }
          const inserted: [number, number][] = drawn.inserted.map(([at, v]) => [at % (n + 1), v])
          if (drawn.burst !== undefined) {
            const at = drawn.burst[0] % (n + 1)
            for (let k = 0; k < drawn.burst[1]; k++) inserted.push([at, -k])
          }
          const e = { removed: [...removed], inserted }
          const before = [...list]
          const next = list.edited(e.removed, e.inserted)
          assert.deepEqual([...list], before, 'the base version is unchanged')
          items = applied(items, e)
          list = next
          sameReads(list, items, probe)
        }
      },
    ),
    { numRuns: 150, seed: 35 },
  )
})

test('an edit out of range is refused, and the list is unchanged', () => {
  const list = ChunkedList.from([1, 2, 3])
  assert.throws(() => list.edited([3], []), RangeError)
  assert.throws(() => list.edited([], [[4, 9]]), RangeError)
  assert.deepEqual([...list.edited([], [[3, 9]])], [1, 2, 3, 9])
  assert.deepEqual([...list], [1, 2, 3])
  assert.deepEqual([...ChunkedList.empty<number>().edited([], [[0, 5]])], [5])
})
