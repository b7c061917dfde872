import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { runToEnd } from '../../src/core/slices.js'
import { ListIndex, type SortKeys } from '../../src/views/list-index.js'

/**
 * A rebuilt list index takes its orderings and search index over from the index it replaces (ListIndex.prepareSteps
 * with `previous`): the records of both lists keep their order and their texts, the ones that left are dropped and
 * the new ones merged in. Over random lists and random changes (records kept as the same objects, removed, changed as new objects under
 * their old ids, added; equal keys and unknown keys included), every page of every ordering and every search
 * equals what a fresh index gives: the same records, the same objects, in the same order.
 */
interface Row {
  readonly id: string
  readonly status: string
  readonly category: string
  readonly v: number | undefined
  readonly w: number | undefined
}

const KEYS: SortKeys<Row> = { v: (r) => r.v, w: (r) => r.w }
/** A changed record's text changes too (its fields are in it), so the search index must read it again. */
const text = (r: Row) => `row ${r.id} v${r.v ?? '-'} w${r.w ?? '-'} ${r.category}`
const SEARCHES = ['row', 'v1', 'v3 w', 'w-', 'r1', 'n2', ' a', 'b', 'zz', 'ro']

/** Few distinct values, so ties (broken by id) and unknown keys are common. */
const key = fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined, freq: 4 })
const fields = fc.record({
  status: fc.constantFrom('open', 'closed'),
  category: fc.constantFrom('a', 'b'),
  v: key,
  w: key,
})

const world = fc
  .record({
    size: fc.integer({ min: 0, max: 240 }),
    fields: fc.array(fields, { minLength: 480, maxLength: 480 }),
    // Per record of the first list: kept, removed or changed (a new object under the same id).
    // Mostly kept, as between two refreshes: few enough changes that the orderings are merged, not sorted anew
    // (past a quarter of the list changed, they are sorted anew: the runs with many changes cover that).
    fate: fc.array(
      fc.oneof(
        { arbitrary: fc.constant('kept'), weight: 24 },
        { arbitrary: fc.constant('removed'), weight: 1 },
        { arbitrary: fc.constant('changed'), weight: 1 },
      ),
      { minLength: 240, maxLength: 240 },
    ),
    added: fc.integer({ min: 0, max: 12 }),
    order: fc.array(fc.nat(), { minLength: 300, maxLength: 300 }),
  })
  .map(({ size, fields, fate, added, order }) => {
    const first: Row[] = Array.from({ length: size }, (_, i) => ({ id: `r${i}`, ...(fields[i] as (typeof fields)[0]) }))
    const second: Row[] = []
    first.forEach((r, i) => {
      if (fate[i] === 'kept') second.push(r)
      else if (fate[i] === 'changed') second.push({ ...r, ...(fields[size + i] as (typeof fields)[0]) })
    })
    for (let j = 0; j < added; j++) second.push({ id: `n${j}`, ...(fields[2 * size + j] as (typeof fields)[0]) })
    // The new list in another order (a venue may list its events in any order).
    const shuffled = second
      .map((r, i) => ({ r, o: order[i % order.length] as number }))
      .sort((x, y) => x.o - y.o)
      .map((x) => x.r)
    return { first, second: shuffled }
  })

function prepared(rows: readonly Row[], previous?: ListIndex<Row>): ListIndex<Row> {
  const index = new ListIndex(rows, KEYS, text)
  runToEnd(index.prepareSteps(previous))
  return index
}

