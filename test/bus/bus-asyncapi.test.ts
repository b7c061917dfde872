import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { ValidateFunction } from 'ajv'
import { buildBusAsyncApi } from '../../src/bus/bus-asyncapi.js'
import { eventChunks, feedMessage, snapshotReplyMessages } from '../../src/bus/feed/wire.js'
import { leaseBodies, parseLeaseAnswers } from '../../src/bus/stream/leases.js'
import {
  catalogSubject,
  feedSnapshotSubject,
  feedSubject,
  LEASE_ASK_SUBJECT,
  LEASE_CLOSED_SUBJECT,
  LEASE_OPEN_SUBJECT,
  LEASE_RENEW_SUBJECT,
  mdSubject,
} from '../../src/bus/subjects.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { Sequencer, streamId } from '../../src/stream/sequencer.js'
import type { FeedEvent } from '../../src/venues/types.js'
import {
  asyncApi3Validator,
  payloadValidator as payloadValidatorOf,
  resolvePointer,
  type Json,
} from '../helpers/asyncapi.js'

/**
 * The bus's AsyncAPI document (`/api/v2/bus-asyncapi.json`): valid AsyncAPI 3.0.0, every reference resolving, each
 * channel address the shape of the subjects src/bus/subjects.ts builds, and real messages (a frame from the real
 * Sequencer, a feed message as the publisher writes it) valid against their payloads, wrong ones not.
 */
const doc = buildBusAsyncApi() as Json
const resolve = (pointer: string): unknown => resolvePointer(doc, pointer)
const payloadValidator = (message: string): ValidateFunction => payloadValidatorOf(doc, message)

test('the bus document validates against the AsyncAPI 3.0.0 JSON Schema, and every $ref resolves', () => {
  const validate = asyncApi3Validator()
  assert.equal(validate(doc), true, JSON.stringify(validate.errors, null, 2))
  for (const m of JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)) resolve(m[1] as string)
})

test('channel addresses are the subjects the code builds', () => {
  const shape = (address: string) => new RegExp(`^${address.replace(/\./g, '\\.').replace(/\{\w+\}/g, '[^.]+')}$`)
  assert.match(mdSubject('quote', 'venuep', 'venuep:123'), shape(doc.channels.md.address))
  assert.match(mdSubject('spread', 'x', 'some-event|yes.no'), shape(doc.channels.md.address))
  assert.match(mdSubject('book', 'venuek', 'venuek:KX-1.5|25'), shape(doc.channels.md.address))
  assert.match(mdSubject('spreads.top', 'x', 'limit=20&sort=spread'), shape(doc.channels.md.address))
  assert.equal(doc.channels.leaseOpen.address, LEASE_OPEN_SUBJECT)
  assert.equal(doc.channels.leaseRenew.address, LEASE_RENEW_SUBJECT)
  assert.equal(doc.channels.leaseClosed.address, LEASE_CLOSED_SUBJECT)
  assert.equal(doc.channels.leaseAsk.address, LEASE_ASK_SUBJECT)
  assert.match(feedSubject('venuek'), shape(doc.channels.feed.address))
  assert.match(feedSnapshotSubject('venuek'), shape(doc.channels.feedSnapshot.address))
  assert.match(catalogSubject('venuep'), shape(doc.channels.catalog.address))
})

test('a frame from the real sequencer validates as an md frame; a frame of a channel not on the bus does not', () => {
  const frames: string[] = []
  const sequencer = new Sequencer({
    clock: new SimulatedClock(1_000),
    sink: { publish: (_t, f) => frames.push(f) },
    epoch: 'e1',
  })
  const log = sequencer.open(streamId('venue', 'venuep'))
  sequencer.emit(log, 'delta', { state: 'up', age_ms: 12, reconnects: 0, gaps: 0 }, 1_000, 1_000)
  const marker = { ev: 'venue_disconnect', venue: 'venuep', reason: 'stale_no_data', since: 990 }
  sequencer.emit(log, 'marker', marker, 1_001, 1_001)
  const frame = payloadValidator('frame')
  for (const f of frames) assert.equal(frame(JSON.parse(f)), true, `${f}: ${JSON.stringify(frame.errors)}`)
  assert.equal(frame({ ...JSON.parse(frames[0] as string), ch: 'hb' }), false)
})

