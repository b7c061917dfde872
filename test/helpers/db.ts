import { execFileSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { silentLogger } from '../../src/core/logger.js'
import type { Db } from '../../src/store/db.js'
import { loadMigrations, migrate } from '../../src/store/migrate.js'
import { PGliteDb } from '../../src/store/pglite-db.js'
import { initdbInChildProcess } from '../../src/store/pglite-initdb.js'
import { PostgresDb } from '../../src/store/postgres-db.js'

/**
 * Databases for tests: the store suites run on every backend available (PGlite always, Postgres when
 * TEST_DATABASE_URL is set, as CI does), each run in a fresh schema or a fresh in-memory database so parallel runs
 * never see each other's rows. Without TEST_DATABASE_URL the Postgres suites are reported as skipped, with
 * POSTGRES_SKIP as the reason (storeBackends, describeOrSkip), never left out silently.
 *
 * PGlite's initdb takes ~4 s; a migrated data directory is therefore dumped once per machine (keyed by the PGlite
 * version and the migrations' checksums) into the OS temp dir, and later databases start from it in well under a
 * second.
 */
export interface Backend {
  readonly name: 'pglite' | 'pglite-process' | 'postgres'
  /** A new, empty, migrated database. */
  open(): Promise<TestDb>
  /** Why this run cannot use the backend (its suites are reported as skipped with this reason). */
  readonly skip?: string
}

export interface TestDb {
  readonly db: Db
  /** Closes the database and removes what it created (the schema on Postgres). */
  dispose(): Promise<void>
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL === '' ? undefined : process.env.TEST_DATABASE_URL

/** Why the Postgres suites did not run, or undefined when they do. */
export const POSTGRES_SKIP =
  TEST_DATABASE_URL === undefined
    ? 'TEST_DATABASE_URL is not set (set it to a Postgres URL to run the Postgres suites)'
    : undefined

/** The backends this run can use. */
export function backends(): Backend[] {
  return storeBackends().filter((b) => b.skip === undefined)
}

/** Every backend a store suite covers; the ones this run cannot use carry the reason in `skip`. */
export function storeBackends(): Backend[] {
  return [
    { name: 'pglite', open: openPGlite },
    POSTGRES_SKIP === undefined
      ? { name: 'postgres', open: () => openPostgres(TEST_DATABASE_URL as string) }
      : { name: 'postgres', open: () => Promise.reject(new Error(POSTGRES_SKIP)), skip: POSTGRES_SKIP },
  ]
}

export async function freshPGlite(): Promise<PGliteDb> {
  const template = await templatePath()
  return PGliteDb.open({ loadDataDir: new Blob([readFileSync(template)]) })
}

/**
 * A migrated PGlite data directory at `dir` (the service's `<DATA_DIR>/pglite`), from the same template: a service
 * process started on it skips the initdb (seconds, and half a minute on a loaded machine).
 */
export async function migratedPGliteDir(dir: string): Promise<void> {
  const template = await templatePath()
  mkdirSync(dir, { recursive: true })
  execFileSync('tar', ['-xf', template, '-C', dir])
}

async function openPGlite(): Promise<TestDb> {
  const db = await freshPGlite()
  await migrate(db, silentLogger)
  return { db, dispose: () => db.close() }
}

/** A migrated database in a schema of its own, dropped on dispose. */
export async function openPostgres(url: string): Promise<TestDb> {
  const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery(url, `CREATE SCHEMA ${schema}`)
  const db = await PostgresDb.open({ url, schema, log: silentLogger, poolMax: 8 })
  try {
    await migrate(db, silentLogger)
  } catch (err) {
    await db.close()
    await adminQuery(url, `DROP SCHEMA ${schema} CASCADE`)
    throw err
  }
  return {
    db,
    async dispose() {
      await db.close()
      await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    },
  }
}

/** A second connection to the same schema (two replicas sharing one database). */
export async function secondConnection(first: Db, url: string): Promise<Db> {
  const schema = /\(schema (\w+)\)/.exec(first.description)?.[1]
  return PostgresDb.open({ url, ...(schema === undefined ? {} : { schema }), log: silentLogger, poolMax: 4 })
}

/** One statement on a connection of its own (schemas and databases are created and dropped outside any pool). */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

let template: Promise<string> | undefined

function templatePath(): Promise<string> {
  template ??= buildTemplate()
  return template
}

/** Names the installed PGlite build and the migrations: a cached template is reused only while both are the same. */
function templateKey(): string {
  // The package does not export its package.json; its resolved entry point names the installed build well enough.
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'))
  const version = `${entry}:${statSync(entry).size}:${statSync(entry).mtimeMs}`
  return createHash('sha256')
    .update(version)
    .update(
      loadMigrations()
        .map((m) => m.checksum)
        .join(','),
    )
    .digest('hex')
    .slice(0, 16)
}

let dataDirTemplate: Promise<string> | undefined

/**
 * Fills `dir` (which must not exist) with an initialized embedded store data directory, as the store process's
 * initdb leaves it, copied from one built once per machine: tests that run the service or its store process on a
 * directory skip initdb (4 s idle, 20 s on a loaded machine).
 */
export async function initializedDataDir(dir: string): Promise<void> {
  dataDirTemplate ??= (async () => {
    const path = join(tmpdir(), `predmkt-pglite-datadir-${templateKey()}`)
    if (existsSync(join(path, 'PG_VERSION'))) return path
    const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`
    await initdbInChildProcess(partial)
    // Atomic publish, as for the tarball; a concurrent builder's rename loses to a directory already there.
    try {
      renameSync(partial, path)
    } catch {
      rmSync(partial, { recursive: true, force: true })
    }
    return path
  })()
  cpSync(await dataDirTemplate, dir, { recursive: true })
}

async function buildTemplate(): Promise<string> {
  const path = join(tmpdir(), `predmkt-pglite-template-${templateKey()}.tar`)
  if (existsSync(path)) return path
  const db = await PGliteDb.open()
  try {
    await migrate(db, silentLogger)
    const dump = Buffer.from(await (await db.dump()).arrayBuffer())
    // Atomic publish: concurrent test processes may build it at once; each renames its own complete file.
    const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`
    writeFileSync(partial, dump)
    renameSync(partial, path)
  } finally {
    await db.close()
  }
  return path
}
