import assert from 'node:assert/strict'
import { test } from 'node:test'
import { disconnectReason } from '../../../../src/stream/sources/market/disconnect-reason.js'
import { marketSources } from '../../../../src/stream/sources/market/index.js'
import type { ChannelSource } from '../../../../src/stream/source.js'
import type { StreamId } from '../../../../src/stream/sequencer.js'
import { level, rig, snapshot, type Rig } from './fake-venue.js'

function sources(r: Rig): Record<string, ChannelSource> {
  return Object.fromEntries(
    marketSources({ sequencer: r.sequencer, venues: [r.actor], clock: r.clock }).map((s) => [s.ch, s]),
  )
}

function open(source: ChannelSource, r: Rig, key: string, depth?: number) {
  const log = r.sequencer.open(source.resolve(key, { depth }) as StreamId)
  source.open(log, { depth })
  return log
}

test('the feeds’ stale reasons map to stable marker reasons', () => {
  assert.deepEqual(
    [
      'stale: nothing received for 30000 ms',
      'wss://ws-subscriptions-clob.venuep.com/ws/market: closed (1006)',
      'wss://api.venuek.com/trade-api/ws/v2: no handshake within 10000 ms (connect timeout)',
      'wss://api.venuek.com/trade-api/ws/v2: handshake rejected with HTTP 401 (check the API key)',
      'sequence gap on sid 4: expected 10, got 12',
      'malformed frame',
      'unreadable message',
      'unreadable orderbook_snapshot',
      'snapshots not received after subscribing',
      'actor restart',
      'something new',
    ].map(disconnectReason),
    [
      'stale_no_data',
      'disconnected',
      'disconnected',
      'disconnected',
      'gap',
      'bad_frame',
      'bad_frame',
      'bad_frame',
      'snapshot_timeout',
      'restart',
      'disconnected',
    ],
  )
})

test('an actor restart marks every open stream (reason restart) before the stale quote; the new feed resyncs them', async () => {
  const r = await rig()
  const { quote, book } = sources(r)
  r.venue.emit(snapshot('a', [[0.4, 10]], [[0.45, 5]]))
  open(quote!, r, 'venuep:a')
  open(book!, r, 'venuep:a', 25)
  r.clock.increment(100)
  r.actor.stop()
  r.actor.start()
  r.venue.emit(snapshot('a', [[0.4, 10]], [[0.45, 5]], 1_050))
  const summary = (topic: string) =>
    r.sink.of(topic).map((f) => [f.seq, f.type, f.d.ev ?? null, f.d.reason ?? null, f.d.stale ?? null])
  assert.deepEqual(summary('quote|venuep:a'), [
    [1, 'marker', 'venue_disconnect', 'restart', null],
    [2, 'delta', null, null, true],
    [3, 'marker', 'resync', 'venue_reconnected', null],
    [3, 'snapshot', null, null, false],
    [4, 'delta', null, null, false],
  ])
  assert.deepEqual(summary('book|venuep:a|25'), [
    [1, 'marker', 'venue_disconnect', 'restart', null],
    [2, 'marker', 'resync', 'venue_reconnected', null],
    [2, 'snapshot', null, null, null],
  ])
  assert.deepEqual(r.sink.of('book|venuep:a|25').at(-1)!.d.bids, [['0.4000', '10.00']])
  r.actor.stop()
})

test('the sources follow a venue actor only while one of its streams is open', async () => {
  const r = await rig()
  let following = 0
  for (const method of ['subscribeBooks', 'subscribeQuotes'] as const) {
    const original = r.actor[method].bind(r.actor) as (l: never) => () => void
    r.actor[method] = ((listener: never) => {
      following++
      const off = original(listener)
      return () => {
        following--
        return off()
      }
    }) as never
  }
  const { quote, book } = sources(r)
  r.venue.emit(snapshot('a', [[0.4, 10]], [[0.45, 5]]), snapshot('b', [[0.4, 10]], [[0.45, 5]]))
  assert.equal(following, 0, 'no listener while nothing is open')
  const qa = open(quote!, r, 'venuep:a')
  const qb = open(quote!, r, 'venuep:b')
  const b10 = open(book!, r, 'venuep:a', 10)
  const b100 = open(book!, r, 'venuep:a', 100)
  assert.equal(following, 3, 'the quote source: books and quotes; the book source: books; once per venue')
  r.venue.emit(level('a', 'bid', 0.41, 1))
  assert.deepEqual(
    [...r.sink.frames.keys()].sort(),
    ['book|venuep:a|10', 'book|venuep:a|100', 'quote|venuep:a'],
    'frames for the open streams the step touched',
  )
  quote!.close(qa)
  book!.close(b10)
  assert.equal(following, 3)
  quote!.close(qb)
  book!.close(b100)
  assert.equal(following, 0, 'detached with the last stream')
  r.actor.stop()
})
