import type { TSchema } from '@sinclair/typebox'
import { cachingOf, type Caching } from './caching.js'
import type { AnyRoute, ResponseSpec } from './route.js'
import { CSV_KEYWORD, ErrorBody, ValidationErrorBody, ValidationIssueSchema } from './schemas/common.js'
import { splitCsv } from './validation.js'

/**
 * The OpenAPI 3.1 description of the API, generated from the very schemas that validate requests, so the
 * published contract cannot drift from what the server enforces (docs/DESIGN.md: `GET /api/v2/openapi.json`,
 * version 2.0.0). OpenAPI 3.1 schemas are JSON Schema, so TypeBox output is used as is, minus TypeBox's
 * symbol keys (not JSON anyway) and our `x-csv` marker, which becomes what OpenAPI already has for it: a
 * query parameter with `style: form, explode: false` and an array-of-strings schema (so generated clients
 * send `a,b,c`). Bounds of a CSV parameter's raw string (`maxLength`) are not representable there and are
 * dropped from the description.
 *
 * Added without being declared, because every route behaves that way (register.ts): 422 on routes with any
 * input, 413 and 415 on routes with a body, 401 on non-public routes (API key, spec part 5); on GET routes the
 * 200's Cache-Control and ETag, and the `If-None-Match` parameter with its 304 (caching.ts, shape-reply.ts).
 *
 * @example
 * const doc = buildOpenApi(routes, { title: 'Prediction Market Data API', description: '...' })
 */
export const API_VERSION = '2.0.0'

export interface ApiInfo {
  readonly title: string
  readonly description?: string
  readonly servers?: readonly { readonly url: string; readonly description?: string }[]
  /** A description per tag (by name), published in the document's `tags`. */
  readonly tagDescriptions?: Readonly<Record<string, string>>
  /** Schemas to publish under components/schemas; any use of the same object becomes a `$ref`. */
  readonly schemas?: Readonly<Record<string, TSchema>>
  /** Real responses per operation id and status (openapi-examples.generated.ts), published as media-type examples. */
  readonly examples?: Readonly<Record<string, OperationExamples>>
}

/** One captured response: what was called (`summary`) and the body it got (`value`). */
export interface ResponseExample {
  readonly summary: string
  readonly value: unknown
}

/** The examples of one operation, by HTTP status. */
export type OperationExamples = Record<number, ResponseExample>

export type JsonObject = { [key: string]: unknown }

export interface OpenApiParameter {
  readonly name: string
  readonly in: 'path' | 'query' | 'header'
  readonly required: boolean
  readonly description?: string
  readonly schema: JsonObject
  readonly style?: 'form'
  readonly explode?: boolean
  readonly deprecated?: boolean
}

export interface OpenApiMediaType {
  readonly schema: JsonObject
  readonly examples?: Record<string, ResponseExample>
}

export interface OpenApiResponse {
  readonly description: string
  readonly headers?: Record<string, { readonly description: string; readonly schema: JsonObject }>
  readonly content?: Record<string, OpenApiMediaType>
}

export interface OpenApiOperation {
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly tags: readonly string[]
  readonly parameters?: readonly OpenApiParameter[]
  readonly requestBody?: {
    readonly required: boolean
    readonly content: Record<string, { readonly schema: JsonObject }>
  }
  readonly responses: Record<string, OpenApiResponse>
  readonly security?: readonly Record<string, readonly string[]>[]
}

export interface OpenApiDocument {
  readonly openapi: '3.1.0'
  readonly info: { readonly title: string; readonly version: string; readonly description?: string }
  readonly servers?: readonly { readonly url: string; readonly description?: string }[]
  readonly tags: readonly { readonly name: string; readonly description?: string }[]
  readonly paths: Record<string, Record<string, OpenApiOperation>>
  readonly components: {
    readonly schemas: Record<string, JsonObject>
    readonly securitySchemes: Record<string, JsonObject>
  }
  readonly security: readonly Record<string, readonly string[]>[]
}

const JSON_MEDIA_TYPE = 'application/json'
const API_KEY_SCHEME = 'ApiKeyAuth'
const HTTP_METHOD = { get: 'get', post: 'post', put: 'put', patch: 'patch', del: 'delete' } as const