test('lease requests as an edge writes them and answers as the ingest gives them validate; a request without a key does not', () => {
  const requests = payloadValidator('leaseRequests')
  const bodies = leaseBodies(
    [
      { ch: 'book', key: 'venuep:1', depth: 25 },
      { ch: 'spreads.top', key: 'limit=20' },
      { ch: 'alerts', key: 'acct_1', account: 'acct_1' },
    ],
    1e6,
  )
  assert.equal(bodies.length, 1)
  assert.equal(bodies[0]?.count, 3)
  // Under a small max_payload the requests go in several bodies, in order, none over the bound.
  const many = Array.from({ length: 50 }, (_, i) => ({ ch: 'quote' as const, key: `venuep:${i}` }))
  const parts = leaseBodies(many, 300)
  assert.ok(parts.length > 1 && parts.every((p) => p.text.length <= 300))
  assert.deepEqual(
    parts.flatMap((p) => (JSON.parse(p.text) as { streams: unknown[] }).streams),
    many,
  )
  assert.deepEqual(
    parts.map((p) => p.count),
    parts.map((p) => (JSON.parse(p.text) as { streams: unknown[] }).streams.length),
  )
  const body = JSON.parse(bodies[0]?.text as string) as { streams: Record<string, unknown>[] }
  assert.equal(requests(body), true, JSON.stringify(requests.errors))
  assert.equal(requests({ streams: [{ ch: 'book' }] }), false)
  const answers = payloadValidator('leaseAnswers')
  const text = JSON.stringify({
    streams: [
      { topic: 'book|venuep:1|25', epoch: 'e1.0', seq: 4 },
      { key: 'limit=0', code: 'BAD_REQUEST', reason: 'limit must be 1..100' },
    ],
  })
  assert.equal(answers(JSON.parse(text)), true, JSON.stringify(answers.errors))
  assert.equal(parseLeaseAnswers(text)?.length, 2, 'the edge reads what the document describes')
})

test('feed messages and snapshot replies as the publisher writes them validate; one without its epoch does not', () => {
  const events: FeedEvent[] = [
    { type: 'snapshot', instrumentId: 'KX-1', bids: [[470_000, 12_000_000]], asks: [], venueTs: 1_781_159_489_957 },
    { type: 'level', instrumentId: 'KX-1', side: 'bid', price: 470_000, size: 0, venueTs: 1_781_159_489_958 },
    { type: 'stats', instrumentId: 'KX-1', volume: 1_200, openInterest: undefined, venueTs: 1_781_159_489_958 },
    { type: 'stale', instrumentIds: ['KX-2'], reason: 'sequence gap' },
  ]
  const message = payloadValidator('feedMessage')
  const text = feedMessage(
    { epoch: 'a1b2', seq: 7, receivedAt: 1_781_159_489_961.25 },
    eventChunks(events, 1e6)[0] as string,
  )
  const m = JSON.parse(text) as Record<string, unknown>
  assert.equal(message(m), true, JSON.stringify(message.errors))
  const { epoch: _epoch, ...noEpoch } = m
  assert.equal(message(noEpoch), false)
  const reply = payloadValidator('snapshotReply')
  // A small max_payload: the reply spans several messages, each valid.
  const parts = snapshotReplyMessages(
    { epoch: 'a1b2', seq: 7, request: 3 },
    [
      { events, receivedAt: 5 },
      { events, receivedAt: 6 },
    ],
    1_000,
  )
  assert.ok(parts.length > 1)
  for (const part of parts) assert.equal(reply(JSON.parse(part)), true, JSON.stringify(reply.errors))
})
