import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, beforeEach, describe, test } from 'node:test'
import { generateApiKey } from '../../src/accounts/api-key.js'
import { silentLogger } from '../../src/core/logger.js'
import { AccountRepository } from '../../src/store/accounts-repo.js'
import { AlertRuleChanges } from '../../src/store/alert-rule-changes.js'
import { type NewAlertRule } from '../../src/alerts/rule-types.js'
import { AlertRuleRepository } from '../../src/store/alert-rules-repo.js'
import { ApiKeyRepository, type StoredKey } from '../../src/store/api-keys-repo.js'
import type { Db } from '../../src/store/db.js'
import { loadMigrations, migrate } from '../../src/store/migrate.js'
import { checkedLogger } from '../helpers/checked-logger.js'
import { UsageRepository } from '../../src/store/usage-repo.js'
import type { Backend, TestDb } from '../helpers/db.js'
import { describeOrSkip } from '../helpers/skippable-suite.js'
import { countRows, findInAnyColumn, INJECTIONS, tableNames } from './scan.js'

/**
 * The store's contract, run on every backend (hono's `runTest({ newRouter })` pattern): pglite.test.ts always,
 * postgres.test.ts when TEST_DATABASE_URL is set (reported as skipped otherwise). Each test starts from empty tables of a migrated database of its
 * own (a fresh schema on Postgres), so runs in parallel never collide.
 */
const PREFIX = 'pmk_live_'
const T0 = Date.UTC(2026, 10, 21, 12)

