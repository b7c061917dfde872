import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { systemClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { HttpClient } from '../../src/venues/http-client.js'
import { fetchOffsetPages } from '../../src/venues/paging.js'
import { mapGammaEvent } from '../../src/venues/venuep/map-catalog.js'
import type { GammaEvent } from '../../src/venues/venuep/wire.js'
import { createVenuepAdapter } from '../../src/venues/venuep/adapter.js'
import type { FeedEvent } from '../../src/venues/types.js'
import { mapVenuekEvent } from '../../src/venues/venuek/map-catalog.js'
import type { KEvent } from '../../src/venues/venuek/wire.js'

/**
 * Against the REAL venues (internet). They check that the adapters still read the live wire formats. Run with
 * `npm run test:live` (sets RUN_LIVE_TESTS=1). `npm test` collects this file too, so the run reports these tests as
 * skipped, with the reason, instead of leaving them out unmentioned; without RUN_LIVE_TESTS they never touch the
 * network.
 */
const skip =
  process.env.RUN_LIVE_TESTS === '1'
    ? undefined
    : 'RUN_LIVE_TESTS is not set (npm run test:live runs the live venue tests, over the internet)'
const config = loadConfig({ env: { VENUES: 'live' } })
const links = { eventUrl: (s: string) => s }

test(
  'venuep: Gamma open events map into the model, and the market channel sends books for them',
  { skip },
  async () => {
    const gamma = new HttpClient({ baseUrl: config.venues.venuep.gammaUrl, timeoutMs: 15_000 })
    const raw = await fetchOffsetPages(
      (offset, limit) =>
        gamma.getJson<GammaEvent[]>('/events', { closed: 'false', limit, offset, order: 'id', ascending: 'false' }),
      { pageSize: 50, maxItems: 50, concurrency: 1 },
    )
    const events = raw.items.map((e) => mapGammaEvent(e, links)).filter((e) => e !== undefined)
    assert.ok(events.length > 10)
    const tokens = events
      .flatMap((e) =>
        e.markets.flatMap((m) => m.outcomes.filter((o) => o.status === 'active').map((o) => o.instrumentId)),
      )
      .slice(0, 20)
    const got: FeedEvent[] = []
    const adapter = createVenuepAdapter(config.venues.venuep, { clock: systemClock, log: silentLogger })
    const feed = adapter.createFeed((evs) => got.push(...evs))
    feed.setInstruments(tokens)
    const deadline = Date.now() + 15_000
    while (got.filter((e) => e.type === 'snapshot').length < tokens.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200))
    feed.close()
    assert.ok(
      got.some((e) => e.type === 'snapshot'),
      'at least one live book arrived',
    )
  },
)

test('venuek: open events with nested markets map into the model', { skip }, async () => {
  const rest = new HttpClient({ baseUrl: config.venues.venuek.restUrl, timeoutMs: 15_000 })
  const body = await rest.getJson<{ events: KEvent[] }>('/events', {
    status: 'open',
    with_nested_markets: true,
    limit: 50,
  })
  const events = body.events.map((e) => mapVenuekEvent(e, new Map(), links)).filter((e) => e !== undefined)
  assert.ok(events.length > 10)
  assert.ok(
    events.every((e) =>
      e.markets[0]!.outcomes.every(
        (o) => o.catalogBestBid === undefined || (o.catalogBestBid > 0 && o.catalogBestBid < 1),
      ),
    ),
  )
})
