import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import fc from 'fast-check'
import type { OpenApiDocument } from '../../src/http/openapi.js'
import { assertCleanAnswer, fuzzRequests, FuzzFigures, mib, SCALE, SEED, timedRequest } from '../helpers/fuzz.js'
import { migratedPGliteDir } from '../helpers/db.js'
import { operations, type Operation } from '../helpers/hostile-requests.js'
import { MAIN_JS, outputMatch, spawnNode, startStandaloneSim, waitReady, type Child } from '../helpers/processes.js'
import { signUp } from '../helpers/service.js'

/**
 * The fuzz of every operation against the service as it runs in production: its own process (`node dist/src/main.js`,
 * a PGlite store in a data directory) against the standalone simulator, on the wall clock. Every operation of the
 * document it serves gets RUNS hostile requests with the key and as many without (test/helpers/fuzz.ts: a
 * documented status, a clean JSON error, no 5xx, within a second); `/readyz` is 200 after each operation; and the
 * process's resident memory, read from /proc after a warm-up pass, grows by less than RSS_GROWTH_MAX over the run,
 * which is what an operator's memory limit sees (test/http/hostile-input.property.test.ts runs the fuzz in-process,
 * where the RSS is the test runner's too, with checks of the stored records).
 *
 * About 20 s (two processes start); RELIABILITY_LONG=1 sends 10 times as many requests.
 */
const RUNS = 30
const WARM_UP_RUNS = 5
/** The V8 heap settles near its high-water mark after the warm-up; the fuzz itself must not keep memory. */
const RSS_GROWTH_MAX = 64 * 1024 * 1024

test(
  "fuzz of every operation against the service's own process: clean answers, /readyz 200 throughout, RSS bounded",
  { timeout: 180_000 * SCALE, skip: process.platform === 'linux' ? false : 'reads /proc' },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-process-'))
    const { sim, serviceEnv } = await startStandaloneSim({
      SIM_QUESTIONS: '40',
      SIM_PORT_BASE: '0',
      DATA_DIR: join(dir, 'sim'),
    })
    let service: Child | undefined
    try {
      await migratedPGliteDir(join(dir, 'service', 'pglite'))
      service = spawnNode(MAIN_JS, {
        ...serviceEnv,
        PORT: '0',
        LOG_LEVEL: 'info',
        DATA_DIR: join(dir, 'service'),
        // Rate limits would turn most of the fuzz into 429s before validation.
        RATE_LIMIT_BURST: '1000000',
        SIGNUP_RATE_LIMIT_BURST: '1000000',
      })
      const port = Number((await outputMatch(service, /"port":(\d+),"host"/, 60_000))[1])
      await waitReady(port, 120_000)
      const base = `http://127.0.0.1:${port}`
      const apiKey = await signUp(base, 'fuzz@example.com')
      const doc = (await (await fetch(`${base}/api/v2/openapi.json`)).json()) as OpenApiDocument
      const ops = operations(doc)
      const pid = service.child.pid as number

      const fuzz = async (o: Operation, numRuns: number, figures?: FuzzFigures): Promise<void> => {
        for (const key of [apiKey, undefined])
          await fc.assert(
            fc.asyncProperty(fuzzRequests(doc, o, key), async (req) => {
              const { res, ms, slowFirst } = await timedRequest(port, o, req)
              figures?.add(o, res.status, ms, slowFirst)
              assertCleanAnswer(o, undefined, req, res)
            }),
            { seed: SEED + 1, numRuns, endOnFailure: true, includeErrorInReport: true },
          )
      }
      // A first pass compiles the code paths and fills what is meant to fill (caches, pools); then the measure.
      for (const o of ops) await fuzz(o, WARM_UP_RUNS)
      const rssBefore = rssOf(pid)
      const figures = new FuzzFigures(rssBefore)
      for (const o of ops) {
        await fuzz(o, Math.ceil(RUNS * SCALE), figures)
        figures.memory(o, rssOf(pid))
        const ready = await fetch(`${base}/readyz`)
        await ready.arrayBuffer()
        assert.equal(ready.status, 200, `/readyz after fuzzing ${o.op.operationId}`)
      }
      const rssAfter = rssOf(pid)
      t.diagnostic(figures.summary(ops.length, rssBefore, rssAfter))
      assert.ok(
        rssAfter - rssBefore < RSS_GROWTH_MAX,
        `the service's RSS grew from ${mib(rssBefore)} to ${mib(rssAfter)} over ${figures.requests} requests`,
      )
      const errors = service
        .output()
        .split('\n')
        .filter((l) => /"level":(50|60)/.test(l))
      assert.deepEqual(errors, [], 'nothing logged at error level')
    } finally {
      await service?.stop()
      await sim.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  },
)

/** A process's resident set, from /proc (what a container's memory limit counts). */
function rssOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  assert.ok(kb !== undefined, `no VmRSS for ${pid}`)
  return Number(kb) * 1024
}
