import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { DEGRADED_AGE_MS, VenueHealth } from '../../src/dashboard/web/venue-health.js'

const disconnect = { ev: 'venue_disconnect', venue: 'venuek', reason: 'stale_no_data', since: 1 } as const
const resync = { ev: 'resync', reason: 'venue_reconnected', snapshot_follows: true } as const

describe('venue health', () => {
  test('nothing known is down ("no data yet"); the venue channel and heartbeats set state, age and counts', () => {
    const h = new VenueHealth(['venuep', 'venuek'])
    assert.deepEqual(
      [h.view('venuep', 0).health, h.view('venuep', 0).stateText, h.view('venuep', 0).ageMs],
      ['down', 'no data yet', undefined],
    )
    h.report('venuep', { state: 'up', age_ms: 120, reconnects: 2, gaps: 1 }, 1_000)
    assert.deepEqual(h.view('venuep', 1_000), {
      venue: 'venuep',
      health: 'ok',
      stateText: 'ok',
      ageMs: 120,
      reconnects: 2,
      gaps: 1,
      reason: undefined,
    })
    h.heartbeat({ venuep: { state: 'degraded', age_ms: 30 }, venuek: { state: 'down', age_ms: null } }, 2_000)
    assert.equal(h.view('venuep', 2_000).health, 'degraded')
    assert.equal(h.view('venuep', 2_000).reconnects, 2, 'a heartbeat keeps the counts it does not carry')
    assert.equal(h.view('venuek', 2_000).health, 'down')
    assert.equal(h.view('venuek', 2_000).stateText, 'down')
  })

  test('the data age grows between reports: silence turns an ok venue degraded', () => {
    const h = new VenueHealth(['venuep'])
    h.heartbeat({ venuep: { state: 'up', age_ms: 200 } }, 10_000)
    assert.equal(h.view('venuep', 10_000 + DEGRADED_AGE_MS - 200).health, 'ok')
    const late = h.view('venuep', 10_000 + DEGRADED_AGE_MS)
    assert.deepEqual([late.health, late.reason, late.ageMs], ['degraded', 'no recent data', DEGRADED_AGE_MS + 200])
  })

  test('a venue_disconnect on a held stream degrades its venue until that stream’s resync', () => {
    const h = new VenueHealth(['venuep', 'venuek'])
    h.heartbeat({ venuep: { state: 'up', age_ms: 0 }, venuek: { state: 'up', age_ms: 0 } }, 0)
    h.marker('book', 'venuek:KX-1', disconnect)
    h.marker('book', 'venuek:KX-2', disconnect)
    assert.deepEqual(
      [h.view('venuek', 0).health, h.view('venuek', 0).reason],
      ['degraded', 'disconnected: stale_no_data'],
    )
    assert.equal(h.view('venuep', 0).health, 'ok', 'the other venue is not touched')
    h.marker('book', 'venuek:KX-1', resync)
    assert.equal(h.view('venuek', 0).health, 'degraded', 'one stream still waits')
    h.forgetStream('book', 'venuek:KX-2')
    assert.equal(h.view('venuek', 0).health, 'ok', 'a stream no longer held is forgotten')
    h.marker('book', 'venuek:KX-1', disconnect)
    h.heartbeat({ venuek: { state: 'down', age_ms: null } }, 0)
    assert.deepEqual([h.view('venuek', 0).health, h.view('venuek', 0).reason], ['down', 'disconnected: stale_no_data'])
    h.heartbeat({ venuek: { state: 'up', age_ms: 0 } }, 0)
    h.forgetMarkers()
    assert.equal(h.view('venuek', 0).health, 'ok', 'a new connection starts without the old markers')
  })
})
