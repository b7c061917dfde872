import assert from 'node:assert/strict'
import { createServer, type AddressInfo } from 'node:net'
import { test } from 'node:test'
import { silentLogger } from '../../src/core/logger.js'
import { replyForError } from '../../src/http/reply.js'
import { isStoreUnavailable, StoreUnavailableError } from '../../src/store/db.js'
import { PostgresDb } from '../../src/store/postgres-db.js'

/**
 * A store that cannot run statements (the embedded store's process killed, the database down or restarting, a
 * statement timed out) is a 503 `store_unavailable` with Retry-After, not a 500: the request was fine and a retry
 * shortly may succeed. A statement the store refused (a constraint, bad SQL) stays a 500: that is our bug.
 */
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })

test('which errors say the store is unavailable', () => {
  for (const err of [
    new StoreUnavailableError('the store process exited (SIGKILL)'),
    withCode('terminating connection due to administrator command', '57P01'),
    withCode('the database system is starting up', '57P03'),
    withCode('connection failure', '08006'),
    withCode('canceling statement due to statement timeout', '57014'),
    withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
  ])
    assert.equal(isStoreUnavailable(err), true, err.message)
  for (const err of [
    withCode('duplicate key value violates unique constraint', '23505'),
    withCode('syntax error at or near "SELEC"', '42601'),
    new TypeError('not a timestamp: x'),
    'a string',
    undefined,
  ])
    assert.equal(isStoreUnavailable(err), false, String(err))
})

test('over HTTP: 503 store_unavailable with Retry-After; anything else unknown stays a bare 500', () => {
  const r = replyForError(new StoreUnavailableError('the store is closed'))
  assert.equal(r.status, 503)
  assert.deepEqual(JSON.parse(r.body as string), {
    detail: 'The data store cannot be reached right now; retry shortly.',
    code: 'store_unavailable',
  })
  assert.deepEqual(r.headers, [['retry-after', '1']])
  assert.equal(replyForError(withCode('duplicate key', '23505')).status, 500)
})

test('a Postgres server that does not answer is unavailable, as the pg driver reports it', async () => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  const err = await PostgresDb.open({
    url: `postgres://nobody@127.0.0.1:${port}/none`,
    log: silentLogger,
    connectTimeoutMs: 2_000,
  }).then(
    () => undefined,
    (e: unknown) => e,
  )
  assert.ok(err instanceof Error)
  assert.equal(isStoreUnavailable(err), true, `${(err as Error).message} (${String((err as { code?: string }).code)})`)
})
