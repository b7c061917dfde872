import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { VenueActor } from '../../../../src/actors/venue-actor.js'
import { marketSources } from '../../../../src/stream/sources/market/index.js'
import type { ChannelSource } from '../../../../src/stream/source.js'
import { Sequencer, type StreamId } from '../../../../src/stream/sequencer.js'
import { startTestService, type TestService } from '../../../helpers/service.js'
import { settle, waitFor } from '../../../helpers/wait.js'
import { ClientBook, printedTop, referenceCrc } from './client-book.js'
import { RecordingSink, type Frame } from './fake-venue.js'

/**
 * The market channels against the simulator through the real feeds: book streams rebuilt by a client match the
 * actor's book at every frame while the engine trades; a dropped venuep socket and a stalled venuek socket each
 * put a marker and a stale quote on the streams, and the reconnect a resync marker and a snapshot.
 */
let s: TestService
let sink: RecordingSink
let sources: Record<string, ChannelSource>
let sequencer: Sequencer
const books = new Map<string, { actor: VenueActor; id: string; client: ClientBook }>()

before(async () => {
  s = await startTestService({ questions: 30, auth: 'off' })
  sink = new RecordingSink()
  sequencer = new Sequencer({ clock: s.clock, sink, epoch: 'sim' })
  const list = marketSources({ sequencer, venues: Object.values(s.app.venues), clock: s.clock })
  sources = Object.fromEntries(list.map((x) => [x.ch, x]))
  sink.onFrame = (topic, f) => {
    const b = books.get(topic)
    if (b === undefined) return
    b.client.apply(f)
    if (f.type === 'marker') return
    const top = printedTop(b.actor.book(b.id)!, 10)
    assert.deepEqual([b.client.top('bid'), b.client.top('ask')], [top.bids, top.asks], `${topic} at seq ${f.seq}`)
    assert.equal(f.d.crc, referenceCrc(top.asks, top.bids), `${topic} crc at seq ${f.seq}`)
  }
})

after(async () => {
  await s?.close()
})

function open(ch: string, key: string) {
  const source = sources[ch]!
  const log = sequencer.open(source.resolve(key, {}) as StreamId)
  source.open(log, {})
  return { log, snapshot: JSON.parse(source.snapshot(log)) as Frame }
}

/** Instruments of a venue with a live two-sided book. */
function liveInstruments(actor: VenueActor, n: number): string[] {
  const out: string[] = []
  for (const q of actor.quotes()) {
    if (!q.stale && q.bestBid !== undefined && q.bestAsk !== undefined) out.push(q.instrumentId)
    if (out.length === n) break
  }
  return out
}

/** Moves simulated time in steps, letting the loopback sockets deliver between them. */
async function run(ms: number, stepMs = 100): Promise<void> {
  for (let t = 0; t < ms; t += stepMs) {
    s.advance(stepMs, stepMs)
    await settle(5)
  }
}

test('book and quote streams follow the real feeds; drops and stalls are marked, then resynced', async () => {
  const venuep = s.app.venues.venuep
  const venuek = s.app.venues.venuek
  const keys: string[] = []
  for (const actor of [venuep, venuek])
    for (const id of liveInstruments(actor, 6)) {
      const key = `${actor.venue}:${id}`
      keys.push(key)
      open('quote', key)
      const client = new ClientBook()
      const { log, snapshot } = open('book', key)
      client.apply(snapshot)
      books.set(log.id.topic, { actor, id, client })
    }
  assert.ok(keys.length >= 8, `live books on both venues (${keys.join(', ')})`)
  open('venue', 'venuep')

  await run(3_000)
  const deltas = [...books.keys()].reduce((n, t) => n + sink.of(t).filter((f) => f.type === 'delta').length, 0)
  assert.ok(deltas > 0, 'the engine moved some of the books')

  // A network drop on venuep.
  const [pKey] = keys.filter((k) => k.startsWith('venuep:'))
  const pQuote = `quote|${pKey}`
  const pBook = `book|${pKey}|10`
  const before = sink.of(pQuote).length
  s.sim.venuep.faults.dropSockets()
  await waitFor(() => venuep.quote(pKey!.slice('venuep:'.length))?.stale === true, 5_000, 'venuep quotes stale')
  const dropped = sink.of(pQuote).slice(before)
  assert.deepEqual(
    dropped.map((f) => [f.type, f.d.ev ?? null, f.d.reason ?? null, f.d.stale ?? null]),
    [
      ['marker', 'venue_disconnect', 'disconnected', null],
      ['delta', null, null, true],
    ],
  )
  assert.equal(dropped[0]!.d.venue, 'venuep')
  assert.deepEqual(sink.of('venue|venuep').at(-1)?.d.state, 'down')
  assert.equal(sink.of(pBook).at(-1)?.d.ev, 'venue_disconnect')

  for (let i = 0; i < 100 && venuep.quote(pKey!.slice('venuep:'.length))?.stale !== false; i++) await run(100)
  await waitFor(() => sink.of(pBook).some((f) => f.type === 'snapshot'), 5_000, 'the resync snapshot')
  const resync = sink.of(pBook).filter((f) => f.type !== 'delta')
  assert.deepEqual(
    resync.map((f) => [f.type, f.d.ev ?? null]),
    [
      ['marker', 'venue_disconnect'],
      ['marker', 'resync'],
      ['snapshot', null],
    ],
  )
  assert.equal(resync[2]!.seq, resync[1]!.seq, 'the snapshot carries the resync marker’s seq')
  await run(1_000)
  assert.equal(sink.of('venue|venuep').at(-1)?.d.state, 'up')
  assert.ok((sink.of('venue|venuep').at(-1)?.d.reconnects as number) >= 1)

  // A silent stall on venuek: the socket stays open, nothing arrives; the feed declares it after staleAfterMs.
  const [kKey] = keys.filter((k) => k.startsWith('venuek:'))
  s.sim.venuek.faults.stall()
  const kId = kKey!.slice('venuek:'.length)
  for (let i = 0; i < 100 && venuek.quote(kId)?.stale !== true; i++) await run(100)
  assert.equal(venuek.quote(kId)?.stale, true)
  const stalled = sink.of(`quote|${kKey}`).filter((f) => f.type === 'marker')
  assert.deepEqual(
    stalled.map((f) => f.d),
    [{ ev: 'venue_disconnect', venue: 'venuek', reason: 'stale_no_data', since: stalled[0]!.d.since }],
  )
  s.sim.venuek.faults.resume()
  for (let i = 0; i < 100 && venuek.quote(kId)?.stale !== false; i++) await run(100)
  assert.equal(
    sink
      .of(`quote|${kKey}`)
      .filter((f) => f.type === 'marker')
      .at(-1)?.d.ev,
    'resync',
  )

  // Every book stream: contiguous seq (checked by the clients as they applied frames) and in sync now.
  for (const [topic, b] of books) {
    if (!b.client.trusted) continue
    const top = printedTop(b.actor.book(b.id)!, 10)
    assert.deepEqual([b.client.top('bid'), b.client.top('ask')], [top.bids, top.asks], topic)
  }
})