export function buildOpenApi(routes: readonly AnyRoute[], info: ApiInfo): OpenApiDocument {
  const components = new Map<object, string>([
    [ErrorBody, 'ErrorBody'],
    [ValidationErrorBody, 'ValidationErrorBody'],
    [ValidationIssueSchema, 'ValidationIssue'],
  ])
  for (const [name, schema] of Object.entries(info.schemas ?? {})) components.set(schema, name)
  const toJson = (schema: unknown): JsonObject => clean(schema, components) as JsonObject

  const paths: Record<string, Record<string, OpenApiOperation>> = {}
  const tags: string[] = []
  const operationIds = new Set<string>()
  for (const route of routes) {
    if (operationIds.has(route.operationId)) throw new Error(`duplicate operationId: ${route.operationId}`)
    operationIds.add(route.operationId)
    for (const t of route.tags) if (!tags.includes(t)) tags.push(t)
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    paths[path] ??= {}
    paths[path][HTTP_METHOD[route.method]] = operation(route, toJson, info.examples?.[route.operationId])
  }

  const schemas: Record<string, JsonObject> = {}
  for (const [schema, name] of components) schemas[name] = clean(schema, components, schema) as JsonObject
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: API_VERSION,
      ...(info.description === undefined ? {} : { description: info.description }),
    },
    ...(info.servers === undefined ? {} : { servers: info.servers }),
    tags: tags.map((name) => {
      const description = info.tagDescriptions?.[name]
      return description === undefined ? { name } : { name, description }
    }),
    paths,
    components: {
      schemas,
      securitySchemes: {
        [API_KEY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'API key from POST /api/v2/developers/signup.',
        },
      },
    },
    security: [{ [API_KEY_SCHEME]: [] }],
  }
}

function operation(
  route: AnyRoute,
  toJson: (s: unknown) => JsonObject,
  examples: OperationExamples | undefined,
): OpenApiOperation {
  const parameters = [
    ...params('path', route.params, toJson),
    ...params('query', route.query, toJson),
    ...params('header', route.headers, toJson),
  ]
  const responses: Record<string, OpenApiResponse> = {}
  for (const [status, spec] of Object.entries(route.responses as Record<string, ResponseSpec>))
    responses[status] = response(spec, toJson)
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
  const implied = (status: number, description: string, schema: JsonObject): void => {
    responses[status] ??= { description, content: { [JSON_MEDIA_TYPE]: { schema } } }
  }
  if (route.public !== true) implied(401, 'Missing or invalid API key (`unauthorized`).', ref('ErrorBody'))
  if (route.body !== undefined) {
    implied(413, 'Request body too large (`payload_too_large`).', ref('ErrorBody'))
    implied(415, 'Request body is not `application/json` (`unsupported_media_type`).', ref('ErrorBody'))
  }
  if (parameters.length > 0 || route.body !== undefined)
    implied(422, 'Validation error: one entry per problem.', ref('ValidationErrorBody'))
  for (const [status, example] of Object.entries(examples ?? {})) {
    const r = responses[status]
    // A status this deployment does not answer with (401 when AUTH_REQUIRED=false) keeps no example.
    if (r?.content === undefined) continue
    const [mediaType, media] = Object.entries(r.content)[0]!
    responses[status] = { ...r, content: { [mediaType]: { ...media, examples: { simulated: example } } } }
  }
  const caching = cachingOf(route)
  if (caching !== undefined) documentCaching(caching, parameters, responses)

  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: route.tags,
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(route.body === undefined
      ? {}
      : { requestBody: { required: true, content: { [JSON_MEDIA_TYPE]: { schema: toJson(route.body) } } } }),
    responses: sortByStatus(responses),
    ...(route.public === true ? { security: [] } : {}),
  }
}

/**
 * A GET route's caching (caching.ts): Cache-Control and ETag on its 200, and, when it revalidates, the
 * `If-None-Match` parameter and the 304 with the 200's headers. Marked "Addition": the spec does not describe them.
 */
