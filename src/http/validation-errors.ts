import type { ErrorObject } from 'ajv'
import { AppError, validationError, type ValidationIssue } from '../core/errors.js'
import { echo, shorten } from './validation-echo.js'
import { pushAll } from '../core/arrays.js'

/**
 * Ajv errors → FastAPI/pydantic v2 error entries. The original service answered 422 with pydantic's
 * `{"detail": [{"type","loc","msg","input","ctx"?}]}` and clients parse it (docs/DESIGN.md, API conventions), so the
 * types, messages and `ctx` keys below are pydantic's, not Ajv's. The Ajv instance must run with `verbose: true`
 * (errors carry `data`, `schema`, `parentSchema`).
 */
export type Location = 'path' | 'query' | 'header' | 'body'

export type { ValidationIssue }

/** What the errors are about: raw parameter strings (echoed as `input`) or the parsed JSON body. */
export type ErrorSource =
  | {
      readonly location: 'path' | 'query' | 'header'
      readonly raw: Readonly<Record<string, string | undefined>>
      readonly order: readonly string[]
    }
  | { readonly location: 'body'; readonly body: unknown; readonly order: readonly string[] }

/** One entry; what it echoes of the request (`input`, keys in `loc`) is shortened (validation-echo.ts). */
export function issue(
  type: string,
  loc: readonly (string | number)[],
  msg: string,
  input: unknown,
  ctx?: Readonly<Record<string, unknown>>,
): ValidationIssue {
  const at = loc.map((s) => (typeof s === 'string' ? shorten(s) : s))
  return ctx === undefined
    ? { type, loc: at, msg, input: echo(input) }
    : { type, loc: at, msg, input: echo(input), ctx }
}

/**
 * A 422 with one entry, for a parameter a handler checks beyond its schema (one of two optional parameters given,
 * a CSV item outside its values, a webhook host that is not public): the same body as schema validation gives.
 */
export function invalid(
  type: string,
  loc: readonly (string | number)[],
  msg: string,
  input: unknown,
  ctx?: Readonly<Record<string, unknown>>,
): AppError {
  return validationError([issue(type, loc, msg, input, ctx)])
}

/**
 * A 422 for a value outside `values` that a handler checks itself (a CSV item, whose allowed values are data): the
 * `literal_error` entry schema validation gives for an enum, e.g. "Input should be 'a' or 'b'".
 */
export function notOneOf(loc: readonly (string | number)[], values: readonly unknown[], input: unknown): AppError {
  const d = literal(values)
  return invalid(d.type, loc, d.msg, input, d.ctx)
}

interface Candidate {
  readonly issue: ValidationIssue
  /** Lower wins when one field has several problems (pydantic reports the first failing check only). */
  readonly rank: number
}

/**
 * Maps one validator's errors. Result: one entry per field (`loc`), the most basic problem first (type before
 * bounds), ordered by the schema's property order, then Ajv's order. `found` are problems the caller found
 * itself (unstorable text): they win over Ajv's at the same `loc`.
 */
export function mapAjvErrors(
  errors: readonly ErrorObject[],
  source: ErrorSource,
  found: readonly ValidationIssue[] = [],
): ValidationIssue[] {
  const candidates: Candidate[] = found.map((i) => ({ issue: i, rank: FOUND_RANK }))
  for (const e of collapseUnions(errors)) {
    const c = toCandidate(e, source)
    if (c !== undefined) candidates.push(c)
  }
  const byLoc = new Map<string, Candidate>()
  for (const c of candidates) {
    const key = JSON.stringify(c.issue.loc)
    const seen = byLoc.get(key)
    if (seen === undefined || c.rank < seen.rank) byLoc.set(key, c)
  }
  const position = (loc: readonly (string | number)[]): number => {
    const i = source.order.indexOf(String(loc[1]))
    return i === -1 ? source.order.length : i
  }
  // Array.prototype.sort is stable: ties keep Ajv's order.
  return [...byLoc.values()].map((c) => c.issue).sort((a, b) => position(a.loc) - position(b.loc))
}

