import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, beforeEach, test } from 'node:test'
import { AlertDeliveryRepository, type NewDelivery } from '../../src/store/alert-deliveries-repo.js'
import { AlertRuleChanges } from '../../src/store/alert-rule-changes.js'
import { type AlertRule, type NewAlertRule } from '../../src/alerts/rule-types.js'
import { AlertRuleRepository } from '../../src/store/alert-rules-repo.js'
import { AlertStateRepository, firingDedupeKey, type FiringRequest } from '../../src/store/alert-state-repo.js'
import type { Db } from '../../src/store/db.js'
import { secondConnection, storeBackends, TEST_DATABASE_URL, type TestDb } from '../helpers/db.js'
import { describeOrSkip } from '../helpers/skippable-suite.js'

/**
 * The alert store on every backend: a firing is one transaction (state, cooldown, outbox row, or nothing), the
 * dedupe key and the compare-and-set make two replicas deliver once, and workers claim outbox rows with
 * SKIP LOCKED and leases. Times are explicit (the service's clock), never the database's.
 */
const T0 = Date.UTC(2026, 10, 21, 12)
const S = 1_000
const OWNER = { accountId: null, userId: 'user-1' }
const WEBHOOK: NewAlertRule = {
  triggerType: 'spread_threshold',
  threshold: 0.05,
  channel: 'webhook',
  target: 'https://hooks.example.com/a',
  scope: {},
  cooldownSeconds: 60,
}

async function count(db: Db, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: unknown }>(sql, params)
  return Number(rows[0]?.n ?? 0)
}

