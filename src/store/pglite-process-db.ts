import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Logger } from '../core/logger.js'
import { StoreUnavailableError, type Db, type QueryResult, type Tx } from './db.js'
import type { StoreReply, StoreRequest } from './pglite-process-protocol.js'

/**
 * `Db` over embedded PGlite running in a process of its own (src/store/pglite-store-process.ts): the default
 * store of `npm start` when no `DATABASE_URL` is set.
 *
 * Why not in the service's process: PGlite is Postgres compiled to WebAssembly, and in process its heap
 * (~180 MiB with a small buffer pool) sits next to the order books, and
 * every statement (history batches, usage counts, WAL writes) runs on the thread that serves HTTP. In its own
 * process it is what a Postgres server is to the service: separate memory, separate CPU, reached by messages.
 *
 * One connection, as PGlite is: statements run one at a time in the order sent, and a transaction holds the
 * connection from BEGIN to COMMIT/ROLLBACK so nothing else interleaves. If the store process dies, the
 * statements in flight fail (an open transaction is rolled back by the crash itself) and the next statement
 * starts a new store process on the same directory.
 */
const STORE_PROCESS = fileURLToPath(new URL('./pglite-store-process.js', import.meta.url))
const CLOSE_TIMEOUT_MS = 10_000
/**
 * How long a new store process waits for the directory's lock (src/store/data-dir-lock.ts) before the open
 * fails: an orphan of a killed service closes within a second or two once it has answered what it received.
 */
export const DEFAULT_LOCK_WAIT_MS = 15_000

export interface PGliteProcessOptions {
  readonly dir: string
  readonly log?: Logger
  /** How long to wait for another store process to let go of the directory (default DEFAULT_LOCK_WAIT_MS). */
  readonly lockWaitMs?: number
}

interface Pending {
  resolve(r: QueryResult<object>): void
  reject(err: Error): void
}

interface StoreChild {
  readonly process: ChildProcess
  readonly ready: Promise<void>
  readonly pending: Map<number, Pending>
}

export class PGliteProcessDb implements Db {
  readonly kind = 'pglite' as const
  readonly description: string
  readonly #o: PGliteProcessOptions
  #child: StoreChild | undefined
  #nextId = 1
  /** The connection: whoever holds it runs statements (a lone statement, or a whole transaction). */
  #connection: Promise<unknown> = Promise.resolve()
  /** Whole migration runs, one at a time (see withMigrationLock). */
  #migrations: Promise<unknown> = Promise.resolve()
  #closed = false

  private constructor(options: PGliteProcessOptions) {
    this.#o = options
    this.description = `pglite ${options.dir} (store process)`
  }

  static async open(options: PGliteProcessOptions): Promise<PGliteProcessDb> {
    const db = new PGliteProcessDb(options)
    await db.#start().ready
    return db
  }

  /** The store process's pid, while one runs (for memory figures and tests). */
  get storePid(): number | undefined {
    return this.#child?.process.pid
  }

