import assert from 'node:assert/strict'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { after, before, describe, test } from 'node:test'
import { VENUES } from '../../src/venues/index.js'
import { eventOn } from '../../src/views/event-directory.js'
import { THIRD_VENUE, THIRD_VENUE_ID } from '../fixtures/third-venue/module.js'
import { startThirdVenuePeer, type PeerEvent, type ThirdVenuePeer } from '../fixtures/third-venue/peer.js'
import { ok } from '../helpers/api.js'
import { startTestService, TEST_ANCHOR_MS, type TestService } from '../helpers/service.js'
import { waitFor } from '../helpers/wait.js'

/**
 * A venue is a folder and one registry line: a third venue (test/fixtures/third-venue: a module with a tiny
 * adapter, and a peer serving its catalog and books over HTTP) is added to the registered ones and served beside
 * the two simulated venues, with no other change to the service.
 */
const DAY = 86_400_000

/** Listed on the third venue alone. */
const ONLY_HERE: PeerEvent = {
  id: 'only-1',
  title: 'Will the third venue list this question alone?',
  category: 'culture',
  createdAt: TEST_ANCHOR_MS - 10 * DAY,
  endTime: TEST_ANCHOR_MS + 30 * DAY,
  outcomes: [
    { id: 'only-1-alpha', title: 'Alpha', volume: 1_200, bid: 0.4, ask: 0.44 },
    { id: 'only-1-beta', title: 'Beta', volume: 800, bid: 0.5, ask: 0.54 },
  ],
}

let peer: ThirdVenuePeer
let s: TestService

before(async () => {
  peer = await startThirdVenuePeer()
  peer.events = [ONLY_HERE]
  peer.books.set('only-1-alpha', { bids: [[0.41, 100]], asks: [[0.45, 100]] })
  peer.books.set('only-1-beta', { bids: [[0.51, 100]], asks: [[0.55, 100]] })
  s = await startTestService({
    venues: [...VENUES, THIRD_VENUE],
    config: { venues: { [THIRD_VENUE_ID]: { url: peer.url } } },
  })
})

after(async () => {
  await s?.close()
  await peer?.close()
})

