import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CHANGES_OVERLAP_MS } from '../../src/actors/catalog-loader.js'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import type { Catalog, CatalogEvent } from '../../src/model/types.js'
import type { ChangedEvents, VenueAdapter } from '../../src/venues/types.js'
import { venuepProbability } from '../../src/venues/venuep/probability.js'
import { oneOutcomeEvents, quietFeedStatus } from '../helpers/gated-venue.js'
import { waitFor } from '../helpers/wait.js'

/**
 * Refreshes between whole listings list only what the venue stamps as changed (catalog-loader.ts,
 * `fullListingEveryMs`): these tests pin when a refresh is whole and when of changes, since when the changes are
 * asked, that a refresh whose changes are the installed events installs nothing, and that changes applied to the
 * installed catalog give what a whole listing of the same venue gives.
 */
const REFRESH_MS = 60_000
const WHOLE_EVERY_MS = 300_000

/** A venue listed whole (`whole`) or by changes (`changes`, consumed by the next sync of changes). */
class ChangesVenue {
  /** Forty events: few enough changes to be applied as such (catalog-snapshot.ts, MAX_DELTA_SHARE). */
  whole: Catalog = oneOutcomeEvents(['a', 'b', 'c', ...Array.from({ length: 37 }, (_, i) => `x${i}`)])
  changes: ChangedEvents | undefined | Error = { events: [], fetchedAt: 0 }
  readonly listings: string[] = []
  readonly since: number[] = []
  /** What the feed was told: the whole list, or a change (added, removed). */
  readonly feedCalls: (['set', number] | ['change', string[], string[]])[] = []
  readonly #clock: SimulatedClock

  constructor(clock: SimulatedClock) {
    this.#clock = clock
  }

