import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { EVICTION_SCAN_LIMIT, HistoryQueue, type KeyedPoint } from '../../../src/spreads/history/history-queue.js'

/** The history queue's overflow policy: superseded points go first, then the oldest; nothing grows past capacity. */
const T0 = Date.UTC(2026, 10, 21, 12)

/** Point `n` of pair `pair` (its time says which one it is). */
function pt(pair: string, n: number): KeyedPoint {
  return {
    key: `e|${pair}`,
    eventSlug: 'e',
    outcomeKey: pair,
    at: T0 + n,
    spreadBps: 100,
    priceA: 0.4,
    priceB: 0.41,
    platformA: 'venuep',
  }
}

const names = (q: HistoryQueue) => [...q].map((p) => `${p.outcomeKey}${p.at - T0}`)

describe('history queue', () => {
  test('FIFO within capacity; take returns the oldest first', () => {
    const q = new HistoryQueue(4)
    for (const p of [pt('a', 1), pt('b', 1), pt('a', 2)]) q.push(p)
    assert.deepEqual(
      q.take(2).map((p) => `${p.outcomeKey}${p.at - T0}`),
      ['a1', 'b1'],
    )
    assert.deepEqual(names(q), ['a2'])
    assert.deepEqual(q.counters, { thinned: 0, dropped: 0 })
  })

  test('when full, the oldest superseded point is thinned: every pair keeps its latest value', () => {
    const q = new HistoryQueue(4)
    for (const p of [pt('a', 1), pt('b', 1), pt('a', 2), pt('c', 1)]) q.push(p)
    q.push(pt('d', 1))
    assert.deepEqual(names(q), ['b1', 'a2', 'c1', 'd1'], 'a1 went: a2 supersedes it; order kept')
    assert.deepEqual(q.counters, { thinned: 1, dropped: 0 })
  })

  test("when every queued point is its pair's latest, the oldest is dropped and counted", () => {
    const q = new HistoryQueue(3)
    for (const p of [pt('a', 1), pt('b', 1), pt('c', 1)]) q.push(p)
    q.push(pt('d', 1))
    assert.deepEqual(names(q), ['b1', 'c1', 'd1'])
    assert.deepEqual(q.counters, { thinned: 0, dropped: 1 })
    assert.equal(q.size, q.capacity)
  })

  test('the search for a superseded point is bounded (push stays O(1)): past the scan limit the oldest is dropped', () => {
    const q = new HistoryQueue(EVICTION_SCAN_LIMIT + 2)
    for (let i = 0; i < EVICTION_SCAN_LIMIT; i++) q.push(pt(`u${i}`, 1))
    q.push(pt('x', 1))
    q.push(pt('x', 2))
    q.push(pt('y', 1))
    assert.deepEqual(q.counters, { thinned: 0, dropped: 1 }, 'x1 is superseded but beyond the scan')
    assert.equal(names(q)[0], 'u11')
  })

  test('a failed batch goes back to the front, in order; when full, a requeued point with a newer one queued is the one thinned', () => {
    const q = new HistoryQueue(4)
    for (const p of [pt('a', 1), pt('b', 1)]) q.push(p)
    const batch = q.take(2)
    for (const p of [pt('a', 2), pt('c', 1), pt('d', 1)]) q.push(p)
    q.requeue(batch)
    assert.deepEqual(names(q), ['b1', 'a2', 'c1', 'd1'], 'a1 superseded by the queued a2; b1 back at the front')
    assert.deepEqual(q.counters, { thinned: 1, dropped: 0 })
    q.requeue([pt('e', 0)])
    assert.deepEqual(names(q), ['e0', 'a2', 'c1', 'd1'], 'no superseded point: the oldest (b1) made room')
    assert.deepEqual(q.counters, { thinned: 1, dropped: 1 })
  })

  test('capacity must be a positive integer', () => {
    assert.throws(() => new HistoryQueue(0), RangeError)
  })
})
