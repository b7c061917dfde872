import { mkdirSync } from 'node:fs'
import { PGlite, type Transaction } from '@electric-sql/pglite'
import type { Db, QueryResult, Tx } from './db.js'
import { PGLITE_START_PARAMS } from './pglite-settings.js'

/**
 * `Db` over embedded PGlite (real Postgres compiled to WASM): the default when no `DATABASE_URL` is set, so
 * `npm start` needs no server. Data lives in `<dataDir>/pglite` (or in memory for tests).
 *
 * PGlite is one backend in one process: it runs one statement at a time and serializes transactions itself.
 * That makes the migration lock an in-process queue, and it means a PGlite directory must never be opened by two processes
 * at once; replicas share a Postgres server instead.
 *
 * The service runs it in a process of its own (PGliteProcessDb); tests and benches use it in process.
 */
export interface PGliteOptions {
  /** A directory (created if missing), or undefined for an in-memory database. */
  readonly dir?: string
  /** A `dumpDataDir()` tarball to start from instead of running initdb (tests: ~0.7 s instead of ~4 s). */
  readonly loadDataDir?: Blob
}

export class PGliteDb implements Db {
  readonly kind = 'pglite' as const
  readonly description: string
  readonly #db: PGlite
  /** Serializes migration runs within the process (the only place PGlite could see two). */
  #migrationLock: Promise<unknown> = Promise.resolve()
  #closed = false

  private constructor(db: PGlite, description: string) {
    this.#db = db
    this.description = description
  }

  static async open(options: PGliteOptions = {}): Promise<PGliteDb> {
    if (options.dir !== undefined) mkdirSync(options.dir, { recursive: true })
    const db = new PGlite({
      startParams: [...PGLITE_START_PARAMS],
      ...(options.dir === undefined ? {} : { dataDir: options.dir }),
      ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
    })
    await db.waitReady
    return new PGliteDb(db, options.dir === undefined ? 'pglite (in memory)' : `pglite ${options.dir}`)
  }

  async query<R extends object>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    const res = await this.#db.query<R>(sql, params as unknown[] | undefined)
    return { rows: res.rows, rowCount: res.affectedRows ?? 0 }
  }

  /** Runs a multi-statement script outside any transaction of ours. */
  async exec(script: string): Promise<void> {
    await this.#db.exec(script)
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.#db.transaction((tx) => fn(txOf(tx)))
  }

  withMigrationLock<T>(
    fn: (conn: Tx & { transaction<U>(fn: (tx: Tx) => Promise<U>): Promise<U> }) => Promise<T>,
  ): Promise<T> {
    const conn = {
      query: <R extends object>(sql: string, params?: readonly unknown[]) => this.query<R>(sql, params),
      exec: (script: string) => this.exec(script),
      transaction: <U>(f: (tx: Tx) => Promise<U>) => this.transaction(f),
    }
    const run = this.#migrationLock.then(() => fn(conn))
    this.#migrationLock = run.catch(() => undefined)
    return run
  }

  channel(name: string): string {
    return `predmkt_${name}`
  }

  /** One process, no other writers: nothing to hear. */
  async listen(): Promise<() => Promise<void>> {
    return async () => undefined
  }

  /** A tarball of the whole data directory (tests keep a migrated template to skip initdb). */
  dump(): Promise<Blob> {
    return this.#db.dumpDataDir('none') as Promise<Blob>
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#db.close()
  }
}

function txOf(tx: Transaction): Tx {
  return {
    async query<R extends object>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      const res = await tx.query<R>(sql, params as unknown[] | undefined)
      return { rows: res.rows, rowCount: res.affectedRows ?? 0 }
    },
    async exec(script: string): Promise<void> {
      await tx.exec(script)
    },
  }
}
