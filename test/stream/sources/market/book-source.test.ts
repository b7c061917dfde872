import assert from 'node:assert/strict'
import { test } from 'node:test'
import { crc32 } from 'node:zlib'
import { marketSources } from '../../../../src/stream/sources/market/index.js'
import type { ChannelSource } from '../../../../src/stream/source.js'
import type { StreamId } from '../../../../src/stream/sequencer.js'
import { level, P, rig, snapshot, type Rig } from './fake-venue.js'

function bookSource(r: Rig): ChannelSource {
  const source = marketSources({ sequencer: r.sequencer, venues: [r.actor], clock: r.clock }).find(
    (s) => s.ch === 'book',
  )
  assert.ok(source)
  return source
}

const envelope = { ch: 'book', key: 'venuep:a', epoch: 'e0.0' }
/** The checksum as a client computes it from the strings it received (asks first). */
const crc = (asks: string[][], bids: string[][]): number =>
  crc32(`${asks.map(([p, s]) => `${p}:${s}`).join(',')}|${bids.map(([p, s]) => `${p}:${s}`).join(',')}`)

test('book keys carry a depth (10, 25, 100; 10 by default) in the stream id, not in the key', async () => {
  const r = await rig()
  const book = bookSource(r)
  assert.deepEqual(book.resolve('venuep:a', {}), { ch: 'book', key: 'venuep:a', topic: 'book|venuep:a|10' })
  assert.deepEqual(book.resolve('venuep:a', { depth: 100 }), {
    ch: 'book',
    key: 'venuep:a',
    topic: 'book|venuep:a|100',
  })
  assert.deepEqual(book.resolve('venuep:a', { depth: 7 }), {
    key: 'venuep:a',
    code: 'BAD_REQUEST',
    reason: 'depth must be one of 10, 25, 100',
  })
  assert.equal((book.resolve('venuep:nope', {}) as { code: string }).code, 'UNKNOWN_KEY')
  r.actor.stop()
})

test('a book stream: snapshot, absolute level changes with a crc on every frame, drop marker, resync snapshot', async () => {
  const r = await rig()
  const book = bookSource(r)
  r.venue.emit(
    snapshot(
      'a',
      [
        [0.4, 10],
        [0.39, 5],
      ],
      [
        [0.45, 5],
        [0.47, 1.5],
      ],
    ),
  )
  const log = r.sequencer.open(book.resolve('venuep:a', {}) as StreamId)
  book.open(log, {})
  const asks0 = [
    ['0.4500', '5.00'],
    ['0.4700', '1.50'],
  ]
  const bids0 = [
    ['0.4000', '10.00'],
    ['0.3900', '5.00'],
  ]
  assert.deepEqual(JSON.parse(book.snapshot(log)), {
    type: 'snapshot',
    ...envelope,
    seq: 0,
    ts: 900,
    lts: 1_000,
    pts: 1_000,
    d: { bids: bids0, asks: asks0, crc: crc(asks0, bids0) },
  })

  r.clock.increment(5)
  r.venue.emit(level('a', 'bid', 0.4, 0, 960), level('a', 'ask', 0.46, 2.125, 961))
  r.venue.emit({ type: 'trade', instrumentId: 'a', price: P(0.45), size: P(1), venueTs: 962 }) // no level change
  r.venue.emit({ type: 'stale', instrumentIds: ['a'], reason: 'wss://ws.venuep: closed (1006)' })
  r.clock.increment(5)
  r.venue.emit(level('a', 'bid', 0.41, 1)) // before the snapshot: the actor ignores it, so does the stream
  r.venue.emit(snapshot('a', [[0.41, 3]], [[0.44, 4]], 990))

  const asks1 = [
    ['0.4500', '5.00'],
    ['0.4600', '2.125'],
    ['0.4700', '1.50'],
  ]
  const bids1 = [['0.3900', '5.00']]
  assert.deepEqual(r.sink.of('book|venuep:a|10'), [
    {
      type: 'delta',
      ...envelope,
      seq: 1,
      ts: 961,
      lts: 1_005,
      pts: 1_005,
      d: { bids: [['0.4000', '0']], asks: [['0.4600', '2.125']], crc: crc(asks1, bids1) },
    },
    {
      type: 'marker',
      ...envelope,
      seq: 2,
      ts: 1_005,
      lts: 1_005,
      pts: 1_005,
      d: { ev: 'venue_disconnect', venue: 'venuep', reason: 'disconnected', since: 1_005 },
    },
    {
      type: 'marker',
      ...envelope,
      seq: 3,
      ts: 990,
      lts: 1_010,
      pts: 1_010,
      d: { ev: 'resync', reason: 'venue_reconnected', snapshot_follows: true },
    },
    {
      type: 'snapshot',
      ...envelope,
      seq: 3,
      ts: 990,
      lts: 1_010,
      pts: 1_010,
      d: {
        bids: [['0.4100', '3.00']],
        asks: [['0.4400', '4.00']],
        crc: crc([['0.4400', '4.00']], [['0.4100', '3.00']]),
      },
    },
  ])
  book.close(log)
  r.venue.emit(level('a', 'bid', 0.3, 1))
  assert.equal(r.sink.of('book|venuep:a|10').length, 4, 'no frame after close')
  r.actor.stop()
})

test('a level entering the top N pushes the worst one out: added and removed in one delta; deeper changes are silent', async () => {
  const r = await rig()
  const book = bookSource(r)
  const asks = Array.from({ length: 12 }, (_, i) => [0.5 + i / 100, 1] as const)
  r.venue.emit(snapshot('a', [], asks))
  const log = r.sequencer.open(book.resolve('venuep:a', { depth: 10 }) as StreamId)
  book.open(log, { depth: 10 })
  r.venue.emit(level('a', 'ask', 0.62, 7)) // the 13th level: outside the top 10
  r.venue.emit(level('a', 'ask', 0.495, 2))
  const frames = r.sink.of('book|venuep:a|10')
  assert.equal(frames.length, 1)
  assert.deepEqual(frames[0]!.d.asks, [
    ['0.4950', '2.00'],
    ['0.5900', '0'],
  ])
  assert.deepEqual(frames[0]!.d.bids, [])
  r.actor.stop()
})
