import { createHash } from 'node:crypto'
import { maxOf } from '../core/arrays.js'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Logger } from '../core/logger.js'
import { toMs, type Db } from './db.js'

/**
 * Versioned SQL migrations: `src/store/migrations/NNNN_name.sql`, numbered from 0001 without gaps, applied in
 * order at boot, each in its own transaction together with its row in `schema_migrations` (version, name,
 * SHA-256 of the file). Replicas that boot at once serialize on the database's migration lock, so each file runs
 * exactly once; the later ones find it recorded and skip it.
 *
 * A file that changed after it was applied (checksum or name mismatch) fails the boot: the schema would no longer
 * be what the code was written for. Recorded versions beyond the newest file
 * (a newer build already migrated this database, e.g. during a rolling deploy) are logged and tolerated, since
 * migrations are additive.
 *
 * Adding one: the next number, a short snake_case name, plain SQL (several statements are fine). Never edit an
 * applied file; write another.
 */
export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
  readonly checksum: string
}

export interface MigrationReport {
  readonly applied: readonly number[]
  readonly current: number
}

const FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/

/**
 * Where the .sql files are: next to this module when run from src, else `src/store/migrations` of the
 * repository when run from dist (tsc does not copy them; like config/, they are read at runtime).
 */
function migrationsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url))
  const beside = join(here, 'migrations')
  if (existsSync(beside)) return beside
  return resolve(here, '../../../src/store/migrations')
}

export function loadMigrations(dir = migrationsDir()): Migration[] {
  if (!existsSync(dir)) throw new Error(`migrations directory not found: ${dir}`)
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
  const out: Migration[] = []
  for (const file of files) {
    const m = FILE.exec(file)
    if (m === null) throw new Error(`migration file name must look like 0001_name.sql: ${file}`)
    const version = Number(m[1])
    if (version !== out.length + 1)
      throw new Error(`migrations must be numbered 0001, 0002… without gaps or duplicates: ${file}`)
    const sql = readFileSync(join(dir, file), 'utf8')
    out.push({ version, name: m[2] as string, sql, checksum: createHash('sha256').update(sql).digest('hex') })
  }
  return out
}

export async function migrate(
  db: Db,
  log: Logger,
  migrations: readonly Migration[] = loadMigrations(),
): Promise<MigrationReport> {
  return db.withMigrationLock(async (conn) => {
    await conn.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version     integer PRIMARY KEY,
      name        text NOT NULL,
      checksum    text NOT NULL,
      applied_at  timestamptz NOT NULL DEFAULT now()
    )`)
    const { rows } = await conn.query<{ version: number; name: string; checksum: string; applied_at: unknown }>(
      'SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version',
    )
    const byVersion = new Map(migrations.map((m) => [m.version, m]))
    for (const row of rows) {
      const m = byVersion.get(row.version)
      if (m === undefined) {
        log.warn(
          { version: row.version, migration: row.name },
          'database has a migration this build does not know (a newer build applied it); continuing',
        )
        continue
      }
      if (m.name !== row.name || m.checksum !== row.checksum) {
        throw new Error(
          `migration ${pad(m.version)} changed after it was applied on ${new Date(toMs(row.applied_at)).toISOString()} ` +
            `(recorded ${row.name} ${row.checksum.slice(0, 12)}, file ${m.name} ${m.checksum.slice(0, 12)}); add a new migration instead`,
        )
      }
    }
    const done = new Set(rows.map((r) => r.version))
    const applied: number[] = []
    for (const m of migrations) {
      if (done.has(m.version)) continue
      await conn.transaction(async (tx) => {
        await tx.exec(m.sql)
        await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          m.checksum,
        ])
      })
      applied.push(m.version)
      log.info({ version: m.version, migration: m.name }, 'applied migration')
    }
    const current = maxOf([0, ...rows.map((r) => r.version), ...applied]) ?? 0
    return { applied, current }
  })
}

function pad(n: number): string {
  return String(n).padStart(4, '0')
}
