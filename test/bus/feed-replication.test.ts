import assert from 'node:assert/strict'
import { isDeepStrictEqual } from 'node:util'
import { after, before, test } from 'node:test'
import { snapshotQuote } from '../../src/actors/published-quote.js'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { connectBus, type BusLink } from '../../src/bus/connection.js'
import { busVenueAdapter } from '../../src/bus/feed/bus-adapter.js'
import { BusFeed } from '../../src/bus/feed/bus-feed.js'
import { startFeedPublisher, type FeedPublisher } from '../../src/bus/feed/feed-publisher.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { VENUES } from '../../src/venues/index.js'
import { venueConfig, type VenueModule } from '../../src/venues/module.js'
import type { FeedEvent, VenueAdapter } from '../../src/venues/types.js'
import { NatsServer } from '../helpers/nats-server.js'
import { TEST_ANCHOR_MS } from '../helpers/service.js'
import { waitFor } from '../helpers/wait.js'

/**
 * Feed replication over a real nats-server (issue 24): an ingest's venue actors on the simulator publish what they
 * apply; an edge's venue actors, the same code on `busVenueAdapter`, must hold the same catalogs, books, statistics
 * and quotes, so every REST answer read from them is the ingest's. Whole values are compared; of a quote, all but
 * `seq` and `instrumentSlot`, the actor's own publish counter and instrument numbering (an edge that starts late has
 * published fewer quotes and numbered fewer instruments).
 */
const clock = new SimulatedClock(TEST_ANCHOR_MS)
const config = loadConfig({ env: { NODE_ENV: 'test' } })
let nats: NatsServer
let sim: Simulator
let ingestLink: BusLink
let ingest: VenueActor[] = []
let publisher: FeedPublisher | undefined

