import assert from 'node:assert/strict'
import type { AnyRoute } from '../../src/http/route.js'
import { ErrorBody } from '../../src/http/schemas/common.js'
import { assertMatchesResponseSchema } from './contract.js'
import type { TestService } from './service.js'

/**
 * Requests with any method, headers and body against a test service, for the account and alert endpoints. When
 * `operationId` is given, the response must match the schema that route publishes for its status (contract).
 */
export interface JsonResponse<T = Record<string, unknown>> {
  readonly status: number
  readonly body: T
  readonly headers: Headers
}

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** Sent as `X-API-Key` when given. */
  readonly key?: string | undefined
  /** JSON-encoded unless a string (sent as is). */
  readonly body?: unknown
  readonly contentType?: string | null
  readonly headers?: Record<string, string>
  /** Checks the body against the route's published schema. */
  readonly operationId?: string
}

/** Stand-in route whose only response is the `{detail, code}` error body (extra fields allowed). */
const ERROR_ROUTE = {
  method: 'get',
  path: '/',
  operationId: 'error',
  summary: '',
  tags: [],
  responses: { 400: { description: '', schema: ErrorBody } },
  handler: () => ({ status: 500, body: '' }),
} as unknown as AnyRoute

export async function request<T = Record<string, unknown>>(
  s: TestService,
  path: string,
  o: RequestOptions = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...o.headers }
  if (o.key !== undefined) headers['x-api-key'] = o.key
  let body: string | undefined
  if (o.body !== undefined) {
    body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body)
    if (o.contentType !== null) headers['content-type'] = o.contentType ?? 'application/json'
  }
  const res = await fetch(`${s.baseUrl}${path}`, {
    method: o.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
  })
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    assert.fail(`${path}: ${res.status} body is not JSON: ${text.slice(0, 200)}`)
  }
  if (o.operationId !== undefined) {
    const route = s.app.routes.find((r: AnyRoute) => r.operationId === o.operationId)
    assert.ok(route !== undefined, `no route ${o.operationId}`)
    // 401/413/415 (and 429/503 on keyed routes) are implied by openapi.ts / http/auth.ts, not declared per route.
    if (route.responses[res.status] !== undefined) assertMatchesResponseSchema(route, res.status, parsed)
    else assertMatchesResponseSchema(ERROR_ROUTE, 400, parsed)
  }
  return { status: res.status, body: parsed as T, headers: res.headers }
}

/** The error body of a non-validation error, asserted whole. */
export function assertError(r: JsonResponse, status: number, code: string, detail?: RegExp): void {
  assert.equal(r.status, status, JSON.stringify(r.body))
  assert.equal((r.body as { code?: unknown }).code, code)
  assert.equal(typeof (r.body as { detail?: unknown }).detail, 'string')
  if (detail !== undefined) assert.match((r.body as { detail: string }).detail, detail)
}

/** A 422 whose entries sit exactly at `locs`. */
export function assertInvalid(r: JsonResponse, locs: readonly (readonly (string | number)[])[]): void {
  assert.equal(r.status, 422, JSON.stringify(r.body))
  const detail = (r.body as { detail: { loc: (string | number)[] }[] }).detail
  assert.deepEqual(detail.map((d) => d.loc).sort(), [...locs].map((l) => [...l]).sort(), JSON.stringify(r.body))
}
