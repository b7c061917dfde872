import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { withChangedEvents } from '../../src/actors/catalog-changed-events.js'
import { buildCatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import type { CatalogEvent } from '../../src/model/types.js'
import { oneOutcomeEvents } from '../helpers/gated-venue.js'

/**
 * A refresh of changes applied to the installed catalog (catalog-changed-events.ts): each changed event in the
 * installed one's place, dropped ones gone, new ones at the end in the order first listed, and the events that came and
 * went reported exactly. Few changes take a copy with each place found by a scan, many a pass of lookups: either way
 * the result is the rule's, checked here against the rule written plainly.
 */
type Edit = { readonly at: number; readonly kind: 'same' | 'changed' | 'dropped' | 'new' }

const edits = fc.array(
  fc.record({
    at: fc.nat(),
    kind: fc.constantFrom('same' as const, 'changed' as const, 'dropped' as const, 'new' as const),
  }),
  { maxLength: 60 },
)

test('changes applied to the installed catalog: in place, dropped, new at the end, and reported exactly', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 80 }), edits, (size, list) => {
      const installed = buildCatalogSnapshot(oneOutcomeEvents(Array.from({ length: size }, (_, i) => `e${i}`)), 1)
      const changed: { eventId: string; event: CatalogEvent | undefined }[] = []
      for (const [n, { at, kind }] of list.entries()) {
        const e = installed.events[at % size] as CatalogEvent
        if (kind === 'same') changed.push({ eventId: e.eventId, event: e })
        else if (kind === 'changed') changed.push({ eventId: e.eventId, event: { ...e, title: `${e.title} ${n}` } })
        else if (kind === 'dropped') changed.push({ eventId: e.eventId, event: undefined })
        else changed.push({ eventId: `new${at % 7}`, event: { ...e, eventId: `new${at % 7}`, title: `new ${n}` } })
      }
      const result = withChangedEvents(installed, { events: changed, fetchedAt: 2 })
      // The rule, plainly: the last word on each id, in the order first listed.
      const latest = new Map<string, CatalogEvent | undefined>()
      for (const c of changed) latest.set(c.eventId, c.event)
      const expected: CatalogEvent[] = []
      for (const e of installed.events) {
        const next = latest.has(e.eventId) ? latest.get(e.eventId) : e
        if (next !== undefined) expected.push(next)
      }
      for (const [id, e] of latest) if (!installed.eventsById.has(id) && e !== undefined) expected.push(e)
      const removed = installed.events.filter((e) => latest.has(e.eventId) && latest.get(e.eventId) !== e)
      const added = [...latest].flatMap(([id, e]) => (e === undefined || installed.eventsById.get(id) === e ? [] : [e]))
      if (removed.length === 0 && added.length === 0) return assert.equal(result, undefined)
      assert.ok(result !== undefined)
      assert.equal(result.catalog.events.length, expected.length)
      result.catalog.events.forEach((e, i) => assert.equal(e, expected[i], `event ${i}`))
      assert.deepEqual(
        {
          removed: result.changes?.removed.map((e) => e.eventId).sort(),
          added: result.changes?.added.map((e) => e.eventId).sort(),
        },
        { removed: removed.map((e) => e.eventId).sort(), added: added.map((e) => e.eventId).sort() },
      )
      assert.notEqual(result.catalog.events, installed.events, 'a new list: the installed one stays as it was')
      assert.equal(installed.events.length, size)
    }),
    { numRuns: 400, seed: 35 },
  )
})
