import assert from 'node:assert/strict'
import { test } from 'node:test'
import { snapshotQuote } from '../../src/actors/published-quote.js'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import type { Catalog, CatalogEvent, Outcome, Quote } from '../../src/model/types.js'
import type { FeedEvent, FeedSink, VenueAdapter } from '../../src/venues/types.js'
import { venuepProbability } from '../../src/venues/venuep/probability.js'
import { testOutcome as outcome } from '../helpers/outcomes.js'
import { settle, waitFor } from '../helpers/wait.js'
import { quietFeedStatus } from '../helpers/gated-venue.js'

const P = (x: number) => Math.round(x * 1e6)

function catalog(ids: string[]): Catalog {
  const market = {
    venue: 'venuep' as const,
    marketId: 'm',
    eventId: 'e',
    title: 'E',
    category: 'other',
    status: 'active' as const,
    rawStatus: 'active',
    url: 'u',
    createdAt: undefined,
    updatedAt: undefined,
    endTime: undefined,
    volumeTotal: undefined,
    volume24h: undefined,
    liquidity: undefined,
    openInterest: undefined,
    outcomes: ids.map((id) => outcome(id)),
  }
  const event: CatalogEvent = { ...market, subtitle: undefined, mutuallyExclusive: false, markets: [market] }
  return { venue: 'venuep', events: [event], fetchedAt: 0 }
}

class FakeVenue {
  sink: FeedSink | undefined
  instruments: readonly string[] = []
  current = catalog(['a', 'b'])
  feeds = 0
  readonly adapter: VenueAdapter = {
    id: 'venuep',
    fetchCatalog: async () => this.current,
    createFeed: (sink) => {
      this.sink = sink
      this.feeds++
      const feed = this
      return {
        setInstruments(ids) {
          feed.instruments = ids
        },
        close() {},
        status: () => quietFeedStatus(this.instruments.length),
      }
    },
    probability: venuepProbability,
    instrumentsOf: (c) => c.events.flatMap((e) => e.markets.flatMap((m) => m.outcomes.map((o) => o.instrumentId))),
  }
  emit(...events: FeedEvent[]): void {
    this.sink?.(events, 1_000)
  }
}

async function started(): Promise<{
  venue: FakeVenue
  actor: VenueActor
  published: Quote[][]
  clock: SimulatedClock
}> {
  const venue = new FakeVenue()
  const clock = new SimulatedClock(0)
  const actor = new VenueActor({ adapter: venue.adapter, clock, log: silentLogger, catalogRefreshMs: 60_000 })
  const published: Quote[][] = []
  // Quotes are rewritten in place: what a listener keeps, it snapshots.
  actor.subscribeQuotes((q) => published.push(q.map(snapshotQuote)))
  actor.start()
  await waitFor(() => actor.catalog() !== undefined)
  return { venue, actor, published, clock }
}

const snap = (id: string, bid: number, ask: number): FeedEvent => ({
  type: 'snapshot',
  instrumentId: id,
  bids: [[P(bid), P(10)]],
  asks: [[P(ask), P(5)]],
  venueTs: 900,
})

test('a frame publishes one quote per instrument whose top changed, nothing for deeper changes', async () => {
  const { venue, actor, published } = await started()
  assert.deepEqual(venue.instruments, ['a', 'b'])
  assert.equal(actor.ready, false)
  venue.emit(snap('a', 0.4, 0.45), snap('b', 0.6, 0.62))
  assert.equal(actor.ready, true, 'ready once every streamed book has a snapshot')
  assert.deepEqual(
    published.map((batch) => batch.map((q) => [q.instrumentId, q.bestBid, q.bestAsk, q.probability, q.stale])),
    [
      [
        ['a', 0.4, 0.45, 0.425, false],
        ['b', 0.6, 0.62, 0.61, false],
      ],
    ],
  )
  venue.emit({ type: 'level', instrumentId: 'a', side: 'bid', price: P(0.3), size: P(1), venueTs: 950 })
  assert.equal(published.length, 1, 'a level below the top changes no quote')
  venue.emit(
    { type: 'level', instrumentId: 'a', side: 'bid', price: P(0.42), size: P(3), venueTs: 960 },
    { type: 'level', instrumentId: 'a', side: 'ask', price: P(0.45), size: 0, venueTs: 961 },
    { type: 'trade', instrumentId: 'a', price: P(0.43), size: P(2), venueTs: 962 },
  )
  const last = published.at(-1)!
  assert.equal(last.length, 1, 'three events on one instrument in one frame: one quote')
  assert.deepEqual(
    [last[0]!.bestBid, last[0]!.bestAsk, last[0]!.lastTradePrice, last[0]!.probability, last[0]!.venueTs],
    [0.42, undefined, 0.43, 0.43, 962],
  )
  assert.ok(last[0]!.seq > published[0]![1]!.seq)
  venue.emit({ type: 'level', instrumentId: 'zzz', side: 'bid', price: P(0.5), size: P(1), venueTs: 1 })
  assert.equal(actor.quote('zzz'), undefined, 'instruments outside the catalog are ignored')
  actor.stop()
})

