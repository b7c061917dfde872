import assert from 'node:assert/strict'
import { test } from 'node:test'
import { marketSources, venueHeartbeat } from '../../../../src/stream/sources/market/index.js'
import type { ChannelSource } from '../../../../src/stream/source.js'
import type { StreamId } from '../../../../src/stream/sequencer.js'
import { rig, snapshot, type Rig } from './fake-venue.js'

function venueSource(r: Rig): ChannelSource {
  const source = marketSources({ sequencer: r.sequencer, venues: [r.actor], clock: r.clock }).find(
    (s) => s.ch === 'venue',
  )
  assert.ok(source)
  return source
}

const envelope = { ch: 'venue', key: 'venuep', epoch: 'e0.0' }

test('venue keys are venue ids; others are rejected at once', async () => {
  const r = await rig()
  const venue = venueSource(r)
  assert.deepEqual(venue.resolve('venuep', {}), { ch: 'venue', key: 'venuep', topic: 'venue|venuep' })
  assert.deepEqual(venue.resolve('venuek', {}), {
    key: 'venuek',
    code: 'UNKNOWN_KEY',
    reason: 'unknown venue (known: venuep)',
  })
  r.actor.stop()
})

test('a venue stream: a delta when the state, reconnects or gaps change, not for the age alone', async () => {
  const r = await rig()
  const venue = venueSource(r)
  const timers = r.clock.pendingTimers
  const log = r.sequencer.open(venue.resolve('venuep', {}) as StreamId)
  venue.open(log, {})
  assert.equal(r.clock.pendingTimers, timers + 1, 'one check timer while a venue stream is open')
  assert.deepEqual(JSON.parse(venue.snapshot(log)), {
    type: 'snapshot',
    ...envelope,
    seq: 0,
    ts: 1_000,
    lts: 1_000,
    pts: 1_000,
    // Connected, but no book has its snapshot yet.
    d: { state: 'degraded', age_ms: null, reconnects: 0, gaps: 0 },
  })

  r.venue.emit(snapshot('a', [[0.4, 1]], [[0.5, 1]]), snapshot('b', [[0.4, 1]], [[0.5, 1]]))
  r.clock.increment(1_000) // the check: every book synced
  r.clock.increment(3_000) // the age grows, nothing else: no frame
  // The socket drops: the feed reports its books stale (and will count the reconnect).
  r.venue.status = { ...r.venue.status, openConnections: 0 }
  r.venue.emit({ type: 'stale', instrumentIds: ['a', 'b'], reason: 'wss://x: closed (1006)' })
  r.clock.increment(500)
  r.venue.status = { ...r.venue.status, openConnections: 1, reconnects: 1 }
  r.venue.emit(snapshot('a', [[0.4, 1]], [[0.5, 1]]), snapshot('b', [[0.4, 1]], [[0.5, 1]]))
  r.clock.increment(500)
  r.clock.increment(6_000) // a stall: no frame for longer than DEGRADED_AFTER_MS (5 s), seen by the check at 11 s
  r.venue.status = { ...r.venue.status, sequenceGaps: 2 }
  r.venue.emit(snapshot('a', [[0.4, 1]], [[0.5, 1]]))
  r.clock.increment(1_000)

  assert.deepEqual(r.sink.of('venue|venuep'), [
    {
      type: 'delta',
      ...envelope,
      seq: 1,
      ts: 2_000,
      lts: 2_000,
      pts: 2_000,
      d: { state: 'up', age_ms: 1_000, reconnects: 0, gaps: 0 },
    },
    // At once, in the actor's step that reported the books stale.
    {
      type: 'delta',
      ...envelope,
      seq: 2,
      ts: 5_000,
      lts: 5_000,
      pts: 5_000,
      d: { state: 'down', age_ms: 0, reconnects: 0, gaps: 0 },
    },
    {
      type: 'delta',
      ...envelope,
      seq: 3,
      ts: 6_000,
      lts: 6_000,
      pts: 6_000,
      d: { state: 'up', age_ms: 500, reconnects: 1, gaps: 0 },
    },
    {
      type: 'delta',
      ...envelope,
      seq: 4,
      ts: 11_000,
      lts: 11_000,
      pts: 11_000,
      d: { state: 'degraded', age_ms: 5_500, reconnects: 1, gaps: 0 },
    },
    {
      type: 'delta',
      ...envelope,
      seq: 5,
      ts: 13_000,
      lts: 13_000,
      pts: 13_000,
      d: { state: 'up', age_ms: 1_000, reconnects: 1, gaps: 2 },
    },
  ])
  assert.deepEqual(venueHeartbeat([r.actor], r.clock), { venuep: { state: 'up', age_ms: 1_000 } })

  venue.close(log)
  assert.equal(r.clock.pendingTimers, timers, 'no timer once no venue stream is open')
  r.venue.status = { ...r.venue.status, openConnections: 0 }
  r.venue.emit({ type: 'stale', instrumentIds: ['a'], reason: 'x' })
  assert.equal(r.sink.of('venue|venuep').length, 5, 'no frame after close')
  assert.deepEqual(venueHeartbeat([r.actor], r.clock), { venuep: { state: 'down', age_ms: 0 } })
  r.actor.stop()
  assert.deepEqual(venueHeartbeat([r.actor], r.clock), { venuep: { state: 'down', age_ms: null } }, 'no feed')
})
