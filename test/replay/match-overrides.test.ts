import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { ok } from '../helpers/api.js'
import { REAL_CATALOG_DIR } from '../helpers/fixtures.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { waitFor } from '../helpers/wait.js'

/**
 * A reviewer removes a wrong automatic match by editing config/matches.json: the running service reads the file
 * again and the pair leaves /api/v2/spreads, no restart. An invalid edit is refused and changes nothing.
 */
const dir = mkdtempSync(join(tmpdir(), 'predmkt-overrides-'))
const path = join(dir, 'matches.json')
let s: TestService

interface Row {
  readonly event_slug: string
  readonly match: { readonly venuep_outcome_id: string; readonly venuek_outcome_id: string }
}

const spreads = async () =>
  (await ok<{ data: Row[] }>(s, 'listSpreads', '/api/v2/spreads?min_spread=0&min_volume=0&stale_cutoff_minutes=10080'))
    .data

before(async () => {
  writeFileSync(path, JSON.stringify({ matches: [] }))
  s = await startTestService({
    catalog: REAL_CATALOG_DIR,
    wallets: 5,
    config: { spreads: { manualMatchesPath: path } },
  })
})

after(async () => {
  await s?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('a deny rule written while running removes the pair; an invalid file is ignored', async () => {
  const before = await spreads()
  const victim = before.find((r) => r.event_slug === 'presidential-election-winner-2028')
  assert.ok(victim !== undefined, 'an automatic pair to deny')
  const deny = {
    venuep_event: victim.event_slug,
    venuek_event: s.app.venues.venuek.catalog()?.outcomesById.get(victim.match.venuek_outcome_id)?.eventId,
    venuep_outcome: victim.match.venuep_outcome_id,
    venuek_outcome: victim.match.venuek_outcome_id,
    reason: 'test',
  }
  writeFileSync(path, JSON.stringify({ matches: [], deny: [deny] }))
  const pairs = s.app.spreads.pairCount
  await waitFor(() => s.app.spreads.pairCount === pairs - 1, 10_000, 'the denied pair to leave the engine')
  const after = await spreads()
  assert.equal(after.length, before.length - 1)
  assert.equal(
    after.some((r) => r.match.venuep_outcome_id === victim.match.venuep_outcome_id),
    false,
  )

  // A broken edit keeps the last valid version in force.
  writeFileSync(path, '{"matches": [ broken')
  await new Promise((r) => setTimeout(r, 3_000))
  assert.equal((await spreads()).length, before.length - 1)

  // Removing the rule brings the pair back.
  writeFileSync(path, JSON.stringify({ matches: [] }))
  await waitFor(() => s.app.spreads.pairCount === pairs, 10_000, 'the pair to come back')
})
