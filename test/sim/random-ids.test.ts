import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { Rng, uuid } from '../../src/sim/world/random.js'

/**
 * The simulator's ids (hex digests, uuids, 77–78-digit token ids) are made from character codes in one call so that
 * V8 keeps each as one flat string (the world holds millions: appended piece by piece they were half of its heap at
 * real size). The world must stay the same world: the same seed gives the same ids, drawn in the same order, as the
 * appending code below gave.
 */
const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

function appendedHex(r: Rng, length: number): string {
  let s = ''
  while (s.length < length) {
    const v = (r.next() * 4294967296) >>> 0
    s += `${HEX_BYTES[v >>> 24]}${HEX_BYTES[(v >>> 16) & 255]}${HEX_BYTES[(v >>> 8) & 255]}${HEX_BYTES[v & 255]}`
  }
  return s.slice(0, length)
}

function appendedUuid(r: Rng): string {
  const h = appendedHex(r, 32)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[r.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

function appendedDigits(r: Rng, length: number): string {
  let s = String(r.int(1, 9))
  while (s.length < length) s += String(Math.floor(r.next() * 10))
  return s
}

test('ids are those the appending code drew, in the same order, for any seed and lengths', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.array(fc.tuple(fc.constantFrom('hex', 'uuid', 'digits'), fc.integer({ min: 1, max: 80 })), {
        minLength: 1,
        maxLength: 40,
      }),
      (seed, draws) => {
        const flat = new Rng(seed)
        const appended = new Rng(seed)
        for (const [kind, length] of draws) {
          if (kind === 'hex') assert.equal(flat.hex(length), appendedHex(appended, length))
          else if (kind === 'uuid') assert.equal(uuid(flat), appendedUuid(appended))
          else assert.equal(flat.digits(length), appendedDigits(appended, length))
        }
        assert.equal(flat.next(), appended.next(), 'the streams stay in step')
      },
    ),
    { numRuns: 300 },
  )
})

test('a uuid is version 4 with a drawn variant', () => {
  const r = new Rng(1)
  for (let i = 0; i < 1_000; i++)
    assert.match(uuid(r), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
})
