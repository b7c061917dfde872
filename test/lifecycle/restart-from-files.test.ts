import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { startApp, type App } from '../../src/app.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { checkedLogger } from '../helpers/checked-logger.js'
import { freshPGlite } from '../helpers/db.js'
import { TEST_ANCHOR_MS } from '../helpers/service.js'
import { waitFor } from '../helpers/wait.js'

/**
 * A live service restarted on its data directory (issue 35): the first run keeps each venue's catalog and the
 * matches in files; the restart serves the catalogs from their files, prices the file's matches before the matcher
 * has run (every pair the first run had, none dropped), says so in /readyz, and once the matcher's full run is done
 * serves the same pairs, no longer from the file. Its read models start from the list files (every ordering and search
 * index taken) and list what the first run listed.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'restart-from-files-'))
after(() => rmSync(dataDir, { recursive: true, force: true }))

interface Readyz {
  status: string
  venues: Record<string, { catalog: { from_file: boolean } }>
  spreads: { ready: boolean; pairs: number; matches_from_file: boolean }
}

async function readyz(app: App): Promise<{ status: number; body: Readyz }> {
  const res = await fetch(`http://127.0.0.1:${app.port}/readyz`)
  return { status: res.status, body: (await res.json()) as Readyz }
}

/** Lists read right at ready after the restart, as the first run served them: every sort key, both orders, a search. */
const LIST_READS = [
  ...['volume', 'volume_24h', 'liquidity', 'updated_at', 'end_time', 'created_at'].flatMap((sort) =>
    ['asc', 'desc'].map((order) => `/api/v2/venuep/markets?status=all&sort=${sort}&order=${order}&limit=100`),
  ),
  ...['volume', 'end_time'].flatMap((sort) =>
    ['asc', 'desc'].map((order) => `/api/v2/venuek/events?status=all&sort=${sort}&order=${order}&limit=100`),
  ),
  '/api/v2/venuep/markets?status=all&search=will&limit=100',
  '/api/v2/venuek/events?status=all&search=the&limit=100',
  ...['volume', 'end_time'].map((sort) => `/api/v2/events?status=all&sort=${sort}&order=desc&limit=100`),
  '/api/v2/events?status=all&search=will&limit=100',
]

/** Each list's records, as JSON with the live quote fields left out (the order and the records are what is compared). */
async function listed(app: App): Promise<string[]> {
  const out: string[] = []
  for (const path of LIST_READS) {
    const res = await fetch(`http://127.0.0.1:${app.port}${path}`)
    assert.equal(res.status, 200, path)
    const body = (await res.json()) as { markets?: Record<string, unknown>[]; events?: Record<string, unknown>[] }
    const rows = body.markets ?? body.events ?? []
    assert.ok(rows.length > 0, `${path} lists something`)
    const ids = rows.map((r) => r.market_slug ?? r.event_id ?? r.event_slug)
    assert.ok(
      ids.every((id) => typeof id === 'string'),
      path,
    )
    out.push(`${path} ${JSON.stringify((body as { total?: unknown }).total)} ${JSON.stringify(ids)}`)
  }
  return out
}

const pairKeys = (app: App): string[] =>
  app.matching.matches.flatMap((m) => m.outcomes.map((o) => `${o.a.outcomeId}|${o.b.outcomeId}`)).sort()

