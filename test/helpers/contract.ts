import assert from 'node:assert/strict'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { Reply } from '../../src/http/reply.js'
import type { AnyRoute } from '../../src/http/route.js'

/**
 * Contract checks for endpoint tests: a response body must match the schema its route publishes in the
 * OpenAPI document, so the document cannot promise fields the server does not send.
 *
 * Stricter than request validation on purpose:
 * - its own Ajv without `useDefaults` (a default would fill a missing field and hide the bug) and without
 *   coercion (`"3"` is not an integer in a response);
 * - objects are closed unless their schema says otherwise: a property absent from the schema is reported
 *   (a misspelt optional field would otherwise pass unnoticed). Schemas that are open on purpose set
 *   `additionalProperties` explicitly; `{ allowExtraFields: true }` turns the check off for one call.
 *
 * @example
 * const res = await fetch(`${base}/api/v2/venuek/markets?limit=2`)
 * assertMatchesResponseSchema(venuekMarketsRoute, res.status, await res.json())
 */
export interface ContractOptions {
  readonly allowExtraFields?: boolean
}

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false, coerceTypes: false, verbose: true })
addFormatsModule.default(ajv)
const compiled = new WeakMap<object, { closed?: ValidateFunction; open?: ValidateFunction }>()

/** Asserts that `body` (parsed JSON) is a valid `status` response of `route`; fails with one line per problem. */
export function assertMatchesResponseSchema(
  route: AnyRoute,
  status: number,
  body: unknown,
  options: ContractOptions = {},
): void {
  const spec = route.responses[status]
  const name = `${route.method.toUpperCase()} ${route.path} (${route.operationId})`
  if (spec === undefined)
    assert.fail(`${name} declares no ${status} response (declared: ${Object.keys(route.responses).join(', ')})`)
  if (spec.schema === undefined) assert.fail(`${name} declares no body schema for ${status}`)
  const validate = validatorFor(spec.schema, options.allowExtraFields === true)
  if (validate(body)) return
  const problems = (validate.errors ?? []).map(describe)
  assert.fail(`${name}: ${status} body does not match its schema:\n  - ${[...new Set(problems)].join('\n  - ')}`)
}

/** The same check on a handler's `Reply` (status and serialized body), for tests that call handlers directly. */
export function assertReplyMatchesSchema(route: AnyRoute, reply: Reply, options: ContractOptions = {}): void {
  let body: unknown
  try {
    body = JSON.parse(typeof reply.body === 'string' ? reply.body : Buffer.from(reply.body).toString('utf8'))
  } catch {
    assert.fail(`${route.operationId}: ${reply.status} body is not JSON: ${String(reply.body).slice(0, 200)}`)
  }
  assertMatchesResponseSchema(route, reply.status, body, options)
}

function validatorFor(schema: object, open: boolean): ValidateFunction {
  const entry = compiled.get(schema) ?? {}
  compiled.set(schema, entry)
  if (open) return (entry.open ??= ajv.compile(schema))
  return (entry.closed ??= ajv.compile(closeObjects(schema) as object))
}

function describe(e: ErrorObject): string {
  const at = e.instancePath === '' ? '(root)' : e.instancePath
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'required':
      return `${at}: missing required field "${String(p.missingProperty)}"`
    case 'additionalProperties':
      return `${at}: unexpected field "${String(p.additionalProperty)}" (not in the schema)`
    default:
      return `${at}: ${e.message ?? e.keyword} (got ${preview(e.data)})`
  }
}

function preview(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 80 ? `${s.slice(0, 77)}...` : s
}

/** Keys whose values are data, not schemas. */
const DATA_KEYS = new Set(['const', 'enum', 'default', 'examples', 'example'])

/** A copy of the schema where every object without an explicit `additionalProperties` is closed. */
function closeObjects(node: unknown, inAllOf = false): unknown {
  if (Array.isArray(node)) return node.map((n) => closeObjects(n))
  if (typeof node !== 'object' || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYS.has(key)) out[key] = value
    else if (key === 'allOf' && Array.isArray(value)) out[key] = value.map((v) => closeObjects(v, true))
    else if (key === 'properties' && typeof value === 'object' && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closeObjects(v)]))
    } else out[key] = closeObjects(value)
  }
  // Members of an allOf must stay open: each sees only its own properties, so closing one rejects the others'.
  const isObjectSchema = out.type === 'object' || out.properties !== undefined
  if (
    isObjectSchema &&
    !inAllOf &&
    !('additionalProperties' in out) &&
    !('patternProperties' in out) &&
    !('unevaluatedProperties' in out)
  ) {
    out.additionalProperties = false
  }
  return out
}