test('a list index rebuilt from its predecessor orders and searches every page as a fresh one does', () => {
  fc.assert(
    fc.property(world, ({ first, second }) => {
      const rebuilt = prepared(second, prepared(first))
      const fresh = prepared(second)
      for (const sort of ['v', 'w'])
        for (const order of ['asc', 'desc'] as const)
          for (const status of ['all', 'open']) {
            const q = { status, sort, order, offset: 0, limit: second.length + 1 }
            const got = rebuilt.query(q)
            const want = fresh.query(q)
            assert.equal(got.total, want.total)
            assert.deepEqual(
              got.items.map((r) => r.id),
              want.items.map((r) => r.id),
            )
            got.items.forEach((r, i) => assert.equal(r, want.items[i], `${r.id}: the list's own object`))
          }
      // Search: the same records found, each ordering as a fresh index gives it.
      for (const search of SEARCHES) {
        const q = { status: 'all', search, sort: 'v', order: 'desc' as const, offset: 0, limit: second.length + 1 }
        assert.deepEqual(
          rebuilt.query(q).items.map((r) => r.id),
          fresh.query(q).items.map((r) => r.id),
          `search "${search}"`,
        )
      }
    }),
    { numRuns: 300 },
  )
})

/**
 * A venue view that knows what changed hands it over (ListIndex.prepareSteps and warmSteps with `known` changes):
 * along a chain of versions, each index made from its predecessor and the changes alone (orderings merged, the
 * filtered orderings a client asked for merged too, the search index patched) answers every query as a fresh one.
 */
test('a list index made from its predecessor and the known changes, version after version, answers as a fresh one', () => {
  const chain = fc.array(world, { minLength: 1, maxLength: 4 })
  fc.assert(
    fc.property(chain, (worlds) => {
      let rows = (worlds[0] as { first: Row[] }).first
      let index = prepared(rows)
      for (const w of worlds) {
        // Each world's second list says what becomes of the current rows: by position, kept, dropped or replaced.
        const byId = new Map(w.first.map((r, i) => [r.id, w.second.find((s) => s.id === r.id) ?? i]))
        const next: Row[] = []
        const removed = new Set<Row>()
        const added: Row[] = []
        for (const r of rows) {
          const fate = byId.get(r.id)
          if (fate === undefined || (typeof fate !== 'number' && fate === w.first.find((f) => f.id === r.id)))
            next.push(r)
          else if (typeof fate === 'number') removed.add(r)
          else {
            removed.add(r)
            const changed = { ...fate }
            next.push(changed)
            added.push(changed)
          }
        }
        const extra = w.second.filter((s) => s.id.startsWith('n')).map((s) => ({ ...s, id: `${s.id}-${next.length}` }))
        for (const r of extra) if (!next.some((x) => x.id === r.id)) (next.push(r), added.push(r))
        // A client's filtered orderings on the predecessor: made again from it.
        index.query({ status: 'open', category: 'a', sort: 'v', order: 'desc', offset: 0, limit: 1 })
        index.query({ status: 'closed', sort: 'w', order: 'asc', offset: 0, limit: 1 })
        const patched = new ListIndex(next, KEYS, text)
        runToEnd(patched.prepareSteps(index, { removed, added }))
        runToEnd(patched.warmSteps(index, { removed, added }))
        const fresh = prepared(next)
        for (const sort of ['v', 'w'])
          for (const order of ['asc', 'desc'] as const)
            for (const [status, category] of [
              ['all', undefined],
              ['open', 'a'],
              ['closed', undefined],
            ] as const) {
              const q = { status, category, sort, order, offset: 0, limit: next.length + 1 }
              const got = patched.query(q)
              const want = fresh.query(q)
              assert.equal(got.total, want.total)
              got.items.forEach((r, i) => assert.equal(r, want.items[i], `${sort} ${order} ${status}: ${r.id}`))
            }
        for (const search of SEARCHES) {
          const q = { status: 'all', search, sort: 'w', order: 'asc' as const, offset: 0, limit: next.length + 1 }
          assert.deepEqual(
            patched.query(q).items.map((r) => r.id),
            fresh.query(q).items.map((r) => r.id),
            `search "${search}"`,
          )
        }
        rows = next
        index = patched
      }
    }),
    { numRuns: 150 },
  )
})
