import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import {
  displayPrefix,
  generateApiKey,
  hashKey,
  looksLikeApiKey,
  sameDigest,
  SECRET_LENGTH,
} from '../../src/accounts/api-key.js'

const PREFIX = 'pmk_live_'

test('keys: service prefix + 43 base62 characters (256 bits), all distinct; stored form is the SHA-256', () => {
  const seen = new Set<string>()
  const chars = new Set<string>()
  for (let i = 0; i < 2_000; i++) {
    const k = generateApiKey(PREFIX)
    assert.match(k.value, /^pmk_live_[0-9A-Za-z]{43}$/)
    assert.equal(k.hash, createHash('sha256').update(k.value).digest('hex'))
    assert.equal(k.displayPrefix, `${k.value.slice(0, PREFIX.length + 4)}…`)
    assert.ok(!seen.has(k.value))
    seen.add(k.value)
    for (const c of k.value.slice(PREFIX.length)) chars.add(c)
  }
  assert.equal(chars.size, 62, 'the whole alphabet is used')
  assert.ok(62 ** SECRET_LENGTH >= 2 ** 256)
})

test('shape check rejects anything that cannot be a key, before any lookup', () => {
  const k = generateApiKey(PREFIX).value
  assert.equal(looksLikeApiKey(PREFIX, k), true)
  for (const bad of [
    '',
    PREFIX,
    k.slice(0, -1),
    `${k}x`,
    k.replace(PREFIX, 'pmk_test_'),
    `${k.slice(0, -1)}-`,
    ` ${k.slice(1)}`,
    `${k.slice(0, -1)}é`,
  ]) {
    assert.equal(looksLikeApiKey(PREFIX, bad), false, bad)
  }
})

test('digest comparison: equal, unequal, malformed', () => {
  const h = hashKey('a')
  assert.equal(sameDigest(h, hashKey('a')), true)
  assert.equal(sameDigest(h, hashKey('b')), false)
  assert.equal(sameDigest(h, h.slice(2)), false)
  assert.equal(sameDigest('', ''), false)
  assert.equal(displayPrefix('pk_', 'pk_abcdefgh'), 'pk_abcd…')
})
