import assert from 'node:assert/strict'
import { test } from 'node:test'
import { TokenBucket } from '../../src/accounts/token-bucket.js'

test('a full bucket serves `burst` requests at once, then refuses until it refills', () => {
  const b = new TokenBucket({ perSecond: 2, burst: 3 }, 0)
  assert.deepEqual([b.take(0), b.take(0), b.take(0), b.take(0)], [2, 1, 0, -1])
  assert.equal(b.retryAfterSeconds(0), 1)
  assert.equal(b.take(499), -1, 'half a token is not a token')
  assert.equal(b.take(500), 0)
  assert.equal(b.peek(10_000), 3, 'never above burst')
})

test('Retry-After rounds up to whole seconds and is at least 1', () => {
  const slow = new TokenBucket({ perSecond: 0.1, burst: 1 }, 0)
  assert.equal(slow.take(0), 0)
  assert.equal(slow.take(0), -1)
  assert.equal(slow.retryAfterSeconds(0), 10)
  assert.equal(slow.retryAfterSeconds(9_500), 1)
})

test('Retry-After is not inflated by float dust (5 per minute, 11 s after empty: 1 s left)', () => {
  const b = new TokenBucket({ perSecond: 5 / 60, burst: 1 }, 0)
  assert.equal(b.take(0), 0)
  assert.equal(b.retryAfterSeconds(0), 12)
  assert.equal(b.retryAfterSeconds(11_000), 1)
})

test('a clock stepping backwards neither mints nor destroys tokens', () => {
  const b = new TokenBucket({ perSecond: 1, burst: 2 }, 10_000)
  b.take(10_000)
  b.take(10_000)
  assert.equal(b.take(5_000), -1)
  assert.equal(b.take(11_000), 0, 'refill resumes from the newest time seen')
})
