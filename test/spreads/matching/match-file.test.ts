import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../../src/actors/catalog-snapshot.js'
import type { VenueActor } from '../../../src/actors/venue-actor.js'
import { SimulatedClock } from '../../../src/core/clock.js'
import { silentLogger } from '../../../src/core/logger.js'
import { readFileBytes } from '../../../src/core/sealed-file.js'
import { runInSlices, runToEnd } from '../../../src/core/slices.js'
import type { SpreadEngine } from '../../../src/spreads/engine/spread-engine.js'
import { CrossVenueMatching } from '../../../src/spreads/matching/cross-venue.js'
import { pairSpecs } from '../../../src/spreads/matching/pair-specs.js'
import {
  MATCH_FILE_VERSION,
  overridesFingerprint,
  readMatchFileSteps,
  writeMatchFile,
  type MatchContext,
} from '../../../src/spreads/matching/match-file.js'
import { MatchFileKeeper } from '../../../src/spreads/matching/match-file-keeper.js'
import { matchEvents, type EventMatch } from '../../../src/spreads/matching/matcher.js'
import { replayedCatalogs } from '../../helpers/catalogs.js'
import { SHORT_DATED_DIR } from '../../helpers/fixtures.js'
import { engineWithoutQuotes } from '../../helpers/spread-engines.js'
import { waitFor } from '../../helpers/wait.js'

/**
 * The match file a restart seeds its spreads from (src/spreads/matching/match-file.ts), on the real short-dated
 * week: the matches round-trip exactly; a pair is kept only while both its outcomes are listed and both contracts
 * read as they did; a file of other venues, sources, overrides or format version, or a damaged one, is refused with
 * its reason; and the cross-venue matching publishes the seeded pairs at once, then replaces them by its full run.
 */
const SOURCES = ['https://gamma.example', 'https://venuek.example'] as const
let venuep: CatalogSnapshot
let venuek: CatalogSnapshot
let matches: EventMatch[]
let dir: string

before(async () => {
  const replayed = await replayedCatalogs(SHORT_DATED_DIR)
  await replayed.sim.close()
  venuep = buildCatalogSnapshot(replayed.venuep, 1)
  venuek = buildCatalogSnapshot(replayed.venuek, 1)
  matches = matchEvents(venuep, venuek)
  dir = await mkdtemp(join(tmpdir(), 'match-file-'))
})

