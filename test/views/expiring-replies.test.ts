import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ExpiringReplies } from '../../src/views/expiring-replies.js'

describe('ExpiringReplies', () => {
  const bytes = (s: string) => Buffer.from(s)

  test('a reply is served until its deadline, then dropped', () => {
    const r = new ExpiringReplies()
    r.set('a=1', bytes('one'), 1_000, 0)
    assert.deepEqual(r.get('a=1', 999), bytes('one'))
    assert.equal(r.get('a=1', 1_000), undefined)
    assert.equal(r.size, 0)
  })

  test('nothing is kept when the deadline is not after now', () => {
    const r = new ExpiringReplies()
    r.set('a=1', bytes('one'), 500, 500)
    assert.equal(r.size, 0)
    assert.equal(r.get('a=1', 0), undefined)
  })

  test('bounded: the oldest insertion goes first; replacing a key does not evict', () => {
    const r = new ExpiringReplies(2)
    r.set('a', bytes('a'), 10, 0)
    r.set('b', bytes('b'), 10, 0)
    r.set('b', bytes('b2'), 10, 0)
    assert.equal(r.size, 2)
    r.set('c', bytes('c'), 10, 0)
    assert.equal(r.get('a', 1), undefined)
    assert.deepEqual(r.get('b', 1), bytes('b2'))
    assert.deepEqual(r.get('c', 1), bytes('c'))
  })

  test('a reply kept with a version is served for that version only, and a newer one replaces it', () => {
    const r = new ExpiringReplies<number>()
    r.set(20_024, bytes('epoch 7'), 10, 0, 7)
    assert.deepEqual(r.get(20_024, 1, 7), bytes('epoch 7'))
    assert.equal(r.get(20_024, 1, 8), undefined, 'another version is a miss')
    assert.equal(r.get(20_024, 1), undefined, 'so is no version')
    r.set(20_024, bytes('epoch 8'), 10, 0, 8)
    assert.equal(r.size, 1, 'one entry per key, whatever its version')
    assert.deepEqual(r.get(20_024, 1, 8), bytes('epoch 8'))
    assert.equal(r.get(20_024, 1, 7), undefined)
  })
})
