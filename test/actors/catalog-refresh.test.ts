import assert from 'node:assert/strict'
import { test } from 'node:test'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import type { Catalog } from '../../src/model/types.js'
import type { FeedEvent, FeedSink, VenueAdapter } from '../../src/venues/types.js'
import { venuepProbability } from '../../src/venues/venuep/probability.js'
import { bookSnapshot, oneOutcomeEvents, quietFeedStatus } from '../helpers/gated-venue.js'
import { waitFor } from '../helpers/wait.js'

/**
 * Catalog refreshes prepared in slices: the actor installs a plan in O(changes). These tests pin what that must not
 * change: the instrument map and the feed end up as a full rebuild would leave them, a feed that can take a
 * difference is told only the difference (nothing when the set is the same), a new feed after a restart still gets
 * the whole list, and books that left stop counting towards readiness.
 */
const catalog = (ids: string[], closed: string[] = []): Catalog => oneOutcomeEvents(ids, closed)

type FeedCall = ['set', string[]] | ['change', string[], string[]]

class FakeVenue {
  sink: FeedSink | undefined
  current = catalog(['a', 'b', 'c'])
  /** Calls per feed (one feed per actor start). */
  readonly calls: FeedCall[][] = []
  subscribed = new Set<string>()
  readonly adapter: VenueAdapter = {
    id: 'venuep',
    fetchCatalog: async () => this.current,
    createFeed: (sink) => {
      this.sink = sink
      const calls: FeedCall[] = []
      this.calls.push(calls)
      this.subscribed = new Set()
      const venue = this
      return {
        setInstruments(ids) {
          calls.push(['set', [...ids]])
          venue.subscribed = new Set(ids)
        },
        changeInstruments(added, removed) {
          calls.push(['change', [...added], [...removed]])
          for (const id of removed) venue.subscribed.delete(id)
          for (const id of added) venue.subscribed.add(id)
        },
        close() {},
        status: () => quietFeedStatus(venue.subscribed.size),
      }
    },
    probability: venuepProbability,
    instrumentsOf: () => assert.fail('with `streams`, the actor lists instruments itself, in slices'),
    streams: (o) => o.status === 'active',
  }
  emit(...events: FeedEvent[]): void {
    this.sink?.(events, 1_000)
  }
}

const snap = bookSnapshot

/** An actor over a FakeVenue, started, its first catalog installed. */
async function startedActor(): Promise<{ venue: FakeVenue; clock: SimulatedClock; actor: VenueActor }> {
  const venue = new FakeVenue()
  const clock = new SimulatedClock(0)
  const actor = new VenueActor({ adapter: venue.adapter, clock, log: silentLogger, catalogRefreshMs: 60_000 })
  actor.start()
  await waitFor(() => actor.catalog() !== undefined)
  return { venue, clock, actor }
}

async function refresh(actor: VenueActor, clock: SimulatedClock): Promise<void> {
  const version = actor.catalog()?.version ?? 0
  clock.increment(60_000)
  await waitFor(() => actor.catalog()?.version === version + 1)
}

test('a refresh tells a feed only the difference, and nothing when the streamed set did not change', async () => {
  const { venue, clock, actor } = await startedActor()
  assert.deepEqual(venue.calls, [[['set', ['a', 'b', 'c']]]], 'a new feed gets the whole list')

  venue.current = catalog(['c', 'a', 'b'], ['z'])
  await refresh(actor, clock)
  assert.equal(venue.calls[0]!.length, 1, 'same set (other order, a closed outcome more): the feed is not called')

  venue.current = catalog(['a', 'c', 'd', 'e'])
  await refresh(actor, clock)
  assert.deepEqual(venue.calls[0]!.at(-1), ['change', ['d', 'e'], ['b']])
  assert.deepEqual([...venue.subscribed].sort(), ['a', 'c', 'd', 'e'])
  assert.equal(actor.book('b'), undefined)
  assert.ok(actor.book('d') !== undefined)
  assert.equal(actor.venueStatus().books.instruments, 4)
  actor.stop()
})

test('a sync that lists the installed catalog again installs nothing: same version, no listener, no feed call', async () => {
  const { venue, clock, actor } = await startedActor()
  const installed = actor.catalog()!
  const heard: number[] = []
  actor.subscribeCatalog((c) => heard.push(c.version))
  // The same event objects (what mapped-records.ts gives back for unchanged raw events), listed a minute later.
  venue.current = { ...venue.current, fetchedAt: 60_000 }
  clock.increment(60_000)
  await waitFor(() => actor.venueStatus().catalog.syncedAt === 60_000)
  assert.equal(actor.catalog(), installed, 'the installed snapshot is kept')
  assert.deepEqual(heard, [], 'no catalog listener (matcher, views, bus) hears of it')
  assert.deepEqual(venue.calls, [[['set', ['a', 'b', 'c']]]], 'the feed is not called')
  const status = actor.venueStatus().catalog
  assert.deepEqual([status.version, status.fetchedAt, status.syncedAt, status.failures], [1, 0, 60_000, 0])

  // One event changed (a new object): a new version, heard once.
  venue.current = { ...venue.current, events: [...venue.current.events.slice(0, 2), catalog(['c']).events[0]!] }
  await refresh(actor, clock)
  assert.deepEqual(heard, [2])
  actor.stop()
})

