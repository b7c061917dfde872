import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fmtMicros } from '../../src/sim/venuep/format.js'
import { Rng } from '../../src/sim/world/random.js'

/** The straightforward form fmtMicros replaced (padStart and a trailing-zero regex), as the reference. */
function reference(micros: number): string {
  const negative = micros < 0
  const abs = Math.abs(Math.round(micros))
  const int = Math.floor(abs / 1_000_000)
  const frac = abs % 1_000_000
  let s = String(int)
  if (frac !== 0) s += '.' + String(frac).padStart(6, '0').replace(/0+$/, '')
  return negative ? '-' + s : s
}

test('fmtMicros gives the shortest decimal of any micro-unit amount, as the reference does', () => {
  const fixed = [
    0, 1, 10, 100_000, 470_000, 1_000_000, 1_500_000_000, 123_456_789, 999_999, 5, 50, 500_001, -470_000, -1, -0.3, 0.4,
    2.5, 9_007_199_254_740_991,
  ]
  for (const m of fixed) assert.equal(fmtMicros(m), reference(m), String(m))
  assert.equal(fmtMicros(470_000), '0.47')
  assert.equal(fmtMicros(1_500_000_000), '1500')
  assert.equal(fmtMicros(10), '0.00001')
  const rng = new Rng(11)
  for (let i = 0; i < 50_000; i++) {
    const m = rng.int(0, 3) === 0 ? rng.int(-2_000_000_000, 2_000_000_000) : rng.int(0, 1_000) * 10 ** rng.int(0, 6)
    assert.equal(fmtMicros(m), reference(m), String(m))
  }
})
