import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import pg from 'pg'
import { lockPathOf } from '../../src/store/data-dir-lock.js'
import { PGliteProcessDb } from '../../src/store/pglite-process-db.js'
import { initializedDataDir, POSTGRES_SKIP, TEST_DATABASE_URL } from '../helpers/db.js'
import { DurableWriters } from '../helpers/durable-writers.js'
import { childPids, MAIN_JS, outputMatch, processGone, spawnNode, waitReady, type Child } from '../helpers/processes.js'
import { waitFor } from '../helpers/wait.js'

/**
 * Durability under SIGKILL, on the embedded store and on Postgres: the service runs as `npm start` runs it (its
 * own process, built-in simulator, a data directory or a database), concurrent writers sign up, create and revoke
 * keys, create, pause and delete alert rules while spread history accumulates, and at a random moment the service
 * (or, on the embedded store, only its store process) is SIGKILLed. The service is restarted on the same data and
 * every acknowledged write is read back (test/helpers/durable-writers.ts): nothing acknowledged lost, nothing
 * deleted back, nothing half-written, history buckets once served still served, keys created after the restart
 * authenticate. After a SIGKILL of the service its orphaned store process must exit and let go of the directory.
 *
 * Bounded in `npm test` (2 rounds on each store: on the embedded store one kills the service, one the store
 * process; KILL_ROUNDS=n for more); RELIABILITY_LONG=1 runs 12. The figures go to the test's
 * diagnostics (docs/reliability/kill.md).
 */
const LONG = process.env.RELIABILITY_LONG === '1'
const ROUNDS = LONG ? 12 : Number(process.env.KILL_ROUNDS ?? 2)
const WRITERS = 6
/** Acknowledged writes each round has before its kill. */
const MIN_WRITES_PER_ROUND = 80

interface Round {
  readonly kind: 'service' | 'store'
  /** Writers started → kill. */
  readonly afterMs: number
  readonly writes: number
  readonly historyPoints: number
  readonly keys: number
  readonly rules: number
  readonly historyBuckets: number
  /** SIGKILL of the service → its orphaned store process gone (embedded store only). */
  readonly orphanExitMs?: number
  /** SIGKILL → ready again (restart of the service, or of the store process by the running service). */
  readonly recoveryMs: number
}

async function startService(env: Record<string, string>): Promise<{ service: Child; base: string }> {
  const service = spawnNode(MAIN_JS, { NODE_ENV: 'test', PORT: '0', LOG_LEVEL: 'info', SIM_QUESTIONS: '60', ...env })
  const port = Number((await outputMatch(service, /"port":(\d+),"host"/, 60_000))[1])
  await waitReady(port, 60_000)
  return { service, base: `http://127.0.0.1:${port}` }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const exited = (c: Child) =>
  c.child.exitCode !== null || c.child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => c.child.once('exit', () => r()))

/** Spread history rows in the store, read after the service has stopped (it has let go of the directory). */
async function storedHistoryRows(env: Record<string, string>, dataDir: string | undefined): Promise<number> {
  const sql = 'SELECT count(*)::int AS n FROM spread_history'
  if (dataDir === undefined) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL })
    await client.connect()
    try {
      return (await client.query<{ n: number }>(sql)).rows[0]?.n ?? 0
    } finally {
      await client.end()
    }
  }
  const db = await PGliteProcessDb.open({ dir: join(dataDir, 'pglite'), lockWaitMs: 0 })
  try {
    return (await db.query<{ n: number }>(sql)).rows[0]?.n ?? 0
  } finally {
    await db.close()
  }
}

