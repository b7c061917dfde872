import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import type { CatalogEvent } from '../../src/model/types.js'

/**
 * A refresh's snapshot is made from the installed one and the events that changed (catalogSnapshotSteps with
 * `previous`). Along random chains of refreshes (events kept as the same objects, replaced, dropped, added; ids
 * listed twice and market ids shared between events now and then), every snapshot's lookups and counts are those of
 * a snapshot built whole from the same catalog, and its `changes` are exactly the events that came and went.
 */
interface Shape {
  readonly id: number
  readonly markets: readonly { readonly id: number; readonly outcomes: number }[]
}

let made = 0
function event(shape: Shape): CatalogEvent {
  const serial = made++
  return {
    venue: 'venuek',
    eventId: `E${shape.id}`,
    markets: shape.markets.map((m) => ({
      marketId: `M${m.id}`,
      outcomes: Array.from({ length: m.outcomes }, (_, i) => ({ outcomeId: `M${m.id}-${i}`, serial })),
    })),
  } as unknown as CatalogEvent
}

const shape = fc.record({
  id: fc.integer({ min: 0, max: 60 }),
  // Market ids mostly the event's own; now and then one another event uses (a collision the whole build resolves).
  markets: fc.array(
    fc.record({
      id: fc.oneof({ weight: 30, arbitrary: fc.integer({ min: 0, max: 3 }) }, fc.integer({ min: 4, max: 5 })),
      outcomes: fc.integer({ min: 1, max: 3 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
})
const withOwnMarkets = (s: Shape): Shape => ({
  id: s.id,
  markets: s.markets.map((m) => ({ ...m, id: m.id < 4 ? s.id * 10 + m.id : 1000 + m.id })),
})

const step = fc.record({
  fates: fc.array(fc.constantFrom('kept', 'kept', 'kept', 'kept', 'kept', 'kept', 'replaced', 'dropped'), {
    maxLength: 60,
  }),
  added: fc.array(shape, { maxLength: 4 }),
  shuffle: fc.boolean(),
})

function lookups(s: CatalogSnapshot) {
  return {
    events: new Map(s.eventsById),
    markets: new Map(s.marketsById),
    outcomes: new Map(s.outcomesById),
    marketCount: s.marketCount,
    outcomeCount: s.outcomeCount,
  }
}

test('a snapshot made from its predecessor and the changed events equals one built whole', () => {
  fc.assert(
    fc.property(fc.array(shape, { maxLength: 40 }), fc.array(step, { minLength: 1, maxLength: 8 }), (first, steps) => {
      let events = first.map((s) => event(withOwnMarkets(s)))
      let installed = buildCatalogSnapshot({ venue: 'venuek', events, fetchedAt: 0 }, 1)
      for (const [k, st] of steps.entries()) {
        const next: CatalogEvent[] = []
        events.forEach((e, i) => {
          const fate = st.fates[i] ?? 'kept'
          if (fate === 'kept') next.push(e)
          else if (fate === 'replaced')
            next.push(event(withOwnMarkets({ id: Number(e.eventId.slice(1)), markets: [{ id: 1, outcomes: 2 }] })))
        })
        for (const s of st.added) next.push(event(withOwnMarkets(s)))
        if (st.shuffle) next.reverse()
        const catalog = { venue: 'venuek' as const, events: next, fetchedAt: k + 1 }
        const patched = buildCatalogSnapshot(catalog, installed.version + 1, installed)
        const whole = buildCatalogSnapshot(catalog, installed.version + 1)
        assert.deepEqual(lookups(patched), lookups(whole))
        for (const [id, e] of whole.eventsById) assert.equal(patched.eventsById.get(id), e, "the catalog's own objects")
        if (patched.changes !== undefined) {
          assert.equal(patched.changes.since, installed.version)
          const kept = new Set(installed.events.filter((e) => !patched.changes?.removed.includes(e)))
          for (const e of patched.changes.added) kept.add(e)
          assert.deepEqual(new Set(next), kept, 'the installed events less the removed plus the added')
        }
        events = next
        installed = patched
      }
    }),
    { numRuns: 400 },
  )
})

test('a refresh that changed a few events is patched, not built whole', () => {
  const events = Array.from({ length: 64 }, (_, i) => event({ id: i, markets: [{ id: i * 10, outcomes: 2 }] }))
  const installed = buildCatalogSnapshot({ venue: 'venuek', events, fetchedAt: 0 }, 1)
  const changed = event({ id: 3, markets: [{ id: 30, outcomes: 3 }] })
  const next = [
    ...events.slice(0, 3),
    changed,
    ...events.slice(4, 63),
    event({ id: 99, markets: [{ id: 990, outcomes: 2 }] }),
  ]
  const patched = buildCatalogSnapshot({ venue: 'venuek', events: next, fetchedAt: 1 }, 2, installed)
  assert.deepEqual(patched.changes, {
    since: 1,
    removed: [events[3], events[63]],
    added: [changed, next[next.length - 1]],
  })
  assert.equal(patched.outcomeCount, 64 * 2 + 1)
})
