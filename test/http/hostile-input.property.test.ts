import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { OpenApiDocument } from '../../src/http/openapi.js'
import type { AnyRoute } from '../../src/http/route.js'
import { assertMatchesResponseSchema } from '../helpers/contract.js'
import { storeBackends } from '../helpers/db.js'
import { describeOrSkip } from '../helpers/skippable-suite.js'
import { hostileRequests, operations, type Operation } from '../helpers/hostile-requests.js'
import { FORBIDDEN } from '../helpers/hostile-values.js'
import { rawRequest, type RawRequest, type RawResponse } from '../helpers/raw-http.js'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * The fuzz of every operation (issue 16 item 8, issue 23 item 1), driven by the OpenAPI document the service serves
 * (`GET /api/v2/openapi.json`): whatever a client sends in any parameter, header or body field
 * (test/helpers/hostile-requests.ts), with the API key and without it, with a body sized up front or streamed
 * chunked, the answer
 * - has a status the operation documents, or one of the API's generic errors (GENERIC), and never a 5xx;
 * - when an error, is JSON of the schema the route publishes for that status (`{detail, code}` or the 422 list)
 *   and shows nothing of the implementation (FORBIDDEN: stack frames, paths, SQL, exception names);
 * - comes on the same connection, within LATENCY_MAX_MS;
 * - when refused, has changed no stored record.
 * Between operations `/readyz` stays 200; over the run the process's RSS grows by less than RSS_GROWTH_MAX; after
 * it, every key and alert rule the fuzz left is whole (listed, read back and matching its published schema).
 * On every store backend (PGlite; Postgres too with TEST_DATABASE_URL), since the store is where unchecked input
 * used to fail.
 *
 * Fixed seed and a fixed number of runs per operation (more where there is more input), so the test is
 * reproducible and bounded (about 15 s); RELIABILITY_LONG=1 multiplies the runs by 10, FUZZ_RUNS_SCALE by any
 * factor. A failure names the request, and fast-check its seed and path. The figures (requests, statuses, slowest
 * answer, RSS) are printed as the test's diagnostics; docs/reliability/fuzz.md keeps the last measured ones.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 16_008)
const SCALE = Number(process.env.FUZZ_RUNS_SCALE ?? (process.env.RELIABILITY_LONG === '1' ? 10 : 1))
/** Runs per operation with the suite's key, by how much input it takes; without a key, fewer (most stop at 401). */
const RUNS = { body: 200, params: 80, none: 4, unkeyed: 12 }
/** Statuses any operation may answer besides its own (docs/API.md §7; 431 and 405 are the HTTP layer's). */
const GENERIC = new Set([400, 401, 404, 405, 413, 415, 422, 429, 431])
const LATENCY_MAX_MS = 1_000
/** In-process, the RSS is the test runner's too (fast-check, the responses kept for digests): a generous bound. */
const RSS_GROWTH_MAX = 256 * 1024 * 1024

/** The account startTestService signs up, whose key the fuzz holds. */
const SUITE_EMAIL = 'test-suite@example.com'

/** Valid values the schemas do not spell out (a target that fits the sampled channel, a wallet address). */
const VALID = { target: 'ops@example.com', wallet_address: `0x${'0'.repeat(40)}` }

for (const backend of storeBackends()) {
  describeOrSkip(`fuzz of every operation (${backend.name} store)`, backend.skip, () => {
    let s: TestService
    let doc: OpenApiDocument

    before(async () => {
      // Rate limits would turn most requests into 429s before validation: the simulated clock never refills a bucket.
      s = await startTestService({
        questions: 20,
        backend,
        config: { auth: { rateLimit: { burst: 1_000_000 }, signupRateLimit: { burst: 1_000_000 } } },
      })
      const served = await fetch(`${s.baseUrl}/api/v2/openapi.json`)
      assert.equal(served.status, 200)
      doc = (await served.json()) as OpenApiDocument
    })
    after(() => s.close())

    // The runs are fixed (about 15 s alone on a laptop core); the timeout only stops a hang.
    test(
      'a documented status with a clean JSON error, never a 5xx, within a second; a refused request changes nothing',
      { timeout: 120_000 * SCALE },
      async (t) => {
        const ops = operations(doc)
        assert.ok(ops.length >= 30, `only ${ops.length} operations in the document`)
        const figures = new Figures()
        const rssBefore = process.memoryUsage().rss
        for (const o of ops) {
          const route = s.app.routes.find((r: AnyRoute) => r.operationId === o.op.operationId)
          const inputs = (o.op.parameters?.length ?? 0) + (o.op.requestBody === undefined ? 0 : 1)
          const keyed = o.op.requestBody !== undefined ? RUNS.body : inputs > 0 ? RUNS.params : RUNS.none
          const writes = o.method !== 'GET'
          for (const apiKey of [s.apiKey, undefined]) {
            const numRuns = Math.ceil((apiKey === undefined ? Math.min(keyed, RUNS.unkeyed) : keyed) * SCALE)
            const requests = fc
              .tuple(hostileRequests(doc, o, { apiKey, valid: VALID }), fc.nat({ max: 3 }))
              // A quarter of the bodies are streamed (Transfer-Encoding: chunked) rather than sized up front.
              .map(([req, n]) => (n === 0 && req.body !== undefined ? { ...req, chunked: true } : req))
            await fc.assert(
              fc.asyncProperty(requests, async (req) => {
                const before = writes ? await storedRecords(s) : undefined
                const startedAt = performance.now()
                const res = await rawRequest(s.app.port, req)
                const ms = performance.now() - startedAt
                figures.add(o, res.status, ms)
                assertCleanAnswer(o, route, req, res)
                assert.ok(ms < LATENCY_MAX_MS, `${describeRequest(o, req)}: answered in ${ms.toFixed(0)} ms`)
                if (before !== undefined && (res.status < 200 || res.status > 299))
                  assert.equal(
                    await storedRecords(s),
                    before,
                    `${describeRequest(o, req)}: a refused request changed stored records`,
                  )
              }),
              { seed: SEED, numRuns, endOnFailure: true },
            )
          }
          const ready = await fetch(`${s.baseUrl}/readyz`)
          await ready.arrayBuffer()
          assert.equal(ready.status, 200, `/readyz after fuzzing ${o.op.operationId}`)
        }
        const rssAfter = process.memoryUsage().rss
        t.diagnostic(figures.summary(ops.length, rssBefore, rssAfter))
        assert.ok(
          rssAfter - rssBefore < RSS_GROWTH_MAX,
          `RSS grew from ${mib(rssBefore)} to ${mib(rssAfter)} over ${figures.requests} requests`,
        )
        await assertStoredRecordsWhole(s)
      },
    )
  })
}

