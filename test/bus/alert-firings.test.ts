import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Firing } from '../../src/alerts/alert-service.js'
import { publishFirings, RelayedFirings } from '../../src/bus/alert-firings.js'
import { connectBus, type BusLink } from '../../src/bus/connection.js'
import { silentLogger } from '../../src/core/logger.js'
import { NatsServer } from '../helpers/nats-server.js'
import { waitFor } from '../helpers/wait.js'

/**
 * Alert firings reach the edges: what the ingest's alert service commits comes out of an edge's relay as the same
 * firing (the delivery's id, times, payload, rule), without the rule's target.
 */
let nats: NatsServer
let ingest: BusLink
let edge: BusLink

before(async () => {
  nats = await NatsServer.start()
  ingest = await connectBus({ url: nats.url, name: 'ingest', log: silentLogger })
  edge = await connectBus({ url: nats.url, name: 'edge', log: silentLogger })
})

after(async () => {
  await ingest.close()
  await edge.close()
  await nats.close()
})

test('a firing committed on the ingest reaches the edge whole, its target left out', async () => {
  const listeners = new Set<(f: Firing) => void>()
  const service = {
    onFiring: (l: (f: Firing) => void) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
  }
  const stop = publishFirings(ingest, service)
  const relayed = new RelayedFirings(edge, silentLogger)
  const got: Firing[] = []
  relayed.onFiring((f) => got.push(f))
  await edge.nc.flush()
  const delivery = {
    id: 'd-1',
    ruleId: 'r-1',
    pairKey: 'some-event|yes',
    dedupeKey: 'r-1:some-event|yes:1',
    test: false,
    channel: 'webhook',
    target: 'https://hooks.example.com/secret-path',
    payload: { id: 'd-1', type: 'spread_threshold', fired_at: '2026-11-26T15:00:00.000Z' },
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 1_795_700_000_000,
    lastError: null,
    responseStatus: null,
    createdAt: 1_795_700_000_000,
    updatedAt: 1_795_700_000_000,
    deliveredAt: null,
  } as unknown as Firing['delivery']
  for (const l of listeners) l({ accountId: 'acct-1', delivery })
  await waitFor(() => got.length === 1, 5_000, 'the relayed firing')
  assert.deepEqual(got[0], { accountId: 'acct-1', delivery: { ...delivery, target: '' } })
  stop()
  relayed.close()
})
