import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { StoreUnavailableError, UNIQUE_VIOLATION, sqlState } from '../../src/store/db.js'
import { migrate } from '../../src/store/migrate.js'
import { PGliteProcessDb } from '../../src/store/pglite-process-db.js'
import { checkedLogger } from '../helpers/checked-logger.js'
import type { Backend } from '../helpers/db.js'
import { runStoreContract } from './store-contract.case.js'

/**
 * The embedded store as `npm start` runs it: PGlite in a process of its own, reached over IPC. The whole store
 * contract, plus what only this transport can get wrong: errors keep their SQLSTATE, rows keep their types, a
 * transaction holds the connection, a crashed store process is replaced, and nothing committed is lost.
 */
const dirs: string[] = []
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'predmkt-store-process-'))
  dirs.push(dir)
  return join(dir, 'pglite')
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const processBackend: Backend = {
  name: 'pglite-process',
  async open() {
    const db = await PGliteProcessDb.open({ dir: newDir() })
    // A fresh store logs every migration it applies: each line must be one a log shipper can read.
    const logs = checkedLogger()
    await migrate(db, logs.log.child({ component: 'store' }))
    assert.deepEqual(logs.problems(), [])
    return { db, dispose: () => db.close() }
  },
}
runStoreContract(processBackend)

describe('embedded store process', () => {
  let dir: string
  let db: PGliteProcessDb
  before(async () => {
    dir = newDir()
    db = await PGliteProcessDb.open({ dir })
    await db.query('CREATE TABLE t (id int PRIMARY KEY, at timestamptz, bytes bytea, doc jsonb)')
  })
  after(() => db.close())

  test('a small buffer pool, in a process that is not this one', async () => {
    assert.deepEqual((await db.query('SHOW shared_buffers')).rows, [{ shared_buffers: '16MB' }])
    assert.notEqual(db.storePid, undefined)
    assert.notEqual(db.storePid, process.pid)
  })

  test('rows keep their types across the process boundary; errors keep their SQLSTATE', async () => {
    await db.query('INSERT INTO t VALUES ($1, $2, $3, $4)', [
      1,
      new Date(Date.UTC(2026, 10, 22)),
      new Uint8Array([0, 255]),
      { a: [1, 'x'] },
    ])
    assert.deepEqual((await db.query('SELECT * FROM t WHERE id = 1')).rows, [
      { id: 1, at: new Date(Date.UTC(2026, 10, 22)), bytes: new Uint8Array([0, 255]), doc: { a: [1, 'x'] } },
    ])
    const err = await db.query('INSERT INTO t (id) VALUES (1)').then(
      () => undefined,
      (e: unknown) => e,
    )
    assert.equal(sqlState(err), UNIQUE_VIOLATION)
    assert.match((err as Error).message, /duplicate key/)
  })

  test('a transaction holds the connection: statements sent meanwhile run after it, a failure rolls it all back', async () => {
    const order: string[] = []
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const tx = db.transaction(async (t) => {
      await t.query('INSERT INTO t (id) VALUES (10)')
      order.push('tx insert')
      await gate
      await t.query('INSERT INTO t (id) VALUES (11)')
      throw new Error('abandon')
    })
    // Sent while the transaction is open: must neither see nor join it.
    const outside = db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id >= 10').then((r) => {
      order.push('outside read')
      return r.rows[0]?.n
    })
    await new Promise((r) => setTimeout(r, 20))
    release()
    await assert.rejects(tx, /abandon/)
    assert.equal(await outside, 0)
    assert.deepEqual(order, ['tx insert', 'outside read'])
  })

  test('a crashed store process fails what was in flight, then a new one serves the same directory', async () => {
    await db.query('INSERT INTO t (id) VALUES (20)')
    const pid = db.storePid as number
    const inFlight = db.query('SELECT pg_sleep(0.2)')
    process.kill(pid, 'SIGKILL')
    // Answered 503 store_unavailable over HTTP (src/http/reply.ts), not a 500.
    await assert.rejects(inFlight, (err: unknown) => {
      assert.ok(err instanceof StoreUnavailableError)
      assert.match(err.message, /store process exited/)
      return true
    })
    assert.deepEqual((await db.query('SELECT id FROM t WHERE id = 20')).rows, [{ id: 20 }])
    assert.notEqual(db.storePid, pid)
  })

  test('close waits for queued statements, then the store process exits; a closed store refuses work', async () => {
    const other = await PGliteProcessDb.open({ dir: newDir() })
    const pid = other.storePid as number
    const queued = other.query<{ x: number }>('SELECT 1 AS x')
    await other.close()
    assert.deepEqual((await queued).rows, [{ x: 1 }])
    assert.throws(() => readFileSync(`/proc/${pid}/status`))
    await assert.rejects(other.query('SELECT 1'), /closed/)
  })
})
