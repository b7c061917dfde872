import { join, resolve } from 'node:path'
import type { Logger } from '../core/logger.js'
import type { Db } from './db.js'
import { migrate } from './migrate.js'
import { isInitialized } from './pglite-initdb.js'
import { PGliteProcessDb } from './pglite-process-db.js'
import { PostgresDb } from './postgres-db.js'

/**
 * Opens the store the config asks for and brings its schema up to date: Postgres when `databaseUrl` is set
 * (shared by every replica), otherwise embedded PGlite in `<dataDir>/pglite`, run in a store process of its own
 * (one service process per directory). A store that cannot be opened or migrated fails the boot.
 *
 * The embedded store says what it is doing before it does it: a new directory's initdb takes seconds (4 s on
 * an idle laptop, more under load) during which the service is otherwise silent on its first start.
 */
export interface StoreConfig {
  readonly dataDir: string
  readonly databaseUrl?: string | undefined
  readonly database: {
    readonly poolMax: number
    readonly connectTimeoutMs: number
    readonly statementTimeoutMs: number
  }
}

export async function openStore(config: StoreConfig, log: Logger): Promise<Db> {
  const startedAt = performance.now()
  const db =
    config.databaseUrl !== undefined
      ? await PostgresDb.open({
          url: config.databaseUrl,
          poolMax: config.database.poolMax,
          connectTimeoutMs: config.database.connectTimeoutMs,
          statementTimeoutMs: config.database.statementTimeoutMs,
          log,
        })
      : await openEmbedded(join(resolve(config.dataDir), 'pglite'), log)
  try {
    const report = await migrate(db, log)
    log.info(
      { store: db.description, schema_version: report.current, applied: report.applied, ms: elapsedMs(startedAt) },
      'store ready',
    )
  } catch (err) {
    await db.close()
    throw err
  }
  return db
}

async function openEmbedded(dir: string, log: Logger): Promise<PGliteProcessDb> {
  const startedAt = performance.now()
  const first = !isInitialized(dir)
  log.info(
    { dir, first_start: first },
    first
      ? 'initialising the embedded database (first start in this data directory: a few seconds)'
      : 'opening the embedded database',
  )
  const db = await PGliteProcessDb.open({ dir, log })
  log.info({ dir, ms: elapsedMs(startedAt) }, first ? 'embedded database initialised' : 'embedded database open')
  return db
}

function elapsedMs(since: number): number {
  return Math.round(performance.now() - since)
}
