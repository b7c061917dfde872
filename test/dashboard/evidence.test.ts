import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { bookLegs } from '../../src/dashboard/web/book-keys.js'
import { evidenceEntries } from '../../src/dashboard/web/evidence.js'
import { spreadRow } from './records.js'

describe('the selected pair: match evidence and book keys', () => {
  test('every part of `match`, leg a first', () => {
    assert.deepEqual(evidenceEntries(spreadRow()), [
      { term: 'Match quality', values: ['auto_high'] },
      { term: 'Weight', values: ['97% (measured share of such pairs that were the same contract)'] },
      { term: 'Manual', values: ['no: the automatic matcher paired them'] },
      { term: 'venuek contract', values: ['KXFED-27APR-C25'] },
      { term: 'venuep contract', values: ['7116902775'] },
      { term: 'Proposition', values: ['winner'] },
      {
        term: 'Fields compared',
        values: ['subject: cut fed', 'outcome: Cut 25 bps = 25 bps cut', 'period: month 2027-04'],
      },
      { term: 'Shared words', values: ['fed, cut'] },
      { term: 'Implicit words', values: ['us'] },
      { term: 'Period', values: ['April 2027'] },
      { term: 'Strike', values: ['none'] },
      { term: 'venuek texts', values: ['25 bps cut'] },
      { term: 'venuep texts', values: ['Cut 25 bps', 'Fed decision in April?'] },
    ])
  })

  test('a manual match has no evidence, and says so', () => {
    const base = spreadRow()
    const manual = spreadRow({ match: { ...base.match, quality: 'manual', weight: 1, manual: true, evidence: null } })
    const entries = evidenceEntries(manual)
    assert.deepEqual(entries.find((e) => e.term === 'Manual')?.values, ['yes: a reviewer paired them'])
    assert.deepEqual(entries.find((e) => e.term === 'Evidence')?.values, ['none recorded (a manual match)'])
    assert.equal(
      entries.find((e) => e.term === 'Shared words'),
      undefined,
    )
  })

  test('book keys are <venue>:<the leg’s outcome id>, leg a the lower-priced venue; a missing id is no key', () => {
    assert.deepEqual(bookLegs(spreadRow()), [
      { venue: 'venuek', key: 'venuek:KXFED-27APR-C25' },
      { venue: 'venuep', key: 'venuep:7116902775' },
    ])
    const base = spreadRow()
    const partial = spreadRow({ match: { ...base.match, venuep_outcome_id: undefined } })
    assert.deepEqual(bookLegs(partial)[1], { venue: 'venuep', key: undefined })
  })
})
