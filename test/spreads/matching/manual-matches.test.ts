import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import type { VenueId } from '../../../src/model/types.js'
import { loadMatchOverrides } from '../../../src/spreads/matching/manual-matches.js'

/**
 * The reviewers' file names venues by their ids (`<venue>_event`, `<venue>_outcome`) for whichever venues the service
 * runs: each entry pairs two of them, oriented by registry order (A the earlier), whatever order the keys are in.
 */
const dir = mkdtempSync(join(tmpdir(), 'predmkt-manual-'))
after(() => rmSync(dir, { recursive: true, force: true }))

function load(file: unknown, venues: readonly string[]): ReturnType<typeof loadMatchOverrides> {
  const path = join(dir, 'matches.json')
  writeFileSync(path, JSON.stringify(file))
  return loadMatchOverrides(path, venues as readonly VenueId[])
}

test('entries name two venues by id and are oriented by registry order', () => {
  const venues = ['one', 'two', 'three']
  const got = load(
    {
      matches: [
        { three_event: 'E3', one_event: 'E1', outcomes: [{ three_outcome: 'O3', one_outcome: 'O1' }], reason: 'r' },
        { two_event: 'F2', three_event: 'F3' },
      ],
      deny: [{ two_event: 'G2', one_event: 'G1', one_outcome: 'P1', two_outcome: 'P2' }],
    },
    venues,
  )
  assert.deepEqual(got, {
    manual: [
      { a: { venue: 'one', eventId: 'E1' }, b: { venue: 'three', eventId: 'E3' }, outcomes: [{ a: 'O1', b: 'O3' }] },
      { a: { venue: 'two', eventId: 'F2' }, b: { venue: 'three', eventId: 'F3' } },
    ],
    deny: [
      { a: { venue: 'one', eventId: 'G1', outcomeId: 'P1' }, b: { venue: 'two', eventId: 'G2', outcomeId: 'P2' } },
    ],
  })
})

test('an entry naming one venue, three, an unknown one or an outcome of a venue it does not pair is refused', () => {
  const venues = ['one', 'two', 'three']
  assert.throws(
    () => load({ matches: [{ one_event: 'E1' }] }, venues),
    /\/matches\/0: names the events of 1 venues \(one\); an entry pairs two, e.g. one_event and two_event/,
  )
  assert.throws(
    () => load({ matches: [{ one_event: 'E1', two_event: 'E2', three_event: 'E3' }] }, venues),
    /\/matches\/0: names the events of 3 venues/,
  )
  assert.throws(() => load({ matches: [{ one_event: 'E1', four_event: 'E4' }] }, venues), /Unexpected property/)
  assert.throws(
    () =>
      load(
        { matches: [{ one_event: 'E1', two_event: 'E2', outcomes: [{ one_outcome: 'O1', three_outcome: 'O3' }] }] },
        venues,
      ),
    /an outcome of three, whose event the entry does not name/,
  )
  assert.throws(
    () => load({ matches: [], deny: [{ one_event: 'E1', two_event: 'E2', three_outcome: 'O3' }] }, venues),
    /\/deny\/0: an outcome of three/,
  )
})