  query<R extends object>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    return this.#hold(() => this.#call<R>({ op: 'query', id: 0, sql, ...(params === undefined ? {} : { params }) }))
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.#hold(async () => {
      await this.#call({ op: 'exec', id: 0, sql: 'BEGIN' })
      const tx: Tx = {
        query: <R extends object>(sql: string, params?: readonly unknown[]) =>
          this.#call<R>({ op: 'query', id: 0, sql, ...(params === undefined ? {} : { params }) }),
        exec: async (sql: string) => {
          await this.#call({ op: 'exec', id: 0, sql })
        },
      }
      let result: T
      try {
        result = await fn(tx)
      } catch (err) {
        // A dead store process rolled back by dying; anything else is rolled back here.
        await this.#call({ op: 'exec', id: 0, sql: 'ROLLBACK' }).catch(() => undefined)
        throw err
      }
      await this.#call({ op: 'exec', id: 0, sql: 'COMMIT' })
      return result
    })
  }

  withMigrationLock<T>(
    fn: (conn: Tx & { transaction<U>(fn: (tx: Tx) => Promise<U>): Promise<U> }) => Promise<T>,
  ): Promise<T> {
    // One store process per directory, reached only from this object: the connection is the lock, except that
    // the migrator opens its own transactions, so the lock is a separate queue of whole migration runs.
    const conn = {
      query: <R extends object>(sql: string, params?: readonly unknown[]) => this.query<R>(sql, params),
      exec: (script: string) => this.#hold(async () => void (await this.#call({ op: 'exec', id: 0, sql: script }))),
      transaction: <U>(f: (tx: Tx) => Promise<U>) => this.transaction(f),
    }
    const run = this.#migrations.then(() => fn(conn))
    this.#migrations = run.catch(() => undefined)
    return run
  }

  channel(name: string): string {
    return `predmkt_${name}`
  }

  /** One service process per directory: nothing to hear from other writers. */
  async listen(): Promise<() => Promise<void>> {
    return async () => undefined
  }

  /** Lets statements already queued finish, then shuts PGlite down cleanly and waits for the process to exit. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#connection.catch(() => undefined)
    const child = this.#child
    if (child === undefined || child.process.exitCode !== null) return
    const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()))
    const timer = setTimeout(() => child.process.kill('SIGKILL'), CLOSE_TIMEOUT_MS)
    try {
      await this.#call({ op: 'close', id: 0 }).catch(() => undefined)
      await exited
    } finally {
      clearTimeout(timer)
    }
  }

  /** Runs `work` holding the connection; the next holder waits for it to finish, however it ends. */
  #hold<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new StoreUnavailableError('the store is closed'))
    const run = this.#connection.then(work)
    this.#connection = run.catch(() => undefined)
    return run
  }

  async #call<R extends object>(request: StoreRequest): Promise<QueryResult<R>> {
    // Statements queued before close() still run; after it, a dead store process is not replaced.
    const child = this.#child ?? (this.#closed ? undefined : this.#start())
    if (child === undefined) throw new StoreUnavailableError('the store is closed')
    await child.ready
    const id = this.#nextId++
    return new Promise<QueryResult<R>>((resolve, reject) => {
      child.pending.set(id, { resolve: resolve as (r: QueryResult<object>) => void, reject })
      child.process.send({ ...request, id }, (err) => {
        if (err !== null && child.pending.delete(id))
          reject(new StoreUnavailableError(`the store process did not take the statement: ${err.message}`))
      })
    })
  }

  #start(): StoreChild {
    // The service's Node flags carry over (heap limits, profiling), except a debugger port the service holds.
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--inspect'))
    const proc = fork(STORE_PROCESS, [this.#o.dir, String(this.#o.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS)], {
      serialization: 'advanced',
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    const pending = new Map<number, Pending>()
    let ready!: () => void
    let failed!: (err: Error) => void
    const child: StoreChild = {
      process: proc,
      pending,
      ready: new Promise<void>((res, rej) => ((ready = res), (failed = rej))),
    }
    child.ready.catch(() => undefined)
    proc.on('message', (reply: StoreReply) => {
      switch (reply.type) {
        case 'ready':
          return ready()
        case 'waiting':
          return this.#o.log?.warn(
            { dir: this.#o.dir, holder_pid: reply.holder, held_since: reply.since },
            'the data directory is locked by another store process (an orphan of a killed service?): waiting for it to exit',
          )
        case 'failed':
          return failed(new StoreUnavailableError(`the embedded store did not open ${this.#o.dir}: ${reply.error}`))
        case 'result': {
          const p = pending.get(reply.id)
          pending.delete(reply.id)
          return p?.resolve({ rows: reply.rows, rowCount: reply.rowCount })
        }
        case 'error': {
          const p = pending.get(reply.id)
          pending.delete(reply.id)
          return p?.reject(Object.assign(new Error(reply.error.message), reply.error))
        }
      }
    })
    proc.once('exit', (code, signal) => {
      if (this.#child === child) this.#child = undefined
      const err = new StoreUnavailableError(`the store process exited (${signal ?? `code ${code}`})`)
      failed(err)
      for (const p of pending.values()) p.reject(err)
      pending.clear()
      if (!this.#closed)
        this.#o.log?.error(
          { store: this.description, code, signal },
          'store process exited; the next statement starts a new one',
        )
    })
    this.#child = child
    return child
  }
}
