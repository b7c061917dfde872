import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { AlertService } from '../../../../src/alerts/alert-service.js'
import type { AlertRule, NewAlertRule } from '../../../../src/alerts/rule-types.js'
import { loadConfig } from '../../../../src/config/load.js'
import type { AlertsConfig } from '../../../../src/config/schema.js'
import { SimulatedClock } from '../../../../src/core/clock.js'
import { silentLogger } from '../../../../src/core/logger.js'
import { AlertRuleChanges } from '../../../../src/store/alert-rule-changes.js'
import { AlertRuleRepository } from '../../../../src/store/alert-rules-repo.js'
import type { Db } from '../../../../src/store/db.js'
import type { Rejection } from '../../../../src/stream/protocol.js'
import { Sequencer, streamId, type StreamId } from '../../../../src/stream/sequencer.js'
import { AlertsSource } from '../../../../src/stream/sources/spreads/alerts-source.js'
import { RecentFirings } from '../../../../src/stream/sources/spreads/recent-firings.js'
import { FakeSpreadSource } from '../../../alerts/spread-fixtures.js'
import { storeBackends, type TestDb } from '../../../helpers/db.js'
import { waitFor } from '../../../helpers/wait.js'
import { RecordingSink, T0 } from './fixtures.js'

/**
 * The `alerts` source on a real store (PGlite) and a real alert service fed spread changes by a source the test
 * controls: firings reach the account's stream as the outbox commits them, a snapshot is the outbox's recent
 * firings (loaded at boot), and no account sees another's.
 */
const A = '00000000-0000-4000-8000-00000000000a'
const B = '00000000-0000-4000-8000-00000000000b'
const RULE: NewAlertRule = {
  triggerType: 'spread_threshold',
  threshold: 0.05,
  channel: 'webhook',
  target: 'https://hooks.example.com/a',
  scope: {},
  cooldownSeconds: 0,
}
const CONFIG: AlertsConfig = (() => {
  const alerts = loadConfig({ env: { NODE_ENV: 'test' } }).alerts
  return { ...alerts, delivery: { ...alerts.delivery, concurrency: 0 } }
})()

describe('stream source: alerts', () => {
  let t: TestDb
  let db: Db
  const clock = new SimulatedClock(T0)

  before(async () => {
    t = await (storeBackends()[0] as { open: () => Promise<TestDb> }).open()
    db = t.db
    for (const id of [A, B])
      await db.query(`INSERT INTO accounts (id, email, company, use_case) VALUES ($1, $2, 'c', 'u')`, [
        id,
        `${id}@x.io`,
      ])
  })
  after(() => t.dispose())

  async function service() {
    const changes = new AlertRuleChanges()
    const rules = new AlertRuleRepository(db, changes)
    const spreads = new FakeSpreadSource()
    const alerts = new AlertService({
      db,
      source: spreads,
      rules,
      ruleChanges: changes,
      clock,
      log: silentLogger,
      config: CONFIG,
    })
    await alerts.start()
    const rule = async (accountId: string, eventSlug: string): Promise<AlertRule> => {
      const out = await rules.create(
        { accountId, userId: 'u1' },
        { ...RULE, scope: { event_slug: eventSlug } },
        clock.now(),
        100,
      )
      const created = (out as { rule: AlertRule }).rule
      await waitFor(() => alerts.evaluator.hasRule(created.id), 2_000, 'the rule reaches the evaluator')
      return created
    }
    return { alerts, spreads, rule }
  }

  async function payloads(accountId: string): Promise<Record<string, unknown>[]> {
    const { rows } = await db.query<{ payload: Record<string, unknown> }>(
      'SELECT d.payload FROM alert_deliveries d JOIN alert_rules r ON r.id = d.rule_id WHERE r.account_id = $1 ORDER BY d.seq',
      [accountId],
    )
    return rows.map((r) => r.payload)
  }

  test("a snapshot is the account's recent firings from the store; deltas are its new firings, with their delivery ids", async () => {
    // A firing recorded before this process (another run): the boot load finds it.
    const before = await service()
    await before.rule(A, 'fed')
    before.spreads.set('fed', 'yes', 0.07)
    await before.alerts.writer.flush()
    await before.alerts.stop()
    const [earlier] = await payloads(A)
    assert.ok(earlier !== undefined)

    const recent = new RecentFirings()
    await recent.load(db)
    const { alerts, spreads, rule } = await service()
    const sink = new RecordingSink()
    const sequencer = new Sequencer({ clock, sink, epoch: 'e1' })
    const source = new AlertsSource({ sequencer, recent, firings: alerts })
    try {
      assert.deepEqual(source.resolve('me', { accountId: A }), streamId('alerts', A))
      assert.deepEqual(source.resolve(A, { accountId: A }), streamId('alerts', A))
      assert.deepEqual(source.resolve(B, { accountId: A }), {
        key: B,
        code: 'UNKNOWN_KEY',
        reason: "only the caller's own alerts: use `me` (or your account id)",
      })
      assert.equal((source.resolve('me', {}) as Rejection).code, 'UNKNOWN_KEY')

      const log = sequencer.open(source.resolve('me', { accountId: A }) as StreamId)
      source.open(log)
      assert.deepEqual(JSON.parse(source.snapshot(log)), {
        type: 'snapshot',
        ch: 'alerts',
        key: A,
        epoch: 'e1.0',
        seq: 0,
        ts: T0,
        lts: T0,
        pts: T0,
        d: { firings: [earlier] },
      })

      await rule(A, 'cpi')
      await rule(B, 'gdp')
      clock.increment(5_000)
      spreads.set('cpi', 'yes', 0.08)
      spreads.set('gdp', 'yes', 0.09)
      await alerts.writer.flush()
      const [, fired] = await payloads(A)
      assert.equal(fired?.event, 'alert.fired')
      assert.equal((fired?.spread as { event_slug: string }).event_slug, 'cpi')
      assert.deepEqual(
        sink.frames.map((f) => f.topic),
        [`alerts|${A}`],
        "B's firing is not on A's stream",
      )
      assert.deepEqual(sink.frames[0]?.frame, {
        type: 'delta',
        ch: 'alerts',
        key: A,
        epoch: 'e1.0',
        seq: 1,
        ts: T0 + 5_000,
        lts: T0 + 5_000,
        pts: T0 + 5_000,
        d: fired,
      })
      assert.deepEqual(JSON.parse(source.snapshot(log)).d, { firings: [earlier, fired] })
      assert.deepEqual(
        recent.of(B).map((f) => f.payload),
        await payloads(B),
        "B's firings are kept for B's stream",
      )
      // The resume window replays the delta with its seq.
      assert.deepEqual(
        sequencer.replay(log, 'e1.0', 0)?.map((f) => JSON.parse(f) as unknown),
        [sink.frames[0]?.frame],
      )
    } finally {
      source.dispose()
      await alerts.stop()
    }
  })
})
