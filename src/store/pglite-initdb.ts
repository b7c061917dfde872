import { spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGliteDb } from './pglite-db.js'

/**
 * A new data directory's initdb, in a short-lived process of its own. PGlite's initdb runs a second Postgres
 * instance and leaves ~450 MiB of the store process's heap resident long after (measured: 621 MiB after a
 * first boot against 181 MiB when opening an initialized directory); in a process that exits, it leaves nothing.
 *
 * `node pglite-initdb.js <dir>` initializes `dir` and exits 0.
 */
export function isInitialized(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'))
}

export function initdbInChildProcess(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4_000)
    })
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      if (code === 0 && isInitialized(dir)) resolve()
      else reject(new Error(`PGlite initdb of ${dir} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`))
    })
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2]
  if (dir === undefined) {
    process.stderr.write('usage: pglite-initdb <data dir>\n')
    process.exit(2)
  }
  mkdirSync(dir, { recursive: true })
  PGliteDb.open({ dir })
    .then((db) => db.close())
    .then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
        process.exit(1)
      },
    )
}
