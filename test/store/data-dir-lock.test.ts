import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, describe, test } from 'node:test'
import { acquireDataDirLock, DataDirLockedError, lockPathOf } from '../../src/store/data-dir-lock.js'
import { PGliteProcessDb } from '../../src/store/pglite-process-db.js'
import { initializedDataDir } from '../helpers/db.js'
import { outputMatch, processGone, spawnNode } from '../helpers/processes.js'
import { waitFor } from '../helpers/wait.js'

/**
 * One store process per data directory. After a SIGKILL of the service its store process lives on for a moment
 * (it answers what it had received, then closes PGlite), and a restarted service's new store process must not
 * open the same files meanwhile: it waits for the directory's lock, or fails saying who holds it. A killed
 * service's store process notices and exits; a lock left by a dead process is taken over.
 */
const STORE_PARENT_JS = join(fileURLToPath(new URL('.', import.meta.url)), 'store-parent.js')
const roots: string[] = []
const newDir = () => {
  const root = mkdtempSync(join(tmpdir(), 'predmkt-lock-'))
  roots.push(root)
  return join(root, 'pglite')
}
/** A new directory holding an initialized store (copied from a per-machine template: no initdb). */
async function storeDir(): Promise<string> {
  const dir = newDir()
  await initializedDataDir(dir)
  return dir
}

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(r.stdout.toString())
}

describe('the data directory lock', () => {
  test('a second store process waits for the first to close, then opens the same data', async () => {
    const dir = await storeDir()
    const first = await PGliteProcessDb.open({ dir })
    await first.query('CREATE TABLE t (id int)')
    await first.query('INSERT INTO t VALUES (1)')
    const warnings: string[] = []
    const log = { warn: (_: unknown, msg: string) => warnings.push(msg) } as never
    let opened = false
    const second = PGliteProcessDb.open({ dir, log }).then((db) => ((opened = true), db))
    await waitFor(() => warnings.length > 0, 10_000, 'the second store process to say it waits')
    assert.match(warnings[0] as string, /locked by another store process/)
    await new Promise((r) => setTimeout(r, 500))
    assert.equal(opened, false, 'the second store opened the directory while the first held it')
    await first.close()
    const db = await second
    try {
      assert.deepEqual((await db.query('SELECT id FROM t')).rows, [{ id: 1 }])
      assert.equal(JSON.parse(readFileSync(lockPathOf(dir), 'utf8')).pid, db.storePid)
    } finally {
      await db.close()
    }
    assert.equal(existsSync(lockPathOf(dir)), false, 'closing lets go of the lock')
  })

  test('past the wait bound the newcomer fails, naming the directory and the holder', async () => {
    const dir = await storeDir()
    const first = await PGliteProcessDb.open({ dir })
    try {
      const startedAt = Date.now()
      await assert.rejects(PGliteProcessDb.open({ dir, lockWaitMs: 600 }), (err: Error) => {
        assert.ok(err.message.includes(dir), err.message)
        assert.ok(err.message.includes(`store process ${first.storePid}`), err.message)
        return true
      })
      assert.ok(Date.now() - startedAt >= 600)
      // The first store is untouched by the failed attempt.
      assert.deepEqual((await first.query('SELECT 1 AS x')).rows, [{ x: 1 }])
    } finally {
      await first.close()
    }
  })

  test('SIGKILL of the parent: the orphaned store process exits and lets go; the directory opens again', async () => {
    const dir = await storeDir()
    const killed = spawnNode(STORE_PARENT_JS, {}, [], [dir])
    const storePid = Number((await outputMatch(killed, /store (\d+)/, 30_000))[1])
    await new Promise((r) => setTimeout(r, 300))
    killed.child.kill('SIGKILL')
    const killedAt = Date.now()
    await waitFor(() => processGone(storePid), 5_000, `orphaned store process ${storePid} to exit`)
    const exitMs = Date.now() - killedAt
    assert.equal(existsSync(lockPathOf(dir)), false, 'the orphan let go of the lock')
    const db = await PGliteProcessDb.open({ dir, lockWaitMs: 0 })
    try {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM beat')
      assert.ok((rows[0]?.n ?? 0) > 0, 'rows written before the kill are there')
    } finally {
      await db.close()
    }
    assert.ok(exitMs < 5_000, `orphan exited ${exitMs} ms after its parent was killed`)
  })

  test('a stale lock is taken over: a dead pid, a reused pid, a file its writer never finished', async () => {
    for (const stale of [
      JSON.stringify({ pid: deadPid(), start: 1, since: '2026-01-01T00:00:00Z' }),
      // This very process, but not the one that wrote it (another start time): the pid was reused.
      JSON.stringify({ pid: process.pid, start: 1, since: '2026-01-01T00:00:00Z' }),
      '',
    ]) {
      const dir = newDir()
      writeFileSync(lockPathOf(dir), stale)
      if (stale === '') utimesSync(lockPathOf(dir), new Date(Date.now() - 5_000), new Date(Date.now() - 5_000))
      const lock = await acquireDataDirLock(dir, { waitMs: 0 })
      assert.equal(JSON.parse(readFileSync(lockPathOf(dir), 'utf8')).pid, process.pid, `took over ${stale}`)
      lock.release()
      assert.equal(existsSync(lockPathOf(dir)), false)
    }
  })

  test('a first start: the data directory and its parent do not exist yet', async () => {
    const dir = join(newDir(), 'data', 'pglite')
    const db = await PGliteProcessDb.open({ dir, lockWaitMs: 0 })
    try {
      assert.equal(JSON.parse(readFileSync(lockPathOf(dir), 'utf8')).pid, db.storePid)
      assert.deepEqual((await db.query('SELECT 1 AS x')).rows, [{ x: 1 }])
    } finally {
      await db.close()
    }
  })

  test('a live holder in this process is not taken over; the error names it', async () => {
    const dir = newDir()
    const held = await acquireDataDirLock(dir, { waitMs: 0 })
    try {
      await assert.rejects(acquireDataDirLock(dir, { waitMs: 200, pollMs: 20 }), (err: unknown) => {
        assert.ok(err instanceof DataDirLockedError)
        assert.equal(err.holder.pid, process.pid)
        return true
      })
    } finally {
      held.release()
    }
    // Released: the next one gets it at once.
    ;(await acquireDataDirLock(dir, { waitMs: 0 })).release()
  })
})
