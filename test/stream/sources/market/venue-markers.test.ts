import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { MarkerPayload } from '../../../../src/stream/protocol.js'
import { VenueMarkers } from '../../../../src/stream/sources/market/venue-markers.js'
import { rig, snapshot } from './fake-venue.js'

/**
 * Whole-venue markers (what spread streams and top views are told): a drop and a stall each give one
 * `venue_disconnect`, the venue being up again one `resync`; nothing before the venue was first up, nothing while
 * no one listens.
 */
test('a drop, then a stall: one venue_disconnect each, one resync when the venue is up again', async () => {
  const r = await rig()
  const markers = new VenueMarkers([r.actor], r.clock)
  const seen: [number, string, MarkerPayload][] = []
  const timers = r.clock.pendingTimers
  const stop = markers.onMarker((venue, d) => seen.push([r.clock.now(), venue, d]))
  assert.equal(r.clock.pendingTimers, timers + 1, 'one check timer while listened to')

  r.clock.increment(2_000) // connected, no book synced yet: not up, so nothing to interrupt
  r.venue.emit(snapshot('a', [[0.4, 1]], [[0.5, 1]]), snapshot('b', [[0.4, 1]], [[0.5, 1]]))
  r.clock.increment(1_000)
  // The socket drops: the feed reports its books stale.
  r.venue.status = { ...r.venue.status, openConnections: 0 }
  r.venue.emit({ type: 'stale', instrumentIds: ['a', 'b'], reason: 'wss://x: closed (1006)' })
  r.clock.increment(1_000) // still down: no second marker
  r.venue.status = { ...r.venue.status, openConnections: 1, reconnects: 1 }
  r.venue.emit(snapshot('a', [[0.4, 1]], [[0.5, 1]]))
  r.clock.increment(1_000) // connected, one book still stale: not up yet
  r.venue.emit(snapshot('b', [[0.4, 1]], [[0.5, 1]]))
  r.clock.increment(1_000)
  const resyncedAt = r.clock.now()
  r.clock.increment(11_000) // connected, no frame for 11 s: a stall
  r.venue.emit(snapshot('a', [[0.4, 1]], [[0.5, 1]]), snapshot('b', [[0.4, 1]], [[0.5, 1]]))
  r.clock.increment(1_000)

  const at = (ms: number) => ms + 1_000 // the rig's clock starts at 1 s
  assert.deepEqual(seen, [
    [at(3_000), 'venuep', { ev: 'venue_disconnect', venue: 'venuep', reason: 'disconnected', since: at(3_000) }],
    [at(6_000), 'venuep', { ev: 'resync', reason: 'venue_reconnected', snapshot_follows: true }],
    [
      at(16_000),
      'venuep',
      { ev: 'venue_disconnect', venue: 'venuep', reason: 'stale_no_data', since: resyncedAt - 1_000 },
    ],
    // Frames again at 18 s; the next check sees the venue up.
    [at(18_000), 'venuep', { ev: 'resync', reason: 'venue_reconnected', snapshot_follows: true }],
  ])

  stop()
  assert.equal(r.clock.pendingTimers, timers, 'no timer once no one listens')
  r.venue.status = { ...r.venue.status, openConnections: 0 }
  r.venue.emit({ type: 'stale', instrumentIds: ['a'], reason: 'x' })
  assert.equal(seen.length, 4)
  r.actor.stop()
})