for (const backend of storeBackends()) {
  describeOrSkip(`alert outbox and evaluation state on ${backend.name}`, backend.skip, () => {
    let t: TestDb
    let db: Db
    let rules: AlertRuleRepository
    let state: AlertStateRepository
    let outbox: AlertDeliveryRepository

    before(async () => {
      t = await backend.open()
      db = t.db
    })
    after(() => t.dispose())
    beforeEach(async () => {
      await db.query('TRUNCATE alert_rules, alert_seen_pairs CASCADE')
      rules = new AlertRuleRepository(db, new AlertRuleChanges())
      state = new AlertStateRepository(db)
      outbox = new AlertDeliveryRepository(db)
    })

    const newRule = async (patch: Partial<NewAlertRule> = {}): Promise<AlertRule> => {
      const out = await rules.create(OWNER, { ...WEBHOOK, ...patch }, T0, 100)
      assert.equal(out.kind, 'created')
      return (out as { rule: AlertRule }).rule
    }
    const firing = (
      rule: AlertRule,
      pairKey: string,
      at: number,
      patch: Partial<FiringRequest> = {},
    ): FiringRequest => ({
      ruleId: rule.id,
      pairKey,
      firedAt: at,
      cooldownMs: rule.cooldownSeconds * S,
      disarm: true,
      baseline: null,
      delivery: (episode) => ({
        id: randomUUID(),
        ruleId: rule.id,
        pairKey,
        dedupeKey: firingDedupeKey(rule.id, pairKey, episode),
        test: false,
        channel: rule.channel,
        target: rule.target,
        payload: { episode, pair: pairKey },
        createdAt: at,
      }),
      ...patch,
    })
    const testDelivery = (rule: AlertRule, at: number): NewDelivery => {
      const id = randomUUID()
      return {
        id,
        ruleId: rule.id,
        pairKey: null,
        dedupeKey: `test:${id}`,
        test: true,
        channel: rule.channel,
        target: rule.target,
        payload: { id, n: 1 },
        createdAt: at,
      }
    }

    test('a firing writes state, cooldown and outbox row together; a disarmed pair and a cooling rule write nothing', async () => {
      const rule = await newRule()
      const first = await state.fire(firing(rule, 'fed|yes', T0))
      assert.equal(first.kind, 'fired')
      if (first.kind !== 'fired') return
      assert.equal(first.episode, 1)
      assert.equal(first.delivery.dedupeKey, `${rule.id}:fed|yes:1`)
      assert.deepEqual(
        [first.delivery.status, first.delivery.attempts, first.delivery.nextAttemptAt],
        ['pending', 0, T0],
      )
      assert.deepEqual(first.delivery.payload, { episode: 1, pair: 'fed|yes' }, 'payload stored verbatim, in order')

      assert.deepEqual(
        await state.fire(firing(rule, 'fed|yes', T0 + 120 * S)),
        { kind: 'already_fired' },
        'still disarmed',
      )
      assert.deepEqual(
        await state.fire(firing(rule, 'cpi|yes', T0 + 10 * S)),
        { kind: 'cooldown', lastFiredAt: T0 },
        'per-rule cooldown',
      )
      assert.equal(await count(db, 'SELECT count(*) AS n FROM alert_deliveries'), 1)
      assert.equal(
        await count(db, "SELECT count(*) AS n FROM alert_pair_state WHERE pair_key = 'cpi|yes'"),
        0,
        'a refused firing leaves no state',
      )
      assert.deepEqual((await state.loadRule(rule.id)).lastFiredAt, T0, 'the refused firings did not move the cooldown')

      await state.setArmed([{ ruleId: rule.id, pairKey: 'fed|yes', armed: true }], T0 + 61 * S)
      const second = await state.fire(firing(rule, 'fed|yes', T0 + 61 * S))
      assert.equal(second.kind, 'fired')
      assert.equal(second.kind === 'fired' && second.delivery.dedupeKey, `${rule.id}:fed|yes:2`)
      const loaded = await state.loadRule(rule.id)
      assert.deepEqual(loaded, {
        pairs: [
          { ruleId: rule.id, pairKey: 'fed|yes', armed: false, episode: 2, baseline: null, lastFiredAt: T0 + 61 * S },
        ],
        lastFiredAt: T0 + 61 * S,
      })
    })

    test('spread_expansion keeps the pair armed and records the new baseline', async () => {
      const rule = await newRule({ triggerType: 'spread_expansion', cooldownSeconds: 0 })
      assert.equal((await state.fire(firing(rule, 'p', T0, { disarm: false, baseline: 0.09 }))).kind, 'fired')
      assert.equal((await state.fire(firing(rule, 'p', T0 + S, { disarm: false, baseline: 0.15 }))).kind, 'fired')
      const loaded = await state.loadRule(rule.id)
      assert.deepEqual(
        loaded.pairs.map((p) => [p.armed, p.episode, p.baseline]),
        [[true, 2, 0.15]],
      )
    })

    test('a paused or deleted rule fires nothing', async () => {
      const paused = await newRule()
      await rules.setStatus(OWNER, paused.id, 'paused', T0)
      const deleted = await newRule()
      await rules.delete(OWNER, deleted.id, T0)
      assert.deepEqual(await state.fire(firing(paused, 'p', T0)), { kind: 'inactive' })
      assert.deepEqual(await state.fire(firing(deleted, 'p', T0)), { kind: 'inactive' })
      assert.equal(await count(db, 'SELECT count(*) AS n FROM alert_deliveries'), 0)
      assert.equal(await count(db, 'SELECT count(*) AS n FROM alert_rule_cooldowns'), 0)
    })

    test('an existing dedupe key refuses the firing and rolls its state back', async () => {
      const rule = await newRule({ cooldownSeconds: 0 })
      const taken = firing(rule, 'p', T0).delivery(1)
      await outbox.enqueue(taken)
      assert.equal(await outbox.enqueue({ ...taken, id: randomUUID() }), undefined, 'ON CONFLICT DO NOTHING')
      assert.deepEqual(await state.fire(firing(rule, 'p', T0)), { kind: 'duplicate' })
      assert.deepEqual(await state.loadRule(rule.id), { pairs: [], lastFiredAt: undefined })
    })

    test('replicas firing the same crossing at once deliver once', async () => {
      const other =
        TEST_DATABASE_URL !== undefined && db.kind === 'postgres' ? await secondConnection(db, TEST_DATABASE_URL) : db
      try {
        for (let round = 0; round < 5; round++) {
          const rule = await newRule({ cooldownSeconds: 0 })
          const outcomes = await Promise.all(
            [new AlertStateRepository(db), new AlertStateRepository(other), new AlertStateRepository(db)].map((s) =>
              s.fire(firing(rule, 'p', T0)),
            ),
          )
          assert.deepEqual(outcomes.map((o) => o.kind).sort(), ['already_fired', 'already_fired', 'fired'])
          assert.equal(await count(db, 'SELECT count(*) AS n FROM alert_deliveries WHERE rule_id = $1', [rule.id]), 1)
        }
      } finally {
        if (other !== db) await other.close()
      }
    })

    test('arm changes: the last per pair wins, one statement; changes for unknown rules are skipped', async () => {
      const rule = await newRule()
      await state.setArmed(
        [
          { ruleId: rule.id, pairKey: 'a', armed: false },
          { ruleId: rule.id, pairKey: 'a', armed: true },
          { ruleId: rule.id, pairKey: 'b', armed: false },
          { ruleId: randomUUID(), pairKey: 'a', armed: true },
        ],
        T0,
      )
      const loaded = await state.loadRule(rule.id)
      assert.deepEqual(loaded.pairs.map((p) => [p.pairKey, p.armed]).sort(), [
        ['a', true],
        ['b', false],
      ])
      const active = await state.loadActive()
      assert.deepEqual([...active.keys()], [rule.id])
      await rules.setStatus(OWNER, rule.id, 'paused', T0)
      assert.equal((await state.loadActive()).size, 0, 'only active rules are loaded at boot')
    })

    test('first sightings: the earliest wins across replicas', async () => {
      await state.recordSeen([
        { pairKey: 'p', at: T0 + 5 * S },
        { pairKey: 'q', at: T0 },
        { pairKey: 'p', at: T0 + 9 * S },
      ])
      await state.recordSeen([
        { pairKey: 'p', at: T0 + S },
        { pairKey: 'q', at: T0 + S },
      ])
      assert.deepEqual([...(await state.seenPairs())].sort(), [
        ['p', T0 + S],
        ['q', T0],
      ])
    })

    test('claims: due rows once each, concurrent claims disjoint (SKIP LOCKED), future rows wait', async () => {
      const rule = await newRule()
      const due = []
      for (let i = 0; i < 10; i++) due.push((await outbox.enqueue(testDelivery(rule, T0 + i)))!.id)
      await outbox.enqueue(testDelivery(rule, T0 + 3_600 * S))
      const other =
        TEST_DATABASE_URL !== undefined && db.kind === 'postgres' ? await secondConnection(db, TEST_DATABASE_URL) : db
      try {
        const batches = await Promise.all(
          [outbox, new AlertDeliveryRepository(other), outbox].map((o) => o.claim(4, T0 + 60 * S, 30 * S)),
        )
        const ids = batches.flat().map((d) => d.id)
        assert.equal(ids.length, 10, 'every due row claimed')
        assert.equal(new Set(ids).size, 10, 'no row claimed twice')
        assert.deepEqual([...ids].sort(), [...due].sort())
        for (const d of batches.flat()) {
          assert.deepEqual([d.status, d.attempts], ['sending', 1])
          assert.match(d.signingSecret ?? '', /^whsec_[0-9a-f]{64}$/, "the rule's secret comes with the row")
        }
        assert.deepEqual(await outbox.claim(10, T0 + 60 * S, 30 * S), [], 'held rows and future rows are not claimed')
      } finally {
        if (other !== db) await other.close()
      }
    })

    test("leases: a crashed worker's row is claimed again after its lease; the old holder can no longer record", async () => {
      const rule = await newRule()
      await outbox.enqueue(testDelivery(rule, T0))
      const [first] = await outbox.claim(5, T0, 60 * S)
      assert.ok(first !== undefined)
      assert.deepEqual(await outbox.claim(5, T0 + 59 * S, 60 * S), [], 'lease still held')
      const [again] = await outbox.claim(5, T0 + 61 * S, 60 * S)
      assert.ok(again !== undefined)
      assert.equal(again.id, first.id)
      assert.equal(again.attempts, 2)
      assert.notEqual(again.leaseToken, first.leaseToken)
      assert.equal(await outbox.complete(first, T0 + 62 * S, 200), false, 'the expired holder is ignored')
      assert.equal(await outbox.complete(again, T0 + 62 * S, 204), true)
      const done = await outbox.get(first.id)
      assert.deepEqual([done?.status, done?.deliveredAt, done?.responseStatus], ['delivered', T0 + 62 * S, 204])
    })

    test('retry, fail, release; the log lists newest first with a status filter; retention', async () => {
      const rule = await newRule()
      const a = (await outbox.enqueue(testDelivery(rule, T0)))!
      const b = (await outbox.enqueue(testDelivery(rule, T0 + 1)))!
      const c = (await outbox.enqueue(testDelivery(rule, T0 + 2)))!
      const claimed = await outbox.claim(3, T0 + 5, 60 * S)
      const held = (id: string) => claimed.find((d) => d.id === id)!
      assert.equal(await outbox.retry(held(a.id), T0 + S, T0 + 31 * S, 'HTTP 500: ' + 'x'.repeat(2_000), 500), true)
      assert.equal(await outbox.fail(held(b.id), T0 + S, 'smtp_not_configured: …', null), true)
      assert.equal(await outbox.release([held(c.id)], T0 + S), 1)
      const retried = await outbox.get(a.id)
      assert.deepEqual(
        [retried?.status, retried?.attempts, retried?.nextAttemptAt, retried?.responseStatus],
        ['pending', 1, T0 + 31 * S, 500],
      )
      assert.equal(retried?.lastError?.length, 500, 'last_error is clipped')
      const released = await outbox.get(c.id)
      assert.deepEqual([released?.status, released?.attempts], ['pending', 0], 'a handed-back attempt does not count')
      assert.deepEqual(
        (await outbox.claim(5, T0 + 30 * S, 60 * S)).map((d) => d.id),
        [c.id],
        'the retry is not due yet',
      )

      const page = await outbox.listForRule(rule.id, { limit: 10, offset: 0 })
      assert.deepEqual(
        page.deliveries.map((d) => d.id),
        [c.id, b.id, a.id],
      )
      assert.equal(page.total, 3)
      const failed = await outbox.listForRule(rule.id, { status: 'failed', limit: 10, offset: 0 })
      assert.deepEqual([failed.deliveries.map((d) => d.id), failed.total], [[b.id], 1])
      assert.deepEqual(
        (await outbox.listForRule(rule.id, { limit: 1, offset: 1 })).deliveries.map((d) => d.id),
        [b.id],
      )

      assert.equal(await outbox.prune(T0 + 2 * S), 1, 'only finished rows older than the cutoff')
      assert.equal(await outbox.get(b.id), undefined)
    })
  })
}
