import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { allRows, assertOrdered, assertPagesTile, call, invalid, ok } from '../helpers/api.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { waitFor } from '../helpers/wait.js'

/** Cross-venue events (spec 4.4), the sitemap, and the published API description. */
type Row = {
  event_slug: string
  title: string
  status: string
  category: string
  platforms: string[]
  platform_count: number
  leading_outcome: { probability: number; platform: string } | null
  volume_total: number | null
}

let s: TestService

before(async () => {
  s = await startTestService({ questions: 80 })
  await waitFor(
    () =>
      s.app.models.collapsed() !== undefined &&
      s.app.models.view('venuep') !== undefined &&
      s.app.models.view('venuek') !== undefined,
  )
})

after(async () => {
  await s?.close()
})

describe('GET /api/v2/events', () => {
  test('one row per service event with platforms, leading outcome and aggregated volume', async () => {
    const page = await ok<{ events: Row[]; total: number }>(s, 'listEvents', '/api/v2/events?status=all&limit=100')
    const vp = (await ok<{ total: number }>(s, 'listVenuepEvents', '/api/v2/venuep/events?status=all&limit=1')).total
    const vk = (await ok<{ total: number }>(s, 'listVenuekEvents', '/api/v2/venuek/events?status=all&limit=1')).total
    const linked = s.app.matching.matches.length
    assert.ok(linked > 5, 'the matcher linked events listed on both venues')
    assert.equal(page.total, vp + vk - linked, 'a linked pair is one service event')
    const rows = await allRows<Row>(s, 'listEvents', '/api/v2/events?status=all', 'events')
    assert.equal(rows.filter((e) => e.platform_count === 2).length, linked, 'one two-platform row per linked pair')
    for (const e of page.events) {
      assert.equal(e.platform_count, e.platforms.length)
      assert.ok(
        e.leading_outcome === null || (e.leading_outcome.probability >= 0 && e.leading_outcome.probability <= 1),
      )
    }
    assertOrdered(page.events, 'volume_total', 'desc', 'event_slug')
  })

  test('the leading outcome is the open outcome with the highest probability', async () => {
    const page = await ok<{ events: Row[] }>(s, 'listEvents', '/api/v2/events?limit=10')
    for (const e of page.events) {
      const detail = await ok<{
        venues: Record<string, { markets: { outcomes: { probability: number | null; status?: string }[] }[] } | null>
      }>(s, 'getEvent', `/api/v2/events/${e.event_slug}`)
      const probs = Object.values(detail.venues).flatMap(
        (v) => v?.markets.flatMap((m) => m.outcomes.map((o) => o.probability ?? -1)) ?? [],
      )
      assert.equal(e.leading_outcome?.probability, Math.max(...probs))
    }
  })

  test('filters, sorts in both orders, paging, validation', async () => {
    const page = { events: await allRows<Row>(s, 'listEvents', '/api/v2/events?status=all', 'events') }
    const cat = page.events[0]!.category
    const byCat = await ok<{ events: Row[]; total: number }>(
      s,
      'listEvents',
      `/api/v2/events?status=all&limit=100&category=${cat}`,
    )
    assert.equal(byCat.total, page.events.filter((e) => e.category === cat).length)
    const word = page.events[0]!.title.split(' ')[0]!
    const bySearch = {
      events: await allRows<Row>(
        s,
        'listEvents',
        `/api/v2/events?status=all&search=${encodeURIComponent(word.toUpperCase())}`,
        'events',
      ),
    }
    assert.deepEqual(
      bySearch.events.map((e) => e.event_slug).sort(),
      page.events
        .filter((e) => e.title.toLowerCase().includes(word.toLowerCase()))
        .map((e) => e.event_slug)
        .sort(),
    )
    for (const status of ['active', 'closed', 'resolved']) {
      const r = await ok<{ events: Row[] }>(s, 'listEvents', `/api/v2/events?status=${status}&limit=100`)
      assert.ok(r.events.every((e) => e.status === status))
    }
    for (const sort of ['volume', 'volume_24h', 'updated_at', 'end_time', 'created_at']) {
      for (const order of ['asc', 'desc'] as const) {
        const r = await ok<{ events: Row[] }>(
          s,
          'listEvents',
          `/api/v2/events?status=all&limit=100&sort=${sort}&order=${order}`,
        )
        assertOrdered(r.events, sort === 'volume' ? 'volume_total' : sort, order, 'event_slug')
      }
    }
    await assertPagesTile(s, 'listEvents', '/api/v2/events?status=active&sort=created_at', 'events', 'event_slug', 11)
    await invalid(s, 'listEvents', '/api/v2/events?limit=0&status=open&sort=liquidity', [
      ['query', 'limit'],
      ['query', 'status'],
      ['query', 'sort'],
    ])
  })
})

