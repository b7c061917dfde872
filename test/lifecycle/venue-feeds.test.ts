import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { booksOutOfSync, startTestService, type TestService } from '../helpers/service.js'
import { settle, waitFor } from '../helpers/wait.js'

/** The venues the simulator runs (the helper reads their books from it). */
type VenueId = 'venuep' | 'venuek'

/**
 * The venue actors against the simulator with faults injected. After each fault the actor's books must equal
 * the simulator's again within a bounded (simulated) time, the affected quotes must have been marked stale
 * in between, and nothing may have crashed or restarted.
 */
let s: TestService

before(async () => {
  // Small venuek groups with at most two subscriptions in flight: every scenario runs over many sids and
  // exercises the paced subscription path.
  s = await startTestService({
    questions: 120,
    config: { venues: { venuek: { feed: { marketsPerSubscription: 40, maxSubscriptionsInFlight: 2 } } } },
  })
})

after(async () => {
  await s?.close()
})

/** Advances simulated time in small chunks, letting frames arrive between chunks. */
async function run(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 250) {
    s.advance(250)
    await settle(5)
  }
}

async function expectInSync(venue: VenueId, withinMs = 5_000): Promise<void> {
  // Recovery must finish within `withinMs` of simulated time (reconnect backoff and resubscription included).
  for (let t = 0; t <= withinMs; t += 250) {
    await settle(15)
    if (booksOutOfSync(s, venue).length === 0 && staleQuotes(venue) === 0) return
    s.clock.increment(250)
  }
  await waitFor(() => booksOutOfSync(s, venue).length === 0, 2_000, `${venue} books in sync`).catch(() => {
    assert.deepEqual(booksOutOfSync(s, venue).slice(0, 5), [], `${venue} books differ from the simulator's`)
  })
  assert.equal(staleQuotes(venue), 0, `${venue} quotes still stale`)
}

function staleQuotes(venue: VenueId): number {
  let n = 0
  for (const q of s.app.venues[venue].quotes()) if (q.stale) n++
  return n
}

function assertHealthy(): void {
  for (const actor of Object.values(s.app.venues)) assert.equal(actor.status, 'running', `${actor.name} is running`)
  for (const c of s.app.supervisor.snapshot()) assert.equal(c.restarts, 0, `${c.name} was not restarted`)
}

describe('venue feeds against the simulator', () => {
  test('after live activity, every book equals the simulator book', async () => {
    assert.ok((s.app.venues.venuek.venueStatus().books.instruments ?? 0) > 80, 'several venuek subscription groups')
    const before = s.sim.engine.counters.bookChanges
    await run(2_000)
    assert.ok(s.sim.engine.counters.bookChanges - before > 100, 'the engine moved books')
    await expectInSync('venuep')
    await expectInSync('venuek')
    const q = [...s.app.venues.venuep.quotes()][0]
    assert.ok(q !== undefined && q.bestBid !== undefined && q.bestAsk !== undefined && q.bestBid < q.bestAsk)
    assertHealthy()
  })

  test('venuep: a dropped socket marks quotes stale, then the feed reconnects and resyncs', async () => {
    const reconnects = s.app.venues.venuep.venueStatus().feed?.reconnects ?? 0
    s.sim.venuep.faults.dropSockets()
    await waitFor(() => staleQuotes('venuep') > 0, 2_000, 'venuep quotes marked stale')
    // Books keep moving at the venue while we are away.
    s.advance(200)
    await expectInSync('venuep')
    assert.ok((s.app.venues.venuep.venueStatus().feed?.reconnects ?? 0) > reconnects)
    assertHealthy()
  })

  test('venuek: a skipped sequence number is detected and the affected books are resynced', async () => {
    const gaps = s.app.venues.venuek.venueStatus().feed?.sequenceGaps ?? 0
    s.sim.venuek.faults.skipSequence()
    let sawStale = false
    for (let i = 0; i < 40 && !sawStale; i++) {
      s.advance(50)
      await settle(5)
      sawStale = staleQuotes('venuek') > 0
    }
    assert.ok((s.app.venues.venuek.venueStatus().feed?.sequenceGaps ?? 0) > gaps, 'gap detected')
    await run(500)
    await expectInSync('venuek')
    assertHealthy()
  })

  test('both venues: a malformed frame triggers a resync, never a crash', async () => {
    const before = {
      p: s.app.venues.venuep.venueStatus().feed?.malformedFrames ?? 0,
      k: s.app.venues.venuek.venueStatus().feed?.malformedFrames ?? 0,
    }
    s.sim.venuep.faults.sendMalformedFrame()
    s.sim.venuek.faults.sendMalformedFrame()
    await waitFor(
      () =>
        (s.app.venues.venuep.venueStatus().feed?.malformedFrames ?? 0) > before.p &&
        (s.app.venues.venuek.venueStatus().feed?.malformedFrames ?? 0) > before.k,
      2_000,
      'malformed frames noticed',
    )
    await run(500)
    await expectInSync('venuep')
    await expectInSync('venuek')
    assertHealthy()
  })

  test('both venues: a stall with the socket open is detected by silence, and recovered', async () => {
    const timeouts = {
      p: s.app.venues.venuep.venueStatus().feed?.staleTimeouts ?? 0,
      k: s.app.venues.venuek.venueStatus().feed?.staleTimeouts ?? 0,
    }
    s.sim.venuep.faults.stall()
    s.sim.venuek.faults.stall()
    // Past staleAfterMs (3 s in the test profile) with the venue silent: both feeds give up on their sockets.
    for (let t = 0; t < 4_000; t += 250) {
      s.advance(250)
      await settle(2)
    }
    await waitFor(
      () => staleQuotes('venuep') > 0 && staleQuotes('venuek') > 0,
      2_000,
      'quotes marked stale during the stall',
    )
    assert.ok((s.app.venues.venuep.venueStatus().feed?.staleTimeouts ?? 0) > timeouts.p)
    assert.ok((s.app.venues.venuek.venueStatus().feed?.staleTimeouts ?? 0) > timeouts.k)
    s.sim.venuep.faults.resume()
    s.sim.venuek.faults.resume()
    await expectInSync('venuep')
    await expectInSync('venuek')
    assertHealthy()
  })
})
