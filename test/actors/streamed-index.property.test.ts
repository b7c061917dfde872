import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { buildCatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { StreamedIndex } from '../../src/actors/streamed-index.js'
import { runToEnd } from '../../src/core/slices.js'
import type { Catalog, CatalogEvent, Outcome } from '../../src/model/types.js'
import { streamedInstrumentsSteps } from '../../src/venues/streamed-instruments.js'
import { oneMarketEvent } from '../helpers/gated-venue.js'
import { testOutcome } from '../helpers/outcomes.js'

/**
 * An install of a few changed events edits the streamed instruments from those events alone (streamed-index.ts).
 * Along random chains of catalog versions (events changed, added, dropped; outcomes opened and closed; instruments
 * shared by outcomes of several events, as venuek's YES and NO share a market's book), each edit must leave the list
 * a whole listing gives (as a set, each id once) and name exactly the instruments that came and went.
 */
const streams = (o: Outcome) => o.status === 'active'

interface EventSpec {
  readonly id: number
  /** Per outcome: its instrument (from a small pool, so events share some) and whether it is open. */
  readonly outcomes: readonly { readonly instrument: number; readonly open: boolean }[]
}

function event(spec: EventSpec): CatalogEvent {
  const eventId = `e${spec.id}`
  const outcomes = spec.outcomes.map((o, i) =>
    testOutcome(`${eventId}-o${i}`, {
      instrumentId: `i${o.instrument}`,
      marketId: `${eventId}-m`,
      eventId,
      status: o.open ? 'active' : 'closed',
      rawStatus: o.open ? 'active' : 'closed',
    }),
  )
  return oneMarketEvent(eventId, `${eventId}-m`, 'active', outcomes)
}

const outcomeArb = fc.record({ instrument: fc.integer({ min: 0, max: 60 }), open: fc.boolean() })
const eventArb = (id: number) =>
  fc.array(outcomeArb, { minLength: 1, maxLength: 3 }).map((outcomes): EventSpec => ({ id, outcomes }))
/** One step of a chain: per event index, keep / change / drop, and how many new events. */
const stepArb = fc.record({
  edits: fc.array(fc.constantFrom('keep', 'keep', 'keep', 'keep', 'keep', 'keep', 'change', 'drop'), {
    minLength: 80,
    maxLength: 80,
  }),
  changed: fc.array(eventArb(0), { minLength: 80, maxLength: 80 }),
  added: fc.array(eventArb(0), { maxLength: 3 }),
})

const whole = (c: Catalog) => new Set(runToEnd(streamedInstrumentsSteps(c, streams)))

test('edits along random chains of versions leave the list a whole listing gives, naming what came and went', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(eventArb(0), { minLength: 80, maxLength: 80 }),
      fc.array(stepArb, { maxLength: 6 }),
      async (first, steps) => {
        let nextId = 0
        let events = first.map((spec) => event({ ...spec, id: nextId++ }))
        let snapshot = buildCatalogSnapshot({ venue: 'venuep', events, fetchedAt: 0 }, 1)
        const index = new StreamedIndex()
        await index.whole(snapshot, streams)
        let version = 1
        for (const step of steps) {
          const before = whole(snapshot)
          const kept: CatalogEvent[] = []
          events.forEach((e, i) => {
            const edit = step.edits[i % step.edits.length]
            if (edit === 'keep') kept.push(e)
            else if (edit === 'change')
              kept.push(
                event({ ...(step.changed[i % step.changed.length] as EventSpec), id: Number(e.eventId.slice(1)) }),
              )
          })
          for (const spec of step.added) kept.push(event({ ...spec, id: nextId++ }))
          events = kept
          const next = buildCatalogSnapshot({ venue: 'venuep', events, fetchedAt: version }, ++version, snapshot)
          const edited = index.edit(snapshot, next, streams, 7)
          const after = whole(next)
          if (edited === undefined) {
            assert.equal(next.changes, undefined, 'an edit is refused only for a snapshot built whole')
            await index.whole(next, streams)
          } else {
            assert.equal(new Set(edited.instruments).size, edited.instruments.length, 'each instrument once')
            assert.deepEqual(new Set(edited.instruments), after)
            assert.deepEqual(new Set(edited.edit.added), new Set([...after].filter((id) => !before.has(id))))
            assert.deepEqual(new Set(edited.edit.removedIds), new Set([...before].filter((id) => !after.has(id))))
            assert.equal(edited.edit.mapVersion, 7)
          }
          snapshot = next
        }
      },
    ),
    { numRuns: 150 },
  )
})

test('an index that does not describe the installed snapshot refuses to edit (the whole list is made instead)', async () => {
  const forty = Array.from({ length: 40 }, (_, id) => event({ id, outcomes: [{ instrument: id, open: true }] }))
  const a = buildCatalogSnapshot({ venue: 'venuep', events: forty, fetchedAt: 0 }, 1)
  const one = event({ id: 40, outcomes: [{ instrument: 40, open: true }] })
  const b = buildCatalogSnapshot({ venue: 'venuep', events: [...forty, one], fetchedAt: 1 }, 2, a)
  assert.ok(b.changes !== undefined, 'b is patched from a')
  const index = new StreamedIndex()
  assert.equal(index.edit(a, b, streams, 0), undefined, 'never built')
  await index.whole(b, streams)
  assert.equal(index.edit(a, b, streams, 0), undefined, 'built for another snapshot')
  await index.whole(a, streams)
  assert.deepEqual(index.edit(a, b, streams, 0)?.edit, { mapVersion: 0, added: ['i40'], removedIds: [] })
})
