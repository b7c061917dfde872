import fc from 'fast-check'

/**
 * Hostile values, as fast-check arbitraries, for parameters (text as it goes on the wire), headers (latin1 text)
 * and JSON bodies (JSON text, some of it on purpose not JSON): wrong types, huge, tiny and negative-zero numbers,
 * NaN and Infinity spellings, NUL, unpaired surrogates, overlong and invalid UTF-8, long strings, deep nesting,
 * prototype keys. Each kind of slot gets mostly what can hurt it (numbers where a number is expected, text the
 * store cannot hold where a string is), and now and then anything else.
 *
 * No generated value contains the words tests look for in error bodies as signs of leaked internals (FORBIDDEN),
 * so an error message that echoes a value cannot trip that check.
 */
export const FORBIDDEN =
  /node_modules|\/work\/|\/src\/|\/dist\/|\.[jt]s:\d+|\n\s+at |\b[A-Z][A-Za-z]*Error\b|\bError:|\bsyntax\b|SQLSTATE|postgres|pglite|\bbigint\b|byte sequence|out of range for type|Unicode escape|\bviolates\b|relation "|duplicate key/i

const LONG = 'x'.repeat(2_000)

/** Numbers as text: beyond double, int64, int32 and safe-integer range, negative zero, spellings JSON and Python differ on. */
const NUMBERS = [
  '-0',
  '0',
  '-1',
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
  '1e309',
  '-1e309',
  '1E309',
  '-0.0',
  '0e0',
  '+Infinity',
  '5e-324',
  '1e-400',
  '1e26',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '99999999999999999999',
  '100000000000000000000000000',
  '9223372036854775808.0',
  '1_000_000_000_000_000_000_000',
  '9'.repeat(400),
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740993',
  '1.5',
  '0.1',
  '1.0',
  '1e2',
  '1_000',
  '0x10',
  '+1',
  ' 1 ',
  '00',
  '1e',
  '--1',
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  'inf',
  '',
]

/** Text no store column can hold as sent: NUL, unpaired surrogates (as decoded strings). */
const UNSTORABLE = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\udc00y',
  '\udbff\udbff',
  '\udfff\ud800',
  `${'x'.repeat(300)}\u0000`,
]

/** Other decoded text. */
const STRINGS = [
  '',
  ' ',
  'null',
  'true',
  'undefined',
  '[]',
  '{}',
  '%',
  '..',
  '../../etc/passwd',
  '/',
  '\\',
  "'",
  '"',
  '<script>alert(1)</script>',
  "'; DROP TABLE accounts; --",
  "x' OR '1'='1",
  '💥',
  'é',
  '\u202e',
  '\ufeff',
  '\r\n',
  '\t',
  'a,b,,c',
  ',,,',
  LONG,
  '💥'.repeat(500),
]

/** Already percent-encoded: NUL, UTF-8 of unpaired surrogates, overlong and truncated UTF-8, broken escapes. */
const RAW_ESCAPES = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%ED%BF%BF',
  'x%ED%B0%80',
  '%C0%80',
  '%FF',
  '%E2%82',
  '%',
  '%2',
  '%zz',
  '+',
  '%2B',
  '%26',
  '%3D',
  '%23',
  '%2F',
]

function nest(open: string, close: string, depth: number, inner = ''): string {
  return open.repeat(depth) + inner + close.repeat(depth)
}

/** JSON texts of values of the wrong kind, deeply nested, or not JSON at all. */
const FRAGMENTS = [
  'null',
  'true',
  'false',
  '""',
  '[]',
  '{}',
  '[null]',
  '{"\\u0000":1}',
  '{"\\ud800":"\\ud800"}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `"${'x'.repeat(5_000)}"`,
  `"${'💥'.repeat(2_000)}"`,
  nest('[', ']', 31),
  nest('[', ']', 32),
  nest('[', ']', 33),
  nest('[', ']', 10_000),
  nest('{"a":', '}', 33, '1'),
  nest('{"a":', '}', 5_000, '1'),
  'undefined',
  "'single'",
  '01',
  '.5',
  '1.',
]

