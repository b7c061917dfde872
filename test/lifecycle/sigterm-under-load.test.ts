import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import WebSocket from 'ws'
import { PGliteProcessDb } from '../../src/store/pglite-process-db.js'
import { initializedDataDir } from '../helpers/db.js'
import { MAIN_JS, outputMatch, spawnNode, waitReady } from '../helpers/processes.js'
import { signUp } from '../helpers/service.js'
import { waitFor } from '../helpers/wait.js'
import { Client } from '../stream/server/harness.js'

/**
 * SIGTERM under load, as an orchestrator stops a replica: the service (its own process, embedded store) serves
 * concurrent HTTP clients on keep-alive connections (reads and writes) and stream clients subscribed to
 * `spreads.top`, while alert rules fire into the outbox and spread history accumulates. On SIGTERM:
 *
 * - every request sent gets an answer: a success, or a clean error (a JSON body, 503); none is reset or left
 *   without an answer, and once the service stops listening new connections are refused;
 * - every stream client gets `bye` as its last frame, then close 1001;
 * - history points and outbox rows are written before the store closes (nothing logged as lost, the stored
 *   rows at least what /metrics reported committed);
 * - the process exits 0 within 10 s.
 */
const HTTP_CLIENTS = 8
const STREAM_CLIENTS = 4

interface Outcome {
  readonly op: string
  readonly status?: number
  /** Why no answer came (fetch's cause code). */
  readonly error?: string
  readonly json: boolean
}

test(
  'SIGTERM under load: answers or clean errors, bye on every stream, history and outbox written, exit 0 within 10 s',
  { timeout: 120_000 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'predmkt-sigterm-'))
    await initializedDataDir(join(dir, 'pglite'))
    const service = spawnNode(MAIN_JS, {
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'info',
      SIM_QUESTIONS: '60',
      DATA_DIR: dir,
    })
    let stopping = false
    try {
      const port = Number((await outputMatch(service, /"port":(\d+),"host"/, 60_000))[1])
      await waitReady(port, 60_000)
      const base = `http://127.0.0.1:${port}`
      const key = await signUp(base, 'sigterm@example.com')
      const headers = { 'x-api-key': key, 'x-user-id': 'ops', 'content-type': 'application/json' }
      // Rules that fire on every priced pair: firings keep reaching the outbox while the load runs.
      for (const threshold of [0.0001, 0.0002])
        assert.equal(
          (
            await fetch(`${base}/api/v2/alerts`, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                trigger_type: 'spread_expansion',
                threshold,
                channel: 'email',
                cooldown_seconds: 60,
              }),
            })
          ).status,
          201,
        )

      const streams = Array.from({ length: STREAM_CLIENTS }, () => {
        const c = new Client(new WebSocket(`ws://127.0.0.1:${port}/api/v2/stream`, { headers: { 'x-api-key': key } }))
        void c.send({ op: 'subscribe', id: 1, ch: 'spreads.top', keys: ['limit=20'] })
        return c
      })
      await waitFor(() => streams.every((c) => c.frames.length > 2), 10_000, 'every stream client receiving')

      const outcomes: Outcome[] = []
      const one = async (op: string, path: string, init?: RequestInit): Promise<boolean> => {
        try {
          const res = await fetch(`${base}${path}`, { ...init, headers, signal: AbortSignal.timeout(15_000) })
          const text = await res.text()
          let json = true
          try {
            JSON.parse(text)
          } catch {
            json = false
          }
          outcomes.push({ op, status: res.status, json })
          return true
        } catch (err) {
          const cause = (err as { cause?: { code?: string } }).cause
          outcomes.push({ op, error: cause?.code ?? String(err), json: false })
          return false
        }
      }
      const loops = Array.from({ length: HTTP_CLIENTS }, async (_, i) => {
        for (let n = 0; ; n++) {
          const ok =
            (i + n) % 3 === 0
              ? await one('create rule', '/api/v2/alerts', {
                  method: 'POST',
                  body: JSON.stringify({ trigger_type: 'spread_threshold', threshold: 0.9, channel: 'email' }),
                })
              : (i + n) % 3 === 1
                ? await one('spreads', '/api/v2/spreads?limit=50')
                : await one('usage', '/api/v2/developers/usage')
          if (!ok) return
        }
      })
      await new Promise((r) => setTimeout(r, 1_500))
      const metrics = await (await fetch(`${base}/metrics`)).text()
      const historyWritten = Number(
        /^predmkt_spread_history_points_total\{outcome="written"\} (\d+)$/m.exec(metrics)?.[1],
      )
      const exited = new Promise<number | null>((r) => service.child.once('exit', (code) => r(code)))
      const termAt = Date.now()
      stopping = true
      service.child.kill('SIGTERM')
      const code = await exited
      const exitMs = Date.now() - termAt
      await Promise.all(loops)
      await waitFor(() => streams.every((c) => c.closeCode !== undefined), 5_000, 'every stream closed')

      assert.equal(code, 0, service.output().slice(-3_000))
      assert.ok(exitMs < 10_000, `exited ${exitMs} ms after SIGTERM`)
      for (const c of streams) {
        assert.deepEqual(c.frames.at(-1), { type: 'bye', reconnect_after_ms: 1_000 })
        assert.equal(c.closeCode, 1001)
      }
      // Each loop ends at its first request without an answer: that one may only be a refused connection.
      const answered = outcomes.filter((o) => o.status !== undefined)
      const unanswered = outcomes.filter((o) => o.status === undefined)
      // A rule creation past the account's limit (alerts.maxRulesPerUser, 100) is the documented 409 `conflict`: a
      // fast machine creates that many within the load's 1.5 s.
      const clean = (o: Outcome): boolean =>
        (o.status as number) < 300 || o.status === 503 || (o.op === 'create rule' && o.status === 409)
      const bad = answered.filter((o) => !o.json || !clean(o))
      assert.deepEqual(bad, [], 'every answer a success, a clean 503 or the rule limit, with a JSON body')
      assert.deepEqual(
        unanswered.filter((o) => o.error !== 'ECONNREFUSED'),
        [],
        `requests reset or dropped instead of answered (${answered.length} answered)`,
      )
      // Written before the store closed: nothing logged as lost, and at least what was reported committed.
      assert.doesNotMatch(service.output(), /"level":(50|60)/, 'no error logged during shutdown')
      const db = await PGliteProcessDb.open({ dir: join(dir, 'pglite'), lockWaitMs: 0 })
      try {
        const history = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM spread_history')
        assert.ok((history.rows[0]?.n ?? 0) >= historyWritten, `${history.rows[0]?.n} rows, ${historyWritten} reported`)
        const outbox = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_deliveries')
        assert.ok((outbox.rows[0]?.n ?? 0) > 0, 'firings reached the outbox')
        // Rule creations answered 201 while the service stopped are stored (the 2 made before the load, and those).
        const created = answered.filter((o) => o.op === 'create rule' && o.status === 201).length
        const rules = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_rules')
        assert.ok(
          (rules.rows[0]?.n ?? 0) >= created + 2,
          `${rules.rows[0]?.n} rules stored, ${created + 2} acknowledged`,
        )
      } finally {
        await db.close()
      }
      t.diagnostic(
        `sigterm figures: ${JSON.stringify({ exitMs, answered: answered.length, byStatus: countBy(answered.map((o) => String(o.status))), refused: unanswered.length })}`,
      )
    } finally {
      stopping = true
      await service.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  },
)

function countBy(xs: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const x of xs) out[x] = (out[x] ?? 0) + 1
  return out
}
