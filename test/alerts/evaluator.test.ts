import assert from 'node:assert/strict'
import { after, before, beforeEach, test } from 'node:test'
import { AlertService } from '../../src/alerts/alert-service.js'
import { loadConfig } from '../../src/config/load.js'
import type { AlertsConfig } from '../../src/config/schema.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { AlertRuleChanges } from '../../src/store/alert-rule-changes.js'
import { type AlertRule, type NewAlertRule } from '../../src/alerts/rule-types.js'
import { AlertRuleRepository } from '../../src/store/alert-rules-repo.js'
import type { Db } from '../../src/store/db.js'
import { secondConnection, storeBackends, TEST_DATABASE_URL, type TestDb } from '../helpers/db.js'
import { describeOrSkip } from '../helpers/skippable-suite.js'
import { waitFor } from '../helpers/wait.js'
import { FakeSpreadSource } from './spread-fixtures.js'

/**
 * The evaluator with its rule sync and outbox writer on a real store (every backend), fed spread changes by a
 * source the test controls, on a simulated clock. Delivery is off (concurrency 0): these tests read the outbox.
 */
const T0 = Date.UTC(2026, 10, 21, 12)
const S = 1_000
const OWNER = { accountId: null, userId: 'user-1' }
const BASE: NewAlertRule = {
  triggerType: 'spread_threshold',
  threshold: 0.05,
  channel: 'webhook',
  target: 'https://hooks.example.com/a',
  scope: {},
  cooldownSeconds: 60,
}
const CONFIG: AlertsConfig = (() => {
  const alerts = loadConfig({ env: { NODE_ENV: 'test' } }).alerts
  return { ...alerts, delivery: { ...alerts.delivery, concurrency: 0 } }
})()

interface Replica {
  readonly service: AlertService
  readonly source: FakeSpreadSource
  readonly rules: AlertRuleRepository
  readonly changes: AlertRuleChanges
}

async function replica(db: Db, clock: SimulatedClock, config: AlertsConfig = CONFIG): Promise<Replica> {
  const changes = new AlertRuleChanges()
  const rules = new AlertRuleRepository(db, changes)
  const source = new FakeSpreadSource()
  const service = new AlertService({ db, source, rules, ruleChanges: changes, clock, log: silentLogger, config })
  await service.start()
  return { service, source, rules, changes }
}

async function deliveries(
  db: Db,
  ruleId?: string,
): Promise<{ dedupe_key: string; pair_key: string; payload: Record<string, unknown> }[]> {
  const { rows } = await db.query<{ dedupe_key: string; pair_key: string; payload: Record<string, unknown> }>(
    'SELECT dedupe_key, pair_key, payload FROM alert_deliveries WHERE $1::uuid IS NULL OR rule_id = $1 ORDER BY seq',
    [ruleId ?? null],
  )
  return rows
}

