import assert from 'node:assert/strict'
import { test } from 'node:test'
import { InstrumentSet } from '../../src/actors/instrument-set.js'
import { instrumentPlanSteps } from '../../src/actors/instrument-plan.js'
import { newInstrument, type InstrumentState } from '../../src/actors/instrument-state.js'
import { runToEnd } from '../../src/core/slices.js'

/**
 * A venue actor's instrument set changes three ways at an install (instrument-set.ts). An edit changes the map in
 * place, so a plan made against the same map before the edit was installed must not be applied after it: the set is
 * rebuilt from the list instead, every book counted once and every instrument that left retired once.
 */
function setUp() {
  let slot = 0
  const retired: string[] = []
  const set = new InstrumentSet(
    (id) => newInstrument(id, slot++),
    (st) => retired.push(st.id),
  )
  return { set, retired }
}

const synced = (st: InstrumentState) => st.book.applySnapshot([[400_000, 10_000_000]], [[450_000, 5_000_000]])

test('a plan made before an edit was installed is refused after it: the set is rebuilt, counts exact', () => {
  const { set, retired } = setUp()
  assert.equal(set.install(['a', 'b', 'c'], undefined, undefined), undefined, 'no plan: rebuilt')
  for (const id of ['a', 'b', 'c']) synced(set.map.get(id) as InstrumentState)
  set.synced = 3
  set.setStale(set.map.get('c') as InstrumentState, true)

  // A whole listing's plan, prepared against the map as it is now (a..c), for a..d.
  const plan = {
    ...runToEnd(instrumentPlanSteps(['a', 'b', 'c', 'd'], set.map, (id) => newInstrument(id, 100))),
    mapVersion: set.version,
  }
  // Meanwhile an edit made against the same version is installed first: b went, e came.
  const change = set.install(['a', 'c', 'e'], undefined, { mapVersion: set.version, added: ['e'], removedIds: ['b'] })
  assert.deepEqual(change, { mapVersion: 0 + 1, added: ['e'], removedIds: ['b'] })
  assert.deepEqual([...set.map.keys()], ['a', 'c', 'e'])
  assert.deepEqual([set.synced, set.stale, retired], [2, 1, ['b']])

  // The plan's map is the same object, but it holds other instruments now: rebuilt from the list.
  assert.equal(set.install(['a', 'b', 'c', 'd'], plan, undefined), undefined)
  assert.deepEqual([...set.map.keys()], ['a', 'b', 'c', 'd'])
  assert.deepEqual(retired, ['b', 'e'])
  assert.equal(set.synced, 2, 'a and c have books; b and d are new')
  assert.equal(set.stale, 1, 'c is still stale')
})

test('an edit or a plan made against the current version applies as made', () => {
  const { set, retired } = setUp()
  set.install(['a', 'b'], undefined, undefined)
  const a = set.map.get('a')
  const plan = {
    ...runToEnd(instrumentPlanSteps(['a', 'c'], set.map, (id) => newInstrument(id, 9))),
    mapVersion: set.version,
  }
  assert.deepEqual(set.install(['a', 'c'], plan, undefined), plan)
  assert.equal(set.map, plan.next)
  assert.equal(set.map.get('a'), a, 'kept instruments keep their state')
  assert.deepEqual(retired, ['b'])
  const edit = { mapVersion: set.version, added: ['d'], removedIds: ['a'] }
  assert.equal(set.install(['c', 'd'], undefined, edit), edit)
  assert.deepEqual([...set.map.keys()], ['c', 'd'])
  assert.deepEqual(retired, ['b', 'a'])
  const stale = { mapVersion: set.version - 1, added: ['x'], removedIds: [] }
  assert.equal(set.install(['c', 'd'], undefined, stale), undefined, 'an edit of an older version: rebuilt')
  assert.deepEqual([...set.map.keys()], ['c', 'd'])
})
