import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { VenueId } from '../../../../src/model/types.js'
import type { MarkerPayload } from '../../../../src/stream/protocol.js'
import type { StreamId } from '../../../../src/stream/sequencer.js'
import { RecentFirings, spreadSources } from '../../../../src/stream/sources/spreads/index.js'
import { pairSpec, T0, world } from './fixtures.js'

const TOP = 'spreads.top|limit=3&window=24&sort=confidence&executable_only=false'

test('spreadSources: spread, spreads.top and (with a store) alerts; venue markers reach spread streams and top views', () => {
  const w = world(2)
  const base = { sequencer: w.sequencer, engine: w.engine, clock: w.clock, venueIds: ['venuep', 'venuek'] }
  assert.deepEqual(
    spreadSources(base).map((s) => s.ch),
    ['spread', 'spreads.top'],
  )
  let relay: ((venue: VenueId, d: MarkerPayload) => void) | undefined
  const sources = spreadSources({
    ...base,
    venueMarkers: { onMarker: (l) => ((relay = l), () => undefined) },
    alerts: { service: { onFiring: () => () => undefined }, recent: new RecentFirings() },
  })
  assert.deepEqual(
    sources.map((s) => s.ch),
    ['spread', 'spreads.top', 'alerts'],
  )
  for (const [i, key] of [
    [0, pairSpec(1).key],
    [1, 'limit=3'],
  ] as const) {
    const source = sources[i]
    const log = w.sequencer.open(source?.resolve(key, {}) as StreamId)
    source?.open(log, {})
  }
  const marker = { ev: 'resync', reason: 'venue_reconnected', snapshot_follows: true } as const
  relay?.('venuep', marker)
  assert.deepEqual(
    w.sink.frames.map((f) => [f.topic, f.frame.type, f.frame.seq, f.frame.ts, f.frame.d]),
    [
      // Each resync is followed by the snapshot it promises (no quotes yet: no record, an empty list).
      [`spread|${pairSpec(1).key}`, 'marker', 1, T0, marker],
      [`spread|${pairSpec(1).key}`, 'snapshot', 1, T0, null],
      [TOP, 'marker', 1, T0, marker],
      [TOP, 'snapshot', 1, T0, { upsert: [], remove: [], crc: 0 }],
    ],
  )
})
