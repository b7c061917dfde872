import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { ContestFacts, Participant } from '../../../src/spreads/matching/contest.js'
import { nameKey } from '../../../src/spreads/matching/names.js'
import { ReadingParts } from '../../../src/spreads/matching/reading-parts.js'

/**
 * reading-parts.ts hands out one object for equal parts of readings and of accepted pairs' evidence: never a part
 * whose content differs from what it was given, and never one object for two different contents.
 */
test('equal evidence shares its lists and phrases; the values are what the judge gave', () => {
  const parts = new ReadingParts()
  const evidence = (threshold: string) => ({
    kind: 'threshold',
    compared: [`subject: bitcoin price`, `threshold: ${threshold}`, `period: day 2026-12-08`],
    shared: ['bitcoin', 'price'],
    implicit: [],
    period: `day ${'2026-12-08'}`,
    strike: threshold,
  })
  const a = parts.evidence(evidence('above 95000'))
  const b = parts.evidence(evidence('above 96000'))
  assert.deepEqual(a, evidence('above 95000'))
  assert.deepEqual(b, evidence('above 96000'))
  assert.equal(a.shared, b.shared, 'one list for equal shared words')
  assert.equal(a.implicit, b.implicit)
  assert.equal(a.compared[0], b.compared[0])
  assert.notEqual(a.compared[1], b.compared[1])
})

test('contests share a participants pair only when names and codes are equal, whatever the names hold', () => {
  const parts = new ReadingParts()
  const side = (name: string, codes: string[]): Participant => ({ name, key: nameKey(name), codes })
  const contest = (p: Participant, q: Participant, s: 0 | 1): ContestFacts => ({
    participants: [p, q],
    kind: 'winner',
    side: s,
    over: undefined,
    line: undefined,
    score: undefined,
    segment: 'match',
    discipline: undefined,
    day: '2026-12-08',
    dayNumber: 20795,
    minutes: undefined,
    residual: [],
  })
  const x = parts.contest(contest(side('Oakmont Dragons', []), side('Northgate Bears', ['nb']), 0))
  const y = parts.contest(contest(side('Oakmont Dragons', []), side('Northgate Bears', ['nb']), 1))
  assert.equal(x?.participants, y?.participants, 'the two sides of one game share their pair')
  assert.equal(y?.side, 1)
  // Two different pairs that a key joined by control characters would have run together.
  const p = parts.contest(contest(side('A\u0001\u0002B', []), side('C', []), 0))
  const q = parts.contest(contest(side('A', []), side('B\u0001\u0002C', []), 0))
  assert.notEqual(p?.participants, q?.participants)
  assert.deepEqual(
    q?.participants.map((s) => s.name),
    ['A', 'B\u0001\u0002C'],
  )
})
