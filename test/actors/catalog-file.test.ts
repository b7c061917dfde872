import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import {
  CATALOG_FILE_VERSION,
  decodeCatalogFileSteps,
  readCatalogBytes,
  writeCatalogFile,
} from '../../src/actors/catalog-file.js'
import { FILE_LISTING_DELAY_MS } from '../../src/actors/catalog-loader.js'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { createLogger } from '../../src/core/logger.js'
import { runToEnd } from '../../src/core/slices.js'
import type { Catalog } from '../../src/model/types.js'
import { replayedCatalogs } from '../helpers/catalogs.js'
import { bookSnapshot, GatedVenue } from '../helpers/gated-venue.js'
import { waitFor } from '../helpers/wait.js'

/**
 * The catalog file a restart starts from (src/actors/catalog-file.ts): the real catalogs round-trip exactly; a file
 * cut short, damaged, of another format version, venue or source is refused with its reason and never half-read;
 * and a venue actor with a file serves it at once, marked as read from the file, until the venue is listed.
 */
const SOURCE = 'https://gamma.example'
let real: { venuep: Catalog; venuek: Catalog }
let dir: string

before(async () => {
  const replayed = await replayedCatalogs()
  await replayed.sim.close()
  real = { venuep: replayed.venuep, venuek: replayed.venuek }
  dir = await mkdtemp(join(tmpdir(), 'catalog-file-'))
})

after(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

const decode = (bytes: Buffer | undefined, venue: 'venuep' | 'venuek' = 'venuep', source = SOURCE) =>
  runToEnd(decodeCatalogFileSteps(bytes, venue, source))

describe('the catalog file', () => {
  test('both real catalogs round-trip exactly (unknown values included)', async () => {
    for (const venue of ['venuep', 'venuek'] as const) {
      const path = join(dir, `${venue}.jsonl`)
      const catalog = real[venue]
      const written = await writeCatalogFile(path, catalog, SOURCE)
      const bytes = await readCatalogBytes(path)
      assert.equal(bytes?.length, written)
      const read = decode(bytes, venue)
      assert.ok(read.ok, read.ok ? '' : read.reason)
      const { mapping: _mapping, ...listed } = catalog
      assert.deepEqual(read.catalog, listed, `${venue}: ${catalog.events.length} events`)
    }
  })

  test('refused, with the reason: missing, another venue, another source, another format version, not one at all', async () => {
    const path = join(dir, 'refusals.jsonl')
    await writeCatalogFile(path, real.venuep, SOURCE)
    const bytes = await readFile(path)
    assert.deepEqual(decode(undefined), { ok: false, missing: true, reason: 'no catalog file' })
    assert.deepEqual(decode(bytes, 'venuek'), { ok: false, missing: false, reason: "it is venuep's catalog" })
    assert.deepEqual(decode(bytes, 'venuep', 'http://127.0.0.1:4000'), {
      ok: false,
      missing: false,
      reason: `it was listed from ${SOURCE}, not http://127.0.0.1:4000`,
    })
    // Another version, with a digest that matches it: the version check alone refuses it.
    const lines = bytes.toString('utf8').split('\n')
    const header = JSON.parse(lines[0]!) as Record<string, unknown>
    const body = [JSON.stringify({ ...header, version: CATALOG_FILE_VERSION + 1 }), ...lines.slice(1, -2), ''].join(
      '\n',
    )
    const digest = createHash('sha256').update(body).digest('hex')
    assert.deepEqual(decode(Buffer.from(`${body}${JSON.stringify({ sha256: digest })}\n`)), {
      ok: false,
      missing: false,
      reason: `format version ${CATALOG_FILE_VERSION + 1}, this build reads ${CATALOG_FILE_VERSION}`,
    })
    assert.deepEqual(decode(Buffer.from('{"events":[]}\n')), {
      ok: false,
      missing: false,
      reason: 'not a catalog file (no trailer)',
    })
  })

  test('a file cut short or with any byte changed is refused, never half-read', async () => {
    const path = join(dir, 'damage.jsonl')
    const small: Catalog = { ...real.venuek, events: real.venuek.events.slice(0, 40) }
    await writeCatalogFile(path, small, SOURCE)
    const bytes = await readFile(path)
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: bytes.length - 1 }),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        (at, xor, cut) => {
          const damaged = cut ? bytes.subarray(0, at) : Buffer.from(bytes)
          if (!cut) damaged[at] = (damaged[at] as number) ^ xor
          const read = decode(damaged, 'venuek')
          assert.equal(read.ok, false)
        },
      ),
      { numRuns: 300 },
    )
  })

  test('rewritten in place: a reader sees the old file or the new one, never a mix', async () => {
    const path = join(dir, 'rewrite.jsonl')
    await writeCatalogFile(path, real.venuep, SOURCE)
    const smaller: Catalog = { ...real.venuep, events: real.venuep.events.slice(1), fetchedAt: 7 }
    const reads: boolean[] = []
    const writing = writeCatalogFile(path, smaller, SOURCE)
    for (let i = 0; i < 20; i++) reads.push(decode(await readCatalogBytes(path)).ok)
    await writing
    assert.ok(reads.every(Boolean), 'every read during the write found a whole file')
    const read = decode(await readCatalogBytes(path))
    assert.ok(read.ok)
    assert.equal(read.catalog.events.length, smaller.events.length)
  })
})

