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
 * serves the same pairs, no longer from the file.
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
  const files = ['venuep.jsonl', 'venuek.jsonl', 'matches.venuep+venuek.jsonl'].map((f) => join(dataDir, 'catalogs', f))
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
    await run(async (app) => {
      await waitFor(() => app.spreads.ready && app.matching.settled, 20_000, 'the first run ready')
      firstPairs = pairKeys(app)
      assert.ok(firstPairs.length > 20, `${firstPairs.length} outcome pairs`)
      await waitFor(() => files.every((f) => existsSync(f)), 10_000, 'the catalog and match files')
    })

    await run(async (app, lines) => {
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
