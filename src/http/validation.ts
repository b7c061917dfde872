import { Ajv, type ValidateFunction } from 'ajv'
import { pushAll } from '../core/arrays.js'
import addFormatsModule from 'ajv-formats'
import type { TSchema } from '@sinclair/typebox'
import { integerBoundProblems } from './integer-bounds.js'
import { codePointOffset, MAX_JSON_DEPTH, tooDeepAt } from './json-depth.js'
import { findJsonError } from './json-error.js'
import { coercerFor, type Coerce } from './param-coerce.js'
import { parseQuery } from './query.js'
import type { AnyRoute } from './route.js'
import { CSV_KEYWORD } from './schemas/common.js'
import { bodyTextIssues, textIssue, textProblem } from './unstorable-text.js'
import { issue, mapAjvErrors, type ValidationIssue } from './validation-errors.js'

/**
 * Request validation: the one Ajv instance of the process, and per route a validator compiled once at
 * registration (nothing is compiled per request). Invalid input yields FastAPI/pydantic-style entries
 * (validation-errors.ts); valid input is coerced, defaulted and CSV-split, ready for the handler.
 *
 * Besides the schemas, every request is held to what the store and the process can take, whatever the route:
 * a JSON body at most MAX_JSON_DEPTH levels deep (json-depth.ts, checked before parsing), no NUL or unpaired
 * surrogate in any text (unstorable-text.ts), and integers bounded in every schema (integer-bounds.ts, at boot).
 *
 * Ajv options, and why:
 * - `allErrors: true`: the 422 contract is one entry per problem, so a client fixes everything in one round
 *   trip. Fastify defaults to `false` because a huge payload against a schema can make Ajv collect an unbounded
 *   number of errors; here parameters are a handful of scalars and bodies are capped by HttpServer's
 *   `maxBodyBytes` (64 KiB) and checked against small schemas, so the work stays bounded.
 * - `useDefaults: true`: defaults from the schemas reach the handler (spec part 8), filled before `required`.
 * - `coerceTypes: false`: parameters are parsed by param-coerce.ts (pydantic's rules) before Ajv sees them, and
 *   JSON bodies are never coerced; Ajv's coercion is per instance and would apply to both.
 * - `verbose: true`: errors carry the failing value and schema, which the pydantic mapping needs (cold path).
 * - `strict: true`: an unknown keyword or a misplaced `default` fails at boot, not silently in production.
 * - `strictNumbers: true`: NaN and Infinity are not numbers.
 * - ajv-formats: `email`, `date-time`, `uri`... as pydantic validates them; `uuid` without the `urn:uuid:` prefix.
 */
const ajv = new Ajv({
  allErrors: true,
  useDefaults: true,
  coerceTypes: false,
  verbose: true,
  strict: true,
  strictNumbers: true,
})
addFormatsModule.default(ajv)
// ajv-formats' `uuid` also admits a `urn:uuid:` prefix, which the store's uuid columns refuse: such an id reached the
// store and came back a 500. Ids are the bare 8-4-4-4-12 form (as the service writes them), any case.
ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
// Annotation only: CSV parameters are validated as strings, split afterwards (see Csv() in schemas/common.ts).
ajv.addKeyword(CSV_KEYWORD)

/** What HttpServer captured from the request. */
export interface RawRequest {
  /** Raw query string without "?". */
  readonly query: string
  /** Path parameters, already percent-decoded by HttpServer. */
  readonly params: Readonly<Record<string, string>>
  /** Lowercase header names → values (only declared ones are captured). */
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer | undefined
}

export interface ValidInput {
  readonly query: Record<string, unknown>
  readonly params: Record<string, unknown>
  readonly headers: Record<string, unknown>
  readonly body: unknown
}

export type ValidationResult =
  | { readonly ok: true; readonly input: ValidInput }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] }

export interface RequestValidator {
  /** Lowercase names of the headers the route declares (HttpServer must capture them). */
  readonly headerNames: readonly string[]
  validate(req: RawRequest): ValidationResult
}

type ParamLocation = 'path' | 'query' | 'header'

