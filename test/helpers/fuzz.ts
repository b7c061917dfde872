import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { OpenApiDocument } from '../../src/http/openapi.js'
import type { AnyRoute } from '../../src/http/route.js'
import { assertMatchesResponseSchema } from './contract.js'
import { hostileRequests, type Operation } from './hostile-requests.js'
import { FORBIDDEN } from './hostile-values.js'
import { rawRequest, type RawRequest, type RawResponse } from './raw-http.js'

/**
 * What the fuzz of every operation (test/http/hostile-input.property.test.ts in-process, fuzz-process.test.ts against
 * the service's own process) sends and what it holds every answer to. The runs are seeded and counted, so a run is
 * reproducible and bounded: RELIABILITY_LONG=1 multiplies them by 10, FUZZ_RUNS_SCALE by any factor, FUZZ_SEED
 * changes the seed.
 */
export const SEED = Number(process.env.FUZZ_SEED ?? 16_008)
export const SCALE = Number(process.env.FUZZ_RUNS_SCALE ?? (process.env.RELIABILITY_LONG === '1' ? 10 : 1))
/** Statuses any operation may answer besides its own (docs/API.md §7; 405 and 431 are the HTTP layer's). */
export const GENERIC = new Set([400, 401, 404, 405, 413, 415, 422, 429, 431])
export const LATENCY_MAX_MS = 1_000

/** Valid values the schemas do not spell out (a target that fits the sampled channel, a wallet address). */
export const VALID = { target: 'ops@example.com', wallet_address: `0x${'0'.repeat(40)}` }

/**
 * Hostile requests for one operation, with `apiKey` in the background (or none); a quarter of the bodies streamed
 * (`Transfer-Encoding: chunked`) rather than sized up front.
 */
export function fuzzRequests(doc: OpenApiDocument, o: Operation, apiKey: string | undefined): fc.Arbitrary<RawRequest> {
  return fc
    .tuple(hostileRequests(doc, o, { apiKey, valid: VALID }), fc.nat({ max: 3 }))
    .map(([req, n]) => (n === 0 && req.body !== undefined ? { ...req, chunked: true } : req))
}

/**
 * Sends a request and times it. An answer slower than LATENCY_MAX_MS is asked for once more, and the request passes
 * if the second answer comes in time: an input that makes the service slow is slow every time, while a pause of the
 * whole process (a major collection, a machine shared with other jobs) is not the input's doing. `slowFirst` counts
 * those, for the figures.
 */
export async function timedRequest(
  port: number,
  o: Operation,
  req: RawRequest,
): Promise<{ res: RawResponse; ms: number; slowFirst: boolean }> {
  let startedAt = performance.now()
  const res = await rawRequest(port, req)
  let ms = performance.now() - startedAt
  const slowFirst = ms >= LATENCY_MAX_MS
  if (slowFirst) {
    startedAt = performance.now()
    await rawRequest(port, req)
    ms = performance.now() - startedAt
  }
  assert.ok(ms < LATENCY_MAX_MS, `${describeRequest(o, req)}: answered in ${ms.toFixed(0)} ms, twice`)
  return { res, ms, slowFirst }
}

/**
 * What every answer must be: a status the operation documents or a generic one, never a 5xx; an error in JSON, of
 * the schema the route publishes for that status when `route` is given (otherwise `{detail, code}` or the 422 list),
 * that shows nothing of the implementation (FORBIDDEN).
 */
export function assertCleanAnswer(o: Operation, route: AnyRoute | undefined, req: RawRequest, res: RawResponse): void {
  const where = `${describeRequest(o, req)} → ${res.status} ${res.body.toString('utf8', 0, 300)}`
  assert.ok(res.status >= 200 && res.status < 500, where)
  assert.ok(o.op.responses[String(res.status)] !== undefined || GENERIC.has(res.status), `undocumented: ${where}`)
  // A 304 (If-None-Match) has no body.
  if (res.status < 400) return
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, where)
  const body = JSON.parse(res.body.toString('utf8')) as { detail?: unknown; code?: unknown }
  if (route !== undefined && route.responses[res.status] !== undefined)
    assertMatchesResponseSchema(route, res.status, body, { allowExtraFields: true })
  if (Array.isArray(body.detail)) {
    assert.equal(res.status, 422, where)
    for (const entry of body.detail as Record<string, unknown>[]) {
      assert.equal(typeof entry.type, 'string', where)
      assert.ok(Array.isArray(entry.loc), where)
      assert.equal(typeof entry.msg, 'string', where)
      assert.ok('input' in entry, where)
      // `input` and `loc` echo what was sent; everything else is the service's own words.
      assert.doesNotMatch(JSON.stringify({ type: entry.type, msg: entry.msg, ctx: entry.ctx }), FORBIDDEN, where)
    }
  } else {
    assert.equal(typeof body.detail, 'string', where)
    assert.equal(typeof body.code, 'string', where)
    assert.doesNotMatch(JSON.stringify(body), FORBIDDEN, where)
  }
}

export function describeRequest(o: Operation, req: RawRequest): string {
  const body =
    req.body === undefined
      ? ''
      : ` ${req.chunked === true ? 'chunked ' : ''}body ${JSON.stringify(req.body.toString('utf8', 0, 200))}${req.body.length > 200 ? `… (${req.body.length} bytes)` : ''}`
  return `${o.op.operationId}: ${req.method} ${req.target.slice(0, 300)} headers ${JSON.stringify(req.headers).slice(0, 300)}${body}`
}

/** What a run saw, for the test's diagnostics and docs/reliability/fuzz.md. */
export class FuzzFigures {
  requests = 0
  readonly #statuses = new Map<number, number>()
  #slowest = { ms: 0, operation: '' }
  readonly #growth: [string, number][] = []
  #rss: number

  constructor(rss: number) {
    this.#rss = rss
  }

  /** Answers over LATENCY_MAX_MS that were in time when asked again (timedRequest). */
  slowFirst = 0

  add(o: Operation, status: number, ms: number, slowFirst = false): void {
    this.requests++
    if (slowFirst) this.slowFirst++
    this.#statuses.set(status, (this.#statuses.get(status) ?? 0) + 1)
    if (ms > this.#slowest.ms) this.#slowest = { ms, operation: o.op.operationId }
  }

  /** Notes the RSS after an operation was fuzzed (how much it grew meanwhile). */
  memory(o: Operation, rss: number): void {
    this.#growth.push([o.op.operationId, rss - this.#rss])
    this.#rss = rss
  }

  summary(operations: number, rssBefore: number, rssAfter: number): string {
    const statuses = [...this.#statuses].sort(([a], [b]) => a - b).map(([k, v]) => `${k}×${v}`)
    const growth = [...this.#growth]
      .sort(([, a], [, b]) => b - a)
      .slice(0, 3)
      .map(([op, grew]) => `${op} +${mib(grew)}`)
    return (
      `${operations} operations, ${this.requests} requests (seed ${SEED}, scale ${SCALE}); statuses ${statuses.join(' ')}; ` +
      `slowest ${this.#slowest.ms.toFixed(1)} ms (${this.#slowest.operation}), ${this.slowFirst} over ${LATENCY_MAX_MS} ms ` +
      `once and in time when asked again; ` +
      `RSS ${mib(rssBefore)} → ${mib(rssAfter)}, most while fuzzing ${growth.join(', ')}`
    )
  }
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}
