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
 */
const dir = process.argv[2]
if (dir === undefined || process.send === undefined) {
  process.stderr.write('pglite-store-process: run by PGliteProcessDb (fork, IPC) with the data directory as argument\n')
  process.exit(2)
}

const send = (reply: StoreReply): void => {
  process.send?.(reply)
}

process.on('SIGINT', () => undefined)
process.on('SIGTERM', () => undefined)

let closing: Promise<void> | undefined

async function main(dataDir: string): Promise<void> {
  if (!isInitialized(dataDir)) await initdbInChildProcess(dataDir)
  const db = await PGliteDb.open({ dir: dataDir })
  const close = (): Promise<void> => (closing ??= db.close().then(() => process.exit(0)))
  // Requests run one at a time: PGlite is one connection, and the reply order is then the request order.
  let queue: Promise<void> = Promise.resolve()
  process.on('message', (req: StoreRequest) => {
    queue = queue.then(() => handle(db, req, close))
  })
  process.on('disconnect', () => void queue.then(close))
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