describe('GET /api/v2/events/{slug}', () => {
  test('an event listed on one venue, with its markets; unknown slug is 404', async () => {
    const linkedP = new Set(s.app.matching.matches.map((m) => m.a.eventId))
    const linkedK = new Set(s.app.matching.matches.map((m) => m.b.eventId))
    const p = (
      await allRows<{ event_slug: string; event_id: string }>(
        s,
        'listVenuepEvents',
        '/api/v2/venuep/events?status=all',
        'events',
      )
    ).find((e) => !linkedP.has(e.event_id))!
    const k = (
      await allRows<{ event_slug: string; event_id: string }>(
        s,
        'listVenuekEvents',
        '/api/v2/venuek/events?status=all',
        'events',
      )
    ).find((e) => !linkedK.has(e.event_id))!
    const dp = await ok<{
      event_slug: string
      platforms: string[]
      venues: { venuep: { event_id: string } | null; venuek: unknown }
    }>(s, 'getEvent', `/api/v2/events/${p.event_slug}`)
    assert.deepEqual(
      [dp.event_slug, dp.platforms, dp.venues.venuep?.event_id, dp.venues.venuek],
      [p.event_slug, ['venuep'], p.event_id, null],
    )
    const dk = await ok<{ event_slug: string; venues: { venuek: { event_id: string } | null } }>(
      s,
      'getEvent',
      `/api/v2/events/${k.event_slug}`,
    )
    assert.deepEqual([dk.event_slug, dk.venues.venuek?.event_id], [k.event_slug, k.event_id])
    assert.ok(k.event_slug.endsWith(k.event_id.toLowerCase()), 'venuek slugs end with the ticker, so they never change')
    const nf = await call(s, 'getEvent', '/api/v2/events/no-such-event')
    assert.deepEqual([nf.status, nf.body.code], [404, 'not_found'])
  })

  test('an event matched across venues: both venues, the venuep slug, and the venuek slug as an alias', async () => {
    const m = s.app.matching.matches.find((x) => x.strategy === 'event_key')!
    const kEvent = (
      await ok<{ events: { event_slug: string }[] }>(
        s,
        'listVenuekEvents',
        `/api/v2/venuek/events?status=all&event_ticker=${m.b.eventId}`,
      )
    ).events[0]!
    assert.equal(kEvent.event_slug, m.a.eventId, 'venuek records carry the shared service slug')
    const d = await ok<{
      event_slug: string
      platforms: string[]
      platform_count: number
      aliases: string[]
      venues: { venuep: { event_id: string } | null; venuek: { event_id: string } | null }
    }>(s, 'getEvent', `/api/v2/events/${m.a.eventId}`)
    assert.deepEqual(
      [d.event_slug, d.platforms, d.platform_count, d.venues.venuep?.event_id, d.venues.venuek?.event_id],
      [m.a.eventId, ['venuep', 'venuek'], 2, m.a.eventId, m.b.eventId],
    )
    assert.equal(d.aliases.length, 1)
    const viaAlias = await ok<{ event_slug: string }>(s, 'getEvent', `/api/v2/events/${d.aliases[0]}`)
    assert.equal(viaAlias.event_slug, m.a.eventId)
  })
})

describe('GET /api/v2/sitemap/events', () => {
  test('every event once, oldest first, routable; limit default and bounds', async () => {
    const all = await ok<{
      events: { event_slug: string; updated_at: string | null }[]
      total: number
      limit: number
      offset: number
    }>(s, 'listSitemapEvents', '/api/v2/sitemap/events')
    assert.equal(all.limit, 45_000)
    assert.equal(all.total, all.events.length)
    assert.equal(new Set(all.events.map((e) => e.event_slug)).size, all.total)
    const list = await ok<{ total: number }>(s, 'listEvents', '/api/v2/events?status=all&limit=1')
    assert.equal(all.total, list.total)
    const page = await ok<{ events: { event_slug: string }[] }>(
      s,
      'listSitemapEvents',
      '/api/v2/sitemap/events?limit=5&offset=10',
    )
    assert.deepEqual(
      page.events.map((e) => e.event_slug),
      all.events.slice(10, 15).map((e) => e.event_slug),
    )
    assert.equal((await call(s, 'getEvent', `/api/v2/events/${all.events[7]!.event_slug}`)).status, 200)
    await invalid(s, 'listSitemapEvents', '/api/v2/sitemap/events?limit=45001', [['query', 'limit']])
    await invalid(s, 'listSitemapEvents', '/api/v2/sitemap/events?limit=0&offset=-1', [
      ['query', 'limit'],
      ['query', 'offset'],
    ])
  })
})

describe('API description', () => {
  test('OpenAPI 3.1 at /api/v2/openapi.json, version 2.0.0, every API route documented; /docs renders', async () => {
    const doc = (await (await fetch(`${s.baseUrl}/api/v2/openapi.json`)).json()) as {
      openapi: string
      info: { version: string }
      paths: Record<string, Record<string, unknown>>
    }
    assert.match(doc.openapi, /^3\.1\./)
    assert.equal(doc.info.version, '2.0.0')
    for (const r of s.app.routes) {
      const path = r.path.replace(/:(\w+)/g, '{$1}')
      assert.ok(
        doc.paths[path]?.[r.method === 'del' ? 'delete' : r.method] !== undefined,
        `${r.method} ${path} documented`,
      )
    }
    const docs = await fetch(`${s.baseUrl}/docs`)
    assert.equal(docs.status, 200)
    assert.match(docs.headers.get('content-type') ?? '', /text\/html/)
    const html = await docs.text()
    assert.ok(html.includes('/api/v2/venuep/markets') && html.includes('/api/v2/sitemap/events'))
  })

  test('unknown routes are 404 with the error body', async () => {
    const r = await fetch(`${s.baseUrl}/api/v2/nope`)
    assert.equal(r.status, 404)
    assert.deepEqual(await r.json(), { detail: 'Not Found', code: 'not_found' })
  })
})
