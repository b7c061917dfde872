import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Type } from '@sinclair/typebox'
import { integerBoundProblems } from '../../src/http/integer-bounds.js'
import { codePointOffset, MAX_JSON_DEPTH, tooDeepAt } from '../../src/http/json-depth.js'
import { bodyTextIssues, textProblem } from '../../src/http/unstorable-text.js'
import { echo, ECHO_STRING_MAX, ECHO_TEXT_BUDGET, shorten } from '../../src/http/validation-echo.js'
import { Limit, Offset } from '../../src/http/schemas/common.js'

/** The request limits every route gets (validation.ts): nesting depth, storable text, short echoes, bounded integers. */
const bytes = (s: string): Uint8Array => Buffer.from(s, 'utf8')

test('tooDeepAt: the bracket that opens level max+1; brackets in strings and escaped quotes do not count', () => {
  assert.equal(tooDeepAt(bytes('[[[]]]'), 3), -1)
  assert.equal(tooDeepAt(bytes('[[[[]]]]'), 3), 3)
  assert.equal(tooDeepAt(bytes('{"a":{"b":[1]}}'), 2), 10)
  assert.equal(tooDeepAt(bytes('["[[[[", "\\"[[[["]'), 1), -1)
  assert.equal(tooDeepAt(bytes('[[],[],[],[]]'), 2), -1, 'siblings do not add up')
  // Stray closers (invalid JSON, the parser's to report) do not make room for deeper nesting.
  assert.equal(tooDeepAt(bytes(']]]][[['), 2), 6)
  assert.equal(tooDeepAt(bytes('['.repeat(60_000)), MAX_JSON_DEPTH), MAX_JSON_DEPTH)
})

test('codePointOffset counts characters, not UTF-8 bytes', () => {
  const b = bytes('{"é💥":[[')
  assert.equal(codePointOffset(b, b.length - 1), 7)
})

test('textProblem: NUL and unpaired surrogates, not pairs or other controls', () => {
  for (const ok of ['', 'plain', 'é', '🌕', 'a\tb\n', '\u0001', '\uffff'])
    assert.equal(textProblem(ok), undefined, JSON.stringify(ok))
  assert.match(textProblem('a\u0000') ?? '', /NUL/)
  for (const [bad, cp] of [
    ['\ud800', 'D800'],
    ['x\udbff', 'DBFF'],
    ['\udc00x', 'DC00'],
    ['\udfff\ud800', 'DFFF'],
    ['🌕\ud83c', 'D83C'],
  ] as const) {
    assert.equal(textProblem(bad), `text must not contain an unpaired surrogate (U+${cp})`)
  }
})

test('bodyTextIssues: every string and key, with array indices as numbers; a bad key is reported, not its value', () => {
  const issues = bodyTextIssues({ a: ['ok', 'b\u0000'], '\ud800': { deeper: '\u0000' }, n: 1, t: true, z: null })
  assert.deepEqual(
    issues.map((i) => i.loc),
    [
      ['body', 'a', 1],
      ['body', '\ud800'],
    ],
  )
  assert.deepEqual(
    bodyTextIssues('\u0000').map((i) => i.loc),
    [['body']],
  )
  assert.deepEqual(bodyTextIssues({ fine: ['x', { y: 'z' }] }), [])
})

test('echo: strings shortened, entries and depth bounded, a shared text budget, __proto__ kept as a key', () => {
  assert.equal(shorten('x'.repeat(ECHO_STRING_MAX)), 'x'.repeat(ECHO_STRING_MAX))
  assert.equal(shorten('x'.repeat(ECHO_STRING_MAX + 1)), `${'x'.repeat(ECHO_STRING_MAX)}…`)
  assert.equal(
    shorten(`${'x'.repeat(ECHO_STRING_MAX - 1)}🌕`),
    `${'x'.repeat(ECHO_STRING_MAX - 1)}…`,
    'never half a surrogate pair',
  )
  assert.deepEqual(echo({ a: { b: { c: 1 } }, l: [[[]], 1] }), { a: { b: '{…}' }, l: ['[…]', 1] })
  const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]))
  assert.deepEqual(Object.keys(echo(many) as object), [...Array.from({ length: 10 }, (_, i) => `k${i}`), '…'])
  const json = JSON.stringify(
    echo(Array.from({ length: 10 }, () => Array.from({ length: 10 }, () => 'y'.repeat(5_000)))),
  )
  assert.ok(json.length < ECHO_TEXT_BUDGET + 2_000, `${json.length} characters`)
  const proto = echo(JSON.parse('{"__proto__":{"x":1}}')) as object
  assert.deepEqual(Object.keys(proto), ['__proto__'])
  assert.equal(Object.getPrototypeOf(proto), Object.prototype)
  for (const v of [null, 0, -0, true, 1e308]) assert.equal(echo(v), v)
})

test('integerBoundProblems: every integer needs safe bounds; enums and bounded integers pass', () => {
  assert.deepEqual(
    integerBoundProblems(
      Type.Object({ limit: Limit(25, 100), offset: Offset(), e: Type.Union([Type.Literal(1), Type.Literal(2)]) }),
    ),
    [],
  )
  assert.deepEqual(
    integerBoundProblems(
      Type.Object({ n: Type.Optional(Type.Integer({ exclusiveMinimum: 0, exclusiveMaximum: 10 })) }),
    ),
    [],
  )
  assert.deepEqual(
    integerBoundProblems(
      Type.Object({ a: Type.Integer(), b: Type.Array(Type.Union([Type.Null(), Type.Integer({ minimum: 0 })])) }),
    ),
    [
      'integer at "/properties/a" needs a minimum and a maximum',
      'integer at "/properties/b/items/anyOf/1" needs a minimum and a maximum',
    ],
  )
  assert.deepEqual(integerBoundProblems(Type.Integer({ minimum: 0, maximum: 2 ** 63 })), [
    'integer at "/" has bounds beyond ±2^53',
  ])
})
