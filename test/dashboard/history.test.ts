import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { isHistoryRange, MAX_LIVE_POINTS, SpreadSeries } from '../../src/dashboard/web/history.js'

const T0 = Date.UTC(2026, 10, 21, 12)
const point = (minutes: number, bps: number) => ({
  timestamp: new Date(T0 + minutes * 60_000).toISOString().slice(0, -1),
  spread_bps: bps,
})

describe('spread series', () => {
  test('history in seconds, oldest first; live values after it; nothing that would fold the line back', () => {
    const s = new SpreadSeries([point(0, 100), point(5, 120), point(5, 999), point(10, 90)])
    assert.equal(s.historyPoints, 3, 'a repeated bucket is dropped')
    assert.deepEqual(s.data(), [
      [T0 / 1000, T0 / 1000 + 300, T0 / 1000 + 600],
      [100, 120, 90],
    ])
    assert.equal(s.append(T0 + 600_000, 50), false, 'not after the last point')
    assert.equal(s.append(T0 + 601_000, 80), true)
    assert.equal(s.append(T0 + 600_500, 70), false, 'older than the last live value')
    assert.equal(s.append(T0 + 602_000, Number.NaN), false)
    assert.deepEqual(s.data()[1], [100, 120, 90, 80])
    assert.equal(s.livePoints, 1)
  })

  test('the live tail is bounded, the history kept whole', () => {
    const s = new SpreadSeries([point(0, 1), point(1, 2)])
    for (let i = 1; i <= MAX_LIVE_POINTS + 10; i++) s.append(T0 + 60_000 + i * 1000, i)
    const [xs, ys] = s.data()
    assert.equal(s.livePoints, MAX_LIVE_POINTS)
    assert.equal(xs.length, 2 + MAX_LIVE_POINTS)
    assert.deepEqual(ys.slice(0, 3), [1, 2, 11], 'the oldest live values went first')
    assert.equal(ys.at(-1), MAX_LIVE_POINTS + 10)
  })

  test('ranges are the route’s', () => {
    assert.deepEqual(['1d', '1w', '1m', 'all', '1y', undefined].map(isHistoryRange), [
      true,
      true,
      true,
      true,
      false,
      false,
    ])
  })
})
