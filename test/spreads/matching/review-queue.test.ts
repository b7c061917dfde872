import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { buildCatalogSnapshot } from '../../../src/actors/catalog-snapshot.js'
import type { CatalogEvent } from '../../../src/model/types.js'
import { loadMatchOverrides } from '../../../src/spreads/matching/manual-matches.js'
import { matchEvents } from '../../../src/spreads/matching/matcher.js'
import { nearMisses } from '../../../src/spreads/matching/near-misses.js'
import { recordDecision } from '../../../tools/matching/review-file.js'
import { venuekEvent, venuepEvent } from './wire-events.js'

/**
 * The review queue (`npm run matches:review`): contract pairs that ONE field kept apart are listed with that field,
 * and a reviewer's accept or deny, written to the matches file, is what the matcher then does. Pairs that differ by
 * design (another map, the other side) are not listed.
 */
const dir = mkdtempSync(join(tmpdir(), 'predmkt-review-'))
after(() => rmSync(dir, { recursive: true, force: true }))

const snapshot = (venue: string, events: CatalogEvent[]) => buildCatalogSnapshot({ venue, events, fetchedAt: 1 }, 1)

// A game one venue lists under another name for one team (no rule connects them), and a person with a nickname.
const p = [
  venuepEvent(
    'cs2-alw-ber-2026-12-01',
    'Counter-Strike: Alpha Wolves vs Beta Ravens',
    [
      {
        question: 'Counter-Strike: Alpha Wolves vs Beta Ravens - Map 1 Winner',
        outcomes: ['Alpha Wolves', 'Beta Ravens'],
      },
      {
        question: 'Counter-Strike: Alpha Wolves vs Beta Ravens - Map 2 Winner',
        outcomes: ['Alpha Wolves', 'Beta Ravens'],
      },
    ],
    '2026-12-01T18:00:00Z',
  ),
  venuepEvent(
    'colorado-governor-2028',
    'Colorado Governor Election Winner 2028',
    [
      { question: 'Will Liz Thackeray win the 2028 Colorado governor election?', groupItemTitle: 'Liz Thackeray' },
      { question: 'Will Ann Kerr win the 2028 Colorado governor election?', groupItemTitle: 'Ann Kerr' },
    ],
    '2028-11-08T00:00:00Z',
  ),
]
const k = [
  venuekEvent(
    'KXCS2MAP-26DEC011000WPBR-1',
    'Wolfpack Gaming vs. Beta Ravens: Map 1',
    [
      { suffix: 'WP', yes_sub_title: 'Wolfpack Gaming' },
      { suffix: 'BR', yes_sub_title: 'Beta Ravens' },
    ],
    { close_time: '2026-12-01T18:00:00Z' },
  ),
  venuekEvent(
    'KXGOVCO-28',
    'Who will win the Colorado governor race in 2028?',
    [
      {
        suffix: 'ETHA',
        title: 'Will Elizabeth Thackeray win the 2028 Colorado governor election?',
        yes_sub_title: 'Elizabeth Thackeray',
      },
      { suffix: 'AKER', title: 'Will Ann Kerr win the 2028 Colorado governor election?', yes_sub_title: 'Ann Kerr' },
    ],
    { close_time: '2028-11-08T00:00:00Z' },
  ),
]
const a = snapshot('venuep', p)
const b = snapshot('venuek', k)
const published = (matches = matchEvents(a, b)) =>
  new Set(matches.flatMap((m) => m.outcomes.map((o) => `${o.a.outcomeId}|${o.b.outcomeId}`)))

test('near misses: each with the one field that kept it apart; pairs that differ by design are not listed', () => {
  const misses = nearMisses(a, b, published())
  assert.deepEqual(misses.map((m) => [m.field, m.a.outcome.title, m.b.outcome.title]).sort(), [
    ['participants', 'Counter-Strike: Alpha Wolves vs Beta Ravens - Map 1 Winner: Alpha Wolves', 'Wolfpack Gaming'],
    ['participants', 'Counter-Strike: Alpha Wolves vs Beta Ravens - Map 1 Winner: Beta Ravens', 'Beta Ravens'],
    ['what', 'Liz Thackeray', 'Elizabeth Thackeray'],
  ])
})

test("a reviewer's accept publishes the pair as manual; a deny keeps it out of the queue", () => {
  const path = join(dir, 'matches.json')
  writeFileSync(path, JSON.stringify({ matches: [], deny: [] }))
  const misses = nearMisses(a, b, published())
  const liz = misses.find((m) => m.field === 'what')!
  const wolves = misses.find((m) => m.b.outcome.title === 'Wolfpack Gaming')!
  recordDecision(path, liz, 'accept', { reviewer: 'test' })
  recordDecision(path, wolves, 'deny', { reviewer: 'test', reason: 'not sure it is the same team' })
  const file = JSON.parse(readFileSync(path, 'utf8'))
  assert.equal(file.matches.length, 1)
  assert.deepEqual(file.matches[0].outcomes, [
    { venuep_outcome: liz.a.outcome.outcomeId, venuek_outcome: liz.b.outcome.outcomeId },
  ])
  assert.equal(file.deny[0].venuek_outcome, wolves.b.outcome.outcomeId)
  const overrides = loadMatchOverrides(path, ['venuep', 'venuek'])
  const matches = matchEvents(a, b, overrides)
  const manual = matches.find((m) => m.strategy === 'manual_override')
  assert.deepEqual(
    manual?.outcomes.map((o) => [o.a.title, o.b.title]),
    [['Liz Thackeray', 'Elizabeth Thackeray']],
  )
  // Ann Kerr still pairs automatically, beside the manual pair of the same events.
  assert.ok(matches.some((m) => m.strategy !== 'manual_override' && m.outcomes.some((o) => o.b.title === 'Ann Kerr')))
})