const snap = bookSnapshot

describe('a venue actor with a catalog file', () => {
  test('serves the file at once, marked as such, until the venue is listed; then writes the listed catalog', async () => {
    const path = join(dir, 'actor', 'venuep.jsonl')
    const onFile: Catalog = { ...real.venuep, events: real.venuep.events.slice(0, 30), fetchedAt: 1_000 }
    await writeCatalogFile(path, onFile, SOURCE)
    const lines: Record<string, unknown>[] = []
    const log = createLogger('debug', 'predmkt', {
      write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
    })
    const venue = new GatedVenue(SOURCE)
    const clock = new SimulatedClock(50_000)
    const actor = new VenueActor({
      adapter: venue.adapter,
      clock,
      log,
      catalogRefreshMs: 60_000,
      catalogFile: { path, source: SOURCE, writeEveryMs: 0 },
    })
    actor.start()
    try {
      await waitFor(() => actor.catalog() !== undefined)
      assert.deepEqual(
        actor.catalog()!.events.map((e) => e.eventId),
        onFile.events.map((e) => e.eventId),
      )
      const status = actor.venueStatus().catalog
      assert.deepEqual([status.version, status.fromFile, status.syncedAt], [1, true, 1_000])
      // The venue is listed once the books of the file's catalog have synced, not before.
      assert.equal(venue.syncs, 0)
      const streamed = new Set<string>()
      for (const e of onFile.events)
        for (const m of e.markets) for (const o of m.outcomes) if (o.status === 'active') streamed.add(o.instrumentId)
      assert.ok(streamed.size > 0)
      venue.emit(...[...streamed].map(snap))
      assert.equal(actor.ready, true)
      await waitFor(() => venue.syncs === 1)
      assert.equal(actor.venueStatus().catalog.loading?.phase, 'listing', 'the venue is listed meanwhile')
      assert.equal(actor.venueStatus().catalog.fromFile, true, 'still the file until it is listed')

      // The first listing fails: the file's catalog is still served, and the sync is retried as a first sync is.
      venue.fail!(new Error('GET https://gamma.example/events: connection reset'))
      await waitFor(() => actor.venueStatus().catalog.failures === 1)
      assert.equal(actor.venueStatus().catalog.fromFile, true)
      clock.increment(2_000)
      await waitFor(() => venue.syncs === 2)

      // Listed: installed as usual, no longer from the file, and the file now holds it.
      const listed: Catalog = { ...real.venuep, events: real.venuep.events.slice(5, 45), fetchedAt: 52_000 }
      venue.release!(listed)
      await waitFor(() => actor.catalog()?.version === 2)
      assert.equal(actor.venueStatus().catalog.fromFile, false)
      await waitFor(() => lines.some((l) => l.msg === 'catalog file written'))
      const reread = decode(await readCatalogBytes(path))
      assert.ok(reread.ok)
      assert.deepEqual(
        reread.catalog.events.map((e) => e.eventId),
        listed.events.map((e) => e.eventId),
      )
      assert.ok(lines.some((l) => l.msg === 'catalog read from its file; served until the venue is listed'))
    } finally {
      actor.stop()
    }
  })

  test('a venue whose books do not sync is listed FILE_LISTING_DELAY_MS after the file was served', async () => {
    const path = join(dir, 'actor', 'unsynced.jsonl')
    await writeCatalogFile(path, { ...real.venuek, venue: 'venuep' }, SOURCE)
    const venue = new GatedVenue(SOURCE)
    const clock = new SimulatedClock(50_000)
    const actor = new VenueActor({
      adapter: venue.adapter,
      clock,
      log: createLogger('silent', 'predmkt'),
      catalogRefreshMs: 600_000,
      catalogFile: { path, source: SOURCE, writeEveryMs: 0 },
    })
    actor.start()
    try {
      await waitFor(() => actor.catalog() !== undefined)
      clock.increment(FILE_LISTING_DELAY_MS - 1)
      assert.equal(venue.syncs, 0)
      clock.increment(1)
      await waitFor(() => venue.syncs === 1)
      assert.equal(actor.ready, false)
    } finally {
      actor.stop()
    }
  })

  test('a damaged file is refused with a warning and the venue is listed as without one', async () => {
    const path = join(dir, 'actor', 'damaged.jsonl')
    await writeCatalogFile(path, real.venuep, SOURCE)
    const bytes = await readFile(path)
    await writeFile(path, bytes.subarray(0, bytes.length >> 1))
    const lines: Record<string, unknown>[] = []
    const log = createLogger('debug', 'predmkt', {
      write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
    })
    const venue = new GatedVenue(SOURCE)
    const actor = new VenueActor({
      adapter: venue.adapter,
      clock: new SimulatedClock(50_000),
      log,
      catalogRefreshMs: 60_000,
      catalogFile: { path, source: SOURCE, writeEveryMs: 0 },
    })
    actor.start()
    try {
      await waitFor(() => venue.syncs === 1)
      assert.equal(actor.catalog(), undefined, 'nothing of it is served')
      const warning = lines.find((l) => l.msg === 'catalog file refused; listing the venue')
      assert.equal(warning?.reason, 'cut short or damaged (its last line is not the trailer)')
    } finally {
      actor.stop()
    }
  })
})
