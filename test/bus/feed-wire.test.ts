import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runToEnd } from '../../src/core/slices.js'
import { decodeCatalogSteps, encodeCatalogSteps } from '../../src/bus/feed/catalog-codec.js'
import {
  decodeFeedMessage,
  decodeSnapshotReply,
  eventChunks,
  feedMessage,
  snapshotReplyMessages,
} from '../../src/bus/feed/wire.js'
import type { FeedBatch } from '../../src/actors/book-snapshot.js'
import type { Catalog, CatalogEvent } from '../../src/model/types.js'
import type { FeedEvent } from '../../src/venues/types.js'
import { testOutcome } from '../helpers/outcomes.js'

/**
 * The bus's feed messages and catalog objects: a batch too large for the broker is cut into messages that each fit
 * and together give the batch back in order; a catalog round-trips exactly (unknown values stay `undefined` keys).
 */
test('a batch larger than max_payload is cut into messages under it that give the batch back', () => {
  const events: FeedEvent[] = Array.from({ length: 400 }, (_, i) => ({
    type: 'snapshot',
    instrumentId: `instrument-${i}-é`,
    bids: Array.from({ length: 20 }, (_, j): [number, number] => [500_000 - j * 1_000, 1_000_000 + i]),
    asks: [[510_000, 2_000_000]],
    venueTs: 1_700_000_000_000 + i,
  }))
  const maxBytes = 16 * 1024
  const chunks = eventChunks(events, maxBytes)
  assert.ok(chunks.length > 10)
  const messages = chunks.map((json, i) =>
    feedMessage({ epoch: 'e1', seq: i + 1, receivedAt: 1.5, ...(i < chunks.length - 1 ? { more: true } : {}) }, json),
  )
  for (const m of messages) assert.ok(Buffer.byteLength(m) <= maxBytes, `${Buffer.byteLength(m)} bytes`)
  const decoded = messages.map((m) => decodeFeedMessage(m))
  assert.deepStrictEqual(
    decoded.flatMap((m) => m?.events ?? []),
    events,
  )
  assert.deepEqual(
    decoded.map((m) => [m?.seq, m?.more]),
    messages.map((_, i) => [i + 1, i < messages.length - 1 ? true : undefined]),
  )
  assert.equal(eventChunks(events.slice(0, 2), maxBytes).length, 1, 'a batch that fits is one message')
  assert.equal(decodeFeedMessage('{"seq":1}'), undefined)
  assert.equal(decodeFeedMessage('not json'), undefined)
})

test('a snapshot reply packs its batches into messages under max_payload, a batch too large going on in the next', () => {
  const snapshotOf = (i: number): FeedEvent => ({
    type: 'snapshot',
    instrumentId: `i${i}`,
    bids: Array.from({ length: 30 }, (_, j): [number, number] => [400_000 - j * 1_000, 7_000_000]),
    asks: [[410_000, 1_000_000]],
    venueTs: 1_000 + i,
  })
  const batches: FeedBatch[] = [
    { events: [{ type: 'stats', instrumentId: 'i1', volume: 5, openInterest: 2, venueTs: 3 }], receivedAt: 7 },
    ...Array.from({ length: 60 }, (_, i) => ({ events: [snapshotOf(i)], receivedAt: 100 + i + 0.25 })),
    { events: Array.from({ length: 40 }, (_, i) => snapshotOf(100 + i)), receivedAt: 999 }, // larger than a message
    { events: [{ type: 'stale', instrumentIds: ['x', 'y'], reason: 'no book at the source' }], receivedAt: 1_000 },
  ]
  const maxBytes = 8 * 1024
  const messages = snapshotReplyMessages({ epoch: 'e', seq: 12, request: 3 }, batches, maxBytes)
  for (const m of messages) assert.ok(Buffer.byteLength(m) <= maxBytes)
  assert.ok(messages.length > 5 && messages.length < 40, `${messages.length} messages`)
  // Reassembled as the edge does: a message's last batch goes on in the next one when it says `more`.
  const decoded = messages.map((m) => decodeSnapshotReply(m)!)
  const back: FeedBatch[] = []
  let carried: FeedEvent[] = []
  for (const m of decoded) {
    m.batches.forEach((b, i) => {
      const events = i === 0 ? [...carried, ...b.events] : [...b.events]
      if (i === 0) carried = []
      if (i === m.batches.length - 1 && m.more === true) carried = events
      else back.push({ events, receivedAt: b.receivedAt })
    })
  }
  assert.deepStrictEqual(back, batches)
  assert.deepEqual(
    decoded.map((m) => [m.epoch, m.seq, m.request, m.last]),
    decoded.map((_, i) => ['e', 12, 3, i === decoded.length - 1 ? true : undefined]),
  )
  assert.deepEqual(snapshotReplyMessages({ epoch: 'e', seq: 1, request: 4 }, [], maxBytes), [
    '{"epoch":"e","seq":1,"request":4,"last":true,"batches":[]}',
  ])
})

test('a catalog round-trips through its object bytes exactly', () => {
  const market = {
    venue: 'venuep',
    marketId: 'm',
    eventId: 'e',
    title: 'Line\nbreak "quoted" ✓',
    category: 'other',
    status: 'active' as const,
    rawStatus: 'active',
    url: 'u',
    createdAt: 1,
    updatedAt: undefined,
    endTime: undefined,
    volumeTotal: 12.5,
    volume24h: undefined,
    liquidity: undefined,
    openInterest: undefined,
    outcomes: [testOutcome('a', { strike: { type: 'between', floor: undefined, cap: 3 } }), testOutcome('b')],
  }
  const event: CatalogEvent = {
    ...market,
    subtitle: undefined,
    mutuallyExclusive: true,
    markets: [market],
    details: {
      seriesTicker: undefined,
      strikeDate: 5,
      strikePeriod: '',
      tags: ['x', 'y'],
      negRisk: undefined,
      description: undefined,
    },
  }
  const catalogs: Catalog[] = [
    { venue: 'venuep', events: [event, { ...event, eventId: 'e2' }], fetchedAt: 42 },
    { venue: 'venuep', events: [], fetchedAt: 43, truncation: { maxEvents: 10, cut: 'open' } },
  ]
  for (const c of catalogs) {
    const bytes = runToEnd(encodeCatalogSteps(c))
    assert.deepStrictEqual(runToEnd(decodeCatalogSteps(bytes)), c)
  }
})
