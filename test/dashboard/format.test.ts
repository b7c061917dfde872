import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  age,
  bps,
  cents,
  contracts,
  levelPrice,
  levelSize,
  parseUtc,
  percent,
  signedCents,
} from '../../src/dashboard/web/format.js'

describe('dashboard formatting', () => {
  test('prices as cents, edges signed, missing values as a dash (never a zero)', () => {
    assert.equal(cents(0.4235), '42.4¢')
    assert.equal(cents(1), '100.0¢')
    assert.equal(cents(null), '—')
    assert.equal(cents(Number.NaN), '—')
    assert.equal(signedCents(0.012), '+1.2¢')
    assert.equal(signedCents(-0.004), '−0.4¢')
    assert.equal(signedCents(0.0001), '0.0¢', 'no sign on what rounds to zero')
    assert.equal(signedCents(undefined), '—')
  })

  test('basis points rounded and grouped, shares as whole percents, sizes grouped with fractions kept', () => {
    assert.equal(bps(1234.4), '1,234')
    assert.equal(bps(-12.6), '-13')
    assert.equal(percent(0.873), '87%')
    assert.equal(contracts(1234), '1,234')
    assert.equal(contracts(2958.349), '2,958.35')
    assert.equal(contracts(null), '—')
  })

  test('ages in the unit a reader needs; negative ages (clock skew) are zero', () => {
    assert.equal(age(420), '0.4 s')
    assert.equal(age(12_300), '12 s')
    assert.equal(age(185_000), '3 min')
    assert.equal(age(7_300_000), '2 h')
    assert.equal(age(2 * 86_400_000 + 5), '2 d')
    assert.equal(age(-500), '0.0 s')
    assert.equal(age(null), '—')
  })

  test('API times (UTC without a zone) read as UTC; zoned times as given', () => {
    assert.equal(parseUtc('2026-11-21T12:00:00.000'), Date.UTC(2026, 10, 21, 12))
    assert.equal(parseUtc('2026-11-21T12:00:00Z'), Date.UTC(2026, 10, 21, 12))
    assert.equal(parseUtc('2026-11-21T13:00:00+01:00'), Date.UTC(2026, 10, 21, 12))
    assert.ok(Number.isNaN(parseUtc('yesterday')))
  })

  test('book levels: decimal strings as cents and grouped sizes; unreadable strings shown as sent', () => {
    assert.equal(levelPrice('0.4700'), '47.0¢')
    assert.equal(levelSize('1234.00'), '1,234')
    assert.equal(levelSize('12.5'), '12.50')
    assert.equal(levelPrice('n/a'), 'n/a')
  })
})