after(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

const context = (a = venuep, b = venuek, overrides = overridesFingerprint({})): MatchContext => ({
  a,
  b,
  sources: SOURCES,
  overrides,
})
const pairsOf = (ms: readonly EventMatch[]) => ms.reduce((n, m) => n + m.outcomes.length, 0)
const read = (bytes: Buffer | undefined, c = context()) => runToEnd(readMatchFileSteps(bytes, c))

async function written(name: string, ms = matches): Promise<{ path: string; bytes: Buffer }> {
  const path = join(dir, name)
  await writeMatchFile(path, ms, context(), 1_000, runInSlices)
  return { path, bytes: (await readFileBytes(path)) as Buffer }
}

describe('the match file', () => {
  test('the matches of the real short-dated week round-trip exactly', async () => {
    assert.ok(pairsOf(matches) > 150, `${pairsOf(matches)} outcome pairs`)
    const { bytes } = await written('round-trip.jsonl')
    const r = read(bytes)
    assert.ok(r.ok, r.ok ? '' : r.reason)
    assert.deepEqual(r.matches, matches)
    assert.deepEqual([r.kept, r.dropped, r.writtenAt], [pairsOf(matches), 0, 1_000])
    // The catalogs' own outcome objects, so the spreads resolve and price them.
    const first = r.matches[0]!.outcomes[0]!
    assert.equal(first.a, venuep.outcomesById.get(first.a.outcomeId))
  })

  test('a pair is kept only while both outcomes are listed and both contracts read as they did', async () => {
    const { bytes } = await written('changed.jsonl')
    // One matched event of venuek retitled (its contracts read otherwise), one matched event of venuep delisted.
    const retitled = matches[0]!
    const delisted = matches.find((m) => m.a.eventId !== retitled.a.eventId && m.b.eventId !== retitled.b.eventId)!
    const b = buildCatalogSnapshot(
      {
        venue: 'venuek',
        fetchedAt: 2,
        events: venuek.events.map((e) => (e.eventId === retitled.b.eventId ? { ...e, title: `${e.title} (2)` } : e)),
      },
      2,
    )
    const a = buildCatalogSnapshot(
      { venue: 'venuep', fetchedAt: 2, events: venuep.events.filter((e) => e.eventId !== delisted.a.eventId) },
      2,
    )
    const r = read(bytes, context(a, b))
    assert.ok(r.ok, r.ok ? '' : r.reason)
    const gone = (m: EventMatch) => m.b.eventId === retitled.b.eventId || m.a.eventId === delisted.a.eventId
    const expected = matches.filter((m) => !gone(m))
    assert.deepEqual(
      r.matches.map((m) => [m.a.eventId, m.b.eventId, m.outcomes.map((o) => [o.a.outcomeId, o.b.outcomeId])]),
      expected.map((m) => [m.a.eventId, m.b.eventId, m.outcomes.map((o) => [o.a.outcomeId, o.b.outcomeId])]),
    )
    assert.deepEqual([r.kept, r.dropped], [pairsOf(expected), pairsOf(matches) - pairsOf(expected)])
    // The kept pairs point at the new catalogs' objects.
    const o = r.matches[0]!.outcomes[0]!
    assert.equal(o.a, a.outcomesById.get(o.a.outcomeId))
  })

  test('a file of other venues, sources, overrides or version, or a damaged or cut one, is refused with the reason', async () => {
    const { bytes } = await written('refusals.jsonl')
    const refused = (r: ReturnType<typeof read>) => (r.ok ? 'accepted' : r.reason)
    assert.deepEqual(read(undefined), { ok: false, missing: true, reason: 'no match file' })
    assert.equal(
      refused(
        read(bytes, {
          ...context(),
          overrides: overridesFingerprint({
            deny: [],
            manual: [{ a: { venue: 'venuep', eventId: 'x' }, b: { venue: 'venuek', eventId: 'y' } }],
          }),
        }),
      ),
      'made under other manual matches, deny rules, weights or aliases',
    )
    assert.equal(
      refused(read(bytes, { ...context(), sources: [SOURCES[0], 'https://other.example'] })),
      'its catalogs were listed from https://gamma.example and https://venuek.example',
    )
    assert.equal(refused(read(bytes, context(venuek, venuep))), 'it matches venuep+venuek, not venuek+venuep')
    const damaged = Buffer.from(bytes)
    damaged[Math.floor(bytes.length / 2)] ^= 0x20
    assert.equal(refused(read(damaged)), 'damaged: its digest does not match its contents')
    assert.equal(
      refused(read(bytes.subarray(0, bytes.length - 10))),
      'cut short or damaged (its last line is not the trailer)',
    )
    // Another version, resealed so that only the version differs.
    const lines = bytes.toString('utf8').split('\n')
    const header = JSON.parse(lines[0]!) as Record<string, unknown>
    const body = [JSON.stringify({ ...header, version: MATCH_FILE_VERSION + 1 }), ...lines.slice(1, -2), ''].join('\n')
    const sealed = `${body}${JSON.stringify({ sha256: createHash('sha256').update(body).digest('hex') })}\n`
    assert.equal(
      refused(read(Buffer.from(sealed))),
      `format version ${MATCH_FILE_VERSION + 1}, this build reads ${MATCH_FILE_VERSION}`,
    )
  })

  test('no match file is written before the service is ready; then the last matches asked for are', async () => {
    let ready = () => {}
    const writeAfter = new Promise<void>((resolve) => (ready = resolve))
    const keeper = new MatchFileKeeper(
      {
        dir: join(dir, 'held'),
        sourceOf: (v) => (v === 'venuep' ? SOURCES[0] : SOURCES[1]),
        writeEveryMs: 60_000,
        writeAfter,
      },
      new SimulatedClock(5_000),
      silentLogger,
    )
    const path = keeper.path('venuep', 'venuek')
    const overrides = overridesFingerprint({})
    keeper.matched(matches.slice(0, 1), venuep, venuek, overrides)
    keeper.matched(matches, venuep, venuek, overrides)
    await keeper.idle()
    assert.equal(existsSync(path), false)
    ready()
    await waitFor(() => existsSync(path))
    await keeper.idle()
    const kept = read(await readFileBytes(path))
    assert.ok(kept.ok)
    assert.equal(pairsOf(kept.matches), pairsOf(matches))
  })

  test('a restart publishes the seeded pairs at once, then the full run replaces them with the same pairs', async () => {
    const files = () =>
      new MatchFileKeeper(
        { dir, sourceOf: (v) => (v === 'venuep' ? SOURCES[0] : SOURCES[1]), writeEveryMs: 60_000 },
        new SimulatedClock(5_000),
        silentLogger,
      )
    const actor = (venue: 'venuep' | 'venuek') =>
      ({
        venue,
        catalog: () => (venue === 'venuep' ? venuep : venuek),
        subscribeCatalog: () => () => {},
      }) as unknown as VenueActor
    const keepers: MatchFileKeeper[] = []
    const service = () => {
      const engine = engineWithoutQuotes()
      const keeper = files()
      keepers.push(keeper)
      const matching = new CrossVenueMatching({
        venues: [actor('venuep'), actor('venuek')],
        engine,
        onLinks: () => {},
        overrides: () => ({}),
        log: silentLogger,
        files: keeper,
      })
      return { engine, matching }
    }
    const expected = pairSpecs(matches, venuep, venuek)
    const sameSpecs = (engine: SpreadEngine) => {
      assert.equal(engine.pairCount, expected.length)
      for (const s of expected) assert.deepEqual(engine.spec(s.key), s)
    }
    const path = files().path('venuep', 'venuek')
    await rm(path, { force: true })

    // First start: nothing on file, a full run, whose matches are written.
    const first = service()
    await first.matching.refresh()
    assert.deepEqual([first.matching.runs, first.matching.fromFile], [1, false])
    sameSpecs(first.engine)
    await waitFor(() => existsSync(path))
    first.engine.stop()

    // The restart: the file's pairs are installed before any run of the matcher, and say so.
    const restart = service()
    await restart.matching.refresh()
    assert.deepEqual([restart.matching.runs, restart.matching.fromFile], [0, true])
    sameSpecs(restart.engine)
    // The full run was scheduled by the seed; it judges everything and finds the same pairs.
    await waitFor(() => restart.matching.runs === 1 && restart.matching.settled)
    assert.equal(restart.matching.fromFile, false)
    assert.equal(restart.matching.lastUpdate?.mode, 'full')
    sameSpecs(restart.engine)
    restart.matching.stop()
    restart.engine.stop()
    for (const k of keepers) await k.idle()
  })
})
