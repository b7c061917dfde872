import assert from 'node:assert/strict'
import type { AnyRoute } from '../../src/http/route.js'
import { assertMatchesResponseSchema } from './contract.js'
import type { TestService } from './service.js'

/**
 * Calls an API route of a running test service (with the service's API key, when it has one) and checks the
 * response against the schema the route publishes (OpenAPI contract), so every endpoint test is also a contract
 * test.
 */
export interface ApiResponse<T = Record<string, unknown>> {
  readonly status: number
  readonly body: T
  readonly headers: Headers
}

export async function call<T = Record<string, unknown>>(
  s: TestService,
  operationId: string,
  pathAndQuery: string,
): Promise<ApiResponse<T>> {
  const route = s.app.routes.find((r: AnyRoute) => r.operationId === operationId)
  assert.ok(route !== undefined, `no route ${operationId}`)
  const res = await fetch(`${s.baseUrl}${pathAndQuery}`, { headers: s.authHeaders })
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8')
  const body = (await res.json()) as T
  assertMatchesResponseSchema(route, res.status, body)
  return { status: res.status, body, headers: res.headers }
}

/** A 200 call returning the body. */
export async function ok<T = Record<string, unknown>>(
  s: TestService,
  operationId: string,
  pathAndQuery: string,
): Promise<T> {
  const r = await call<T>(s, operationId, pathAndQuery)
  assert.equal(r.status, 200, `${pathAndQuery} → ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`)
  return r.body
}

/** Asserts the 422 body lists exactly these locations (and only validation entries). */
export async function invalid(
  s: TestService,
  operationId: string,
  pathAndQuery: string,
  locs: readonly (readonly (string | number)[])[],
): Promise<void> {
  const r = await call<{ detail: { loc: (string | number)[]; type: string; msg: string }[] }>(
    s,
    operationId,
    pathAndQuery,
  )
  assert.equal(r.status, 422, `${pathAndQuery} should be rejected`)
  assert.deepEqual(
    r.body.detail.map((d) => d.loc).sort(),
    [...locs].map((l) => [...l]).sort(),
    `${pathAndQuery}: ${JSON.stringify(r.body)}`,
  )
}

type Row = Record<string, unknown>

/**
 * Asserts `rows` are ordered by `field` in `order`, unknown (null) values last, ties by `idField` ascending —
 * the API's documented ordering.
 */
export function assertOrdered(rows: readonly Row[], field: string, order: 'asc' | 'desc', idField: string): void {
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1] as Row
    const b = rows[i] as Row
    const va = a[field] as number | string | null
    const vb = b[field] as number | string | null
    const where = `rows ${i - 1}/${i} by ${field} ${order}: ${String(va)} then ${String(vb)}`
    if (va === null) {
      assert.equal(vb, null, `${where}: unknown values come last`)
    } else if (vb !== null && va !== vb) {
      assert.ok(order === 'asc' ? va < vb : va > vb, where)
      continue
    }
    if (va === vb) assert.ok(String(a[idField]) < String(b[idField]), `${where}: ties ordered by ${idField}`)
  }
}

/** Walks every page of a list with `pageSize` and checks the pages tile the full list exactly. */
export async function assertPagesTile(
  s: TestService,
  operationId: string,
  base: string,
  key: string,
  idField: string,
  pageSize: number,
): Promise<void> {
  const all = await ok<Record<string, unknown>>(s, operationId, `${base}&limit=100&offset=0`)
  const total = all.total as number
  const full = (all[key] as Row[]).map((r) => r[idField])
  assert.ok(total <= 100, 'test list fits one 100-row page')
  const walked: unknown[] = []
  for (let offset = 0; offset < total + pageSize; offset += pageSize) {
    const page = await ok<Record<string, unknown>>(s, operationId, `${base}&limit=${pageSize}&offset=${offset}`)
    assert.equal(page.total, total, 'total is the same on every page')
    assert.equal(page.limit, pageSize)
    assert.equal(page.offset, offset)
    const rows = page[key] as Row[]
    assert.equal(rows.length, Math.max(0, Math.min(pageSize, total - offset)))
    walked.push(...rows.map((r) => r[idField]))
  }
  assert.deepEqual(walked, full, 'pages concatenate to the full list: no gaps, no duplicates')
}

/** Every row of a list endpoint, walking pages of 100. */
export async function allRows<T = Row>(s: TestService, operationId: string, base: string, key: string): Promise<T[]> {
  const rows: T[] = []
  for (let offset = 0; ; offset += 100) {
    const page = await ok<Record<string, unknown>>(
      s,
      operationId,
      `${base}${base.includes('?') ? '&' : '?'}limit=100&offset=${offset}`,
    )
    rows.push(...(page[key] as T[]))
    if (rows.length >= (page.total as number)) return rows
  }
}