function documentCaching(
  caching: Caching,
  parameters: OpenApiParameter[],
  responses: Record<string, OpenApiResponse>,
): void {
  const ok = responses['200']
  if (ok === undefined) return
  const headers = {
    ...ok.headers,
    'Cache-Control': {
      description: `Addition: \`${caching.cacheControl}\` (README, "HTTP: caching, compression, CORS").`,
      schema: { type: 'string' },
    },
    ...(caching.revalidate
      ? {
          ETag: {
            description:
              'Addition: strong validator of this representation (each content coding has its own); send it in `If-None-Match` to get a 304 while it is current.',
            schema: { type: 'string' },
          },
        }
      : {}),
  }
  responses['200'] = { ...ok, headers }
  if (!caching.revalidate) return
  parameters.push({
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'Addition: ETag(s) of a response the client holds (or `*`). When one names the current representation the answer is 304 with no body; the request still counts against the rate limit.',
    schema: { type: 'string' },
  })
  responses['304'] = {
    description:
      'Addition: Not Modified: `If-None-Match` names the current representation. No body; the ETag, Cache-Control and Vary of the 200.',
    headers,
  }
}

function params(
  location: OpenApiParameter['in'],
  schema: TSchema | undefined,
  toJson: (s: unknown) => JsonObject,
): OpenApiParameter[] {
  if (schema === undefined) return []
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>
  const required = new Set<string>((schema.required as string[] | undefined) ?? [])
  return Object.entries(properties).map(([name, prop]) => {
    const { description, deprecated, ...rest } = toJson(prop)
    const csv = prop[CSV_KEYWORD] === true
    const p: OpenApiParameter = {
      name,
      in: location,
      // A defaulted parameter is in `required` (so the handler's type is not optional) but clients may omit it.
      required: location === 'path' || (required.has(name) && !('default' in prop)),
      ...(typeof description === 'string' ? { description } : {}),
      schema: csv ? csvSchema(rest) : rest,
      ...(csv ? { style: 'form' as const, explode: false } : {}),
      ...(deprecated === true ? { deprecated: true } : {}),
    }
    return p
  })
}

function csvSchema(s: JsonObject): JsonObject {
  const out: JsonObject = { type: 'array', items: { type: 'string' } }
  if (typeof s.default === 'string') out.default = splitCsv(s.default)
  if (Array.isArray(s.examples)) out.examples = s.examples.map((e) => (typeof e === 'string' ? splitCsv(e) : e))
  return out
}

function response(spec: ResponseSpec, toJson: (s: unknown) => JsonObject): OpenApiResponse {
  const headers =
    spec.headers === undefined
      ? undefined
      : mapValues(spec.headers, (description) => ({ description, schema: { type: 'string' } }))
  const mediaType = spec.contentType ?? JSON_MEDIA_TYPE
  // A non-JSON response without a schema (the HTML docs page) is documented as a string of its media type.
  const schema =
    spec.schema !== undefined ? toJson(spec.schema) : spec.contentType !== undefined ? { type: 'string' } : undefined
  const content = schema === undefined ? undefined : { [mediaType]: { schema } }
  return {
    description: spec.description,
    ...(headers === undefined ? {} : { headers }),
    ...(content === undefined ? {} : { content }),
  }
}

function mapValues<A, B>(record: Readonly<Record<string, A>>, f: (a: A) => B): Record<string, B> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]))
}

function sortByStatus(responses: Record<string, OpenApiResponse>): Record<string, OpenApiResponse> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)))
}

/**
 * A JSON copy of a schema: string keys only (TypeBox's `[Kind]`/`[OptionalKind]` symbols go), no `x-csv`, and
 * any subschema registered as a component replaced by its `$ref` (except the component's own root).
 */
function clean(node: unknown, components: ReadonlyMap<object, string>, root?: object): unknown {
  if (Array.isArray(node)) return node.map((n) => clean(n, components))
  if (typeof node !== 'object' || node === null) return node
  const name = components.get(node)
  if (name !== undefined && node !== root) return { $ref: `#/components/schemas/${name}` }
  const out: JsonObject = {}
  for (const key of Object.keys(node)) {
    if (key === CSV_KEYWORD) continue
    out[key] = clean((node as JsonObject)[key], components)
  }
  return out
}
