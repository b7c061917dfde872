import { acquireDataDirLock, type HeldLock } from './data-dir-lock.js'
import { PGliteDb } from './pglite-db.js'
import { initdbInChildProcess, isInitialized } from './pglite-initdb.js'
import type { StoreReply, StoreRequest } from './pglite-process-protocol.js'

/**
 * The embedded store's own process (forked by PGliteProcessDb): opens PGlite on the data directory given as
 * the first argument, says `ready`, then runs each request in arrival order and answers it. The parent
 * serializes transactions itself, so BEGIN/COMMIT arrive here as plain statements.
 *
 * Lifecycle belongs to the parent: Ctrl-C reaches the whole process group, but this process waits for the
 * parent's `close` (or for the IPC channel to drop when the parent dies), so PGlite always shuts down cleanly.
 *
 * Only one store process may have a directory open (src/store/data-dir-lock.ts): this one takes the directory's
 * lock before it touches it, waits up to the bound given as the second argument while another holds it (an
 * orphan of a killed service still closing), and lets go only after PGlite has closed. An orphan (its parent
 * SIGKILLed) finishes the statements it had received, closes PGlite and exits: the IPC channel's `disconnect`
 * says so, and a change of parent pid is checked too in case the channel's end is never seen.
 */
const dir = process.argv[2]
const lockWaitMs = Number(process.argv[3] ?? 15_000)
if (dir === undefined || process.send === undefined || !(lockWaitMs >= 0)) {
  process.stderr.write(
    'pglite-store-process: run by PGliteProcessDb (fork, IPC) with the data directory and the lock wait (ms) as arguments\n',
  )
  process.exit(2)
}
const PARENT_CHECK_MS = 500

// An orphan still answers the statements it received; with the channel gone, process.send would raise an
// unhandled 'error' and kill it before it closes PGlite.
const send = (reply: StoreReply): void => {
  if (process.connected) process.send?.(reply)
}

process.on('SIGINT', () => undefined)
process.on('SIGTERM', () => undefined)

let closing: Promise<void> | undefined
let lock: HeldLock | undefined
// However this process ends (a failed open, process.exit after close), a lock it holds is let go; a SIGKILL
// leaves the file, which the next store process finds stale.
process.on('exit', () => lock?.release())

/** Resolves when the parent is gone: the IPC channel dropped, or this process was re-parented. */
function parentGone(): Promise<void> {
  const parent = process.ppid
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (process.ppid !== parent) resolve()
    }, PARENT_CHECK_MS)
    timer.unref()
    process.once('disconnect', () => resolve())
  })
}

async function main(dataDir: string): Promise<void> {
  const orphaned = parentGone()
  // An orphan still waiting for the lock or still opening has nothing to serve: it lets go and exits.
  let serving = false
  void orphaned.then(() => {
    if (!serving) process.exit(0)
  })
  lock = await acquireDataDirLock(dataDir, {
    waitMs: lockWaitMs,
    onWait: (holder) => send({ type: 'waiting', holder: holder.pid, since: holder.since }),
  })
  if (!isInitialized(dataDir)) await initdbInChildProcess(dataDir)
  const db = await PGliteDb.open({ dir: dataDir })
  const close = (): Promise<void> =>
    (closing ??= db.close().then(() => {
      lock?.release()
      process.exit(0)
    }))
  // Requests run one at a time: PGlite is one connection, and the reply order is then the request order.
  let queue: Promise<void> = Promise.resolve()
  process.on('message', (req: StoreRequest) => {
    queue = queue.then(() => handle(db, req, close))
  })
  // From here on the orphan finishes what it had received, then closes PGlite cleanly before letting go.
  serving = true
  void orphaned.then(() => queue.then(close))
  send({ type: 'ready' })
}

async function handle(db: PGliteDb, req: StoreRequest, close: () => Promise<void>): Promise<void> {
  try {
    switch (req.op) {
      case 'query': {
        const r = await db.query(req.sql, req.params)
        return send({ type: 'result', id: req.id, rows: r.rows, rowCount: r.rowCount })
      }
      case 'exec':
        await db.exec(req.sql)
        return send({ type: 'result', id: req.id, rows: [], rowCount: 0 })
      case 'close':
        send({ type: 'result', id: req.id, rows: [], rowCount: 0 })
        return close()
    }
  } catch (err) {
    send({ type: 'error', id: req.id, error: errorFields(err) })
  }
}

/** What callers read off a database error (`code` for SQLSTATE checks), without the non-cloneable rest. */
function errorFields(err: unknown): { message: string; code?: string; detail?: string; constraint?: string } {
  if (!(err instanceof Error)) return { message: String(err) }
  const e = err as Error & { code?: unknown; detail?: unknown; constraint?: unknown }
  return {
    message: e.message,
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.detail === 'string' ? { detail: e.detail } : {}),
    ...(typeof e.constraint === 'string' ? { constraint: e.constraint } : {}),
  }
}

main(dir).catch((err: unknown) => {
  send({ type: 'failed', error: err instanceof Error ? err.message : String(err) })
  process.exit(1)
})
