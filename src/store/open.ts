import { join, resolve } from 'node:path'
import type { Logger } from '../core/logger.js'
import type { Db } from './db.js'
import { migrate } from './migrate.js'
import { PGliteProcessDb } from './pglite-process-db.js'
import { PostgresDb } from './postgres-db.js'

/**
 * Opens the store the config asks for and brings its schema up to date: Postgres when `databaseUrl` is set
 * (shared by every replica), otherwise embedded PGlite in `<dataDir>/pglite`, run in a store process of its own
 * (one service process per directory). A store that cannot be opened or migrated fails the boot.
 */
export interface StoreConfig {
  readonly dataDir: string
  readonly databaseUrl?: string | undefined
  readonly database: { readonly poolMax: number; readonly connectTimeoutMs: number; readonly statementTimeoutMs: number }
}

export async function openStore(config: StoreConfig, log: Logger): Promise<Db> {
  const db =
    config.databaseUrl !== undefined
      ? await PostgresDb.open({
          url: config.databaseUrl,
          poolMax: config.database.poolMax,
          connectTimeoutMs: config.database.connectTimeoutMs,
          statementTimeoutMs: config.database.statementTimeoutMs,
          log,
        })
      : await PGliteProcessDb.open({ dir: join(resolve(config.dataDir), 'pglite'), log })
  try {
    const report = await migrate(db, log)
    log.info({ store: db.description, schema_version: report.current, applied: report.applied }, 'store ready')
  } catch (err) {
    await db.close()
    throw err
  }
  return db
}
