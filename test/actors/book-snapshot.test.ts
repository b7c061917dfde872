import assert from 'node:assert/strict'
import { test } from 'node:test'
import { snapshotQuote } from '../../src/actors/published-quote.js'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import type { FeedEvent, FeedSink } from '../../src/venues/types.js'
import { FakeVenue } from '../stream/sources/market/fake-venue.js'
import { waitFor } from '../helpers/wait.js'

/**
 * A follower actor that applies a source actor's `bookSnapshotBatches` and then every batch `subscribeApplied` gives
 * holds what the source holds: books, last trades, statistics, and quotes down to their venue and receipt times
 * (all but `seq` and `instrumentSlot`, each actor's own counters), including a stale quote's last prices and an
 * actor restart.
 */
const P = (x: number) => Math.round(x * 1e6)
const IDS = ['a', 'b', 'c', 'd', 'e']

async function startedActor(): Promise<{ actor: VenueActor; sink(): FeedSink }> {
  // The stream tests' fake venuep: one market whose outcomes are IDS, a feed the test drives.
  const venue = new FakeVenue(new SimulatedClock(5_000), IDS)
  const actor = new VenueActor({
    adapter: venue.adapter,
    clock: new SimulatedClock(5_000),
    log: silentLogger,
    catalogRefreshMs: 3_600_000,
  })
  actor.start()
  await waitFor(() => actor.catalog() !== undefined)
  return { actor, sink: () => venue.sink as FeedSink }
}

function held(actor: VenueActor): unknown {
  return IDS.map((id) => {
    const q = actor.quote(id)
    const b = actor.book(id)
    return {
      id,
      quote: q === undefined ? undefined : { ...snapshotQuote(q), seq: undefined, instrumentSlot: undefined },
      book: b && { synced: b.hasSnapshot, bids: b.levels('bid'), asks: b.levels('ask') },
      stats: actor.stats(id),
    }
  })
}

const level = (id: string, side: 'bid' | 'ask', price: number, size: number, venueTs: number): FeedEvent => ({
  type: 'level',
  instrumentId: id,
  side,
  price: P(price),
  size: P(size),
  venueTs,
})
const snapshot = (id: string, bid: number, ask: number, venueTs: number): FeedEvent => ({
  type: 'snapshot',
  instrumentId: id,
  bids: [
    [P(bid), P(10)],
    [P(bid - 0.01), P(4)],
  ],
  asks: [[P(ask), P(5)]],
  venueTs,
})

test('a follower fed the snapshot batches, then the applied batches, holds what the source holds', async () => {
  const source = await startedActor()
  const feed = source.sink()
  // a and b change in one frame whose latest venue time (b's) stamps both quotes; c has statistics but no book;
  // d had a book and went stale; e never had anything.
  feed(
    [
      snapshot('a', 0.4, 0.45, 10),
      snapshot('b', 0.6, 0.62, 20),
      { type: 'trade', instrumentId: 'a', price: P(0.43), size: P(1), venueTs: 15 },
      { type: 'stats', instrumentId: 'c', volume: 1234, openInterest: undefined, venueTs: 30 },
    ],
    1_000.25,
  )
  feed(
    [level('a', 'bid', 0.41, 2, 40), { type: 'stats', instrumentId: 'a', volume: 7, openInterest: 3, venueTs: 90 }],
    1_100,
  )
  feed(
    [snapshot('d', 0.2, 0.3, 50), { type: 'trade', instrumentId: 'd', price: P(0.25), size: P(1), venueTs: 51 }],
    1_200,
  )
  feed([{ type: 'stale', instrumentIds: ['d'], reason: 'disconnect' }], 1_300)
  assert.equal(source.actor.quote('d')?.stale, true)

  const follower = await startedActor()
  for (const b of source.actor.bookSnapshotBatches()) follower.sink()([...b.events], b.receivedAt)
  assert.deepStrictEqual(held(follower.actor), held(source.actor))
  const d = follower.actor.quote('d')
  assert.deepEqual(
    [d?.stale, d?.bestBid, d?.bestAsk, d?.lastTradePrice, d?.venueTs, d?.receivedAt],
    [true, 0.2, 0.3, 0.25, 51, 1_200],
  )
  assert.equal(follower.actor.book('d')?.hasSnapshot, false, 'no book the source does not have')
  assert.equal(follower.actor.quote('e'), undefined)

  // From here on the follower applies what the source applies.
  source.actor.subscribeApplied((events, receivedAt) => follower.sink()([...events], receivedAt))
  feed([level('b', 'ask', 0.61, 1, 60), snapshot('d', 0.22, 0.3, 61), snapshot('e', 0.5, 0.55, 62)], 1_400.5)
  feed([{ type: 'delta', instrumentId: 'a', side: 'bid', price: P(0.41), delta: -P(2), venueTs: 70 }], 1_500)
  assert.deepStrictEqual(held(follower.actor), held(source.actor))

  // A restart of the source demotes every quote to stale and resets its books: the follower's follow.
  source.actor.stop()
  source.actor.start()
  assert.deepStrictEqual(held(follower.actor), held(source.actor))
  assert.ok(IDS.every((id) => follower.actor.quote(id)?.stale !== false))

  // Only some instruments, one the source does not hold among them: that one is stale.
  const some = source.actor.bookSnapshotBatches(['a', 'zzz'])
  assert.deepEqual(
    some.at(-1)?.events.filter((e) => e.type === 'stale'),
    [{ type: 'stale', instrumentIds: ['zzz', 'a'], reason: 'no book at the source' }],
  )
  source.actor.stop()
  follower.actor.stop()
})