export function runStoreContract(backend: Backend): void {
  describeOrSkip(`store contract on ${backend.name}`, backend.skip, () => {
    let t: TestDb
    let db: Db
    let accounts: AccountRepository
    let keys: ApiKeyRepository
    let changes: AlertRuleChanges
    let rules: AlertRuleRepository
    let usage: UsageRepository

    before(async () => {
      t = await backend.open()
      db = t.db
    })
    after(() => t.dispose())
    beforeEach(async () => {
      // CASCADE: alert state, deliveries (and whatever else hangs off rules) go with them.
      await db.query('TRUNCATE accounts, api_keys, alert_rules, api_key_usage CASCADE')
      accounts = new AccountRepository(db)
      keys = new ApiKeyRepository(db)
      changes = new AlertRuleChanges()
      rules = new AlertRuleRepository(db, changes)
      usage = new UsageRepository(db)
    })

    const newKey = (name = 'default'): StoredKey & { value: string } => {
      const k = generateApiKey(PREFIX)
      return { id: randomUUID(), name, hash: k.hash, displayPrefix: k.displayPrefix, value: k.value }
    }
    const signup = (email: string, key = newKey(), company = 'Acme', useCase = 'dashboards') =>
      accounts.signup(randomUUID(), { email, company, useCase }, key, T0)
    const account = async (email = 'dev@example.com') => {
      const key = newKey()
      const r = await signup(email, key)
      assert.ok(r.created)
      return { id: r.account.id, key }
    }

    describe('migrations', () => {
      test('every file is recorded once with its checksum; a second run applies nothing', async () => {
        const files = loadMigrations()
        const { rows } = await db.query<{ version: number; name: string; checksum: string }>(
          'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
        )
        assert.deepEqual(
          rows.map((r) => ({ ...r })),
          files.map((m) => ({ version: m.version, name: m.name, checksum: m.checksum })),
        )
        assert.deepEqual(await migrate(db, silentLogger), { applied: [], current: files.length })
      })

      test('an applied migration whose file changed fails the boot', async () => {
        const files = loadMigrations().map((m) => (m.version === 1 ? { ...m, checksum: 'f'.repeat(64) } : m))
        await assert.rejects(migrate(db, silentLogger, files), /migration 0001 changed after it was applied/)
      })

      test('versions a newer build applied are tolerated (rolling deploys)', async () => {
        await db.query("INSERT INTO schema_migrations (version, name, checksum) VALUES (9999, 'from_the_future', 'x')")
        try {
          const files = loadMigrations()
          const logs = checkedLogger()
          assert.deepEqual(await migrate(db, logs.log.child({ component: 'store' })), { applied: [], current: 9999 })
          assert.equal(files.length < 9999, true)
          // The warning names the migration in a field of its own, not in pino's `name` (a duplicate key).
          assert.deepEqual({ lines: logs.lines(), problems: logs.problems() }, { lines: 1, problems: [] })
        } finally {
          await db.query('DELETE FROM schema_migrations WHERE version = 9999')
        }
      })

      test('concurrent runs on one connection apply each migration once', async () => {
        const reports = await Promise.all([migrate(db, silentLogger), migrate(db, silentLogger)])
        assert.deepEqual(
          reports.flatMap((r) => r.applied),
          [],
        )
      })
    })

    describe('accounts and signup', () => {
      test('a new address creates the account and its first key in one transaction', async () => {
        const key = newKey()
        const r = await signup('Dev@Example.com', key)
        assert.equal(r.created, true)
        assert.ok(r.created)
        assert.equal(r.account.email, 'Dev@Example.com')
        assert.equal(r.account.createdAt, T0)
        assert.deepEqual(
          { ...r.key },
          {
            id: key.id,
            accountId: r.account.id,
            name: 'default',
            displayPrefix: key.displayPrefix,
            createdAt: T0,
            revokedAt: null,
          },
        )
        assert.equal(await countRows(db, 'api_keys'), 1)
      })

      test('the same address in another case updates company and use case and creates no key', async () => {
        const first = await signup('dev@example.com')
        const again = await signup('DEV@EXAMPLE.COM', newKey(), 'Acme 2', 'alerts')
        assert.equal(again.created, false)
        assert.equal(again.account.id, first.account.id)
        assert.equal(again.account.company, 'Acme 2')
        assert.equal(again.account.useCase, 'alerts')
        assert.equal(again.account.email, 'dev@example.com', 'the address keeps its first spelling')
        assert.equal(await countRows(db, 'accounts'), 1)
        assert.equal(await countRows(db, 'api_keys'), 1)
      })

      test('signups racing for one address make one account and one key', async () => {
        const results = await Promise.all(
          ['race@example.com', 'RACE@example.com', 'Race@Example.com', 'race@EXAMPLE.com', 'race@example.COM'].map(
            (e) => signup(e),
          ),
        )
        assert.equal(results.filter((r) => r.created).length, 1)
        assert.equal(new Set(results.map((r) => r.account.id)).size, 1)
        assert.equal(await countRows(db, 'accounts'), 1)
        assert.equal(await countRows(db, 'api_keys'), 1)
      })

      test('a failure inside signup leaves no half-written account', async () => {
        const bad = { ...newKey(), hash: 'not-a-sha256' }
        await assert.rejects(signup('half@example.com', bad))
        assert.equal(await countRows(db, 'accounts'), 0)
        assert.equal(await countRows(db, 'api_keys'), 0)
      })
    })

    describe('api keys', () => {
      test('create, list (oldest first), get; the cap counts active keys only', async () => {
        const a = await account()
        const second = newKey('ci')
        const created = await keys.create(a.id, second, T0 + 1_000, 2)
        assert.equal(created.kind, 'created')
        assert.deepEqual(await keys.create(a.id, newKey('third'), T0 + 2_000, 2), { kind: 'limit', max: 2 })
        const list = await keys.list(a.id)
        assert.deepEqual(
          list.map((k) => k.name),
          ['default', 'ci'],
        )
        assert.equal((await keys.get(a.id, second.id))?.displayPrefix, second.displayPrefix)
        const revoked = await keys.revoke(a.id, second.id, T0 + 3_000)
        assert.equal(revoked.kind, 'revoked')
        assert.equal(
          (await keys.create(a.id, newKey('third'), T0 + 4_000, 2)).kind,
          'created',
          'a revoked key frees its slot',
        )
        assert.deepEqual(await keys.create(randomUUID(), newKey(), T0, 2), { kind: 'no_account' })
      })

      test('revocation: idempotent, account-scoped, never the last active key; lookups see it', async () => {
        const a = await account()
        const b = await account('other@example.com')
        const extra = newKey('extra')
        await keys.create(a.id, extra, T0, 10)
        assert.deepEqual(
          await keys.revoke(b.id, extra.id, T0),
          { kind: 'not_found' },
          "another account's key is not found",
        )
        assert.deepEqual(await keys.revoke(a.id, randomUUID(), T0), { kind: 'not_found' })
        const first = await keys.revoke(a.id, extra.id, T0 + 5_000)
        assert.ok(first.kind === 'revoked' && first.changed && first.key.revokedAt === T0 + 5_000)
        const again = await keys.revoke(a.id, extra.id, T0 + 9_000)
        assert.ok(
          again.kind === 'revoked' && !again.changed && again.key.revokedAt === T0 + 5_000,
          'the first revocation time stays',
        )
        assert.deepEqual(await keys.revoke(a.id, a.key.id, T0), { kind: 'last_active_key' })
        assert.deepEqual(await keys.findByHash(extra.hash), {
          id: extra.id,
          accountId: a.id,
          hash: extra.hash,
          revokedAt: T0 + 5_000,
        })
        assert.deepEqual(await keys.findByHash(a.key.hash), {
          id: a.key.id,
          accountId: a.id,
          hash: a.key.hash,
          revokedAt: null,
        })
        assert.equal(await keys.findByHash('0'.repeat(64)), undefined)
        assert.deepEqual(await keys.revokedSince(T0 + 4_999), [extra.id])
        assert.deepEqual(await keys.revokedSince(T0 + 5_000), [])
      })

      test('two revocations racing for the last two keys leave one active', async () => {
        const a = await account()
        const extra = newKey('extra')
        await keys.create(a.id, extra, T0, 10)
        const results = await Promise.all([keys.revoke(a.id, a.key.id, T0), keys.revoke(a.id, extra.id, T0)])
        assert.deepEqual(results.map((r) => r.kind).sort(), ['last_active_key', 'revoked'])
        assert.equal((await keys.list(a.id)).filter((k) => k.revokedAt === null).length, 1)
      })
    })

    describe('alert rules', () => {
      const rule: NewAlertRule = {
        triggerType: 'spread_threshold',
        threshold: 0.05,
        channel: 'email',
        target: 'ops@example.com',
        scope: { platforms: ['venuep', 'venuek'], min_volume: 1000 },
        cooldownSeconds: 300,
      }

      test('create, get, list, pause, resume, delete; each change a new version, published in process', async () => {
        const a = await account()
        const owner = { accountId: a.id, userId: 'user-1' }
        const heard: number[] = []
        changes.subscribe((v) => heard.push(v))
        const created = await rules.create(owner, rule, T0, 10)
        assert.ok(created.kind === 'created')
        const r = created.rule
        assert.deepEqual(
          { ...r, id: 'x', version: 0 },
          {
            ...rule,
            id: 'x',
            accountId: a.id,
            userId: 'user-1',
            status: 'active',
            version: 0,
            createdAt: T0,
            updatedAt: T0,
          },
        )
        assert.deepEqual(await rules.get(owner, r.id), r)
        const paused = await rules.setStatus(owner, r.id, 'paused', T0 + 1_000)
        assert.equal(paused?.status, 'paused')
        assert.equal(paused?.updatedAt, T0 + 1_000)
        assert.equal(
          (await rules.setStatus(owner, r.id, 'paused', T0 + 2_000))?.version,
          paused?.version,
          'no-op keeps the version',
        )
        const resumed = await rules.setStatus(owner, r.id, 'active', T0 + 3_000)
        assert.equal(resumed?.status, 'active')
        const deleted = await rules.delete(owner, r.id, T0 + 4_000)
        assert.equal(deleted?.status, 'deleted')
        assert.equal(await rules.get(owner, r.id), undefined)
        assert.equal(await rules.delete(owner, r.id, T0 + 5_000), undefined)
        assert.equal(await rules.setStatus(owner, r.id, 'active', T0 + 5_000), undefined)
        const versions = [r.version, paused?.version, resumed?.version, deleted?.version] as number[]
        assert.deepEqual(heard, versions)
        assert.ok(
          versions.every((v, i) => i === 0 || v > (versions[i - 1] as number)),
          `versions increase: ${versions.join(',')}`,
        )
        assert.equal(changes.version, deleted?.version)
        assert.equal(await rules.currentVersion(), deleted?.version)
      })

      test('owners are isolated: another user, another account or no account sees nothing', async () => {
        const a = await account()
        const b = await account('b@example.com')
        const created = await rules.create({ accountId: a.id, userId: 'u' }, rule, T0, 10)
        assert.ok(created.kind === 'created')
        for (const other of [
          { accountId: a.id, userId: 'v' },
          { accountId: b.id, userId: 'u' },
          { accountId: null, userId: 'u' },
        ]) {
          assert.equal(await rules.get(other, created.rule.id), undefined)
          assert.equal(await rules.setStatus(other, created.rule.id, 'paused', T0), undefined)
          assert.equal(await rules.delete(other, created.rule.id, T0), undefined)
          assert.deepEqual(await rules.list(other, { limit: 10, offset: 0 }), { rules: [], total: 0 })
        }
        assert.equal((await rules.get({ accountId: a.id, userId: 'u' }, created.rule.id))?.status, 'active')
        const anonymous = await rules.create({ accountId: null, userId: 'u' }, rule, T0, 10)
        assert.ok(anonymous.kind === 'created')
        assert.equal((await rules.get({ accountId: null, userId: 'u' }, anonymous.rule.id))?.id, anonymous.rule.id)
      })

      test('list pages newest first with a status filter; the per-user cap holds under concurrency', async () => {
        const owner = { accountId: null, userId: 'pager' }
        for (let i = 0; i < 5; i++)
          assert.equal(
            (await rules.create(owner, { ...rule, threshold: (i + 1) / 100 }, T0 + i * 1_000, 5)).kind,
            'created',
          )
        const page = await rules.list(owner, { limit: 2, offset: 1 })
        assert.equal(page.total, 5)
        assert.deepEqual(
          page.rules.map((r) => r.threshold),
          [0.04, 0.03],
        )
        const all = await rules.list(owner, { limit: 10, offset: 0 })
        await rules.setStatus(owner, all.rules[0]?.id as string, 'paused', T0 + 10_000)
        assert.equal((await rules.list(owner, { status: 'paused', limit: 10, offset: 0 })).total, 1)
        assert.equal((await rules.list(owner, { status: 'active', limit: 10, offset: 0 })).total, 4)
        const racer = { accountId: null, userId: 'racer' }
        const results = await Promise.all(Array.from({ length: 8 }, () => rules.create(racer, rule, T0, 3)))
        assert.equal(results.filter((r) => r.kind === 'created').length, 3)
        assert.equal((await rules.list(racer, { limit: 10, offset: 0 })).total, 3)
      })

      test('evaluator API: listActive + changesSince (tombstones included) reconstruct the active set', async () => {
        const owner = { accountId: null, userId: 'e' }
        const made: string[] = []
        for (let i = 0; i < 4; i++) {
          const r = await rules.create(owner, rule, T0, 10)
          assert.ok(r.kind === 'created')
          made.push(r.rule.id)
        }
        const snapshot = await rules.listActive()
        assert.deepEqual(
          snapshot.rules.map((r) => r.id),
          made,
        )
        await rules.setStatus(owner, made[0] as string, 'paused', T0)
        await rules.delete(owner, made[1] as string, T0)
        const added = await rules.create(owner, rule, T0, 10)
        assert.ok(added.kind === 'created')
        const feed = await rules.changesSince(snapshot.version)
        assert.deepEqual(
          feed.map((r) => [r.id, r.status]),
          [
            [made[0], 'paused'],
            [made[1], 'deleted'],
            [added.rule.id, 'active'],
          ],
        )
        const active = new Map(snapshot.rules.map((r) => [r.id, r]))
        for (const r of feed) {
          if (r.status === 'active') active.set(r.id, r)
          else active.delete(r.id)
        }
        assert.deepEqual([...active.keys()].sort(), (await rules.listActive()).rules.map((r) => r.id).sort())
        assert.equal((await rules.getById(made[1] as string))?.status, 'deleted')
      })
    })

    describe('usage', () => {
      test('batched deltas add up per key and minute; windows per key and account; prune', async () => {
        const a = await account()
        const extra = newKey('extra')
        await keys.create(a.id, extra, T0, 10)
        const minute = T0 - (T0 % 60_000)
        await usage.add([
          { keyId: a.key.id, minuteMs: minute, requests: 3, rateLimited: 1 },
          { keyId: a.key.id, minuteMs: minute, requests: 2, rateLimited: 0 },
          { keyId: a.key.id, minuteMs: minute - 30 * 60_000, requests: 10, rateLimited: 0 },
          { keyId: a.key.id, minuteMs: minute - 5 * 3_600_000, requests: 100, rateLimited: 4 },
          { keyId: extra.id, minuteMs: minute, requests: 7, rateLimited: 0 },
          { keyId: a.key.id, minuteMs: minute - 3 * 86_400_000, requests: 1_000, rateLimited: 0 },
        ])
        await usage.add([{ keyId: a.key.id, minuteMs: minute, requests: 1, rateLimited: 0 }])
        const s = await usage.summary(a.key.id, a.id, T0 + 5_000)
        assert.deepEqual(s.key, {
          requests: { currentMinute: 6, lastHour: 16, lastDay: 116 },
          rateLimited: { currentMinute: 1, lastHour: 1, lastDay: 5 },
        })
        assert.deepEqual(s.account, {
          requests: { currentMinute: 13, lastHour: 23, lastDay: 123 },
          rateLimited: { currentMinute: 1, lastHour: 1, lastDay: 5 },
        })
        assert.equal(await usage.prune(T0 - 86_400_000), 1)
        assert.equal(await countRows(db, 'api_key_usage'), 4)
      })
    })

    describe('security', () => {
      test('no plaintext key, nor its secret part, in any column of any table', async () => {
        const a = await account()
        const extra = newKey('extra')
        await keys.create(a.id, extra, T0, 10)
        await keys.revoke(a.id, extra.id, T0)
        const hook = {
          triggerType: 'new_pair',
          threshold: 0.1,
          channel: 'webhook',
          target: 'https://hooks.example.com/x',
          scope: {},
          cooldownSeconds: 60,
        } as const
        await rules.create({ accountId: a.id, userId: 'u' }, hook, T0, 10)
        await usage.add([{ keyId: a.key.id, minuteMs: T0, requests: 1, rateLimited: 0 }])
        for (const k of [a.key, extra]) {
          const hits = await findInAnyColumn(db, [k.value, k.value.slice(PREFIX.length)])
          assert.deepEqual(hits, [], `key found in ${hits.join(', ')}`)
          assert.equal(await countRows(db, 'api_keys'), 2)
        }
      })

      test('SQL injection attempts in every text field are stored verbatim, never executed', async () => {
        const tables = await tableNames(db)
        for (const [i, evil] of INJECTIONS.entries()) {
          const r = await accounts.signup(
            randomUUID(),
            { email: `inj${i}@example.com`, company: evil, useCase: evil },
            newKey(evil),
            T0,
          )
          assert.ok(r.created)
          assert.equal(r.account.company, evil)
          assert.equal(r.account.useCase, evil)
          assert.equal((await accounts.findByEmail(`inj${i}@example.com`))?.company, evil)
          const named = newKey(evil)
          await keys.create(r.account.id, named, T0, 10)
          assert.equal((await keys.get(r.account.id, named.id))?.name, evil)
          const created = await rules.create(
            { accountId: r.account.id, userId: evil },
            {
              triggerType: 'spread_threshold',
              threshold: 0.1,
              channel: 'webhook',
              target: `https://x.example/?q=${evil}`,
              scope: { event_slug: evil, outcome_key: evil },
              cooldownSeconds: 60,
            },
            T0,
            10,
          )
          assert.ok(created.kind === 'created')
          const back = await rules.get({ accountId: r.account.id, userId: evil }, created.rule.id)
          assert.deepEqual(
            [back?.userId, back?.target, back?.scope],
            [evil, `https://x.example/?q=${evil}`, { event_slug: evil, outcome_key: evil }],
          )
          assert.equal(await keys.findByHash(evil), undefined)
          assert.equal(await accounts.findByEmail(evil), undefined)
        }
        assert.deepEqual(await tableNames(db), tables, 'no table dropped')
        assert.equal(await countRows(db, 'accounts'), INJECTIONS.length)
        assert.equal(await countRows(db, 'api_keys'), INJECTIONS.length * 2)
        assert.equal(await countRows(db, 'alert_rules'), INJECTIONS.length)
        const { rows } = await db.query<{ n: unknown }>(
          'SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NOT NULL',
        )
        assert.equal(Number(rows[0]?.n), 0)
      })
    })
  })
}
