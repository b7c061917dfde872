import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { PatchedList } from '../../src/core/patched-list.js'

/**
 * A venue view's records' lists are versions of their predecessors' (src/core/patched-list.ts): every version, read
 * whole at any point of a chain of edits (or never, then later), is the array the edits give when applied one by one
 * to a copy, and reading one version changes no other.
 */
interface Edit {
  /** Picks of items to take out of the version being edited (by place, modulo its length). */
  readonly gone: readonly number[]
  /** How many new items to append. */
  readonly added: number
  /** Read this version whole right after making it. */
  readonly read: boolean
}

const edit = fc.record({
  gone: fc.array(fc.nat(), { maxLength: 30 }),
  added: fc.integer({ min: 0, max: 40 }),
  read: fc.boolean(),
})

test('every version equals the edits applied to an array, read early, late or not at all', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 200 }), fc.array(edit, { maxLength: 25 }), (size, edits: Edit[]) => {
      let next = 0
      const item = () => ({ n: next++ })
      const first = Array.from({ length: size }, item)
      const versions: { list: PatchedList<{ n: number }>; expected: { n: number }[] }[] = [
        { list: PatchedList.of(first), expected: [...first] },
      ]
      for (const e of edits) {
        const { list, expected } = versions[versions.length - 1] as (typeof versions)[number]
        const gone = new Set(expected.length === 0 ? [] : e.gone.map((p) => expected[p % expected.length]!))
        const added = Array.from({ length: e.added }, item)
        const edited = list.edited(gone, added)
        const after = [...expected.filter((x) => !gone.has(x)), ...added]
        assert.equal(edited.length, after.length)
        if (e.read) assert.deepEqual(edited.array(), after)
        versions.push({ list: edited, expected: after })
      }
      // Every version, the earlier ones included, still reads as it was made (in reverse: late reads of old versions).
      for (const { list, expected } of versions.reverse()) {
        const whole = list.array()
        assert.equal(whole.length, expected.length)
        whole.forEach((x, k) => assert.equal(x, expected[k]))
        assert.equal(list.array(), whole, 'made once per version')
      }
    }),
    { seed: 37 },
  )
})

test('many pending edits are made into an array, and an unedited version is its own items', () => {
  const base = Array.from({ length: 10_000 }, (_, n) => ({ n }))
  const list = PatchedList.of(base)
  assert.equal(list.array(), base)
  assert.equal(list.edited(new Set(), []), list)
  let version = list
  const added: { n: number }[] = []
  for (let k = 0; k < 5_000; k++) {
    const item = { n: 10_000 + k }
    added.push(item)
    version = version.edited(new Set([base[k]!]), [item])
  }
  assert.equal(version.length, 10_000)
  assert.deepEqual(version.array(), [...base.slice(5_000), ...added])
})
