import assert from 'node:assert/strict'
import { randomBytes, randomUUID } from 'node:crypto'
import { test } from 'node:test'
import pg from 'pg'
import { generateApiKey } from '../../src/accounts/api-key.js'
import { silentLogger } from '../../src/core/logger.js'
import { AccountRepository } from '../../src/store/accounts-repo.js'
import { ApiKeyRepository, KEY_REVOKED_CHANNEL } from '../../src/store/api-keys-repo.js'
import { loadMigrations, migrate } from '../../src/store/migrate.js'
import { PostgresDb } from '../../src/store/postgres-db.js'
import {
  openPostgres,
  POSTGRES_SKIP,
  secondConnection,
  storeBackends,
  TEST_DATABASE_URL,
  type Backend,
} from '../helpers/db.js'
import { describeOrSkip } from '../helpers/skippable-suite.js'
import { waitFor } from '../helpers/wait.js'
import { runStoreContract } from './store-contract.case.js'

/**
 * The store contract on a real Postgres server (TEST_DATABASE_URL, set by CI), plus what only a shared server
 * has: replicas migrating at once and NOTIFY between connections.
 */
runStoreContract(storeBackends().find((b) => b.name === 'postgres') as Backend)

describeOrSkip('postgres: several replicas on one database', POSTGRES_SKIP, () => {
  const url = TEST_DATABASE_URL as string

  test('replicas booting at once apply each migration exactly once', async () => {
    const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    const replicas = await Promise.all(
      Array.from({ length: 4 }, () => PostgresDb.open({ url, schema, log: silentLogger, poolMax: 2 })),
    )
    try {
      const reports = await Promise.all(replicas.map((db) => migrate(db, silentLogger)))
      const applied = reports.flatMap((r) => r.applied).sort((a, b) => a - b)
      assert.deepEqual(
        applied,
        loadMigrations().map((m) => m.version),
      )
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.schema_migrations`)
      assert.equal(rows[0].n, loadMigrations().length)
    } finally {
      await Promise.all(replicas.map((db) => db.close()))
      await admin.query(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end()
    }
  })

  test('a revocation is NOTIFYed to another connection on commit', async () => {
    const t = await openPostgres(url)
    const other = await secondConnection(t.db, url)
    try {
      const heard: string[] = []
      const stop = await other.listen(other.channel(KEY_REVOKED_CHANNEL), (id) => heard.push(id))
      const accounts = new AccountRepository(t.db)
      const keys = new ApiKeyRepository(t.db)
      const k1 = generateApiKey('pmk_live_')
      const k2 = generateApiKey('pmk_live_')
      const first = { id: randomUUID(), name: 'a', hash: k1.hash, displayPrefix: k1.displayPrefix }
      const created = await accounts.signup(
        randomUUID(),
        { email: 'n@example.com', company: 'c', useCase: 'u' },
        first,
        Date.now(),
      )
      assert.ok(created.created)
      const second = { id: randomUUID(), name: 'b', hash: k2.hash, displayPrefix: k2.displayPrefix }
      await keys.create(created.account.id, second, Date.now(), 10)
      const started = Date.now()
      await keys.revoke(created.account.id, second.id, Date.now())
      await waitFor(() => heard.includes(second.id), 1_000, 'NOTIFY heard')
      assert.ok(Date.now() - started < 1_000)
      await stop()
    } finally {
      await other.close()
      await t.dispose()
    }
  })

  test('channels are per schema: parallel test runs do not hear each other', async () => {
    const a = await openPostgres(url)
    const b = await openPostgres(url)
    try {
      assert.notEqual(a.db.channel(KEY_REVOKED_CHANNEL), b.db.channel(KEY_REVOKED_CHANNEL))
    } finally {
      await a.dispose()
      await b.dispose()
    }
  })
})
