import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { readCatalogBytes, writeCatalogFile, decodeCatalogFileSteps } from '../../src/actors/catalog-file.js'
import { FILE_LISTING_DELAY_MS } from '../../src/actors/catalog-loader.js'
import { VenueActor } from '../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { runToEnd } from '../../src/core/slices.js'
import { bookSnapshot, GatedVenue, oneOutcomeEvents } from '../helpers/gated-venue.js'
import { waitFor } from '../helpers/wait.js'

/**
 * A start's own work goes first (src/actors/catalog-loader.ts, src/restart-files.ts): at the venues' real size a
 * listing and a catalog file's write are each seconds of the one event loop, and a start that refreshed its catalogs
 * and wrote its files while its books, matcher and read models were still being built was ready in 149 s instead of
 * 66 s (docs/SCALE.md). A refresh is counted from the end of the last sync; with a catalog file, refreshes and the
 * file's first write wait for the whole service to be ready, and so does a restart's first listing once its books are
 * in, past FILE_LISTING_DELAY_MS.
 */
const SOURCE = 'https://gamma.example'
const REFRESH_MS = 60_000
let dir: string

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'start-work-order-'))
})

after(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

/** A few turns of the event loop: what a timer fired by the clock would have started by then, has. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
}

/** A promise the test resolves: the whole service ready. */
function serviceReadiness(): { promise: Promise<void>; ready: () => void } {
  let ready = () => {}
  const promise = new Promise<void>((resolve) => (ready = resolve))
  return { promise, ready }
}

function actorOf(venue: GatedVenue, clock: SimulatedClock, file?: { path: string; serviceReady: Promise<void> }) {
  return new VenueActor({
    adapter: venue.adapter,
    clock,
    log: silentLogger,
    catalogRefreshMs: REFRESH_MS,
    ...(file === undefined ? {} : { catalogFile: { ...file, source: SOURCE, writeEveryMs: 0 } }),
  })
}

test('a refresh comes refreshMs after the last sync ended, not after it started', async () => {
  const venue = new GatedVenue(SOURCE)
  const clock = new SimulatedClock(0)
  const actor = actorOf(venue, clock)
  actor.start()
  try {
    await waitFor(() => venue.syncs === 1)
    clock.increment(45_000) // a listing of the venues' real size takes tens of seconds
    venue.release!(oneOutcomeEvents(['a', 'b']))
    await waitFor(() => actor.catalog() !== undefined)
    clock.increment(REFRESH_MS - 1)
    await settle()
    assert.equal(venue.syncs, 1, 'not listed again 15 s after the first sync ended')
    clock.increment(1)
    await waitFor(() => venue.syncs === 2)
  } finally {
    actor.stop()
  }
})

test('a cold start lists its venue once, then neither refreshes nor writes its file until the service is ready', async () => {
  const path = join(dir, 'cold', 'venuep.jsonl')
  const venue = new GatedVenue(SOURCE)
  const clock = new SimulatedClock(0)
  const service = serviceReadiness()
  const actor = actorOf(venue, clock, { path, serviceReady: service.promise })
  actor.start()
  try {
    await waitFor(() => venue.syncs === 1)
    venue.release!(oneOutcomeEvents(['a', 'b']))
    await waitFor(() => actor.catalog() !== undefined)
    venue.emit(bookSnapshot('a'), bookSnapshot('b'))
    assert.equal(actor.ready, true)
    clock.increment(3 * REFRESH_MS)
    await settle()
    assert.deepEqual([venue.syncs, existsSync(path)], [1, false], 'no second listing and no file while not ready')

    service.ready()
    await waitFor(() => venue.syncs === 2 && existsSync(path))
    const written = runToEnd(decodeCatalogFileSteps(await readCatalogBytes(path), 'venuep', SOURCE))
    assert.ok(written.ok)
    assert.deepEqual(
      written.catalog.events.map((e) => e.eventId),
      ['e-a', 'e-b'],
    )
  } finally {
    actor.stop()
  }
})

test('a restart whose books synced lists its venue once the service is ready, past FILE_LISTING_DELAY_MS', async () => {
  const path = join(dir, 'restart', 'venuep.jsonl')
  await writeCatalogFile(path, oneOutcomeEvents(['a', 'b'], ['c'], 1_000), SOURCE)
  const venue = new GatedVenue(SOURCE)
  const clock = new SimulatedClock(50_000)
  const service = serviceReadiness()
  const actor = actorOf(venue, clock, { path, serviceReady: service.promise })
  actor.start()
  try {
    await waitFor(() => actor.catalog() !== undefined)
    assert.equal(actor.venueStatus().catalog.fromFile, true)
    venue.emit(bookSnapshot('a'), bookSnapshot('b'))
    assert.equal(actor.ready, true)
    clock.increment(3 * FILE_LISTING_DELAY_MS + REFRESH_MS)
    await settle()
    assert.equal(venue.syncs, 0, 'the file is served while the rest of the start runs')

    service.ready()
    await waitFor(() => venue.syncs === 1)
    venue.release!(oneOutcomeEvents(['a', 'b'], [], 2_000))
    await waitFor(() => actor.venueStatus().catalog.fromFile === false)
    assert.deepEqual(
      actor.catalog()!.events.map((e) => e.eventId),
      ['e-a', 'e-b'],
    )
  } finally {
    actor.stop()
  }
})