for (const backend of storeBackends()) {
  describeOrSkip(`alert evaluator on ${backend.name}`, backend.skip, () => {
    let t: TestDb
    let db: Db
    let clock: SimulatedClock
    const running: AlertService[] = []

    const start = async (config?: AlertsConfig, onDb: Db = db) => {
      const r = await replica(onDb, clock, config)
      running.push(r.service)
      return r
    }
    const createRule = async (r: Replica, patch: Partial<NewAlertRule> = {}): Promise<AlertRule> => {
      const out = await r.rules.create(OWNER, { ...BASE, ...patch }, clock.now(), 100)
      assert.equal(out.kind, 'created')
      const rule = (out as { rule: AlertRule }).rule
      await waitFor(() => r.service.evaluator.hasRule(rule.id), 2_000, 'the rule reaches the evaluator')
      return rule
    }
    /** Publishes spreads in order, one change each, then writes what the evaluator decided. */
    const feed = async (r: Replica, event: string, outcome: string, spreads: readonly number[], stepMs = 0) => {
      for (const s of spreads) {
        if (stepMs > 0) clock.increment(stepMs)
        r.source.set(event, outcome, s)
      }
      await r.service.writer.flush()
    }

    before(async () => {
      t = await backend.open()
      db = t.db
    })
    after(() => t.dispose())
    beforeEach(async () => {
      await Promise.all(running.splice(0).map((s) => s.stop()))
      await db.query('TRUNCATE alert_rules, alert_seen_pairs CASCADE')
      clock = new SimulatedClock(T0)
    })

    test('fires once past the threshold; flicker inside the band does not re-fire; a re-crossing inside the cooldown waits for it', async () => {
      const r = await start()
      const rule = await createRule(r, { scope: { event_slug: 'fed' } })
      await feed(r, 'fed', 'yes', [0.03, 0.049])
      assert.equal((await deliveries(db)).length, 0, 'below the threshold')
      await feed(r, 'fed', 'yes', [0.05, 0.049, 0.052, 0.046, 0.07], S)
      assert.deepEqual(
        (await deliveries(db)).map((d) => d.dedupe_key),
        [`${rule.id}:fed|yes:1`],
        'once',
      )
      // Below 0.045 re-arms; the gap reopens 10 s later, inside the 60 s cooldown: held back.
      await feed(r, 'fed', 'yes', [0.044, 0.06, 0.065], 5 * S)
      assert.equal((await deliveries(db)).length, 1, 'not again inside the cooldown')
      assert.equal(r.service.evaluator.counters.deferredByCooldown, 2)
      clock.increment(60 * S)
      await feed(r, 'fed', 'yes', [0.061])
      const rows = await deliveries(db)
      assert.deepEqual(
        rows.map((d) => d.dedupe_key),
        [`${rule.id}:fed|yes:1`, `${rule.id}:fed|yes:2`],
        'the held-back crossing fires after the cooldown',
      )
      assert.deepEqual((rows[1]?.payload.spread as { spread: number }).spread, 0.061)
      assert.equal(rows[1]?.payload.event, 'alert.fired')
    })

    test('a firing shows the record as it fired, though the engine rewrites the record before the outbox writes it', async () => {
      const r = await start()
      const rule = await createRule(r, { scope: { event_slug: 'fed' } })
      // The engine's records are live objects (SpreadRecordValue): rewritten in place, version bumped.
      const live = r.source.set('fed', 'yes', 0.07) as { spread: number; priceB: number; version: number }
      live.spread = 0.01
      live.priceB = 0.41
      live.version++
      await r.service.writer.flush()
      const rows = await deliveries(db, rule.id)
      assert.equal(rows.length, 1)
      assert.deepEqual(
        [
          (rows[0]?.payload.spread as { spread: number }).spread,
          (rows[0]?.payload.spread as { price_b: number }).price_b,
        ],
        [0.07, 0.47],
      )
    })

    test('scope: other events and outcomes, platform, volume and confidence filters, stale feeds and missing prices are not observations', async () => {
      const r = await start()
      const scoped = await createRule(r, {
        scope: {
          event_slug: 'fed',
          outcome_key: 'yes',
          platforms: ['venuep', 'venuek'],
          min_volume: 10_000,
          min_confidence: 0.5,
        },
      })
      const onePlatform = await createRule(r, { scope: { event_slug: 'fed', platforms: ['venuep'] } })
      r.source.set('cpi', 'yes', 0.2)
      r.source.set('fed', 'no', 0.2, { confidence: 0.9 })
      r.source.set('fed', 'yes', 0.2, { minVolume: 9_999 })
      r.source.set('fed', 'yes', 0.2, { minVolume: undefined })
      r.source.set('fed', 'yes', 0.2, { confidence: 0.49 })
      r.source.set('fed', 'yes', 0.2, { feedStale: true })
      r.source.set('fed', 'yes', undefined)
      await r.service.writer.flush()
      assert.equal((await deliveries(db, scoped.id)).length, 0)
      await feed(r, 'fed', 'yes', [0.2])
      assert.equal((await deliveries(db, scoped.id)).length, 1, 'in scope')
      assert.equal((await deliveries(db, onePlatform.id)).length, 0, 'a pair needs both its platforms listed')
    })

    test('a restart resumes: the gap still open does not fire again; a re-crossing after the cooldown does', async () => {
      const first = await start()
      const rule = await createRule(first)
      await feed(first, 'fed', 'yes', [0.08])
      await first.service.stop()
      running.splice(running.indexOf(first.service), 1)
      clock.increment(120 * S)
      const second = await start()
      assert.ok(second.service.evaluator.hasRule(rule.id))
      await feed(second, 'fed', 'yes', [0.09, 0.07], S)
      assert.equal((await deliveries(db)).length, 1, 'the stored state says fired')
      await feed(second, 'fed', 'yes', [0.01, 0.06], S)
      assert.deepEqual(
        (await deliveries(db)).map((d) => d.dedupe_key),
        [`${rule.id}:fed|yes:1`, `${rule.id}:fed|yes:2`],
      )
    })

    test('stop writes the decisions still queued (graceful shutdown before the store closes)', async () => {
      const r = await start()
      await createRule(r)
      r.source.set('fed', 'yes', 0.3)
      r.source.set('cpi', 'yes', 0.01)
      assert.ok(r.service.writer.pending > 0, 'queued, not yet written')
      await r.service.stop()
      assert.equal((await deliveries(db)).length, 1)
    })

    test('two replicas evaluating the same changes deliver once', async () => {
      const otherDb =
        TEST_DATABASE_URL !== undefined && db.kind === 'postgres' ? await secondConnection(db, TEST_DATABASE_URL) : db
      try {
        const a = await start()
        const b = await start(CONFIG, otherDb)
        const rule = await createRule(a, { cooldownSeconds: 60 })
        b.changes.publish(await b.rules.currentVersion())
        await waitFor(() => b.service.evaluator.hasRule(rule.id), 2_000, 'replica b has the rule')
        for (const spread of [0.02, 0.06, 0.07, 0.03, 0.09]) {
          clock.increment(S)
          a.source.set('fed', 'yes', spread)
          b.source.set('fed', 'yes', spread)
        }
        await Promise.all([a.service.writer.flush(), b.service.writer.flush()])
        assert.deepEqual(
          (await deliveries(db)).map((d) => d.dedupe_key),
          [`${rule.id}:fed|yes:1`],
        )
      } finally {
        await Promise.all(running.splice(0).map((s) => s.stop()))
        if (otherDb !== db) await otherDb.close()
      }
    })

    test('pausing stops a rule at once; resuming brings back its stored state', async () => {
      const r = await start()
      const rule = await createRule(r, { cooldownSeconds: 60 })
      await feed(r, 'fed', 'yes', [0.06])
      await r.rules.setStatus(OWNER, rule.id, 'paused', clock.now())
      await waitFor(() => !r.service.evaluator.hasRule(rule.id), 2_000, 'the pause reaches the evaluator')
      await feed(r, 'fed', 'yes', [0.01, 0.2, 0.01, 0.2], 60 * S)
      assert.equal((await deliveries(db)).length, 1, 'a paused rule fires nothing')
      await r.rules.setStatus(OWNER, rule.id, 'active', clock.now())
      await waitFor(() => r.service.evaluator.hasRule(rule.id), 2_000, 'the resume reaches the evaluator')
      await feed(r, 'fed', 'yes', [0.3], S)
      assert.equal((await deliveries(db)).length, 1, 'resumed disarmed, as stored: the gap has to close first')
      await feed(r, 'fed', 'yes', [0.01, 0.3], S)
      assert.equal((await deliveries(db)).length, 2)
    })

    test('a rule created while its gap is already open fires at once', async () => {
      const r = await start()
      r.source.set('fed', 'yes', 0.12)
      r.source.set('fed', 'no', 0.01)
      const rule = await createRule(r, { scope: { event_slug: 'fed' } })
      await r.service.writer.flush()
      assert.deepEqual(
        (await deliveries(db)).map((d) => d.dedupe_key),
        [`${rule.id}:fed|yes:1`],
      )
    })

    test('collapse, expansion and new_pair through the store', async () => {
      const r = await start({ ...CONFIG, newPairSettleMs: 0, newPairWindowMs: 3_600 * S })
      r.source.set('old', 'yes', 0.01)
      await r.service.writer.flush()
      clock.increment(S)
      const collapse = await createRule(r, { triggerType: 'spread_collapse', scope: { event_slug: 'fed' } })
      const expansion = await createRule(r, {
        triggerType: 'spread_expansion',
        threshold: 0.04,
        scope: { event_slug: 'fed' },
      })
      const fresh = await createRule(r, { triggerType: 'new_pair', threshold: 0.02 })
      clock.increment(S)
      await feed(r, 'fed', 'yes', [0.03, 0.08, 0.06, 0.044], S)
      assert.deepEqual(
        (await deliveries(db, collapse.id)).map((d) => d.pair_key),
        ['fed|yes'],
        'collapse: above, then below the band',
      )
      assert.deepEqual(
        (await deliveries(db, expansion.id)).map((d) => d.payload.baseline_spread),
        [0.03],
        'expansion: +0.05 from the 0.03 low',
      )
      assert.deepEqual(
        (await deliveries(db, fresh.id)).map((d) => d.pair_key),
        ['fed|yes'],
        'fed|yes is new; the older pair is not',
      )
      await feed(r, 'old', 'yes', [0.5], S)
      assert.equal((await deliveries(db, fresh.id)).length, 1, 'seen before the rule existed')
      const { rows } = await db.query<{ pair_key: string }>('SELECT pair_key FROM alert_seen_pairs ORDER BY pair_key')
      assert.deepEqual(
        rows.map((x) => x.pair_key),
        ['fed|yes', 'old|yes'],
      )
    })

    test('a full queue refuses decisions; they are derived again from a later change', async () => {
      const r = await start({ ...CONFIG, queueCapacity: 1 })
      await createRule(r, { cooldownSeconds: 60 })
      r.source.set('a', 'x', 0.01)
      r.source.set('fed', 'yes', 0.09)
      assert.equal(r.service.evaluator.counters.refused, 1, 'the sighting took the only slot')
      await r.service.writer.flush()
      assert.equal((await deliveries(db)).length, 0)
      await feed(r, 'fed', 'yes', [0.1], S)
      assert.equal((await deliveries(db)).length, 1, 'fired at the next change')
    })
  })
}
