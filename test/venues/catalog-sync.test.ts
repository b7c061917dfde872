import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { decodeCatalogFileSteps, readCatalogBytes, writeCatalogFile } from '../../src/actors/catalog-file.js'
import { buildCatalogSnapshot, catalogSnapshotSteps } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import type { Config } from '../../src/config/schema.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { runInSlices, runToEnd } from '../../src/core/slices.js'
import type { Catalog, CatalogEvent } from '../../src/model/types.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { HttpClient, type QueryValue } from '../../src/venues/http-client.js'
import { createVenuekAdapter } from '../../src/venues/venuek/adapter.js'
import { fetchVenuekCatalog } from '../../src/venues/venuek/catalog.js'
import { mapVenuekEvent } from '../../src/venues/venuek/map-catalog.js'
import type { KEvent, KSeries } from '../../src/venues/venuek/wire.js'
import { createVenuepAdapter } from '../../src/venues/venuep/adapter.js'
import { venuekOf } from '../../src/sim/venuek/state.js'
import { mapGammaEvent } from '../../src/venues/venuep/map-catalog.js'
import type { GammaEvent } from '../../src/venues/venuep/wire.js'
import { TEST_ANCHOR_MS } from '../helpers/service.js'

/**
 * Catalog sync maps each page as it arrives, in slices, and builds the snapshot in slices. The result must be
 * exactly what mapping every raw event at the end and building the snapshot in one go gives: the references here
 * fetch the same raw pages from the simulator and map them the old way. Small pages make many page boundaries.
 */
const DAY_MS = 86_400_000
let sim: Simulator
let config: Config
const clock = new SimulatedClock(TEST_ANCHOR_MS)
const ctx = { clock, log: silentLogger }
const signal = new AbortController().signal

