import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { contentWords, fold, foldFully } from '../../../src/spreads/matching/text.js'

/** The ASCII shortcut of `fold` gives what the full Unicode folding gives, on any text (ASCII or not). */
test('fold agrees with the full folding on any text', () => {
  const pieces = fc.constantFrom(
    'U.S.',
    'J. D. Vance',
    "O'Neil",
    '`quoted`',
    'Łukasz',
    'Ødegaard',
    'São Paulo',
    '–',
    '’',
    ' ',
    'a.b.',
    'X.',
    '$1,000',
    'Fed',
  )
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.array(pieces, { maxLength: 8 }).map((p) => p.join(' ')),
    fc.string({ maxLength: 40 }),
  )
  fc.assert(
    fc.property(text, (t) => assert.equal(fold(t), foldFully(t))),
    { numRuns: 3_000, seed: 18 },
  )
})

/** A word that names a member of Object.prototype is a word like any other (it was once read as a function). */
test("contentWords reads 'constructor', 'valueOf' and '__proto__' as words", () => {
  assert.deepEqual(contentWords("Who wins the Constructors' Championship?"), ['win', 'constructor', 'championship'])
  assert.deepEqual(contentWords('valueOf toString __proto__'), ['valueof', 'tostring', 'proto'])
})