function assertCleanAnswer(o: Operation, route: AnyRoute | undefined, req: RawRequest, res: RawResponse): void {
  const where = `${describeRequest(o, req)} → ${res.status} ${res.body.toString('utf8', 0, 300)}`
  assert.ok(res.status >= 200 && res.status < 500, where)
  assert.ok(o.op.responses[String(res.status)] !== undefined || GENERIC.has(res.status), `undocumented: ${where}`)
  // A 304 (If-None-Match) has no body.
  if (res.status < 400) return
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, where)
  const body = JSON.parse(res.body.toString('utf8')) as { detail?: unknown; code?: unknown }
  // The body the route publishes for the status; a generic error the route does not list is `{detail, code}`.
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

/** A digest of the records a request can write (usage counters and history are written in the background). */
async function storedRecords(s: TestService): Promise<string> {
  const { rows } = await s.db.query<{ d: string }>(
    `SELECT (SELECT md5(coalesce(string_agg(a::text, '|' ORDER BY a.id), '')) FROM accounts a)
         || (SELECT md5(coalesce(string_agg(k::text, '|' ORDER BY k.id), '')) FROM api_keys k)
         || (SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r.id), '')) FROM alert_rules r) AS d`,
  )
  return rows[0]?.d ?? ''
}

/**
 * Nothing half-written: the suite account's keys, as listed, are its rows, each whole; every alert rule the fuzz
 * created reads back (as its user) whole, and its user's list holds it.
 */
async function assertStoredRecordsWhole(s: TestService): Promise<void> {
  const get = async (operationId: string, path: string, headers: Record<string, string> = {}) => {
    const route = s.app.routes.find((r: AnyRoute) => r.operationId === operationId) as AnyRoute
    const res = await fetch(`${s.baseUrl}${path}`, { headers: { ...s.authHeaders, ...headers } })
    const body = (await res.json()) as Record<string, unknown>
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(body).slice(0, 300)}`)
    assertMatchesResponseSchema(route, 200, body)
    return body
  }
  const keys = (await get('listApiKeys', '/api/v2/developers/api-keys')).keys as { id: string }[]
  const { rows: keyRows } = await s.db.query<{ id: string }>(
    `SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE lower(a.email) = $1`,
    [SUITE_EMAIL],
  )
  assert.deepEqual(keys.map((k) => k.id).sort(), keyRows.map((r) => r.id).sort(), 'listed keys are the stored ones')
  const { rows: rules } = await s.db.query<{ id: string; user_id: string }>(
    `SELECT id, user_id FROM alert_rules WHERE status <> 'deleted' ORDER BY seq`,
  )
  for (const rule of rules) {
    // User ids the fuzz sent as latin1 bytes are stored decoded; only those a header can carry again are read back.
    if (!/^[\x20-\x7e]+$/.test(rule.user_id)) continue
    const read = await get('getAlert', `/api/v2/alerts/${rule.id}`, { 'x-user-id': rule.user_id })
    assert.equal(read.id, rule.id)
    const list = await get('listAlerts', '/api/v2/alerts?limit=100', { 'x-user-id': rule.user_id })
    assert.ok(
      (list.alerts as { id: string }[]).some((a) => a.id === rule.id),
      `rule ${rule.id} missing from its list`,
    )
  }
}

function describeRequest(o: Operation, req: RawRequest): string {
  const body =
    req.body === undefined
      ? ''
      : ` ${req.chunked === true ? 'chunked ' : ''}body ${JSON.stringify(req.body.toString('utf8', 0, 200))}${req.body.length > 200 ? `… (${req.body.length} bytes)` : ''}`
  return `${o.op.operationId}: ${req.method} ${req.target.slice(0, 300)} headers ${JSON.stringify(req.headers).slice(0, 300)}${body}`
}

/** What the run saw, for the test's diagnostics and docs/reliability/fuzz.md. */
class Figures {
  requests = 0
  readonly #statuses = new Map<number, number>()
  #slowest = { ms: 0, operation: '' }

  add(o: Operation, status: number, ms: number): void {
    this.requests++
    this.#statuses.set(status, (this.#statuses.get(status) ?? 0) + 1)
    if (ms > this.#slowest.ms) this.#slowest = { ms, operation: o.op.operationId }
  }

  summary(operations: number, rssBefore: number, rssAfter: number): string {
    const statuses = [...this.#statuses].sort(([a], [b]) => a - b).map(([k, v]) => `${k}×${v}`)
    return (
      `${operations} operations, ${this.requests} requests (seed ${SEED}, scale ${SCALE}); statuses ${statuses.join(' ')}; ` +
      `slowest ${this.#slowest.ms.toFixed(1)} ms (${this.#slowest.operation}); RSS ${mib(rssBefore)} → ${mib(rssAfter)}`
    )
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`
}