/** Whole bodies that are not a JSON object, or too big: empty, malformed, too deep, invalid UTF-8, over the size limit. */
export const BODIES: readonly Buffer[] = [
  ...[
    '',
    '{',
    '}',
    '{"a":1,}',
    "{'a':1}",
    '\ufeff{}',
    'null',
    '[]',
    '"text"',
    '1',
    nest('[', ']', 30_000),
    nest('{"a":', '}', 9_000, '1'),
  ].map((s) => Buffer.from(s)),
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  Buffer.from([0x7b, 0x22, 0xc0, 0x80, 0x22, 0x3a, 0x31, 0x7d]),
  Buffer.alloc(70_000, 0x20),
  // A 1 MB string in a field: over the body limit, announced by its Content-Length (or streamed chunked).
  Buffer.from(`{"email":"${'x'.repeat(1 << 20)}","company":"a","use_case":"b","name":"c"}`),
]

export const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json-seq',
  'application/vnd.api+json',
  '*/*',
  '',
  'application/json;charset=latin1',
  'APPLICATION/JSON',
  'application/json; charset=utf-8',
]

const clean = (s: string): boolean => !FORBIDDEN.test(s)

/** Any hostile decoded text. */
export const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...STRINGS, ...NUMBERS, ...UNSTORABLE) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).filter(clean) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
)

const numberText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
  { weight: 1, arbitrary: fc.double().map((d) => (Object.is(d, -0) ? '-0' : String(d))) },
)

export type Kind = 'number' | 'string' | 'object' | 'array' | 'other'

/** A parameter value as it goes on the wire. */
export function paramValue(kind: Kind): fc.Arbitrary<string> {
  const any = fc.oneof(
    { weight: 4, arbitrary: text.map(percentEncode) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ESCAPES) },
  )
  if (kind === 'number')
    return fc.oneof({ weight: 3, arbitrary: numberText.map(percentEncode) }, { weight: 1, arbitrary: any })
  return fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...RAW_ESCAPES.slice(0, 5)) }, { weight: 3, arbitrary: any })
}

/** Header values are latin1 bytes without controls (uWS drops the connection on those, before any route runs). */
export const headerText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    'x',
    '-0',
    '1e308',
    'NaN',
    '9223372036854775808',
    LONG,
    "'; DROP TABLE accounts; --",
    'a b',
    'é',
    Buffer.from('💥').toString('latin1'),
  ),
  fc
    .string({
      unit: fc
        .integer({ min: 0x20, max: 0xff })
        .filter((c) => c !== 0x7f)
        .map((c) => String.fromCharCode(c)),
      maxLength: 40,
    })
    .filter(clean),
)

/** Any hostile JSON text. */
export const fragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 2, arbitrary: numberText },
  { weight: 2, arbitrary: text.map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }).filter(clean) },
)

/** Hostile JSON text for a field of this kind (objects are handled by the body generator, which nests). */
export function jsonValue(kind: Kind): fc.Arbitrary<string> {
  if (kind === 'number') return fc.oneof({ weight: 3, arbitrary: numberText }, { weight: 1, arbitrary: fragment })
  if (kind === 'string')
    return fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...UNSTORABLE).map((s) => JSON.stringify(s)) },
      { weight: 2, arbitrary: fragment },
    )
  if (kind === 'array')
    return fc.oneof(
      { weight: 2, arbitrary: fc.array(fragment, { maxLength: 3 }).map((items) => `[${items.join(',')}]`) },
      { weight: 1, arbitrary: fragment },
    )
  return fragment
}

/** Every byte but the unreserved characters as %XX of its UTF-8 (an unpaired surrogate becomes U+FFFD's bytes). */
export function percentEncode(s: string): string {
  let out = ''
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b)
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}