before(async () => {
  const base = loadConfig({ env: { NODE_ENV: 'test' } })
  sim = await startSimulator({
    config: { ...base.sim, questions: 400, venuekAuth: false },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  config = {
    ...base,
    venues: {
      ...base.venues,
      venuep: {
        ...base.venues.venuep,
        gammaUrl: sim.venuep.urls.gamma,
        catalog: { ...base.venues.venuep.catalog, pageSize: 7 },
      },
      venuek: {
        ...base.venues.venuek,
        restUrl: sim.venuek.urls.rest,
        wsUrl: sim.venuek.urls.ws,
        catalog: { ...base.venues.venuek.catalog, pageSize: 9 },
      },
    },
  }
})

after(async () => {
  await sim?.close()
})

/** Every raw page of a Gamma listing, offset paging until a short page. */
async function gammaPages(query: Record<string, string>): Promise<GammaEvent[]> {
  const gamma = new HttpClient({ baseUrl: sim.venuep.urls.gamma, timeoutMs: 10_000 })
  const out: GammaEvent[] = []
  const size = config.venues.venuep.catalog.pageSize
  for (let offset = 0; ; offset += size) {
    const page = await gamma.getJson<GammaEvent[]>('/events', {
      limit: size,
      offset,
      order: 'id',
      ascending: true,
      ...query,
    })
    out.push(...page)
    if (page.length < size) return out
  }
}

async function venuekPages(status: string, extra: Record<string, string | number>): Promise<KEvent[]> {
  const rest = new HttpClient({ baseUrl: sim.venuek.urls.rest, timeoutMs: 10_000 })
  const out: KEvent[] = []
  let cursor: string | undefined
  for (;;) {
    const body = await rest.getJson<{ events?: KEvent[] | null; cursor?: string | null }>('/events', {
      limit: config.venues.venuek.catalog.pageSize,
      status,
      with_nested_markets: true,
      cursor,
      ...extra,
    })
    out.push(...(body.events ?? []))
    if (!body.cursor || (body.events ?? []).length === 0) return out
    cursor = body.cursor
  }
}

/** The raw size of each page of a venuek listing, as the adapter's cursor paging reads it. */
async function venuekPageSizes(status: string, extra: Record<string, string | number>): Promise<number[]> {
  const rest = new HttpClient({ baseUrl: sim.venuek.urls.rest, timeoutMs: 10_000 })
  const sizes: number[] = []
  let cursor: string | undefined
  for (;;) {
    const body = await rest.getJson<{ events?: KEvent[] | null; cursor?: string | null }>('/events', {
      limit: config.venues.venuek.catalog.pageSize,
      status,
      with_nested_markets: true,
      cursor,
      ...extra,
    })
    sizes.push((body.events ?? []).length)
    if (!body.cursor || (body.events ?? []).length === 0) return sizes
    cursor = body.cursor
  }
}

/** venuep's raw listings (open, then closed within the lookback) and the catalog events mapping them at the end gives. */
async function venuepReference(): Promise<{
  open: GammaEvent[]
  closed: GammaEvent[]
  expected: (raw: readonly GammaEvent[]) => CatalogEvent[]
}> {
  const c = config.venues.venuep
  const links = { eventUrl: (slug: string) => c.eventUrlTemplate.replace('{slug}', encodeURIComponent(slug)) }
  const open = await gammaPages({ closed: 'false' })
  const closed = await gammaPages({
    closed: 'true',
    end_date_min: new Date(clock.now() - c.catalog.closedLookbackDays * DAY_MS).toISOString(),
  })
  const expected = (raw: readonly GammaEvent[]) => {
    const events = new Map<string, CatalogEvent>()
    for (const e of raw) {
      const mapped = mapGammaEvent(e, links)
      if (mapped !== undefined) events.set(mapped.eventId, mapped)
    }
    return [...events.values()]
  }
  return { open, closed, expected }
}

/** venuek's raw listings (open, then closed and settled within the lookback) and the catalog events mapping them at the end gives. */
async function venuekReference(): Promise<{
  open: KEvent[]
  closed: KEvent[]
  expected: (raw: readonly KEvent[]) => CatalogEvent[]
}> {
  const c = config.venues.venuek
  const links = { eventUrl: (t: string) => c.eventUrlTemplate.replace('{event_ticker}', encodeURIComponent(t)) }
  const rest = new HttpClient({ baseUrl: sim.venuek.urls.rest, timeoutMs: 10_000 })
  const series = new Map<string, KSeries>()
  for (const s of (await rest.getJson<{ series?: KSeries[] | null }>('/series')).series ?? [])
    if (s.ticker !== undefined) series.set(s.ticker, s)
  const minCloseTs = Math.floor((clock.now() - c.catalog.closedLookbackDays * DAY_MS) / 1000)
  const open = await venuekPages('open', {})
  const closed = [
    ...(await venuekPages('closed', { min_close_ts: minCloseTs })),
    ...(await venuekPages('settled', { min_close_ts: minCloseTs })),
  ]
  const expected = (raw: readonly KEvent[]) => {
    const events = new Map<string, CatalogEvent>()
    for (const e of raw) {
      if (e.event_ticker !== undefined && events.has(e.event_ticker)) continue
      const mapped = mapVenuekEvent(e, series, links)
      if (mapped !== undefined) events.set(mapped.eventId, mapped)
    }
    return [...events.values()]
  }
  return { open, closed, expected }
}

describe('catalog sync in slices', () => {
  test('venuep: per-page mapping gives the catalog that mapping every raw event at the end gives', async () => {
    const c = config.venues.venuep
    const { open, closed, expected } = await venuepReference()
    const raw = [...open, ...closed]
    const got = await createVenuepAdapter(c, ctx).fetchCatalog(signal)
    assert.ok(raw.length > 5 * c.catalog.pageSize, `many pages (${raw.length} events)`)
    assert.deepEqual(got, {
      venue: 'venuep',
      events: expected(raw),
      fetchedAt: clock.now(),
      mapping: { mapped: raw.length, reused: 0, unparsed: 0, pagesReused: 0 },
    })
  })

  test('venuek: per-page mapping gives the catalog that mapping every raw event at the end gives', async () => {
    const c = config.venues.venuek
    const { open, closed, expected } = await venuekReference()
    const raw = [...open, ...closed]
    const got = await createVenuekAdapter(c, ctx).fetchCatalog(signal)
    assert.ok(raw.length > 5 * c.catalog.pageSize, `many pages (${raw.length} events)`)
    assert.deepEqual(got, {
      venue: 'venuek',
      events: expected(raw),
      fetchedAt: clock.now(),
      mapping: { mapped: raw.length, reused: 0, unparsed: 0, pagesReused: 0 },
    })
  })

  test('a snapshot built in slices (a turn at every checkpoint) equals one built in one go', async () => {
    for (const catalog of [
      await createVenuepAdapter(config.venues.venuep, ctx).fetchCatalog(signal),
      await createVenuekAdapter(config.venues.venuek, ctx).fetchCatalog(signal),
    ] as Catalog[]) {
      assert.deepEqual(await runInSlices(catalogSnapshotSteps(catalog, 3), 0), buildCatalogSnapshot(catalog, 3))
    }
  })
})

/**
 * Catalog progress (/readyz `catalog.loading`, the first sync's log lines): every page the adapters read is reported
 * with its list and its raw size, so the counts shown are the venue's, not a guess.
 */
describe('a refresh maps only what changed (mapped-records.ts)', () => {
  test('venuep: a second sync of an unchanged venue gives back every event object of the first', async () => {
    const adapter = createVenuepAdapter(config.venues.venuep, ctx)
    const first = await adapter.fetchCatalog(signal)
    const second = await adapter.fetchCatalog(signal)
    assert.ok(first.events.length > 100)
    assert.equal(second.events.length, first.events.length)
    assert.ok(
      second.events.every((e, i) => e === first.events[i]),
      'the same objects, in the same order',
    )
    // Every page came back with the bytes of the first sync's: none was parsed, no event mapped.
    assert.deepEqual([second.mapping?.mapped, second.mapping?.reused], [0, first.mapping?.mapped])
    assert.ok(
      (second.mapping?.pagesReused ?? 0) >= Math.floor(first.events.length / config.venues.venuep.catalog.pageSize),
    )
  })

  test('venuek: a page whose bytes did not change is not parsed again; the one page with an edit is', async () => {
    const adapter = createVenuekAdapter(config.venues.venuek, ctx)
    const first = await adapter.fetchCatalog(signal)
    const unchanged = await adapter.fetchCatalog(signal)
    const pages = unchanged.mapping?.pagesReused ?? 0
    const all = first.mapping?.mapped
    assert.deepEqual(unchanged.mapping, { mapped: 0, reused: all, unparsed: all, pagesReused: pages })
    assert.ok(pages > 5, `${pages} pages`)
    assert.ok(unchanged.events.every((e, i) => e === first.events[i]))
    const listing = venuekOf(sim.world).events
    const last = listing.length - 1
    const original = listing[last]!
    listing[last] = { ...original, title: `${original.title} (edited)` }
    try {
      const edited = await adapter.fetchCatalog(signal)
      // The edited page's other events are told unchanged by their bytes: only the edited one is parsed and mapped.
      const reused = (first.mapping?.mapped ?? 0) - 1
      assert.deepEqual(edited.mapping, { mapped: 1, reused, unparsed: reused, pagesReused: pages - 1 })
      const { open, closed, expected } = await venuekReference()
      assert.deepEqual(edited.events, expected([...open, ...closed]), 'what mapping everything gives')
    } finally {
      listing[last] = original
    }
  })

  test('venuek: one event renamed at the venue is mapped again, one delisted is gone, the rest are the same objects', async () => {
    const adapter = createVenuekAdapter(config.venues.venuek, ctx)
    const first = await adapter.fetchCatalog(signal)
    const listing = venuekOf(sim.world).events
    const renamedAt = 3
    const original = listing[renamedAt]!
    const delisted = listing[5]!
    listing[renamedAt] = { ...original, title: `${original.title} (renamed)` }
    listing.splice(5, 1)
    try {
      const second = await adapter.fetchCatalog(signal)
      // Every page after the delisted event shifted by one: its events are found by their bytes, none parsed but
      // the renamed one (every raw event of the first sync but those two).
      const reused = (first.mapping?.mapped ?? 0) - 2
      assert.deepEqual([second.mapping?.mapped, second.mapping?.reused, second.mapping?.unparsed], [1, reused, reused])
      // The reference: every raw event of this listing mapped afresh.
      const { open, closed, expected } = await venuekReference()
      assert.deepEqual(second.events, expected([...open, ...closed]), 'what mapping everything gives')
      const before = new Map(first.events.map((e) => [e.eventId, e]))
      const changed = second.events.filter((e) => before.get(e.eventId) !== e).map((e) => e.eventId)
      assert.deepEqual(changed, [original.eventTicker], 'only the renamed event is a new object')
      assert.equal(second.events.find((e) => e.eventId === original.eventTicker)?.title, `${original.title} (renamed)`)
      assert.equal(
        second.events.some((e) => e.eventId === delisted.eventTicker),
        false,
      )
      assert.equal(second.events.length, first.events.length - 1)
    } finally {
      listing[renamedAt] = original
      listing.splice(5, 0, delisted)
    }
    // Back as it was: the renamed event maps again (its first content was dropped when the second sync committed).
    const third = await adapter.fetchCatalog(signal)
    assert.deepEqual(third.events, first.events)
  })
})

describe('a restart: the catalog file seeds the first listing (mapped-records.ts seed)', () => {
  /** The catalog as a restart reads it: written to its file and decoded back (new objects, equal content). */
  async function throughFile(catalog: Catalog): Promise<Catalog> {
    const path = join(mkdtempSync(join(tmpdir(), 'seed-')), `${catalog.venue}.jsonl`)
    try {
      await writeCatalogFile(path, catalog, 'source')
      const read = runToEnd(decodeCatalogFileSteps(await readCatalogBytes(path), catalog.venue, 'source'))
      assert.ok(read.ok)
      return read.catalog
    } finally {
      rmSync(dirname(path), { recursive: true, force: true })
    }
  }

  for (const [venue, create] of [
    ['venuep', () => createVenuepAdapter(config.venues.venuep, ctx)],
    ['venuek', () => createVenuekAdapter(config.venues.venuek, ctx)],
  ] as const) {
    test(`${venue}: a venue unchanged since the file gives back the file's own event objects; nothing is mapped anew`, async () => {
      const onFile = await throughFile(await create().fetchCatalog(signal))
      const restarted = create()
      restarted.seedCatalog?.(onFile)
      const listed = await restarted.fetchCatalog(signal)
      assert.equal(listed.events.length, onFile.events.length)
      assert.ok(
        listed.events.every((e, i) => e === onFile.events[i]),
        'the same objects, in the same order',
      )
      assert.equal(listed.mapping?.mapped, 0)
      // Confirmed once by content: the next listing finds them by fingerprint as usual.
      assert.equal((await restarted.fetchCatalog(signal)).mapping?.mapped, 0)
    })
  }

  test('venuek: an event the venue changed meanwhile, and one the running code maps otherwise, are mapped anew', async () => {
    const onFile = await throughFile(await createVenuekAdapter(config.venues.venuek, ctx).fetchCatalog(signal))
    // A record the last release mapped differently (here: a title it read otherwise) is not trusted.
    const remapped = onFile.events[2]!
    const seeded = { ...onFile, events: onFile.events.map((e) => (e === remapped ? { ...e, title: 'old code' } : e)) }
    const listing = venuekOf(sim.world).events
    const at = listing.findIndex((e) => e.eventTicker === onFile.events[4]!.eventId)
    const original = listing[at]!
    listing[at] = { ...original, title: `${original.title} (renamed while down)` }
    try {
      const restarted = createVenuekAdapter(config.venues.venuek, ctx)
      restarted.seedCatalog?.(seeded)
      const listed = await restarted.fetchCatalog(signal)
      const { open, closed, expected } = await venuekReference()
      assert.deepEqual(listed.events, expected([...open, ...closed]), 'what mapping everything gives')
      const fresh = listed.events.filter((e, i) => e !== seeded.events[i]).map((e) => e.eventId)
      assert.deepEqual(fresh.sort(), [remapped.eventId, original.eventTicker].sort())
      assert.equal(listed.mapping?.mapped, 2)
    } finally {
      listing[at] = original
    }
  })
})

describe('catalog progress: every page reported', () => {
  type Page = readonly [list: string, events: number]
  const recorder = () => {
    const pages: Page[] = []
    return { pages, progress: { page: (list: string, events: number) => void pages.push([list, events]) } }
  }

  test('venuek: each cursor page of open, closed and settled, each list in its order, with its raw event count', async () => {
    const c = config.venues.venuek
    const minCloseTs = Math.floor((clock.now() - c.catalog.closedLookbackDays * DAY_MS) / 1000)
    const expected: Page[] = []
    for (const [status, extra] of [
      ['open', {}],
      ['closed', { min_close_ts: minCloseTs }],
      ['settled', { min_close_ts: minCloseTs }],
    ] as const) {
      for (const size of await venuekPageSizes(status, extra)) expected.push([status, size])
    }
    const { pages, progress } = recorder()
    await createVenuekAdapter(c, ctx).fetchCatalog(signal, progress)
    assert.ok(expected.length > 10, `many pages (${expected.length})`)
    // The three lists are paged side by side: their pages interleave, each list's in its own cursor order.
    const inList = (all: readonly Page[], list: string) => all.filter(([l]) => l === list)
    for (const list of ['open', 'closed', 'settled'])
      assert.deepEqual(inList(pages, list), inList(expected, list), list)
    assert.equal(pages.length, expected.length)
  })

  test('venuep: every offset page of open and closed (pages fetched 4 at a time, so past the end too: empty)', async () => {
    const c = config.venues.venuep
    const { open, closed } = await venuepReference()
    const { pages, progress } = recorder()
    await createVenuepAdapter(c, ctx).fetchCatalog(signal, progress)
    const total = (list: string) => pages.filter(([l]) => l === list).reduce((n, [, e]) => n + e, 0)
    assert.deepEqual([total('open'), total('closed')], [open.length, closed.length])
    for (const [list, n] of [
      ['open', open.length],
      ['closed', closed.length],
    ] as const) {
      const sizes = pages.filter(([l]) => l === list).map(([, e]) => e)
      const full = Math.floor(n / c.catalog.pageSize)
      // Completed in any order; as a multiset: the full pages, the short last one, and empty ones past the end (the one
      // that ends a listing of whole pages, and up to 3 more already in flight).
      assert.deepEqual(
        sizes.filter((e) => e > 0).sort((a, b) => b - a),
        [...Array(full).fill(c.catalog.pageSize), ...(n % c.catalog.pageSize > 0 ? [n % c.catalog.pageSize] : [])],
      )
      assert.ok(sizes.filter((e) => e === 0).length <= 4, `${list}: ${sizes.length} pages`)
    }
    assert.ok(
      pages.findLastIndex(([l]) => l === 'open') < pages.findIndex(([l]) => l === 'closed'),
      'every open page before the first closed one',
    )
  })
})

/**
 * The `maxEvents` guard counts raw events listed (open first, then the closed lookback). A catalog that stops at it
 * while the venue listed more says so in `truncation` (and which listing was cut); one that fits, even exactly,
 * carries no `truncation`. The events are the first `maxEvents` raw events, mapped.
 */
describe('the maxEvents guard', () => {
  /** Guards around the open/closed boundary and the end of the listing, with what each must give. */
  function cases(openCount: number, total: number): { maxEvents: number; cut: 'open' | 'closed' | undefined }[] {
    return [
      { maxEvents: total + 1, cut: undefined },
      { maxEvents: total, cut: undefined },
      { maxEvents: total - 1, cut: 'closed' },
      // The open list fills the guard exactly: the closed lookback is still probed, and its events were cut.
      { maxEvents: openCount, cut: 'closed' },
      { maxEvents: openCount - 1, cut: 'open' },
      { maxEvents: 1, cut: 'open' },
    ]
  }

  test('venuep: truncation is reported exactly when events were cut, for the open list and for the closed lookback', async () => {
    const { open, closed, expected } = await venuepReference()
    assert.ok(open.length > 10 && closed.length > 0, `open and closed events (${open.length}, ${closed.length})`)
    const raw = [...open, ...closed]
    for (const { maxEvents, cut } of cases(open.length, raw.length)) {
      const c = { ...config.venues.venuep, catalog: { ...config.venues.venuep.catalog, maxEvents } }
      // What was mapped is the reuse's concern (the tests above); what was listed is this one's.
      const { mapping: _mapping, ...got } = await createVenuepAdapter(c, ctx).fetchCatalog(signal)
      const want = {
        venue: 'venuep',
        events: expected(raw.slice(0, maxEvents)),
        fetchedAt: clock.now(),
        ...(cut === undefined ? {} : { truncation: { maxEvents, cut } }),
      }
      assert.deepEqual(got, want, `maxEvents ${maxEvents}`)
    }
  })

  test('venuek: truncation is reported exactly when events were cut, for the open list and for the closed lookback', async () => {
    const { open, closed, expected } = await venuekReference()
    assert.ok(open.length > 10 && closed.length > 0, `open and closed events (${open.length}, ${closed.length})`)
    const raw = [...open, ...closed]
    for (const { maxEvents, cut } of cases(open.length, raw.length)) {
      const c = { ...config.venues.venuek, catalog: { ...config.venues.venuek.catalog, maxEvents } }
      // What was mapped is the reuse's concern (the tests above); what was listed is this one's.
      const { mapping: _mapping, ...got } = await createVenuekAdapter(c, ctx).fetchCatalog(signal)
      const want = {
        venue: 'venuek',
        events: expected(raw.slice(0, maxEvents)),
        fetchedAt: clock.now(),
        ...(cut === undefined ? {} : { truncation: { maxEvents, cut } }),
      }
      assert.deepEqual(got, want, `maxEvents ${maxEvents}`)
    }
  })
})

describe("venuek's lists side by side", () => {
  test('venuek: the open, closed and settled lists are paged side by side, request starts spaced at readsPerSecond', async () => {
    const readsPerSecond = 100
    const c = { ...config.venues.venuek, catalog: { ...config.venues.venuek.catalog, readsPerSecond } }
    const { open, closed, expected } = await venuekReference()
    const starts: { list: string; at: number }[] = []
    const rest = new (class extends HttpClient {
      override getBytes(path: string, query?: Readonly<Record<string, QueryValue>>, s?: AbortSignal) {
        starts.push({ list: path === '/series' ? 'series' : String(query?.status), at: performance.now() })
        return super.getBytes(path, query, s)
      }
    })({ baseUrl: sim.venuek.urls.rest, timeoutMs: 10_000 })
    const links = { eventUrl: (t: string) => c.eventUrlTemplate.replace('{event_ticker}', encodeURIComponent(t)) }
    const got = await fetchVenuekCatalog(rest, c, links, clock, signal)
    assert.deepEqual(got.events, expected([...open, ...closed]), 'the same catalog as the lists read one after another')
    const lists = starts.map((s) => s.list)
    const pagesOf = (list: string) => lists.filter((l) => l === list).length
    assert.ok(pagesOf('open') > 3 && pagesOf('closed') > 0 && pagesOf('settled') > 0, lists.join(' '))
    // Side by side: the closed and settled lists start before the open list's last page, not after it.
    assert.ok(lists.indexOf('closed') < lists.lastIndexOf('open'), lists.join(' '))
    assert.ok(lists.indexOf('settled') < lists.lastIndexOf('open'), lists.join(' '))
    // Never faster than the pace. The pacer grants start times one interval apart; a request can leave a little after
    // its grant (the event loop was mapping a page), so two may leave closer together than that, but never more of
    // them in a window than the pace allows, give or take one at each end (1 ms of timer granularity allowed).
    const intervalMs = 1000 / readsPerSecond
    const at = starts.map((s) => s.at)
    assert.ok(
      at.at(-1)! - at[0]! >= (at.length - 1) * intervalMs - 1,
      `${at.length} starts in ${at.at(-1)! - at[0]!} ms`,
    )
    for (let i = 0; i < at.length; i++) {
      const inWindow = at.filter((t) => t >= at[i]! && t < at[i]! + 50).length
      assert.ok(inWindow <= 50 / intervalMs + 2, `${inWindow} starts in the 50 ms from start ${i}`)
    }
  })

  test('venuek: a list that fails stops the others, and the sync fails with its error', async () => {
    const c = { ...config.venues.venuek, catalog: { ...config.venues.venuek.catalog, readsPerSecond: 100 } }
    const lists: string[] = []
    const rest = new (class extends HttpClient {
      override getBytes(path: string, query?: Readonly<Record<string, QueryValue>>, s?: AbortSignal) {
        const list = path === '/series' ? 'series' : String(query?.status)
        lists.push(list)
        // Not retryable: the sync fails at once.
        if (list === 'closed') return Promise.reject(new Error('closed list refused'))
        return super.getBytes(path, query, s)
      }
    })({ baseUrl: sim.venuek.urls.rest, timeoutMs: 10_000 })
    const links = { eventUrl: (t: string) => c.eventUrlTemplate.replace('{event_ticker}', encodeURIComponent(t)) }
    await assert.rejects(fetchVenuekCatalog(rest, c, links, clock, signal), /closed list refused/)
    const atFailure = lists.length
    await new Promise((resolve) => setTimeout(resolve, 200))
    const { open } = await venuekReference()
    const openPages = Math.ceil(open.length / c.catalog.pageSize)
    assert.ok(openPages > 5, `the open list has pages left (${openPages})`)
    assert.deepEqual(lists.slice(atFailure), [], 'no request after the failure')
    assert.ok(lists.filter((l) => l === 'open').length < openPages, lists.join(' '))
  })
})