test('stale instruments keep their last prices, flagged, until a new snapshot; deltas in between are ignored', async () => {
  const { venue, actor } = await started()
  venue.emit(snap('a', 0.4, 0.45))
  venue.emit({ type: 'stale', instrumentIds: ['a'], reason: 'disconnect' })
  let q = actor.quote('a')!
  assert.deepEqual([q.stale, q.bestBid, q.bestAsk, q.venueTs], [true, 0.4, 0.45, 900])
  assert.equal(actor.book('a')?.hasSnapshot, false)
  venue.emit({ type: 'level', instrumentId: 'a', side: 'bid', price: P(0.44), size: P(1), venueTs: 990 })
  assert.equal(actor.quote('a')!.bestBid, 0.4, 'a delta without a snapshot is not applied')
  venue.emit(snap('a', 0.41, 0.46))
  q = actor.quote('a')!
  assert.deepEqual([q.stale, q.bestBid, q.bestAsk], [false, 0.41, 0.46])
  assert.equal(actor.venueStatus().books.stale, 0)
  actor.stop()
})

test('a catalog refresh drops instruments that left and subscribes new ones', async () => {
  const { venue, actor, clock } = await started()
  venue.emit(snap('a', 0.4, 0.45), snap('b', 0.6, 0.62))
  venue.current = catalog(['b', 'c'])
  clock.increment(60_000)
  await waitFor(() => actor.catalog()?.version === 2)
  assert.deepEqual(venue.instruments, ['b', 'c'])
  assert.equal(actor.quote('a'), undefined)
  assert.equal(actor.book('a'), undefined)
  assert.equal(actor.quote('b')?.bestBid, 0.6)
  actor.stop()
})

test('a restart rebuilds from the venue: old quotes are published as stale, a new feed is created', async () => {
  const { venue, actor, published } = await started()
  venue.emit(snap('a', 0.4, 0.45))
  actor.stop()
  actor.start()
  assert.equal(venue.feeds, 2)
  assert.deepEqual(
    published.at(-1)!.map((q) => [q.instrumentId, q.stale]),
    [['a', true]],
  )
  await settle(5)
  venue.emit(snap('a', 0.5, 0.55))
  assert.deepEqual([actor.quote('a')!.stale, actor.quote('a')!.bestBid], [false, 0.5])
  actor.stop()
})

test('an instrument keeps one quote object, rewritten in place; a snapshot keeps what it said', async () => {
  const { venue, actor } = await started()
  venue.emit(snap('a', 0.4, 0.45))
  const q = actor.quote('a')!
  const kept = snapshotQuote(q)
  venue.emit({ type: 'level', instrumentId: 'a', side: 'bid', price: P(0.42), size: P(3), venueTs: 960 })
  assert.equal(actor.quote('a'), q, 'the same object')
  assert.deepEqual([q.bestBid, q.bestBidSize, q.bestAsk, q.venueTs, q.stale], [0.42, 3, 0.45, 960, false])
  assert.ok(q.seq > kept.seq)
  assert.deepEqual([kept.bestBid, kept.bestBidSize, kept.venueTs], [0.4, 10, 900], 'the snapshot did not move')
  venue.emit({ type: 'level', instrumentId: 'a', side: 'ask', price: P(0.45), size: 0, venueTs: 970 })
  assert.deepEqual([q.bestAsk, q.bestAskSize], [undefined, undefined], 'an emptied side reads as absent')
  actor.stop()
})
