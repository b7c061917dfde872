import fc from 'fast-check'
import type { JsonObject, OpenApiDocument, OpenApiOperation, OpenApiParameter } from '../../src/http/openapi.js'
import {
  BODIES,
  CONTENT_TYPES,
  fragment,
  headerText,
  jsonValue,
  paramValue,
  percentEncode,
  text,
  type Kind,
} from './hostile-values.js'
import type { RawRequest } from './raw-http.js'

/**
 * fast-check arbitraries of hostile requests for one operation of the OpenAPI document. Each request focuses on
 * one input (a path, query or header parameter, the repeated and unknown parameters and headers, the API key,
 * the content type, or a body field), which gets a hostile value (hostile-values.ts) or is left out; every other
 * input is mostly valid, so the hostile value usually comes alone and gets past every other check, to the
 * handler and the store. The body works the same way one level down (and two for nested objects). Inputs are
 * weighted by how much they hold: a body is focused on as often as all its fields together.
 */
export interface Operation {
  readonly method: string
  readonly path: string
  readonly op: OpenApiOperation
}

export function operations(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  )
}

export interface HostileOptions {
  readonly apiKey: string | undefined
  /** Valid values by property or parameter name, where the schema alone does not give one (a target for its channel). */
  readonly valid?: Readonly<Record<string, unknown>>
}

type Valid = (name: string, schema: JsonObject) => unknown

/**
 * Headers the service reads on every route, though no operation lists them: repeated after the first ones, or with
 * hostile values (content coding, conditional reads, CORS, the client address of per-client limits).
 */
const READ_HEADERS = ['x-api-key', 'content-type', 'accept-encoding', 'if-none-match', 'origin', 'x-forwarded-for']

export function hostileRequests(doc: OpenApiDocument, o: Operation, options: HostileOptions): fc.Arbitrary<RawRequest> {
  const valid: Valid = (name, schema) =>
    options.valid !== undefined && name in options.valid ? options.valid[name] : sample(doc, schema)
  const params = o.op.parameters ?? []
  const inPath = params.filter((p) => p.in === 'path')
  const inQuery = params.filter((p) => p.in === 'query')
  const inHeader = params.filter((p) => p.in === 'header')
  // A path parameter cannot be left out; a query or header parameter can (then it is missing, or defaulted).
  const paramSlot = (p: OpenApiParameter): Slot<string | undefined> => {
    const validText = paramText(valid(p.name, p.schema))
    const hostile = p.in === 'header' ? headerText : paramValue(kindOf(doc, p.schema))
    const bad =
      p.in === 'path'
        ? hostile
        : fc.oneof({ weight: 6, arbitrary: hostile }, { weight: 1, arbitrary: fc.constant(undefined) })
    return {
      hostile: bad,
      background: mostly(fc.constant(p.in === 'header' ? validText : percentEncode(validText)), bad),
    }
  }
  const extraQuery = fc.array(
    fc.tuple(
      inQuery.length > 0 ? fc.oneof(fc.constantFrom(...inQuery.map((p) => p.name)), text) : text,
      paramValue('other'),
    ),
    { minLength: 1, maxLength: 2 },
  )
  const extraHeaders = fc.array(
    fc.tuple(fc.constantFrom(...inHeader.map((p) => p.name), ...READ_HEADERS), headerText),
    { minLength: 1, maxLength: 2 },
  )
  const extras = fc.tuple(extraQuery, extraHeaders)
  const bodySchema = o.op.requestBody?.content['application/json']?.schema
  const slots: Slot<unknown>[] = [
    ...params.map(paramSlot),
    { hostile: extras, background: mostly(fc.constant<[[string, string][], [string, string][]]>([[], []]), extras) },
    {
      hostile: fc.oneof(fc.constant(undefined), headerText),
      background: mostly(fc.constant(options.apiKey), fc.constant(undefined)),
    },
  ]
  if (bodySchema !== undefined) {
    slots.push({
      hostile: fc.oneof(fc.constant(undefined), fc.constantFrom(...CONTENT_TYPES)),
      background: mostly(fc.constant('application/json'), fc.constantFrom(...CONTENT_TYPES)),
    })
    const body = bodyArb(doc, bodySchema, valid)
    slots.push({
      hostile: body,
      background: mostly(fc.constant(Buffer.from(JSON.stringify(validObject(doc, bodySchema, valid)))), body),
      weight: fieldCount(doc, bodySchema),
    })
  }
  return focused(slots).map((values) => {
    const byParam = new Map(params.map((p, i) => [p, values[i] as string | undefined]))
    let target = o.path
    for (const p of inPath) target = target.replace(`{${p.name}}`, byParam.get(p) as string)
    const [extraQ, extraH] = values[params.length] as [[string, string][], [string, string][]]
    const pairs = inQuery.flatMap((p) =>
      byParam.get(p) === undefined ? [] : [`${p.name}=${byParam.get(p) as string}`],
    )
    for (const [name, v] of extraQ) pairs.push(`${percentEncode(name)}=${v}`)
    if (pairs.length > 0) target += `?${pairs.join('&')}`
    const headers: [string, string][] = inHeader.flatMap((p) =>
      byParam.get(p) === undefined ? [] : [[p.name, byParam.get(p) as string] as [string, string]],
    )
    const key = values[params.length + 1] as string | undefined
    if (key !== undefined) headers.push(['x-api-key', key])
    const contentType = values[params.length + 2] as string | undefined
    const body = values[params.length + 3] as Buffer | undefined
    if (body !== undefined && contentType !== undefined) headers.push(['content-type', contentType])
    // Repeated headers go after the first ones (uWS reads the first of a name).
    headers.push(...extraH)
    return { method: o.method, target, headers, ...(body === undefined ? {} : { body }) }
  })
}