test('after a restart the new feed gets the whole list again, and kept books keep their state', async () => {
  const { venue, clock, actor } = await startedActor()
  venue.emit(snap('a'))
  const bookA = actor.book('a')
  actor.stop()
  actor.start()
  await waitFor(() => venue.calls.length === 2 && venue.calls[1]!.length > 0)
  assert.deepEqual(venue.calls[1], [['set', ['a', 'b', 'c']]])
  assert.equal(actor.book('a'), bookA, 'the same book object, reset by the restart')
  assert.equal(actor.quote('a')?.stale, true)
  actor.stop()
})

test('readiness counts only the books still streamed: a synced book that left does not count', async () => {
  const { venue, clock, actor } = await startedActor()
  venue.emit(snap('a'), snap('b'))
  assert.equal(actor.ready, false, 'c has no book yet')
  venue.current = catalog(['b', 'c', 'd'])
  await refresh(actor, clock)
  assert.equal(actor.ready, false, 'a left: two of three streamed books (b) synced is not enough')
  venue.emit(snap('c'))
  assert.equal(actor.ready, false, 'd has no book yet')
  venue.emit(snap('d'))
  assert.equal(actor.ready, true)
  assert.deepEqual(actor.venueStatus().books, { instruments: 3, synced: 3, stale: 0 })
  actor.stop()
})

test('handles: live while the instrument is streamed, retired when it leaves, a new one when it returns', async () => {
  const { venue, clock, actor } = await startedActor()
  const a = actor.handle('a')!
  const b = actor.handle('b')!
  venue.emit(snap('a'), snap('b'))
  assert.equal(a.quote, actor.quote('a'), 'the handle reads the quote the actor publishes')
  assert.equal(a.quote?.bestBid, 0.4)

  venue.current = catalog(['a', 'c'])
  await refresh(actor, clock)
  assert.deepEqual([a.retired, b.retired], [false, true], 'b left the map; a is kept as it was')
  assert.equal(actor.handle('a'), a)
  venue.current = catalog(['a', 'b', 'c'])
  await refresh(actor, clock)
  const b2 = actor.handle('b')!
  assert.notEqual(b2, b, 'a returning instrument is a new state: holders of the old handle must look it up again')
  assert.deepEqual([b.retired, b2.retired], [true, false])
  actor.stop()
})

test('venueStatus counts (kept incrementally) equal a recount through stale marks, restarts and refreshes', async () => {
  const { venue, clock, actor } = await startedActor()
  const recount = () => {
    const ids = [...'abcdefg'].filter((id) => actor.handle(id) !== undefined)
    return {
      instruments: ids.length,
      synced: ids.filter((id) => actor.book(id)!.hasSnapshot).length,
      stale: ids.filter((id) => actor.handle(id)!.stale).length,
    }
  }
  const check = (what: string, expected: { instruments: number; synced: number; stale: number }) => {
    assert.deepEqual(actor.venueStatus().books, recount(), `${what}: counts equal a recount`)
    assert.deepEqual(actor.venueStatus().books, expected, what)
  }
  venue.emit(snap('a'), snap('b'), snap('c'))
  check('all synced', { instruments: 3, synced: 3, stale: 0 })
  venue.emit({ type: 'stale', instrumentIds: ['a', 'b'], reason: 'disconnect' })
  venue.emit({ type: 'stale', instrumentIds: ['b'], reason: 'gap' })
  check('two marked stale (one twice)', { instruments: 3, synced: 1, stale: 2 })
  venue.current = catalog(['b', 'c', 'd'])
  await refresh(actor, clock)
  check('a stale book left, d arrived', { instruments: 3, synced: 1, stale: 1 })
  venue.emit(snap('b'), snap('d'))
  check('resynced', { instruments: 3, synced: 3, stale: 0 })
  actor.stop()
  actor.start()
  await waitFor(() => venue.calls.length === 2 && venue.calls[1]!.length > 0)
  check('a restart resets every book and marks it stale', { instruments: 3, synced: 0, stale: 3 })
  venue.emit(snap('b'))
  check('one resynced after the restart', { instruments: 3, synced: 1, stale: 2 })
  actor.stop()
})