test('a restart serves the catalog files and prices the kept matches before the matcher runs, then confirms them', async () => {
  const clock = new SimulatedClock(TEST_ANCHOR_MS)
  const base = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({
    config: { ...base.sim, questions: 200, wallets: 5, venuekAuth: false },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  const p = sim.venuep.urls
  const k = sim.venuek.urls
  const config = loadConfig({
    env: {
      NODE_ENV: 'test',
      VENUES: 'live',
      DATA_DIR: dataDir,
      AUTH_REQUIRED: 'false',
      VENUEP_GAMMA_URL: p.gamma,
      VENUEP_CLOB_URL: p.clob,
      VENUEP_CLOB_WS_URL: p.clobWs,
      VENUEP_DATA_URL: p.data,
      VENUEK_REST_URL: k.rest,
      VENUEK_WS_URL: k.ws,
      SMTP_URL: 'smtp://127.0.0.1:1',
    },
  })
  const files = [
    'venuep.jsonl',
    'venuek.jsonl',
    'matches.venuep+venuek.jsonl',
    'lists.venuep.jsonl',
    'lists.venuek.jsonl',
    'lists.events.jsonl',
  ].map((f) => join(dataDir, 'catalogs', f))
  const run = async (check: (app: App, lines: () => readonly string[]) => Promise<void>) => {
    const db = await freshPGlite()
    const logs = checkedLogger({ keepAll: true })
    const app = await startApp({ config, log: logs.log, clock, db })
    try {
      await check(app, logs.all)
    } finally {
      await app.close()
      await db.close()
    }
    assert.deepEqual(logs.problems(), [])
  }
  try {
    let firstPairs: string[] = []
    let firstLists: string[] = []
    await run(async (app) => {
      await waitFor(() => app.spreads.ready && app.matching.settled, 20_000, 'the first run ready')
      firstPairs = pairKeys(app)
      assert.ok(firstPairs.length > 20, `${firstPairs.length} outcome pairs`)
      await waitFor(() => files.every((f) => existsSync(f)), 10_000, 'the catalog, match and list files')
      await waitFor(() => app.models.settled, 10_000, 'read models settled')
      firstLists = await listed(app)
    })

    await run(async (app, lines) => {
      // The first views took every ordering and search index from the list files, and serve what the first run did.
      await waitFor(() => app.models.serving, 20_000, 'read models built')
      assert.deepEqual(await listed(app), firstLists)
      const listsSeeded = Object.assign(
        {},
        ...lines()
          .map((l) => JSON.parse(l) as { msg: string; seeded?: object })
          .filter((l) => l.msg === 'read models seeded from the list files')
          .map((l) => l.seeded),
      ) as Record<string, unknown>
      const whole = {
        markets: { taken: 7, refused: 0 },
        events: { taken: 7, refused: 0 },
        outcomes: { taken: 2, refused: 0 },
      }
      assert.deepEqual(listsSeeded, { venuep: whole, venuek: whole, events: { taken: 6, refused: 0 } })
      // The kept matches are installed, and the first spreads computed, before the matcher's first run.
      await waitFor(() => app.spreads.ready && app.matching.runs >= 1, 20_000, 'spreads ready and the full run')
      const logged = lines().map((l) => JSON.parse(l) as Record<string, unknown>)
      const at = (msg: string) => logged.findIndex((l) => l.msg === msg)
      const seeded = logged[at('matches seeded from the file')]
      assert.ok(seeded !== undefined, 'the matches were seeded from the file')
      assert.deepEqual([seeded.kept, seeded.dropped], [firstPairs.length, 0])
      assert.ok(at('first spreads computed') > at('matches seeded from the file'))
      assert.ok(at('cross-venue matching') > at('first spreads computed'), 'the matcher ran after the spreads were up')
      // Then the full run replaces them, with the same pairs, and /readyz says the matches are the matcher's.
      await waitFor(() => app.matching.runs >= 1 && app.matching.settled, 20_000, 'the full run')
      assert.deepEqual(pairKeys(app), firstPairs)
      await waitFor(() => app.models.serving, 10_000, 'read models built')
      const { status, body } = await readyz(app)
      assert.equal(status, 200)
      assert.equal(body.spreads.matches_from_file, false)
      assert.equal(body.spreads.pairs, app.spreads.pairCount)
      // Each venue's catalog was served from its file before the venue was listed again.
      const catalogs = lines()
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'catalog read from its file; served until the venue is listed')
      assert.deepEqual(catalogs.map((l) => l.venue).sort(), ['venuek', 'venuep'])
      // The venues are listed again once the service is ready. Nothing changed at them since the first run: each
      // listing gives back the file's event objects (mapped-records.ts `seed`) and installs nothing, so the file's
      // catalog (version 1) is confirmed instead of replaced by an equal copy that every consumer would rebuild from.
      const venues = ['venuep', 'venuek'] as const
      await waitFor(
        () => venues.every((v) => !app.venues[v].venueStatus().catalog.fromFile),
        20_000,
        'both venues listed again',
      )
      assert.deepEqual(
        venues.map((v) => app.venues[v].venueStatus().catalog.version),
        [1, 1],
      )
      const relogged = lines().map((l) => JSON.parse(l) as Record<string, unknown>)
      assert.deepEqual(
        relogged.filter((l) => l.msg === 'catalog installed').map((l) => l.venue),
        [],
      )
      assert.deepEqual(
        relogged
          .filter((l) => l.msg === 'catalog unchanged')
          .map((l) => [l.venue, l.mapped])
          .sort(),
        [
          ['venuek', 0],
          ['venuep', 0],
        ],
      )
    })
  } finally {
    await sim.close()
  }
})