interface ParamsValidator {
  readonly location: ParamLocation
  /** Declared names in schema order; anything else the client sends is ignored (FastAPI behaviour). */
  readonly names: readonly string[]
  readonly coerce: ReadonlyMap<string, Coerce>
  readonly csv: readonly string[]
  readonly check: ValidateFunction
}

interface BodyValidator {
  readonly order: readonly string[]
  readonly check: ValidateFunction
}

/**
 * Compiles a route's request schemas. Throws (at boot) when a schema is invalid for Ajv, a parameter is not a
 * scalar, or a header name is not lowercase.
 */
export function compileRequestValidator(route: AnyRoute): RequestValidator {
  const where = `${route.method.toUpperCase()} ${route.path} (${route.operationId})`
  try {
    const path = route.params === undefined ? undefined : compileParams('path', route.params)
    const query = route.query === undefined ? undefined : compileParams('query', route.query)
    const headers = route.headers === undefined ? undefined : compileParams('header', route.headers)
    const body = route.body === undefined ? undefined : compileBody(route.body)
    for (const h of headers?.names ?? [])
      if (h !== h.toLowerCase()) throw new Error(`header "${h}" must be declared in lowercase`)
    const unbounded = [route.params, route.query, route.headers, route.body].flatMap((s) =>
      s === undefined ? [] : integerBoundProblems(s),
    )
    if (unbounded.length > 0) throw new Error(unbounded.join('; '))
    const validate = (req: RawRequest): ValidationResult => run(req, path, query, headers, body)
    return {
      headerNames: headers?.names ?? [],
      // Routes whose whole input is the query string (every list read) memoize by it; see QueryMemo.
      validate:
        path === undefined && headers === undefined && body === undefined ? memoizedByQuery(validate) : validate,
    }
  } catch (err) {
    throw new Error(`${where}: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
  }
}

/** Distinct query strings remembered per route; past this the memo starts over (see memoizedByQuery). */
export const QUERY_MEMO_MAX = 1_024

/**
 * The result for a raw query string, remembered: a route whose input is only its query string gets the same
 * result for the same string every time, and clients of a data service repeat a handful of queries (the first
 * page, a dashboard's filters) thousands of times a second. A hit costs one Map lookup instead of parsing,
 * coercion and Ajv (~2 µs), and hands the handler the same input object, so what a handler derives from it (a
 * cache key) can be remembered per object too (queryKey in routes/support.ts). Results are deep-frozen
 * because they are shared. When full, the memo is cleared rather than ordered by recency: a flood of
 * distinct strings costs what no memo would, and the common strings are back after one miss each.
 */
function memoizedByQuery(validate: (req: RawRequest) => ValidationResult): (req: RawRequest) => ValidationResult {
  const memo = new Map<string, ValidationResult>()
  return (req) => {
    let result = memo.get(req.query)
    if (result === undefined) {
      result = deepFreeze(validate(req))
      if (memo.size >= QUERY_MEMO_MAX) memo.clear()
      memo.set(req.query, result)
    }
    return result
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v)
  }
  return value
}

function compileParams(location: ParamLocation, schema: TSchema): ParamsValidator {
  const properties = (schema as { properties?: Record<string, unknown> }).properties
  if (schema.type !== 'object' || properties === undefined)
    throw new Error(`${location} schema must be a Type.Object of parameters`)
  const names = Object.keys(properties)
  const coerce = new Map<string, Coerce>()
  const csv: string[] = []
  for (const name of names) {
    const prop = properties[name] as Record<string, unknown>
    let c: Coerce | undefined
    try {
      c = coercerFor(prop)
    } catch (err) {
      throw new Error(`${location} parameter "${name}": ${(err as Error).message}`)
    }
    if (c !== undefined) coerce.set(name, c)
    if (prop[CSV_KEYWORD] === true) csv.push(name)
  }
  return { location, names, coerce, csv, check: ajv.compile(schema) }
}

function compileBody(schema: TSchema): BodyValidator {
  const properties = (schema as { properties?: Record<string, unknown> }).properties
  return { order: properties === undefined ? [] : Object.keys(properties), check: ajv.compile(schema) }
}

function run(
  req: RawRequest,
  path?: ParamsValidator,
  query?: ParamsValidator,
  headers?: ParamsValidator,
  body?: BodyValidator,
): ValidationResult {
  // An unparsable body is reported alone, as FastAPI does (it fails before parameters are solved).
  let bodyValue: unknown
  if (body !== undefined) {
    const parsed = parseBody(req.body)
    if ('issue' in parsed) return { ok: false, issues: [parsed.issue] }
    bodyValue = parsed.value
  }
  const issues: ValidationIssue[] = []
  const params = path === undefined ? {} : checkParams(path, (n) => own(req.params, n), issues)
  const queryValues = query === undefined ? undefined : parseQuery(req.query)
  const q = query === undefined ? {} : checkParams(query, (n) => queryValues?.get(n), issues)
  const h = headers === undefined ? {} : checkParams(headers, (n) => own(req.headers, n), issues)
  if (body !== undefined) {
    if (req.body === undefined) issues.push(issue('missing', ['body'], 'Field required', null))
    else {
      const text = bodyTextIssues(bodyValue)
      const valid = body.check(bodyValue)
      if (!valid || text.length > 0)
        pushAll(
          issues,
          mapAjvErrors(
            valid ? [] : (body.check.errors ?? []),
            { location: 'body', body: bodyValue, order: body.order },
            text,
          ),
        )
    }
  }
  if (issues.length > 0) return { ok: false, issues }
  return { ok: true, input: { query: q, params, headers: h, body: bodyValue } }
}

function checkParams(
  v: ParamsValidator,
  get: (name: string) => string | undefined,
  issues: ValidationIssue[],
): Record<string, unknown> {
  const data: Record<string, unknown> = {}
  const raw: Record<string, string | undefined> = {}
  let text: ValidationIssue[] | undefined
  for (const name of v.names) {
    const value = get(name)
    if (value === undefined) continue
    raw[name] = value
    const problem = textProblem(value)
    if (problem !== undefined) (text ??= []).push(textIssue([v.location, name], problem, value))
    const coerce = v.coerce.get(name)
    data[name] = coerce === undefined ? value : coerce(value)
  }
  const valid = v.check(data)
  if (!valid || text !== undefined) {
    pushAll(
      issues,
      mapAjvErrors(valid ? [] : (v.check.errors ?? []), { location: v.location, raw, order: v.names }, text),
    )
    return data
  }
  for (const name of v.csv) {
    const value = data[name]
    if (typeof value === 'string') data[name] = splitCsv(value)
  }
  return data
}

/** `a, b,,c` → `['a', 'b', 'c']`: items trimmed, empty items dropped. */
export function splitCsv(value: string): string[] {
  const out: string[] = []
  for (const part of value.split(',')) {
    const item = part.trim()
    if (item !== '') out.push(item)
  }
  return out
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * JSON body → value, or the `json_invalid` entry FastAPI gives (`input` is `{}` there too). A body nested deeper
 * than MAX_JSON_DEPTH is refused the same way, before JSON.parse, at the bracket that went too deep.
 */
function parseBody(body: Buffer | undefined): { value: unknown } | { issue: ValidationIssue } {
  if (body === undefined) return { value: undefined }
  let text: string
  try {
    text = UTF8.decode(body)
  } catch {
    return { issue: issue('json_invalid', ['body', 0], 'JSON decode error', {}, { error: 'Invalid UTF-8' }) }
  }
  const deep = tooDeepAt(body)
  if (deep !== -1) {
    const error = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`
    return { issue: issue('json_invalid', ['body', codePointOffset(body, deep)], 'JSON decode error', {}, { error }) }
  }
  try {
    return { value: JSON.parse(text) }
  } catch {
    const err = findJsonError(text)
    return { issue: issue('json_invalid', ['body', err.position], 'JSON decode error', {}, { error: err.message }) }
  }
}

/** Own properties only: a parameter named `constructor` must not find Object.prototype's. */
function own(record: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined
}