type Union = ErrorObject & { readonly literals?: readonly unknown[] }

/**
 * An `anyOf`/`oneOf` failure comes as one error per branch plus the union's own. A union of constants (enum
 * written as literals, optionally nullable) becomes one `literal_error`; otherwise the union error and the
 * errors of `null` branches are dropped, so `Optional[int]` reports `int_parsing` like pydantic does.
 */
function collapseUnions(errors: readonly ErrorObject[]): Union[] {
  const dropped = new Set<ErrorObject>()
  const replaced = new Map<ErrorObject, Union>()
  for (const u of errors) {
    if (u.keyword !== 'anyOf' && u.keyword !== 'oneOf') continue
    const branches = Array.isArray(u.schema) ? (u.schema as unknown[]) : []
    if (branches.length === 0) continue
    const prefix = `${u.schemaPath}/`
    const subs = errors.filter((e) => e.schemaPath.startsWith(prefix))
    const literals = literalValues(branches)
    if (literals !== undefined) {
      for (const s of subs) dropped.add(s)
      replaced.set(u, { ...u, literals })
      continue
    }
    dropped.add(u)
    for (const s of subs) {
      const branch = branches[Number(s.schemaPath.slice(prefix.length).split('/')[0])]
      if (isNullSchema(branch)) dropped.add(s)
    }
  }
  return errors.filter((e) => !dropped.has(e)).map((e) => replaced.get(e) ?? e)
}

function literalValues(branches: readonly unknown[]): unknown[] | undefined {
  const values: unknown[] = []
  for (const b of branches) {
    if (isNullSchema(b)) continue
    if (typeof b !== 'object' || b === null) return undefined
    const s = b as { const?: unknown; enum?: unknown[] }
    if ('const' in s) values.push(s.const)
    else if (Array.isArray(s.enum)) pushAll(values, s.enum)
    else return undefined
  }
  return values.length > 0 ? values : undefined
}

function isNullSchema(s: unknown): boolean {
  return typeof s === 'object' && s !== null && (s as { type?: unknown }).type === 'null'
}

function toCandidate(e: Union, source: ErrorSource): Candidate | undefined {
  // `if` only says "then/else failed"; the substantive errors are reported separately.
  if (e.keyword === 'if') return undefined
  const p = e.params as Record<string, unknown>
  const path = pointerSegments(e.instancePath)
  let field: string | undefined
  if (e.keyword === 'required' || e.keyword === 'dependencies' || e.keyword === 'dependentRequired')
    field = String(p.missingProperty)
  else if (e.keyword === 'additionalProperties') field = String(p.additionalProperty)
  else if (e.keyword === 'unevaluatedProperties') field = String(p.unevaluatedProperty)
  const segments = field === undefined ? path : [...path, field]

  let loc: (string | number)[]
  let input: unknown
  if (source.location === 'body') {
    loc = ['body', ...withArrayIndices(source.body, segments)]
    input =
      field === undefined
        ? e.data
        : e.keyword.endsWith('Properties')
          ? (e.data as Record<string, unknown>)[field]
          : null
  } else {
    // Parameter objects are flat: the first segment is the parameter name; pydantic echoes the raw string.
    const name = segments[0] ?? ''
    loc = [source.location, name]
    input = source.raw[name] ?? null
  }
  const isRoot = segments.length === 0
  const d = describe(e, p, source.location !== 'body', isRoot, input)
  return { issue: issue(d.type, loc, d.msg, input, d.ctx), rank: d.rank }
}

interface Description {
  readonly type: string
  readonly msg: string
  readonly ctx?: Record<string, unknown>
  readonly rank: number
}

