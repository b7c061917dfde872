import { issue, type ValidationIssue } from './validation-errors.js'

/**
 * Text the store cannot hold, refused at the edge for every text a request carries: parameters, headers, and
 * every string and object key of a JSON body, free-form objects such as an alert's `scope` included. Postgres
 * (and PGlite) reject U+0000 in `text` ("invalid byte sequence for encoding UTF8: 0x00") and `\u0000` in
 * `jsonb` ("unsupported Unicode escape sequence"); an unpaired UTF-16 surrogate (`"\ud800"` is valid JSON) is
 * invalid `jsonb` and is silently replaced by U+FFFD in `text`. Neither is meaningful text, so the request is
 * a 422 (pydantic's `value_error`, the type of a custom check) rather than a store error turned 500, or a value
 * stored other than as sent.
 */
const SUSPECT = /[\u0000\ud800-\udfff]/

/** What is wrong with `s` as stored text, or undefined when nothing is. */
export function textProblem(s: string): string | undefined {
  // Almost every string has neither: one regex test, and the loop only for the rest (valid pairs included).
  if (!SUSPECT.test(s)) return undefined
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 0) return 'text must not contain NUL (U+0000)'
    if (c < 0xd800 || c > 0xdfff) continue
    const next = s.charCodeAt(i + 1)
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++
      continue
    }
    return `text must not contain an unpaired surrogate (U+${c.toString(16).toUpperCase()})`
  }
  return undefined
}

/** The 422 entry for unstorable text at `loc`. */
export function textIssue(loc: readonly (string | number)[], problem: string, input: unknown): ValidationIssue {
  return issue('value_error', loc, `Value error, ${problem}`, input, { error: problem })
}

/**
 * One entry per string or key of a parsed JSON body that `textProblem` refuses, at its `loc` (array indices as
 * numbers, a bad key at the key's own location, as `extra_forbidden` is). Recursive: the body's depth is bounded
 * before parsing (json-depth.ts).
 */
export function bodyTextIssues(body: unknown): ValidationIssue[] {
  const out: ValidationIssue[] = []
  walk(body, ['body'], out)
  return out
}

function walk(value: unknown, loc: (string | number)[], out: ValidationIssue[]): void {
  if (typeof value === 'string') {
    const problem = textProblem(value)
    if (problem !== undefined) out.push(textIssue(loc, problem, value))
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) walk(value[i], [...loc, i], out)
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      const problem = textProblem(key)
      if (problem !== undefined) out.push(textIssue([...loc, key], problem, key))
      else walk(v, [...loc, key], out)
    }
  }
}
