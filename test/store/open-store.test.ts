import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { loadMigrations } from '../../src/store/migrate.js'
import { openStore } from '../../src/store/open.js'
import { recordedLog } from '../helpers/recorded-log.js'

/**
 * What an operator reads while `npm start` opens the embedded store: on the first start in a data directory the
 * service says it is initialising the database before the seconds initdb takes, and how long it took; on later
 * starts, that it opens the existing one.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'predmkt-open-store-'))
after(() => rmSync(dataDir, { recursive: true, force: true }))
const config = { dataDir, database: { poolMax: 1, connectTimeoutMs: 5_000, statementTimeoutMs: 10_000 } }
const pgliteDir = join(dataDir, 'pglite')
const versions = loadMigrations().map((m) => m.version)

/** The lines an operator reads, without the parts that vary from run to run. */
function readable(entries: readonly Readonly<Record<string, unknown>>[]) {
  return entries.map((e) => {
    const { msg, dir, first_start, store, schema_version, applied, ms, version } = e
    return {
      msg,
      ...(dir === undefined ? {} : { dir }),
      ...(first_start === undefined ? {} : { first_start }),
      ...(version === undefined ? {} : { version }),
      ...(store === undefined ? {} : { store, schema_version, applied }),
      ...(ms === undefined ? {} : { ms: typeof ms }),
    }
  })
}

test('first start: the initdb is announced before it runs, then timed; a later start opens the directory', async () => {
  const first = recordedLog()
  const db = await openStore(config, first.log)
  await db.close()
  assert.deepEqual(first.problems(), [])
  assert.deepEqual(readable(first.entries()), [
    {
      msg: 'initialising the embedded database (first start in this data directory: a few seconds)',
      dir: pgliteDir,
      first_start: true,
    },
    { msg: 'embedded database initialised', dir: pgliteDir, ms: 'number' },
    ...versions.map((version) => ({ msg: 'applied migration', version })),
    {
      msg: 'store ready',
      store: `pglite ${pgliteDir} (store process)`,
      schema_version: versions.at(-1),
      applied: versions,
      ms: 'number',
    },
  ])
  assert.ok(existsSync(join(pgliteDir, 'PG_VERSION')))

  const again = recordedLog()
  const reopened = await openStore(config, again.log)
  await reopened.close()
  assert.deepEqual(again.problems(), [])
  assert.deepEqual(readable(again.entries()), [
    { msg: 'opening the embedded database', dir: pgliteDir, first_start: false },
    { msg: 'embedded database open', dir: pgliteDir, ms: 'number' },
    {
      msg: 'store ready',
      store: `pglite ${pgliteDir} (store process)`,
      schema_version: versions.at(-1),
      applied: [],
      ms: 'number',
    },
  ])
})
