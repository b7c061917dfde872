import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import v8 from 'node:v8'
import vm from 'node:vm'
import fc from 'fast-check'
import type { OpenApiDocument } from '../../src/http/openapi.js'
import type { AnyRoute } from '../../src/http/route.js'
import { assertMatchesResponseSchema } from '../helpers/contract.js'
import { storeBackends } from '../helpers/db.js'
import { describeOrSkip } from '../helpers/skippable-suite.js'
import {
  assertCleanAnswer,
  describeRequest,
  fuzzRequests,
  FuzzFigures,
  mib,
  SCALE,
  SEED,
  timedRequest,
} from '../helpers/fuzz.js'
import { operations } from '../helpers/hostile-requests.js'
import { rawRequest } from '../helpers/raw-http.js'
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
 * Between operations `/readyz` stays 200; over the run the heap the process keeps (after a full collection) grows
 * by less than RETAINED_HEAP_MAX (its RSS is reported; fuzz-process.test.ts bounds the RSS of the service's own
 * process, since here it is the test runner's too); after the run every key and alert rule the fuzz left is whole
 * (listed, read back and matching its published schema). No line is logged at error level.
 * On every store backend (PGlite; Postgres too with TEST_DATABASE_URL), since the store is where unchecked input
 * used to fail.
 *
 * Fixed seed and a fixed number of runs per operation (more where there is more input), so the test is
 * reproducible and bounded (about 15 s); RELIABILITY_LONG=1 multiplies the runs by 10, FUZZ_RUNS_SCALE by any
 * factor, FUZZ_SEED changes the seed (test/helpers/fuzz.ts). A failure names the request, and fast-check its seed and path. The figures (requests, statuses, slowest
 * answer, RSS) are printed as the test's diagnostics; docs/reliability/fuzz.md keeps the last measured ones.
 */
/** Runs per operation with the suite's key, by how much input it takes; without a key, fewer (most stop at 401). */
const RUNS = { body: 200, params: 80, none: 4, unkeyed: 12 }
/** What the run may keep, after a full collection: the records it stored, the caches of keys and rules. */
const RETAINED_HEAP_MAX = 32 * 1024 * 1024

/** The account startTestService signs up, whose key the fuzz holds. */
const SUITE_EMAIL = 'test-suite@example.com'

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
        const heapBefore = retainedHeap()
        const rssBefore = process.memoryUsage().rss
        const figures = new FuzzFigures(rssBefore)
        for (const o of ops) {
          const route = s.app.routes.find((r: AnyRoute) => r.operationId === o.op.operationId)
          const inputs = (o.op.parameters?.length ?? 0) + (o.op.requestBody === undefined ? 0 : 1)
          const keyed = o.op.requestBody !== undefined ? RUNS.body : inputs > 0 ? RUNS.params : RUNS.none
          const writes = o.method !== 'GET'
          for (const apiKey of [s.apiKey, undefined]) {
            const numRuns = Math.ceil((apiKey === undefined ? Math.min(keyed, RUNS.unkeyed) : keyed) * SCALE)
            await fc.assert(
              fc.asyncProperty(fuzzRequests(doc, o, apiKey), async (req) => {
                const before = writes ? await storedRecords(s) : undefined
                const { res, ms, slowFirst } = await timedRequest(s.app.port, o, req)
                figures.add(o, res.status, ms, slowFirst)
                assertCleanAnswer(o, route, req, res)
                if (before !== undefined && (res.status < 200 || res.status > 299))
                  assert.equal(
                    await storedRecords(s),
                    before,
                    `${describeRequest(o, req)}: a refused request changed stored records`,
                  )
              }),
              { seed: SEED, numRuns, endOnFailure: true, includeErrorInReport: true },
            )
          }
          figures.memory(o, process.memoryUsage().rss)
          const ready = await fetch(`${s.baseUrl}/readyz`)
          await ready.arrayBuffer()
          assert.equal(ready.status, 200, `/readyz after fuzzing ${o.op.operationId}`)
        }
        const rssAfter = process.memoryUsage().rss
        const heapAfter = retainedHeap()
        t.diagnostic(figures.summary(ops.length, rssBefore, rssAfter))
        t.diagnostic(`retained heap ${mib(heapBefore)} → ${mib(heapAfter)}`)
        assert.ok(
          heapAfter - heapBefore < RETAINED_HEAP_MAX,
          `retained heap grew from ${mib(heapBefore)} to ${mib(heapAfter)} over ${figures.requests} requests`,
        )
        await assertStoredRecordsWhole(s)
        assert.deepEqual(
          s.logs.warnings().filter((l) => (l.level as number) >= 50),
          [],
          'nothing logged at error level',
        )
      },
    )

    test('every path of the document with a method it does not list: a JSON 404 (or 405), never anything else', async () => {
      for (const [path, methods] of Object.entries(doc.paths)) {
        const target = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000')
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'CONNECT']) {
          if (method.toLowerCase() in methods) continue
          const res = await rawRequest(s.app.port, {
            method,
            target,
            headers: [
              ['x-api-key', s.apiKey as string],
              ['x-user-id', 'fuzz'],
              ['content-type', 'application/json'],
            ],
            body: Buffer.from('{}'),
          })
          const where = `${method} ${target} → ${res.status} ${res.body.toString().slice(0, 200)}`
          assert.ok(res.status === 404 || res.status === 405, where)
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/, where)
          const { code } = JSON.parse(res.body.toString()) as { code?: unknown }
          assert.equal(code, res.status === 404 ? 'not_found' : code, where)
          assert.equal(typeof code, 'string', where)
        }
      }
    })
  })
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

/**
 * The heap still in use after a full collection: what the run kept, not garbage awaiting collection (the RSS moves
 * with both, and the test runner's own allocations). `gc` is reachable without `--expose-gc` on the command line.
 */
function retainedHeap(): number {
  v8.setFlagsFromString('--expose-gc')
  ;(vm.runInNewContext('gc') as () => void)()
  return process.memoryUsage().heapUsed
}