/** One input of a request: its value when it is the focus, and otherwise; `weight` is how often it is the focus. */
interface Slot<T> {
  readonly hostile: fc.Arbitrary<T>
  readonly background: fc.Arbitrary<T>
  readonly weight?: number
}

/** Values for all slots, one of them (the focus, picked by weight) hostile. */
function focused(slots: readonly Slot<unknown>[]): fc.Arbitrary<unknown[]> {
  const total = slots.reduce((n, s) => n + (s.weight ?? 1), 0)
  return fc
    .tuple(fc.nat({ max: total - 1 }), fc.tuple(...slots.map((s) => fc.tuple(s.hostile, s.background))))
    .map(([pick, values]) => {
      let focus = 0
      for (let left = pick; left >= (slots[focus]?.weight ?? 1); focus++) left -= slots[focus]?.weight ?? 1
      return values.map(([hostile, background], i) => (i === focus ? hostile : background))
    })
}

/** Usually `usual`, now and then `other`. */
function mostly<T>(usual: fc.Arbitrary<T>, other: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ weight: 12, arbitrary: usual }, { weight: 1, arbitrary: other })
}

/** A body of the schema's shape with one field hostile, or a body that is not such an object at all. */
function bodyArb(doc: OpenApiDocument, schema: JsonObject, valid: Valid): fc.Arbitrary<Buffer | undefined> {
  return fc.oneof(
    { weight: 12, arbitrary: objectText(doc, schema, valid, 0).map((s) => Buffer.from(s)) },
    { weight: 1, arbitrary: fragment.map((s) => Buffer.from(s)) },
    { weight: 1, arbitrary: fc.constantFrom(...BODIES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )
}

function objectText(doc: OpenApiDocument, schema: JsonObject, valid: Valid, depth: number): fc.Arbitrary<string> {
  const s = resolve(doc, schema)
  const properties = Object.entries((s.properties ?? {}) as Record<string, JsonObject>)
  const required = new Set((s.required ?? []) as string[])
  const names = properties.map(([n]) => n)
  const extras = fc.array(fc.tuple(names.length > 0 ? fc.oneof(fc.constantFrom(...names), text) : text, fragment), {
    minLength: 1,
    maxLength: 2,
  })
  const slots: Slot<unknown>[] = properties.map(([name, prop]) => {
    const kind = kindOf(doc, prop)
    const hostile =
      kind === 'object' && depth < 2
        ? fc.oneof(
            { weight: 3, arbitrary: objectText(doc, prop, valid, depth + 1) },
            { weight: 1, arbitrary: fragment },
          )
        : jsonValue(kind)
    const omitted = fc.constant(undefined)
    return {
      hostile: fc.oneof({ weight: 6, arbitrary: hostile }, { weight: 1, arbitrary: omitted }),
      background: fc.oneof(
        { weight: 12, arbitrary: fc.constant(JSON.stringify(valid(name, prop))) },
        { weight: required.has(name) ? 1 : 4, arbitrary: omitted },
        { weight: 1, arbitrary: fragment },
      ),
      weight: kind === 'object' ? fieldCount(doc, prop) : 1,
    }
  })
  slots.push({ hostile: extras, background: mostly(fc.constant<[string, string][]>([]), extras) })
  return focused(slots).map((values) => {
    const members = properties.flatMap(([n], i) =>
      values[i] === undefined ? [] : [`${JSON.stringify(n)}:${values[i] as string}`],
    )
    for (const [k, v] of values[properties.length] as [string, string][]) members.push(`${JSON.stringify(k)}:${v}`)
    return `{${members.join(',')}}`
  })
}

/** Fields of an object schema, nested ones counted, plus one for unknown keys. */
function fieldCount(doc: OpenApiDocument, schema: JsonObject): number {
  const properties = Object.values((resolve(doc, schema).properties ?? {}) as Record<string, JsonObject>)
  return 1 + properties.reduce((n, p) => n + (kindOf(doc, p) === 'object' ? fieldCount(doc, p) : 1), 0)
}

function kindOf(doc: OpenApiDocument, schema: JsonObject): Kind {
  const s = resolve(doc, schema)
  const branches = (s.anyOf ?? s.oneOf) as JsonObject[] | undefined
  if (branches !== undefined) return kindOf(doc, branches.find((b) => b.type !== 'null') ?? {})
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type
  if (type === 'integer' || type === 'number') return 'number'
  if (type === 'string' || type === 'object' || type === 'array') return type
  return 'other'
}

/** Every property of an object schema with a valid value. */
function validObject(doc: OpenApiDocument, schema: JsonObject, valid: Valid): Record<string, unknown> {
  const properties = (resolve(doc, schema).properties ?? {}) as Record<string, JsonObject>
  return Object.fromEntries(Object.entries(properties).map(([name, prop]) => [name, valid(name, prop)]))
}

/** A value the schema accepts, as far as its keywords say (defaults, enums, formats, bounds): enough to pass the fields next to a hostile one. */
export function sample(doc: OpenApiDocument, schema: JsonObject): unknown {
  const s = resolve(doc, schema)
  if ('default' in s) return s.default
  if ('const' in s) return s.const
  if (Array.isArray(s.enum)) return s.enum[0]
  const branches = (s.anyOf ?? s.oneOf) as JsonObject[] | undefined
  if (branches !== undefined) return sample(doc, branches.find((b) => b.type !== 'null') ?? (branches[0] as JsonObject))
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type
  switch (type) {
    case 'string':
      return stringSample(s)
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number'
        ? s.minimum
        : typeof s.maximum === 'number'
          ? s.maximum
          : typeof s.exclusiveMinimum === 'number'
            ? s.exclusiveMinimum + 1
            : 1
    case 'boolean':
      return true
    case 'array':
      return typeof s.minItems === 'number' && s.minItems > 0
        ? Array.from({ length: s.minItems }, () => sample(doc, s.items as JsonObject))
        : []
    case 'object':
      return Object.fromEntries(
        ((s.required ?? []) as string[]).map((name) => [
          name,
          sample(doc, ((s.properties ?? {}) as Record<string, JsonObject>)[name] ?? {}),
        ]),
      )
    default:
      return null
  }
}

function stringSample(s: JsonObject): string {
  switch (s.format) {
    case 'email':
      return 'ops@example.com'
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000'
    case 'date-time':
      return '2026-11-21T12:00:00Z'
    case 'uri':
      return 'https://example.com/'
    default:
      return 'a'.repeat(typeof s.minLength === 'number' ? Math.max(1, s.minLength) : 1)
  }
}

function resolve(doc: OpenApiDocument, schema: JsonObject): JsonObject {
  const ref = schema.$ref
  if (typeof ref !== 'string') return schema
  return resolve(doc, doc.components.schemas[ref.replace('#/components/schemas/', '')] ?? {})
}

/** A sample as a parameter's text (lists comma-separated). */
function paramText(v: unknown): string {
  return Array.isArray(v) ? v.join(',') : String(v)
}