  readonly adapter: VenueAdapter = {
    id: 'venuep',
    fetchCatalog: async () => {
      this.listings.push('whole')
      return { ...this.whole, fetchedAt: this.#clock.now() }
    },
    fetchChangedEvents: async (since) => {
      this.listings.push('changes')
      this.since.push(since)
      const c = this.changes
      if (c instanceof Error) throw c
      return c
    },
    createFeed: () => ({
      setInstruments: (ids) => this.feedCalls.push(['set', ids.length]),
      changeInstruments: (added, removed) => this.feedCalls.push(['change', [...added], [...removed].sort()]),
      close() {},
      status: () => quietFeedStatus(0),
    }),
    probability: venuepProbability,
    instrumentsOf: () => [],
    streams: (o) => o.status === 'active',
  }
}

async function started(): Promise<{ venue: ChangesVenue; clock: SimulatedClock; actor: VenueActor }> {
  const clock = new SimulatedClock(1_000_000)
  const venue = new ChangesVenue(clock)
  const actor = new VenueActor({
    adapter: venue.adapter,
    clock,
    log: silentLogger,
    catalogRefreshMs: REFRESH_MS,
    catalogFullListingEveryMs: WHOLE_EVERY_MS,
  })
  actor.start()
  await waitFor(() => actor.catalog() !== undefined)
  return { venue, clock, actor }
}

/** The next periodic sync: the clock moved by a refresh interval, waited until the actor has heard back. */
async function nextSync(venue: ChangesVenue, clock: SimulatedClock, actor: VenueActor): Promise<void> {
  const n = venue.listings.length
  clock.increment(REFRESH_MS)
  await waitFor(() => venue.listings.length > n && actor.venueStatus().catalog.syncedAt === clock.now())
}

const ids = (events: readonly CatalogEvent[]) => events.map((e) => e.eventId)
const eventOf = (c: Catalog, id: string) => c.events.find((e) => e.eventId === id) as CatalogEvent

test('refreshes list changes since the last sync began (less the overlap), and the venue whole every fullListingEveryMs', async () => {
  const { venue, clock, actor } = await started()
  assert.deepEqual(venue.listings, ['whole'], 'the first sync lists the venue whole')
  const heard: number[] = []
  actor.subscribeCatalog((c) => heard.push(c.version))

  venue.changes = { events: [], fetchedAt: clock.now() + REFRESH_MS }
  await nextSync(venue, clock, actor)
  assert.deepEqual(venue.listings, ['whole', 'changes'])
  assert.deepEqual(venue.since, [1_000_000 - CHANGES_OVERLAP_MS], 'since the first sync began, less the overlap')
  assert.deepEqual(heard, [], 'no change: nothing installed, no listener')
  assert.equal(actor.catalog()?.version, 1)

  // Changes that are the installed objects (listed again within the overlap): still nothing to install.
  const installed = actor.catalog()!
  venue.changes = { events: installed.events.map((e) => ({ eventId: e.eventId, event: e })), fetchedAt: 0 }
  await nextSync(venue, clock, actor)
  assert.deepEqual(venue.since.at(-1), 1_060_000 - CHANGES_OVERLAP_MS, 'since the sync of changes before began')
  assert.deepEqual(heard, [])

  // Three more refreshes of changes, then the fifth since the whole listing began lists it whole again.
  for (let i = 0; i < 2; i++) await nextSync(venue, clock, actor)
  assert.deepEqual(venue.listings, ['whole', 'changes', 'changes', 'changes', 'changes'])
  await nextSync(venue, clock, actor)
  assert.equal(venue.listings.at(-1), 'whole', `${WHOLE_EVERY_MS} ms after the whole listing began`)
  await nextSync(venue, clock, actor)
  assert.equal(venue.listings.at(-1), 'changes', 'and changes again after it')
  actor.stop()
})

test('changes applied to the installed catalog: changed in place, new at the end, unlisted dropped; as a whole listing would', async () => {
  const { venue, clock, actor } = await started()
  const heard: number[] = []
  actor.subscribeCatalog((c) => heard.push(c.version))
  // The venue now: b changed (closed), d new, a no longer listed.
  const now = oneOutcomeEvents(['d'], ['b'])
  venue.changes = {
    events: [
      { eventId: 'e-b', event: eventOf(now, 'e-b') },
      { eventId: 'e-d', event: eventOf(now, 'e-d') },
      { eventId: 'e-a', event: undefined },
      { eventId: 'e-zz', event: undefined },
    ],
    fetchedAt: clock.now() + REFRESH_MS,
  }
  await nextSync(venue, clock, actor)
  const snapshot = actor.catalog()!
  assert.deepEqual(heard, [2], 'one new version')
  assert.deepEqual(ids(snapshot.events), ids(venue.whole.events).slice(1).concat('e-d'))
  assert.equal(snapshot.eventsById.get('e-b'), eventOf(now, 'e-b'))
  assert.equal(snapshot.outcomesById.get('b')?.status, 'closed')
  assert.equal(snapshot.outcomesById.has('a'), false)
  assert.equal(snapshot.fetchedAt, clock.now(), "the changes' listing time")
  assert.deepEqual(
    snapshot.changes && { removed: ids(snapshot.changes.removed).sort(), added: ids(snapshot.changes.added).sort() },
    { removed: ['e-a', 'e-b'], added: ['e-b', 'e-d'] },
    'the read models are told the changes alone',
  )
  assert.deepEqual(
    venue.feedCalls,
    [
      ['set', 40],
      ['change', ['d'], ['a', 'b']],
    ],
    'the feed is told what the changed events brought and took (b closed, a gone, d new)',
  )
  assert.deepEqual([actor.book('a'), actor.book('b')], [undefined, undefined])
  assert.ok(actor.book('d') !== undefined)
  assert.equal(actor.venueStatus().books.instruments, 39)
  actor.stop()
})

test('changes that need a whole listing are listed whole in the same sync; a failed sync of changes makes the next whole', async () => {
  const { venue, clock, actor } = await started()
  venue.changes = undefined
  venue.whole = oneOutcomeEvents(['a', 'b', 'c', 'd'])
  await nextSync(venue, clock, actor)
  assert.deepEqual(venue.listings, ['whole', 'changes', 'whole'])
  assert.deepEqual(ids(actor.catalog()!.events), ['e-a', 'e-b', 'e-c', 'e-d'])
  venue.changes = { events: [], fetchedAt: 0 }
  await nextSync(venue, clock, actor)
  assert.deepEqual(venue.listings.slice(3), ['changes'], 'a whole listing that stood in for changes counts as one')

  venue.changes = new Error('GET /events: socket hang up')
  const n = venue.listings.length
  clock.increment(REFRESH_MS)
  await waitFor(() => actor.venueStatus().catalog.failures === 1)
  assert.deepEqual(venue.listings.slice(n), ['changes'])
  await nextSync(venue, clock, actor)
  assert.equal(venue.listings.at(-1), 'whole', 'after a failure the venue is listed whole')
  assert.equal(actor.venueStatus().catalog.failures, 0)
  actor.stop()
})

test('without fullListingEveryMs every refresh lists the venue whole', async () => {
  const clock = new SimulatedClock(0)
  const venue = new ChangesVenue(clock)
  const actor = new VenueActor({ adapter: venue.adapter, clock, log: silentLogger, catalogRefreshMs: REFRESH_MS })
  actor.start()
  await waitFor(() => actor.catalog() !== undefined)
  await nextSync(venue, clock, actor)
  await nextSync(venue, clock, actor)
  assert.deepEqual(venue.listings, ['whole', 'whole', 'whole'])
  actor.stop()
})