/** Text the store cannot hold is the first thing to fix, whatever else the schema says about the field. */
const FOUND_RANK = -1
/** A literal choice is reported even when the type is also wrong: pydantic says `literal_error` for 7 vs 'a' | 'b'. */
const LITERAL_RANK = 0
const TYPE_RANK = 1
const FORMAT_RANK = 2
const CONSTRAINT_RANK = 3

function describe(
  e: Union,
  p: Record<string, unknown>,
  isParam: boolean,
  isRoot: boolean,
  input: unknown,
): Description {
  switch (e.keyword) {
    case 'required':
    case 'dependencies':
    case 'dependentRequired':
      return { type: 'missing', msg: 'Field required', rank: TYPE_RANK }
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return { type: 'extra_forbidden', msg: 'Extra inputs are not permitted', rank: TYPE_RANK }
    case 'type':
      return { ...typeError(String(p.type), isParam, isRoot, input), rank: TYPE_RANK }
    case 'anyOf':
    case 'oneOf':
      if (e.literals !== undefined) return literal(e.literals)
      return fallback(e)
    case 'enum':
      return literal(p.allowedValues as unknown[])
    case 'const':
      return literal([p.allowedValue])
    case 'minimum':
      return bound('greater_than_equal', 'greater than or equal to', 'ge', p.limit)
    case 'maximum':
      return bound('less_than_equal', 'less than or equal to', 'le', p.limit)
    case 'exclusiveMinimum':
      return bound('greater_than', 'greater than', 'gt', p.limit)
    case 'exclusiveMaximum':
      return bound('less_than', 'less than', 'lt', p.limit)
    case 'multipleOf':
      return constraint('multiple_of', `Input should be a multiple of ${String(p.multipleOf)}`, {
        multiple_of: p.multipleOf,
      })
    case 'minLength':
      return constraint('string_too_short', `String should have at least ${count(p.limit, 'character')}`, {
        min_length: p.limit,
      })
    case 'maxLength':
      return constraint('string_too_long', `String should have at most ${count(p.limit, 'character')}`, {
        max_length: p.limit,
      })
    case 'pattern':
      return constraint('string_pattern_mismatch', `String should match pattern '${String(p.pattern)}'`, {
        pattern: p.pattern,
      })
    case 'minItems':
    case 'maxItems': {
      const actual = Array.isArray(input) ? input.length : 0
      const short = e.keyword === 'minItems'
      const msg = `List should have ${short ? 'at least' : 'at most'} ${count(p.limit, 'item')} after validation, not ${actual}`
      const bound = short ? { min_length: p.limit } : { max_length: p.limit }
      return constraint(short ? 'too_short' : 'too_long', msg, { field_type: 'List', ...bound, actual_length: actual })
    }
    case 'format':
      return { ...formatError(String(p.format), input), rank: FORMAT_RANK }
    default:
      return fallback(e)
  }
}

