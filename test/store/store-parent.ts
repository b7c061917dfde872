import { PGliteProcessDb } from '../../src/store/pglite-process-db.js'

/**
 * A parent of an embedded store process, for tests that kill it (test/store/data-dir-lock.test.ts): opens the
 * directory given as argument, prints `store <pid>` once the store answers, then keeps inserting rows one
 * statement at a time (so a SIGKILL lands while statements are in the store process's hands) until killed.
 */
const dir = process.argv[2]
if (dir === undefined) throw new Error('usage: store-parent <dir>')
const db = await PGliteProcessDb.open({ dir })
await db.query('CREATE TABLE IF NOT EXISTS beat (n int)')
process.stdout.write(`store ${db.storePid}\n`)
for (let n = 0; ; n++) await db.query('INSERT INTO beat VALUES ($1)', [n])
