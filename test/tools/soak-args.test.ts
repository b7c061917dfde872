import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseSoakArgs } from '../../tools/soak/args.js'

test('the soak runs 10 minutes unless --minutes says otherwise', () => {
  assert.deepEqual(parseSoakArgs([]), { minutes: 10 })
  assert.deepEqual(parseSoakArgs(['--minutes', '3']), { minutes: 3 })
  assert.deepEqual(parseSoakArgs(['--minutes=0.5']), { minutes: 0.5 })
  assert.throws(() => parseSoakArgs(['--minutes', '0']), /positive number/)
  assert.throws(() => parseSoakArgs(['--minutes']), /positive number/)
  assert.throws(() => parseSoakArgs(['--hours', '1']), /unknown argument/)
})