/** pydantic's parsing errors for parameters (always strings), its strict type errors for JSON bodies. */
function typeError(types: string, isParam: boolean, isRoot: boolean, input: unknown): Omit<Description, 'rank'> {
  const expected = types.split(',').find((t) => t !== 'null') ?? 'null'
  switch (expected) {
    case 'integer':
      if (isParam)
        return { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' }
      if (typeof input === 'number') {
        return { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part' }
      }
      return { type: 'int_type', msg: 'Input should be a valid integer' }
    case 'number':
      if (isParam)
        return { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' }
      return { type: 'float_type', msg: 'Input should be a valid number' }
    case 'boolean':
      if (isParam) return { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input' }
      return { type: 'bool_type', msg: 'Input should be a valid boolean' }
    case 'string':
      return { type: 'string_type', msg: 'Input should be a valid string' }
    case 'object':
      if (isRoot)
        return {
          type: 'model_attributes_type',
          msg: 'Input should be a valid dictionary or object to extract fields from',
        }
      return { type: 'dict_type', msg: 'Input should be a valid dictionary' }
    case 'array':
      return { type: 'list_type', msg: 'Input should be a valid list' }
    default:
      return { type: 'none_required', msg: 'Input should be None' }
  }
}

function literal(values: readonly unknown[]): Description {
  const expected = joinOr(values.map(pyRepr))
  return { type: 'literal_error', msg: `Input should be ${expected}`, ctx: { expected }, rank: LITERAL_RANK }
}

function bound(type: string, words: string, key: string, limit: unknown): Description {
  return constraint(type, `Input should be ${words} ${String(limit)}`, { [key]: limit })
}

function constraint(type: string, msg: string, ctx: Record<string, unknown>): Description {
  return { type, msg, ctx, rank: CONSTRAINT_RANK }
}

function fallback(e: ErrorObject): Description {
  const error = e.message ?? 'invalid value'
  return { type: 'value_error', msg: `Value error, ${error}`, ctx: { error }, rank: CONSTRAINT_RANK }
}

/** pydantic's messages for the string formats it knows; anything else is a `value_error`. */
function formatError(format: string, input: unknown): Omit<Description, 'rank'> {
  switch (format) {
    case 'email': {
      const reason = emailReason(String(input))
      return { type: 'value_error', msg: `value is not a valid email address: ${reason}`, ctx: { reason } }
    }
    case 'uri':
    case 'url':
    case 'uri-reference':
      return parsing('url_parsing', 'Input should be a valid URL', 'invalid URL')
    case 'date-time':
      return parsing('datetime_parsing', 'Input should be a valid datetime', 'invalid datetime format')
    case 'date':
      return parsing('date_parsing', 'Input should be a valid date in the format YYYY-MM-DD', 'invalid date format')
    case 'time':
      return parsing('time_parsing', 'Input should be in a valid time format', 'invalid time format')
    case 'uuid':
      return parsing('uuid_parsing', 'Input should be a valid UUID', 'invalid UUID format')
    default: {
      const error = `value is not a valid ${format}`
      return { type: 'value_error', msg: `Value error, ${error}`, ctx: { error } }
    }
  }
}

function parsing(type: string, prefix: string, error: string): Omit<Description, 'rank'> {
  return { type, msg: `${prefix}, ${error}`, ctx: { error } }
}

/** The reasons python-email-validator gives for the common mistakes. */
function emailReason(s: string): string {
  const at = s.lastIndexOf('@')
  if (at === -1) return 'An email address must have an @-sign.'
  if (at === 0) return 'There must be something before the @-sign.'
  const domain = s.slice(at + 1)
  if (domain === '') return 'There must be something after the @-sign.'
  if (!domain.includes('.')) return 'The part after the @-sign is not valid. It should have a period.'
  return 'The email address is not valid.'
}

function count(n: unknown, noun: string): string {
  return `${String(n)} ${noun}${n === 1 ? '' : 's'}`
}

/** "'a'", "'a' or 'b'", "'a', 'b' or 'c'": pydantic's rendering of literal choices. */
function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? ''
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`
}

/** Python `repr` for the JSON scalars that appear in enums. */
function pyRepr(v: unknown): string {
  if (typeof v === 'string') {
    if (v.includes("'") && !v.includes('"')) return `"${v.replace(/\\/g, '\\\\')}"`
    return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  }
  if (v === null) return 'None'
  if (v === true) return 'True'
  if (v === false) return 'False'
  return typeof v === 'object' ? JSON.stringify(v) : String(v)
}

/** JSON pointer → segments (`~1` is `/`, `~0` is `~`). */
function pointerSegments(pointer: string): string[] {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

/** pydantic puts array indices in `loc` as numbers: walk the body to know which segments index arrays. */
function withArrayIndices(root: unknown, segments: readonly string[]): (string | number)[] {
  const out: (string | number)[] = []
  let node: unknown = root
  for (const s of segments) {
    if (Array.isArray(node)) {
      const i = Number(s)
      out.push(i)
      node = node[i]
    } else {
      out.push(s)
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[s] : undefined
    }
  }
  return out
}
