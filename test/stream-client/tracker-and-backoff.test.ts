import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { isTerminalClose, reconnectDelayMs } from '../../src/stream-client/reconnect-policy.js'
import { StreamTracker } from '../../src/stream-client/stream-tracker.js'

describe('StreamTracker (the seq rules)', () => {
  test('deltas continue at seq + 1; a snapshot may repeat or jump; overlap is a duplicate; a hole or a new epoch is a gap', () => {
    const t = new StreamTracker()
    assert.equal(t.next('e1', 1), 'gap', 'a delta before any snapshot cannot be placed')
    assert.equal(t.next('e1', 2), 'waiting', 'one snapshot request per gap: later frames wait')
    assert.equal(t.snapshot('e1', 10), 'apply')
    assert.equal(t.next('e1', 11), 'apply')
    assert.equal(t.next('e1', 11), 'duplicate')
    assert.equal(t.snapshot('e1', 11), 'apply', 'a snapshot on request repeats the seq')
    assert.equal(t.next('e1', 12), 'apply')
    assert.equal(t.snapshot('e1', 20), 'apply', 'a snapshot after dropped frames jumps ahead')
    assert.equal(t.next('e1', 22), 'gap')
    assert.equal(t.resumable, false, 'a stream waiting for its snapshot has no resume token')
    t.snapshot('e1', 22)
    assert.equal(t.next('e2', 23), 'gap', 'another epoch: continuity is gone')
  })
})

describe('reconnect policy', () => {
  test('4400, 4401, 4403 are terminal; 1001, 4008, 4029 and network errors (1006) reconnect', () => {
    assert.deepEqual(
      [1001, 1006, 4008, 4029, 4400, 4401, 4403].map((c) => [c, isTerminalClose(c)]),
      [
        [1001, false],
        [1006, false],
        [4008, false],
        [4029, false],
        [4400, true],
        [4401, true],
        [4403, true],
      ],
    )
  })

  test('the ceiling doubles up to the cap, the delay is the random fraction of it, and a bye adds its floor', () => {
    const o = (r: number) => ({ baseMs: 100, maxMs: 1_000, random: () => r })
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((a) => reconnectDelayMs(a, o(0.999))),
      [99, 199, 399, 799, 999, 999],
    )
    assert.equal(reconnectDelayMs(3, o(0.5)), 400)
    assert.equal(reconnectDelayMs(3, o(0)), 50, 'never zero: half the base at least')
    assert.equal(reconnectDelayMs(0, o(0.5), 2_000), 2_050)
  })
})
