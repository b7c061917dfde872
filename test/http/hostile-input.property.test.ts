import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { buildOpenApi, type OpenApiDocument } from '../../src/http/openapi.js'
import { storeBackends } from '../helpers/db.js'
import { describeOrSkip } from '../helpers/skippable-suite.js'
import { hostileRequests, operations, type Operation } from '../helpers/hostile-requests.js'
import { FORBIDDEN } from '../helpers/hostile-values.js'
import { rawRequest, type RawRequest, type RawResponse } from '../helpers/raw-http.js'
import { startTestService, type TestService } from '../helpers/service.js'

/**
 * Issue 16 item 8 as a property, over every operation of the OpenAPI document built from the app's own routes:
 * whatever a client sends in any parameter, header or body field (test/helpers/hostile-requests.ts), the answer is not a
 * 5xx; every error is JSON with `detail` (and `code`, or a list of validation entries) and shows nothing of the
 * implementation; and a request that fails changes no stored record. On every store backend (PGlite; Postgres too
 * with TEST_DATABASE_URL), since the store is where unchecked input used to fail.
 *
 * Fixed seed and a fixed number of runs per operation (more where there is more input), so the test is
 * reproducible and its run time bounded (about 10 s). A failure names the request, and fast-check its seed and path.
 */
const SEED = 16_008
/** Runs per operation, by how much input it takes. */
const RUNS = { body: 200, params: 80, none: 4 }

/** Valid values the schemas do not spell out (a target that fits the sampled channel, a wallet address). */
const VALID = { target: 'ops@example.com', wallet_address: `0x${'0'.repeat(40)}` }

for (const backend of storeBackends()) {
  describeOrSkip(`hostile input on every operation (${backend.name} store)`, backend.skip, () => {
    let s: TestService
    let doc: OpenApiDocument

    before(async () => {
      // Rate limits would turn most requests into 429s before validation: the simulated clock never refills a bucket.
      s = await startTestService({ questions: 20, backend, config: { auth: { rateLimit: { burst: 1_000_000 } } } })
      doc = buildOpenApi(s.app.routes, { title: 'hostile input' })
    })
    after(() => s.close())

    // The runs are fixed (about 10 s alone on a laptop core); the timeout only stops a hang.
    test(
      'a 4xx with a clean JSON error, never a 5xx; a refused request changes nothing',
      { timeout: 120_000 },
      async () => {
        const ops = operations(doc)
        assert.ok(ops.length >= 30, `only ${ops.length} operations in the document`)
        for (const o of ops) {
          const inputs = (o.op.parameters?.length ?? 0) + (o.op.requestBody === undefined ? 0 : 1)
          const numRuns = o.op.requestBody !== undefined ? RUNS.body : inputs > 0 ? RUNS.params : RUNS.none
          const writes = o.method !== 'GET'
          await fc.assert(
            fc.asyncProperty(hostileRequests(doc, o, { apiKey: s.apiKey, valid: VALID }), async (req) => {
              const before = writes ? await storedRecords(s) : undefined
              const res = await rawRequest(s.app.port, req)
              assertCleanAnswer(o, req, res)
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
      },
    )
  })
}

function assertCleanAnswer(o: Operation, req: RawRequest, res: RawResponse): void {
  const where = `${describeRequest(o, req)} → ${res.status} ${res.body.toString('utf8', 0, 300)}`
  assert.ok(res.status >= 200 && res.status < 500, where)
  if (res.status < 300) return
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, where)
  const body = JSON.parse(res.body.toString('utf8')) as { detail?: unknown; code?: unknown }
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

function describeRequest(o: Operation, req: RawRequest): string {
  const body =
    req.body === undefined
      ? ''
      : ` body ${JSON.stringify(req.body.toString('utf8', 0, 200))}${req.body.length > 200 ? `… (${req.body.length} bytes)` : ''}`
  return `${o.op.operationId}: ${req.method} ${req.target.slice(0, 300)} headers ${JSON.stringify(req.headers).slice(0, 300)}${body}`
}