async function killRounds(t: TestContext, env: Record<string, string>, dataDir: string | undefined): Promise<void> {
  let { service, base } = await startService(env)
  const writers = new DurableWriters()
  writers.target(base)
  const rounds: Round[] = []
  /** History points the service reported committed, summed over the incarnations killed. */
  let historyAcknowledged = 0
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // On the embedded store every third round kills the store process instead of the service.
      const kind = dataDir !== undefined && round % 3 === 1 ? 'store' : 'service'
      const before = writers.counts.acknowledged
      writers.start(WRITERS)
      // The kill comes after a floor of acknowledged writes (so every round has something to lose, however slow
      // the host), then at a random moment within the next 2.5 s.
      const startedAt = Date.now()
      await waitFor(
        () => writers.counts.acknowledged - before >= MIN_WRITES_PER_ROUND,
        30_000,
        `${MIN_WRITES_PER_ROUND} acknowledged writes`,
      )
      const randomMs = Math.floor(Math.random() * 2_500)
      await sleep(randomMs / 2)
      await writers.readHistory()
      await sleep(randomMs / 2)
      const afterMs = Date.now() - startedAt
      const historyPoints = await writers.historyWritten()
      const servicePid = service.child.pid as number
      const storePid = childPids(servicePid)[0]
      const killedAt = Date.now()
      let orphanExitMs: number | undefined
      if (kind === 'service') {
        historyAcknowledged += historyPoints
        service.child.kill('SIGKILL')
        await exited(service)
        await writers.stop()
        if (storePid !== undefined) {
          await waitFor(() => processGone(storePid), 10_000, `orphaned store process ${storePid} to exit`)
          orphanExitMs = Date.now() - killedAt
        }
        ;({ service, base } = await startService(env))
        writers.target(base)
      } else {
        assert.ok(storePid !== undefined, 'the service runs a store process')
        process.kill(storePid, 'SIGKILL')
        // The writers keep going: the next statement starts a new store process on the same directory.
        await sleep(500)
        await writers.stop()
        await waitFor(() => childPids(servicePid).some((p) => p !== storePid), 10_000, 'a new store process')
        await waitReady(Number(new URL(base).port), 30_000)
      }
      const recoveryMs = Date.now() - killedAt
      const checked = await writers.verify()
      rounds.push({
        kind,
        afterMs,
        writes: writers.counts.acknowledged - before,
        historyPoints,
        ...checked,
        ...(orphanExitMs === undefined ? {} : { orphanExitMs }),
        recoveryMs,
      })
    }
    // A key created after all the kills authenticates.
    const account = writers.accounts[0]
    assert.ok(account !== undefined, 'a signup was acknowledged')
    const created = await fetch(`${base}/api/v2/developers/api-keys`, {
      method: 'POST',
      headers: { 'x-api-key': account.primary, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'after the kills' }),
    })
    assert.equal(created.status, 201)
    const key = ((await created.json()) as { api_key: string }).api_key
    assert.equal((await fetch(`${base}/api/v2/developers/usage`, { headers: { 'x-api-key': key } })).status, 200)
    historyAcknowledged += await writers.historyWritten()
    const stopAt = Date.now()
    await service.stop()
    assert.equal(service.child.exitCode, 0, service.output().slice(-2_000))
    const stopMs = Date.now() - stopAt
    if (dataDir !== undefined) assert.equal(existsSync(lockPathOf(join(dataDir, 'pglite'))), false, 'lock let go')
    // Every history point a killed service had reported committed is in the store.
    const historyRows = await storedHistoryRows(env, dataDir)
    assert.ok(historyAcknowledged > 0, 'history accumulated')
    assert.ok(
      historyRows >= historyAcknowledged,
      `${historyRows} history rows stored, ${historyAcknowledged} reported committed`,
    )
    // A write the store could not run (its process killed under it) is a clean 503 to retry, never a 500.
    assert.deepEqual(
      Object.keys(writers.counts.failures).filter((status) => status !== '503'),
      [],
      `5xx answers: ${JSON.stringify(writers.counts.failures)}`,
    )
    const writes = rounds.reduce((n, r) => n + r.writes, 0)
    for (const r of rounds) assert.ok(r.writes >= MIN_WRITES_PER_ROUND, `${r.writes} writes acknowledged in a round`)
    t.diagnostic(
      `kill figures: ${JSON.stringify({ rounds, writes, ...writers.counts, historyAcknowledged, historyRows, lost: 0, sigtermExitMs: stopMs })}`,
    )
  } finally {
    await writers.stop()
    await service.stop()
  }
}

test(
  'SIGKILL of the service or its store process mid-write, embedded store: nothing acknowledged is lost',
  { timeout: LONG ? 15 * 60_000 : 120_000 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'predmkt-kill-'))
    await initializedDataDir(join(dir, 'pglite'))
    try {
      await killRounds(t, { DATA_DIR: dir }, dir)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
)

test(
  'SIGKILL of the service mid-write, Postgres: nothing acknowledged is lost',
  { skip: POSTGRES_SKIP, timeout: LONG ? 15 * 60_000 : 120_000 },
  async (t) => {
    const url = TEST_DATABASE_URL as string
    const schema = `kill_${process.pid}_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    const dir = mkdtempSync(join(tmpdir(), 'predmkt-kill-pg-'))
    try {
      await admin.query(`CREATE SCHEMA ${schema}`)
      const withSchema = new URL(url)
      withSchema.searchParams.set('options', `-c search_path=${schema}`)
      await killRounds(t, { DATA_DIR: dir, DATABASE_URL: withSchema.toString() }, undefined)
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined)
      await admin.end()
      rmSync(dir, { recursive: true, force: true })
    }
  },
)
