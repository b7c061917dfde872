import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { generateApiKey } from '../../src/accounts/api-key.js'
import { Authenticator, type Resolution } from '../../src/accounts/authenticator.js'
import { systemClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { AccountRepository } from '../../src/store/accounts-repo.js'
import { AlertRuleChanges } from '../../src/store/alert-rule-changes.js'
import { AlertRuleRepository } from '../../src/store/alert-rules-repo.js'
import { ApiKeyRepository } from '../../src/store/api-keys-repo.js'
import { ChangeWatcher } from '../../src/store/change-watcher.js'
import type { Db } from '../../src/store/db.js'
import { backends, secondConnection, TEST_DATABASE_URL, type TestDb } from '../helpers/db.js'
import { waitFor } from '../helpers/wait.js'

/**
 * Revocation across replicas: replica B has the key cached; replica A revokes it. B must refuse the key within the
 * stated bound: NOTIFY (Postgres, milliseconds) or the poll (`pollMs`, both backends). Alert-rule versions travel
 * the same way to B's in-process listeners.
 */
const PREFIX = 'pmk_live_'

function replica(db: Db, pollMs: number) {
  const keys = new ApiKeyRepository(db)
  const ruleChanges = new AlertRuleChanges()
  const rules = new AlertRuleRepository(db, ruleChanges)
  const auth = new Authenticator({
    keys,
    clock: systemClock,
    keyPrefix: PREFIX,
    rateLimit: { perSecond: 100, burst: 100 },
    maxKeys: 100,
    maxUnknownKeys: 100,
    unknownKeyTtlMs: 60_000,
    revalidateMs: 3_600_000,
    maxPendingLookups: 16,
    log: silentLogger,
  })
  const watcher = new ChangeWatcher({ db, keys, rules, ruleChanges, onKeysRevoked: (ids) => auth.evict(ids), clock: systemClock, pollMs, log: silentLogger })
  return { keys, rules, ruleChanges, auth, watcher }
}

async function kindOf(r: Resolution | Promise<Resolution>): Promise<string> {
  const v = await r
  return v.kind === 'key' ? 'key' : v.reason
}

/** The cache answers synchronously with a rejection. */
function refused(auth: Authenticator, value: string): boolean {
  const r = auth.resolve(value)
  return !(r instanceof Promise) && r.kind === 'rejected'
}

async function accountWithTwoKeys(db: Db) {
  const accounts = new AccountRepository(db)
  const keys = new ApiKeyRepository(db)
  const k1 = generateApiKey(PREFIX)
  const k2 = generateApiKey(PREFIX)
  const first = { id: randomUUID(), name: 'a', hash: k1.hash, displayPrefix: k1.displayPrefix }
  const r = await accounts.signup(randomUUID(), { email: `${randomUUID()}@example.com`, company: 'c', useCase: 'u' }, first, Date.now())
  assert.ok(r.created)
  const second = { id: randomUUID(), name: 'b', hash: k2.hash, displayPrefix: k2.displayPrefix }
  await keys.create(r.account.id, second, Date.now(), 10)
  return { accountId: r.account.id, victim: { id: second.id, value: k2.value } }
}

for (const backend of backends()) {
  describe(`revocation reaches other replicas (${backend.name})`, () => {
    let t: TestDb
    before(async () => {
      t = await backend.open()
    })
    after(() => t.dispose())

    test('by the poll, within pollMs, when no notification is heard', async () => {
      const b = replica(t.db, 200)
      await b.watcher.start()
      try {
        const { victim } = await accountWithTwoKeys(t.db)
        assert.equal(await kindOf(b.auth.resolve(victim.value)), 'key')
        const started = Date.now()
        // Revoked with a plain UPDATE, no NOTIFY: as if the notification had been lost.
        await t.db.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1', [victim.id, new Date()])
        await waitFor(() => refused(b.auth, victim.value), 2_000, 'B refuses the key')
        const elapsed = Date.now() - started
        assert.equal(await kindOf(b.auth.resolve(victim.value)), 'revoked')
        assert.ok(elapsed < 1_000, `took ${elapsed} ms (poll every 200 ms)`)
      } finally {
        await b.watcher.stop()
      }
    })

    test('alert-rule versions written by one replica reach the other replica\'s listeners', async () => {
      const a = replica(t.db, 60_000)
      const b = replica(t.db, 200)
      await b.watcher.start()
      try {
        const heard: number[] = []
        b.ruleChanges.subscribe((v) => heard.push(v))
        const rule = { triggerType: 'new_pair', threshold: 0.1, channel: 'email', target: 'a@b.co', scope: {}, cooldownSeconds: 60 } as const
        const created = await a.rules.create({ accountId: null, userId: 'x' }, rule, Date.now(), 10)
        assert.ok(created.kind === 'created')
        await waitFor(() => heard.includes(created.rule.version), 2_000, 'B hears the new version')
      } finally {
        await b.watcher.stop()
      }
    })
  })
}

describe('revocation by NOTIFY (postgres)', { skip: TEST_DATABASE_URL === undefined ? 'TEST_DATABASE_URL is not set' : false }, () => {
  test('another replica refuses the key within milliseconds, with its poll an hour away', async () => {
    const t = await (backends().find((b) => b.name === 'postgres') as { open(): Promise<TestDb> }).open()
    const dbB = await secondConnection(t.db, TEST_DATABASE_URL as string)
    const a = replica(t.db, 3_600_000)
    const b = replica(dbB, 3_600_000)
    await b.watcher.start()
    try {
      const { accountId, victim } = await accountWithTwoKeys(t.db)
      assert.equal(await kindOf(b.auth.resolve(victim.value)), 'key')
      const started = Date.now()
      await a.keys.revoke(accountId, victim.id, Date.now())
      await waitFor(() => refused(b.auth, victim.value), 1_000, 'B refuses the key')
      assert.ok(Date.now() - started < 1_000)
    } finally {
      await b.watcher.stop()
      await dbB.close()
      await t.dispose()
    }
  })
})
