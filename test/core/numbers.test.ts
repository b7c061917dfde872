import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseDecimal, parseMicros } from '../../src/core/numbers.js'
import { isoNoZone, parseTimestampMs } from '../../src/core/time.js'

test('parseMicros reads venue decimal strings exactly', () => {
  assert.equal(parseMicros('0.4700'), 470_000)
  assert.equal(parseMicros('.48'), 480_000)
  assert.equal(parseMicros('-3.00'), -3_000_000)
  assert.equal(parseMicros('219.217767'), 219_217_767)
  assert.equal(parseMicros('1'), 1_000_000)
  assert.equal(parseMicros('0.00000049'), 0)
  assert.equal(parseMicros('0.0000005'), 1)
  assert.equal(parseMicros(0.1 + 0.2), 300_000)
  assert.equal(parseMicros('1e-2'), 10_000)
})

test('missing or malformed values are undefined, never 0', () => {
  for (const v of ['', 'abc', '1.2.3', '-', '.', null, undefined, {}, NaN, Infinity]) {
    assert.equal(parseMicros(v), undefined, `parseMicros(${String(v)})`)
    assert.equal(parseDecimal(v), undefined, `parseDecimal(${String(v)})`)
  }
  assert.equal(parseDecimal('0'), 0)
})

test('timestamps: ISO without zone suffix out, venue formats in', () => {
  assert.equal(isoNoZone(Date.UTC(2026, 2, 24, 6, 40, 23, 5)), '2026-03-24T06:40:23.005')
  assert.equal(parseTimestampMs('2026-03-24 06:40:23+00'), Date.UTC(2026, 2, 24, 6, 40, 23))
  assert.equal(parseTimestampMs('1757908892351'), 1757908892351)
  assert.equal(parseTimestampMs(1765357199), 1765357199000)
  assert.equal(parseTimestampMs('2024-12-29T17:38:00.916304Z'), Date.parse('2024-12-29T17:38:00.916Z'))
  assert.equal(parseTimestampMs('not a date'), undefined)
})