describe('a third venue from the registry', () => {
  test('its markets are in GET /api/v2/events, its event detail and /readyz', async () => {
    assert.ok(
      (peer.served.get('/catalog') ?? 0) >= 1 && (peer.served.get('/books') ?? 0) >= 1,
      'the service read the peer',
    )
    const rows = await ok<{ events: Record<string, unknown>[]; total: number }>(
      s,
      'listEvents',
      `/api/v2/events?search=${encodeURIComponent('third venue list')}&status=all`,
    )
    assert.deepEqual(rows.events, [
      {
        event_slug: 't-only-1',
        title: ONLY_HERE.title,
        category: 'culture',
        status: 'active',
        // The book's midpoint (0.51 / 0.55), the venue's probability rule; Beta leads.
        leading_outcome: { title: 'Beta', probability: 0.53, platform: THIRD_VENUE_ID, outcome_id: 'only-1-beta' },
        volume_total: 2_000,
        volume_24h: null,
        platform_count: 1,
        platforms: [THIRD_VENUE_ID],
        end_time: new Date(ONLY_HERE.endTime).toISOString().replace('Z', ''),
        created_at: new Date(ONLY_HERE.createdAt).toISOString().replace('Z', ''),
        updated_at: new Date(ONLY_HERE.createdAt).toISOString().replace('Z', ''),
      },
    ])
    assert.equal(rows.total, 1)

    // The detail has one `venues` key per registered venue, in registry order; only the third lists this event.
    const detail = await ok<{ venues: Record<string, { event_id: string; markets: { market_id: string }[] } | null> }>(
      s,
      'getEvent',
      '/api/v2/events/t-only-1',
    )
    assert.deepEqual(Object.keys(detail.venues), [...VENUES.map((v) => v.id), THIRD_VENUE_ID])
    assert.deepEqual(
      Object.entries(detail.venues).map(([venue, e]) => [
        venue,
        e?.event_id ?? null,
        e?.markets.map((m) => m.market_id) ?? null,
      ]),
      [...VENUES.map((v) => [v.id, null, null]), [THIRD_VENUE_ID, 'only-1', ['only-1']]],
    )

    const ready = (await (await fetch(`${s.baseUrl}/readyz`)).json()) as {
      status: string
      venues: Record<
        string,
        {
          ready: boolean
          catalog: { events: number; markets: number; outcomes: number }
          books: Record<string, number>
        }
      >
    }
    assert.equal(ready.status, 'ready')
    assert.deepEqual(Object.keys(ready.venues), [...VENUES.map((v) => v.id), THIRD_VENUE_ID])
    const third = ready.venues[THIRD_VENUE_ID]!
    assert.deepEqual(
      [third.ready, third.catalog.events, third.catalog.markets, third.catalog.outcomes, third.books],
      [true, 1, 1, 2, { instruments: 2, synced: 2, stale: 0 }],
    )
  })

  test('an event it shares with a simulated venue is one service event, and its pairs are in GET /api/v2/spreads', async () => {
    // The third venue lists a question the simulated venues both list: a copy of the second venue's event.
    const linked = s.app.models.directory()!.events.find((e) => e.platforms.length === 2 && e.status === 'active')!
    const [first, second] = VENUES.map((v) => eventOn(linked, v.id)!)
    const shared: PeerEvent = {
      id: `copy-${second!.eventId}`,
      title: second!.title,
      category: second!.category,
      createdAt: second!.createdAt ?? TEST_ANCHOR_MS - DAY,
      endTime: second!.endTime ?? TEST_ANCHOR_MS + DAY,
      details: second!.details,
      outcomes: second!.markets.flatMap((m) =>
        m.outcomes.map((o) => ({
          id: `copy-${o.outcomeId}`,
          title: o.title,
          volume: o.volume ?? 1_000,
          bid: 0.3,
          ask: 0.34,
          closeTime: o.closeTime,
          strike: o.strike,
          details: o.details,
        })),
      ),
    }
    peer.events = [ONLY_HERE, shared]
    for (const o of shared.outcomes) peer.books.set(o.id, { bids: [[0.3, 500]], asks: [[0.34, 500]] })
    const actor = s.app.venues[THIRD_VENUE_ID]!
    const version = actor.venueStatus().catalog.version
    s.clock.increment(60_000)
    await waitFor(
      () => actor.venueStatus().catalog.version > version && actor.ready,
      10_000,
      'the third venue refreshed its catalog',
    )
    await waitFor(
      () =>
        s.app.matching.settled &&
        s.app.models.settled &&
        s.app.spreads.ready &&
        eventOn(s.app.models.directory()?.bySlug(linked.slug), THIRD_VENUE_ID) !== undefined,
      10_000,
      'the shared event linked',
    )

    const detail = await ok<{ event_slug: string; platforms: string[]; aliases: string[] }>(
      s,
      'getEvent',
      `/api/v2/events/${linked.slug}`,
    )
    assert.deepEqual(
      [detail.event_slug, detail.platforms],
      [linked.slug, [first!.venue, second!.venue, THIRD_VENUE_ID]],
    )
    assert.ok(detail.aliases.includes(`t-${shared.id}`), "the third venue's own slug resolves to the shared event")

    // Its pairs: one with each simulated venue on the shared event, each under that venue's slug for the event
    // (leg A's: the earlier registered venue), a pair oriented by price (platform A is the cheaper side).
    const res = await fetch(`${s.baseUrl}/api/v2/spreads?min_spread=0&min_volume=0&limit=1000`, {
      headers: s.authHeaders,
    })
    assert.equal(res.status, 200)
    const body = (await res.json()) as {
      data: { event_slug: string; platform_a: string; platform_b: string; outcome_key: string }[]
    }
    // The served OpenAPI document describes its rows: the third venue is a `platform` value with `match` keys of its own.
    type SchemaNode = { properties: Record<string, SchemaNode>; items: SchemaNode; enum?: string[] }
    const doc = (await (await fetch(`${s.baseUrl}/api/v2/openapi.json`, { headers: s.authHeaders })).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: SchemaNode }> }> } }>
    }
    const scanSchema = doc.paths['/api/v2/spreads']!.get.responses['200']!.content['application/json']!.schema
    assert.deepEqual(scanSchema.properties.data!.items.properties.platform_a!.enum, [
      ...VENUES.map((v) => v.id),
      THIRD_VENUE_ID,
    ])
    const ajv = new Ajv({ strict: false, allErrors: true })
    addFormatsModule.default(ajv)
    const validate = ajv.compile(scanSchema)
    assert.ok(validate(body), JSON.stringify(validate.errors?.slice(0, 5)))
    const withThird = body.data.filter((r) => r.platform_a === THIRD_VENUE_ID || r.platform_b === THIRD_VENUE_ID)
    const venuePairs = new Set(withThird.map((r) => [r.platform_a, r.platform_b].sort().join('|')))
    assert.deepEqual(venuePairs, new Set(VENUES.map((v) => [v.id, THIRD_VENUE_ID].sort().join('|'))))
    for (const r of withThird) {
      const other = r.platform_a === THIRD_VENUE_ID ? r.platform_b : r.platform_a
      assert.equal(
        eventOn(s.app.models.directory()?.bySlug(r.event_slug), other)?.eventId,
        eventOn(linked, other)?.eventId,
        `${r.event_slug} is the shared event`,
      )
      // Pairs of venues after the first pair qualify their outcome keys, so every gap has a key of its own.
      assert.ok(r.outcome_key.endsWith(`@${other}+${THIRD_VENUE_ID}`), r.outcome_key)
    }
  })
})