before(async () => {
  nats = await NatsServer.start()
  sim = await startSimulator({
    config: { ...config.sim, questions: 60, wallets: 5, venuekAuth: false },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  ingestLink = await connectBus({ url: nats.url, name: 'ingest', log: silentLogger })
})

after(async () => {
  await publisher?.close()
  for (const a of ingest) a.stop()
  await ingestLink.close()
  await sim.close()
  await nats.close()
})

function realAdapter(m: VenueModule): VenueAdapter {
  const section = venueConfig(config, m)
  return m.createAdapter(m.config.atSimulator?.(section, sim) ?? section, { clock, log: silentLogger }, undefined)
}

function actorOn(adapter: VenueAdapter): VenueActor {
  // Catalogs refresh only when asked (or announced): the tests say when a new one is made.
  const actor = new VenueActor({ adapter, clock, log: silentLogger, catalogRefreshMs: 3_600_000 })
  actor.start()
  return actor
}

async function startIngest(): Promise<void> {
  ingest = VENUES.map((m) => actorOn(realAdapter(m)))
  publisher = await startFeedPublisher({ link: ingestLink, actors: ingest, log: silentLogger })
  await waitFor(() => ingest.every((a) => a.ready), 15_000, 'ingest actors ready')
}

async function startEdge(): Promise<{ link: BusLink; actors: VenueActor[]; close(): Promise<void> }> {
  const link = await connectBus({ url: nats.url, name: 'edge', log: silentLogger })
  const actors = VENUES.map((m) => actorOn(busVenueAdapter(realAdapter(m), { link, clock, log: silentLogger })))
  return {
    link,
    actors,
    async close() {
      for (const a of actors) a.stop()
      await link.close()
    },
  }
}

/**
 * Market activity on both simulated venues (book moves, trades, ticker statistics), and once the ingest has it (it
 * published quotes since, and none for 200 ms), what it holds then.
 */
async function advance(ms: number, stepMs = 50): Promise<void> {
  const published = () => ingest.map((a) => a.quotesPublished)
  const before = published()
  for (let t = 0; t < ms; t += stepMs) {
    clock.increment(stepMs)
    sim.engine.step(clock.now())
  }
  if (ingest.length === 0) return
  await waitFor(() => published().every((n, i) => n > (before[i] as number)), 10_000, 'the ingest moved')
  let last = published()
  let since = Date.now()
  await waitFor(
    () => {
      const now = published()
      if (!isDeepStrictEqual(now, last)) [last, since] = [now, Date.now()]
      return Date.now() - since >= 200
    },
    10_000,
    'the ingest settled',
  )
}

/** What REST reads from an actor: the catalog, and per streamed instrument its quote, whole book and statistics. */
function held(actor: VenueActor, ids: readonly string[]): unknown {
  const c = actor.catalog()
  return {
    catalog: c && { fetchedAt: c.fetchedAt, events: c.events, truncation: c.truncation },
    instruments: ids.map((id) => {
      const q = actor.quote(id)
      const b = actor.book(id)
      const quote = q === undefined ? undefined : { ...snapshotQuote(q), seq: undefined, instrumentSlot: undefined }
      return {
        id,
        quote,
        book: b && { synced: b.hasSnapshot, bids: b.levels('bid'), asks: b.levels('ask') },
        stats: actor.stats(id),
      }
    }),
  }
}

function streamedIds(actor: VenueActor, adapter: VenueAdapter): string[] {
  const c = actor.catalog()
  return c === undefined ? [] : adapter.instrumentsOf({ venue: c.venue, events: c.events, fetchedAt: c.fetchedAt })
}

/** Waits until every edge actor holds what its ingest actor holds, then asserts it (a failure shows the diff). */
async function assertSameAsIngest(edge: readonly VenueActor[], what: string): Promise<void> {
  const pairs = () =>
    ingest.map((a, i) => {
      const ids = streamedIds(a, realAdapter(VENUES[i] as VenueModule))
      return { edge: held(edge[i] as VenueActor, ids), ingest: held(a, ids) }
    })
  await waitFor(() => pairs().every((p) => isDeepStrictEqual(p.edge, p.ingest)), 15_000, what).catch(() => {})
  for (const p of pairs()) assert.deepStrictEqual(p.edge, p.ingest, what)
}

function liveQuotes(actor: VenueActor): number {
  return [...actor.quotes()].filter((q) => !q.stale).length
}

test('an edge started before the ingest waits for its catalog, then holds what the ingest holds', async () => {
  const edge = await startEdge()
  try {
    await new Promise((r) => setTimeout(r, 300))
    assert.ok(
      edge.actors.every((a) => a.catalog() === undefined),
      'no catalog before the ingest puts one',
    )
    await startIngest()
    await advance(3_000)
    await assertSameAsIngest(edge.actors, 'after 3 s of activity')
    await waitFor(() => edge.actors.every((a) => a.ready), 5_000, 'edge actors ready')
    // The activity reached quotes, trades and (venuek's ticker) statistics, and the edge followed all of it.
    for (const a of ingest) assert.ok(liveQuotes(a) > 10, `${a.venue}: live quotes`)
    const trades = ingest.flatMap((a) => [...a.quotes()]).filter((q) => q.lastTradePrice !== undefined)
    assert.ok(trades.length > 0, 'some instrument traded')
    await advance(2_000, 20)
    await assertSameAsIngest(edge.actors, 'after more activity')
  } finally {
    await edge.close()
  }
})

test('an edge started late catches up, and a new catalog reaches it at once', async () => {
  await advance(2_000)
  const edge = await startEdge()
  try {
    await assertSameAsIngest(edge.actors, 'late edge caught up')
    await advance(1_000)
    await assertSameAsIngest(edge.actors, 'late edge following')
    // A catalog sync on the ingest (an hour before either actor's own refresh) is on the edge within the wait.
    const before = edge.actors.map((a) => a.catalog()?.version ?? 0)
    for (const a of ingest) a.refreshCatalog()
    await waitFor(
      () => edge.actors.every((a, i) => (a.catalog()?.version ?? 0) > (before[i] as number)),
      10_000,
      'announced catalogs installed on the edge',
    )
    await assertSameAsIngest(edge.actors, 'after a catalog refresh')
  } finally {
    await edge.close()
  }
})

test('while the broker is away the edge is stale; once it is back the edge holds what the ingest holds', async () => {
  const edge = await startEdge()
  try {
    await assertSameAsIngest(edge.actors, 'before the broker stops')
    await nats.stop()
    await waitFor(
      () =>
        edge.actors.every(
          (a) =>
            liveQuotes(a) === 0 &&
            [...a.quotes()].every((q) => a.book(q.instrumentId)?.hasSnapshot !== true) &&
            a.venueStatus().feed?.openConnections === 0,
        ),
      10_000,
      'edge books stale',
    )
    for (const a of edge.actors) {
      const s = a.venueStatus()
      assert.equal(s.books.stale, s.books.instruments, `${a.venue}: every book stale`)
    }
    await advance(2_000) // the ingest's books move on meanwhile
    await nats.restart()
    await assertSameAsIngest(edge.actors, 'after the broker came back')
    await advance(1_000)
    await assertSameAsIngest(edge.actors, 'following again')
  } finally {
    await edge.close()
  }
})

test('batches the edge never got (the ingest published nothing for a while, then came back as a new run) are caught up', async () => {
  const edge = await startEdge()
  try {
    await assertSameAsIngest(edge.actors, 'before the publisher stops')
    const gapsBefore = edge.actors.map((a) => a.venueStatus().feed?.sequenceGaps ?? 0)
    await publisher?.close()
    await advance(1_000) // applied by the ingest, published to nobody
    publisher = await startFeedPublisher({ link: ingestLink, actors: ingest, log: silentLogger })
    await advance(1_000)
    await assertSameAsIngest(edge.actors, 'after the publisher came back')
    edge.actors.forEach((a, i) =>
      assert.ok((a.venueStatus().feed?.sequenceGaps ?? 0) > (gapsBefore[i] as number), `${a.venue}: a gap was seen`),
    )
  } finally {
    await edge.close()
  }
})

test('instruments added to a running feed are asked for by id; one the ingest does not hold comes back stale', async () => {
  const link = await connectBus({ url: nats.url, name: 'edge-feed', log: silentLogger })
  const got: FeedEvent[] = []
  const feed = new BusFeed({ link, venue: 'venuep', clock, log: silentLogger, sink: (events) => got.push(...events) })
  try {
    const [first, second] = [...(ingest[0] as VenueActor).quotes()].map((q) => q.instrumentId)
    assert.ok(first !== undefined && second !== undefined)
    feed.setInstruments([first])
    await waitFor(() => feed.status().subscribed === 1, 5_000, 'first instrument synced')
    got.length = 0
    feed.changeInstruments([second, 'not-on-the-ingest'], [])
    await waitFor(() => feed.status().subscribed === 3, 5_000, 'added instruments synced')
    const answered = got.filter((e) => e.type === 'stale' || e.type === 'snapshot')
    assert.deepEqual(
      answered.map((e) => (e.type === 'snapshot' ? ['snapshot', e.instrumentId] : ['stale', ...e.instrumentIds])),
      [
        ['snapshot', second],
        ['stale', 'not-on-the-ingest'],
      ],
    )
  } finally {
    feed.close()
    await link.close()
  }
})

test('under a small max_payload (8 KB), batches and snapshot replies go in parts and the edge still holds the same', async () => {
  const small = await NatsServer.start({ maxPayload: 8 * 1024 })
  const ingestSide = await connectBus({ url: small.url, name: 'ingest-small', log: silentLogger })
  const second = await startFeedPublisher({ link: ingestSide, actors: ingest, log: silentLogger })
  const link = await connectBus({ url: small.url, name: 'edge-small', log: silentLogger })
  const actors = VENUES.map((m) => actorOn(busVenueAdapter(realAdapter(m), { link, clock, log: silentLogger })))
  try {
    assert.equal(link.nc.info?.max_payload, 8 * 1024)
    // A reply for every book of a venue is tens of KB here: unless it is cut in parts, it cannot be published.
    assert.ok(ingest.length > 0, 'runs after the first test started the ingest')
    await assertSameAsIngest(actors, 'caught up in parts')
    await advance(2_000)
    await assertSameAsIngest(actors, 'following in parts')
  } finally {
    for (const a of actors) a.stop()
    await link.close()
    await second.close()
    await ingestSide.close()
    await small.close()
  }
})
