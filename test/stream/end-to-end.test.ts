import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { nodeStreamClient } from '../../src/stream-client/node-client.js'
import type { StreamClient } from '../../src/stream-client/stream-client.js'
import type { VenueActor } from '../../src/actors/venue-actor.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { settle, waitFor } from '../helpers/wait.js'
import { printedTop } from './sources/market/client-book.js'

/**
 * The whole path, as a user runs it: the service on the simulator, the typed client over a real socket with a real
 * key. Books assembled by the client equal the actors' books, every frame's crc checks and every stream's seq is
 * contiguous while the simulator trades; the top list equals `GET /api/v2/spreads/top` for the same view; quote and
 * venue streams hold the actors' state.
 */
let s: TestService
let client: StreamClient
const problems: string[] = []

before(async () => {
  s = await startTestService({ questions: 40 })
  client = nodeStreamClient({
    url: `${s.baseUrl.replace('http', 'ws')}/api/v2/stream`,
    apiKey: s.apiKey as string,
    clock: s.clock,
    // Simulated time moves in big steps here: the client's watchdog must not take that for a dead feed.
    heartbeatTimeoutMs: 3_600_000,
  })
  client.on('gap', (g) => problems.push(`gap on ${g.ch} ${g.key}`))
  client.on('crcMismatch', (m) => problems.push(`crc mismatch on ${m.ch} ${m.key}`))
  await client.connect()
})

after(async () => {
  client?.close()
  await s?.close()
})

/** Moves simulated time in steps, letting the loopback sockets deliver between them. */
async function run(ms: number, stepMs = 100): Promise<void> {
  for (let t = 0; t < ms; t += stepMs) {
    s.advance(stepMs, stepMs)
    await settle(5)
  }
}

function liveInstruments(actor: VenueActor, n: number): string[] {
  const out: string[] = []
  for (const q of actor.quotes()) {
    if (!q.stale && q.bestBid !== undefined && q.bestAsk !== undefined) out.push(q.instrumentId)
    if (out.length === n) break
  }
  return out
}

test('books, quotes, the top list and venue state over the socket equal the service’s own', async () => {
  const keys: { key: string; actor: VenueActor; id: string }[] = []
  for (const actor of Object.values(s.app.venues))
    for (const id of liveInstruments(actor, 4)) keys.push({ key: `${actor.venue}:${id}`, actor, id })
  assert.ok(keys.length >= 6, 'live books on both venues')
  const book = await client.subscribe(
    'book',
    keys.map((k) => k.key),
    { depth: 25 },
  )
  assert.deepEqual(book.ack.rejected, [])
  const quote = await client.subscribe(
    'quote',
    keys.map((k) => k.key),
  )
  assert.deepEqual(quote.ack.rejected, [])
  const view = 'limit=10&window=24&sort=confidence&executable_only=false'
  const top = await client.subscribe('spreads.top', [view])
  assert.deepEqual(top.ack.rejected, [])
  await client.subscribe('venue', Object.keys(s.app.venues))

  await run(4_000)
  await settle(50)

  assert.deepEqual(problems, [], 'no gap and no crc mismatch')
  for (const { key, actor, id } of keys) {
    const printed = printedTop(actor.book(id)!, 25)
    const assembled = client.book(key)!.view()
    assert.deepEqual(
      [assembled.bids, assembled.asks],
      [printed.bids, printed.asks],
      `${key}: the assembled book is the actor's`,
    )
    const q = actor.quote(id)!
    const value = client.value('quote', key) as Record<string, unknown>
    assert.deepEqual(
      [value.best_bid, value.best_ask, value.stale],
      [q.bestBid ?? null, q.bestAsk ?? null, q.stale],
      `${key}: the quote`,
    )
  }

  const rest = (await (await fetch(`${s.baseUrl}/api/v2/spreads/top?limit=10`, { headers: s.authHeaders })).json()) as {
    data: { id: string; is_stale: boolean }[]
  }
  const streamed = client
    .topList(view)!
    .items()
    .map((i) => i.id)
  assert.ok(streamed.length > 0, 'the view holds spreads')
  assert.deepEqual(
    streamed,
    rest.data.filter((r) => !r.is_stale).map((r) => r.id),
    'the streamed list is the REST top list (stale spreads left out)',
  )

  for (const venue of Object.keys(s.app.venues)) {
    const v = client.value('venue', venue) as { state: string }
    assert.equal(v.state, 'up', `${venue} is up`)
  }
})

test('unsubscribe: nothing of the subscription after its ack, while the books keep moving', async () => {
  const actor = Object.values(s.app.venues)[0]!
  // Not the first test's instruments: a connection holds a key once.
  const ids = liveInstruments(actor, 7).slice(4)
  const keys = ids.map((id) => `${actor.venue}:${id}`)
  const sub = await client.subscribe('quote', keys)
  assert.deepEqual(sub.ack.rejected, [])
  let before = 0
  const count = client.onDelta((f) => {
    if (keys.includes(f.key)) before++
  })
  await run(2_000)
  count()
  assert.ok(before > 0, 'the books moved while subscribed')
  let acked = false
  const after: string[] = []
  const off = client.onFrame((f) => {
    if (acked && 'ch' in f && f.ch === 'quote' && 'sid' in f === false && keys.includes(String(f.key)))
      after.push(`${f.type} ${String(f.key)}`)
  })
  await client.unsubscribe(sub.subscription)
  acked = true
  await run(2_000)
  off()
  assert.deepEqual(after, [])
})

test('a sequence gap on the venue feed: venue_disconnect (gap), then resync and a snapshot, and the book is right again', async () => {
  const actor = s.app.venues.venuek!
  const ids = liveInstruments(actor, 9).slice(7)
  const keys = ids.map((id) => `${actor.venue}:${id}`)
  const seen: string[] = []
  const offMarker = client.onMarker((f) => {
    if (f.ch === 'book' && keys.includes(f.key))
      seen.push(`${f.key} marker ${f.d.ev}${'reason' in f.d ? ` ${f.d.reason}` : ''}`)
  })
  const offSnapshot = client.onSnapshot((f) => {
    if (f.ch === 'book' && keys.includes(f.key)) seen.push(`${f.key} snapshot`)
  })
  const sub = await client.subscribe('book', keys)
  assert.deepEqual(sub.ack.rejected, [])
  s.sim.venuek.faults.skipSequence()
  for (let i = 0; i < 100 && !keys.every((k) => seen.includes(`${k} marker resync venue_reconnected`)); i++)
    await run(200)
  await run(1_000)
  offMarker()
  offSnapshot()
  assert.deepEqual(problems, [], 'no gap and no crc mismatch on the client')
  for (const key of keys) {
    const mine = seen.filter((x) => x.startsWith(`${key} `)).map((x) => x.slice(key.length + 1))
    assert.deepEqual(
      mine,
      ['snapshot', 'marker venue_disconnect gap', 'marker resync venue_reconnected', 'snapshot'],
      key,
    )
  }
  for (const [i, id] of ids.entries()) {
    const printed = printedTop(actor.book(id)!, 10)
    const assembled = client.book(keys[i] as string)!.view()
    assert.deepEqual([assembled.bids, assembled.asks], [printed.bids, printed.asks], `${keys[i]} after the resync`)
  }
})
