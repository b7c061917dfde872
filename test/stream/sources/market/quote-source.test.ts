import assert from 'node:assert/strict'
import { test } from 'node:test'
import { marketSources } from '../../../../src/stream/sources/market/index.js'
import type { ChannelSource } from '../../../../src/stream/source.js'
import type { StreamId } from '../../../../src/stream/sequencer.js'
import { level, rig, snapshot, type Rig } from './fake-venue.js'

function quoteSource(r: Rig): ChannelSource {
  const source = marketSources({ sequencer: r.sequencer, venues: [r.actor], clock: r.clock }).find(
    (s) => s.ch === 'quote',
  )
  assert.ok(source)
  return source
}

const envelope = { ch: 'quote', key: 'venuep:a', epoch: 'e0.0' }

test('quote keys: <venue>:<instrument>; unknown venues and instruments are rejected at once, with the reason', async () => {
  const r = await rig()
  const quote = quoteSource(r)
  assert.deepEqual(quote.resolve('venuep:a', {}), { ch: 'quote', key: 'venuep:a', topic: 'quote|venuep:a' })
  assert.deepEqual(quote.resolve('venuep:zzz', {}), {
    key: 'venuep:zzz',
    code: 'UNKNOWN_KEY',
    reason: 'venuep has no instrument zzz: it is not among its streamed books',
  })
  assert.deepEqual(quote.resolve('venuex:a', {}), {
    key: 'venuex:a',
    code: 'UNKNOWN_KEY',
    reason: 'unknown venue venuex (known: venuep)',
  })
  assert.equal((quote.resolve('a', {}) as { code: string }).code, 'UNKNOWN_KEY')
  r.actor.stop()
})

test('a quote stream: snapshot, a delta per quote change, a drop marked then stale, resync then snapshot', async () => {
  const r = await rig()
  const quote = quoteSource(r)
  r.venue.emit(snapshot('a', [[0.4, 10]], [[0.45, 5]]))
  assert.equal(r.sink.frames.size, 0, 'nothing is produced for a stream that is not open')

  const log = r.sequencer.open(quote.resolve('venuep:a', {}) as StreamId)
  quote.open(log, {})
  r.clock.increment(10)
  assert.deepEqual(JSON.parse(quote.snapshot(log)), {
    type: 'snapshot',
    ...envelope,
    seq: 0,
    ts: 900,
    lts: 1_000,
    pts: 1_010,
    d: { best_bid: 0.4, best_ask: 0.45, bid_size: 10, ask_size: 5, probability: 0.425, stale: false },
  })

  r.venue.emit(level('a', 'bid', 0.3, 1)) // below the top: no quote change, no frame
  r.venue.emit(level('a', 'bid', 0.42, 3, 960), level('b', 'bid', 0.1, 1))
  r.clock.increment(10)
  r.venue.emit({ type: 'stale', instrumentIds: ['a', 'b'], reason: 'stale: nothing received for 3000 ms' })
  r.venue.emit({ type: 'stale', instrumentIds: ['a'], reason: 'wss://x: closed (1006)' }) // a failed reconnect
  r.clock.increment(10)
  r.venue.emit(snapshot('a', [[0.41, 2]], [[0.46, 4]], 990))

  assert.deepEqual(r.sink.of('quote|venuep:a'), [
    {
      type: 'delta',
      ...envelope,
      seq: 1,
      ts: 960,
      lts: 1_010,
      pts: 1_010,
      d: { best_bid: 0.42, best_ask: 0.45, bid_size: 3, ask_size: 5, probability: 0.435, stale: false },
    },
    {
      type: 'marker',
      ...envelope,
      seq: 2,
      ts: 1_020,
      lts: 1_020,
      pts: 1_020,
      d: { ev: 'venue_disconnect', venue: 'venuep', reason: 'stale_no_data', since: 1_020 },
    },
    {
      type: 'delta',
      ...envelope,
      seq: 3,
      ts: 960,
      lts: 1_010,
      pts: 1_020,
      d: { best_bid: 0.42, best_ask: 0.45, bid_size: 3, ask_size: 5, probability: 0.435, stale: true },
    },
    {
      type: 'marker',
      ...envelope,
      seq: 4,
      ts: 990,
      lts: 1_030,
      pts: 1_030,
      d: { ev: 'resync', reason: 'venue_reconnected', snapshot_follows: true },
    },
    {
      type: 'snapshot',
      ...envelope,
      seq: 4,
      ts: 990,
      lts: 1_030,
      pts: 1_030,
      d: { best_bid: 0.41, best_ask: 0.46, bid_size: 2, ask_size: 4, probability: 0.435, stale: false },
    },
    {
      type: 'delta',
      ...envelope,
      seq: 5,
      ts: 990,
      lts: 1_030,
      pts: 1_030,
      d: { best_bid: 0.41, best_ask: 0.46, bid_size: 2, ask_size: 4, probability: 0.435, stale: false },
    },
  ])
  assert.equal(r.sink.of('quote|venuep:b').length, 0, 'b has no open stream')

  quote.close(log)
  r.venue.emit(level('a', 'bid', 0.44, 1))
  assert.equal(r.sink.of('quote|venuep:a').length, 6, 'no frame after close')
  r.actor.stop()
})

test('a quote stream opened during an outage gets resync and a snapshot when the book is back', async () => {
  const r = await rig()
  const quote = quoteSource(r)
  r.venue.emit(snapshot('a', [[0.4, 10]], [[0.45, 5]]))
  r.venue.emit({ type: 'stale', instrumentIds: ['a'], reason: 'sequence gap on sid 3: expected 5, got 7' })
  const log = r.sequencer.open(quote.resolve('venuep:a', {}) as StreamId)
  quote.open(log, {})
  assert.deepEqual(JSON.parse(quote.snapshot(log)).d, {
    best_bid: 0.4,
    best_ask: 0.45,
    bid_size: 10,
    ask_size: 5,
    probability: 0.425,
    stale: true,
  })
  r.venue.emit(snapshot('a', [[0.4, 10]], [[0.45, 5]], 990))
  assert.deepEqual(
    r.sink.of('quote|venuep:a').map((f) => [f.type, f.seq, f.d.ev ?? f.d.stale]),
    [
      ['marker', 1, 'resync'],
      ['snapshot', 1, false],
      ['delta', 2, false],
    ],
  )
  r.actor.stop()
})

test('a quote stream of a book that never synced: nulls, stale, stamped now; its first snapshot is a delta', async () => {
  const r = await rig()
  const quote = quoteSource(r)
  const log = r.sequencer.open(quote.resolve('venuep:b', {}) as StreamId)
  quote.open(log, {})
  assert.deepEqual(JSON.parse(quote.snapshot(log)), {
    type: 'snapshot',
    ch: 'quote',
    key: 'venuep:b',
    epoch: 'e0.0',
    seq: 0,
    ts: 1_000,
    lts: 1_000,
    pts: 1_000,
    d: { best_bid: null, best_ask: null, bid_size: null, ask_size: null, probability: null, stale: true },
  })
  r.venue.emit(snapshot('b', [[0.4, 10]], []))
  assert.deepEqual(
    r.sink.of('quote|venuep:b').map((f) => [f.type, f.seq, f.d]),
    [['delta', 1, { best_bid: 0.4, best_ask: null, bid_size: 10, ask_size: null, probability: null, stale: false }]],
  )
  r.actor.stop()
})
