import assert from 'node:assert/strict'
import { test } from 'node:test'
import { findJsonError } from '../../src/http/json-error.js'
import { coercerFor } from '../../src/http/param-coerce.js'
import { parseQuery } from '../../src/http/query.js'

/** The string-level pieces under validation: query decoding, pydantic-style coercion, JSON error positions. */

test('parseQuery: form decoding, blank values, last value wins, never throws', () => {
  assert.deepEqual([...parseQuery('')], [])
  assert.deepEqual(Object.fromEntries(parseQuery('a=1&b=x+y%21&c&d=&a=2&&e=%E2%82%AC')), {
    a: '2',
    b: 'x y!',
    c: '',
    d: '',
    e: '€',
  })
  // Malformed escapes stay literal; invalid UTF-8 becomes U+FFFD (Python's unquote), and the rest still decodes.
  assert.deepEqual(Object.fromEntries(parseQuery('q=100%&r=%zz%41&s=%FF%41&t=é%20x')), {
    q: '100%',
    r: '%zzA',
    s: '\uFFFDA',
    t: 'é x',
  })
  assert.deepEqual(Object.fromEntries(parseQuery('k%20ey=v=w')), { 'k ey': 'v=w' })
})

test('coercerFor: pydantic lax parsing for scalar parameter types', () => {
  const int = coercerFor({ type: 'integer' })
  assert.ok(int !== undefined)
  assert.deepEqual(['5', ' 7 ', '+3', '-2', '1_000', '25.0', '2.5', '0x10', '1e2', 'abc', ''].map(int), [
    5,
    7,
    3,
    -2,
    1000,
    25,
    '2.5',
    '0x10',
    '1e2',
    'abc',
    '',
  ])
  const num = coercerFor({ type: 'number' })
  assert.ok(num !== undefined)
  assert.deepEqual(['0.02', '.5', '1e3', '-4', 'inf', 'NaN', 'Infinity', '1.2.3'].map(num), [
    0.02,
    0.5,
    1000,
    -4,
    'inf',
    'NaN',
    'Infinity',
    '1.2.3',
  ])
  const bool = coercerFor({ type: 'boolean' })
  assert.ok(bool !== undefined)
  assert.deepEqual(['true', 'FALSE', '1', '0', 'yes', 'no', 'on', 'off', 't', 'f', 'maybe'].map(bool), [
    true,
    false,
    true,
    false,
    true,
    false,
    true,
    false,
    true,
    false,
    'maybe',
  ])
  // Literal unions of numbers (outcome_index 0 | 1) and nullable numbers are numeric; anything admitting a string stays a string.
  assert.equal(
    coercerFor({
      anyOf: [
        { const: 0, type: 'number' },
        { const: 1, type: 'number' },
      ],
    })?.('1'),
    1,
  )
  assert.equal(coercerFor({ anyOf: [{ type: 'integer' }, { type: 'null' }] })?.('3'), 3)
  assert.equal(coercerFor({ anyOf: [{ type: 'integer' }, { type: 'string' }] }), undefined)
  assert.equal(coercerFor({ type: 'string', enum: ['a'] }), undefined)
  assert.throws(() => coercerFor({ type: 'array', items: { type: 'string' } }), /use Csv\(\) for lists/)
})

test('findJsonError: CPython json positions and messages', () => {
  const cases: [string, number, string][] = [
    ['', 0, 'Expecting value'],
    ['  ', 2, 'Expecting value'],
    ['{"a": }', 6, 'Expecting value'],
    ['{"a" 1}', 5, "Expecting ':' delimiter"],
    ['{"a": 1 "b": 2}', 8, "Expecting ',' delimiter"],
    ['{1: 2}', 1, 'Expecting property name enclosed in double quotes'],
    ['{"a": 1,}', 8, 'Expecting property name enclosed in double quotes'],
    ["{'a': 1}", 1, 'Expecting property name enclosed in double quotes'],
    ['[1, 2,]', 6, 'Expecting value'],
    ['[1 2]', 3, "Expecting ',' delimiter"],
    ['{"a": 1}}', 8, 'Extra data'],
    ['{"a": "b', 6, 'Unterminated string starting at'],
    ['{"a": "b\nc"}', 8, 'Invalid control character at'],
    ['["\\x"]', 2, 'Invalid \\escape'],
    ['["\\u12G4"]', 2, 'Invalid \\uXXXX escape'],
    ['{"a": tru}', 6, 'Expecting value'],
    ['{"a": NaN}', 6, 'Expecting value'],
    ['{"a": 01}', 7, "Expecting ',' delimiter"],
    // Positions count code points, as Python's do: the emoji is one character there, two UTF-16 units here.
    ['["😀", x]', 6, 'Expecting value'],
  ]
  for (const [text, position, message] of cases) {
    assert.throws(() => JSON.parse(text), SyntaxError, `JSON.parse must reject ${text}`)
    assert.deepEqual(findJsonError(text), { position, message }, text)
  }
})

test('findJsonError: deep nesting does not overflow the stack', () => {
  const text = '['.repeat(60_000)
  assert.deepEqual(findJsonError(text), { position: 60_000, message: 'Expecting value' })
  assert.deepEqual(findJsonError(`${'{"a":'.repeat(10_000)}1${'}'.repeat(9_999)}`), {
    position: 60_000,
    message: "Expecting ',' delimiter",
  })
})
