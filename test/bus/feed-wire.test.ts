import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runToEnd } from '../../src/core/slices.js'
import { decodeCatalogSteps, encodeCatalogSteps } from '../../src/bus/feed/catalog-codec.js'
import { decodeFeedMessage, eventChunks, feedMessage } from '../../src/bus/feed/wire.js'
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
