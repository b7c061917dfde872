import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { startApp, type App } from '../../src/app.js'
import { verifyWebhookSignature } from '../../src/alerts/webhook-signature.js'
import { loadConfig, type DeepPartial } from '../../src/config/load.js'
import type { Config } from '../../src/config/schema.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import type { Contract } from '../../src/sim/world/types.js'
import { storeBackends, type TestDb } from '../helpers/db.js'
import { describeOrSkip } from '../helpers/skippable-suite.js'
import { assertError, assertInvalid, request, type JsonResponse, type RequestOptions } from '../helpers/json-client.js'
import { FakeResolver } from '../helpers/resolver.js'
import { signUp, TEST_ANCHOR_MS, type TestService } from '../helpers/service.js'
import { settle, waitFor } from '../helpers/wait.js'
import {
  startSmtpReceiver,
  startWebhookReceiver,
  type ReceivedHook,
  type SmtpReceiver,
  type WebhookReceiver,
} from './receivers.js'
import { venuekOf } from '../../src/sim/venuek/state.js'

/**
 * Alerts end to end (issue 5): the whole service on the simulator and a SimulatedClock, its store on every
 * backend, delivering to a local HTTP receiver and a real SMTP server on loopback. Spreads move the real way: a
 * dislocation opened in the simulator changes a venue's book, the feed carries it, the engine recomputes, the
 * evaluator fires, the outbox worker delivers.
 */
interface Delivery {
  id: string
  rule_id: string
  event: string
  test: boolean
  status: string
  attempts: number
  created_at: string
  next_attempt_at: string | null
  delivered_at: string | null
  last_error: string | null
  response_status: number | null
  spread: { event_slug: string; outcome_key: string; spread: number } | null
}

const THRESHOLD = 0.1
const S = 1_000
/** Feeds tolerate long quiet stretches: the tests move the clock past cooldowns with little venue activity. */
const QUIET = { staleAfterMs: 3_600_000, probeReplyMs: 3_600_000, snapshotTimeoutMs: 3_600_000 }
const CATALOG = { refreshMs: 7_200_000 }

for (const backend of storeBackends()) {
  describeOrSkip(`alerts end to end on ${backend.name}`, backend.skip, () => {
    let store: TestDb
    let sim: Simulator
    let clock: SimulatedClock
    let app: App
    let key: string
    let hooks: WebhookReceiver
    let smtp: SmtpReceiver
    let pair: { eventSlug: string; outcomeKey: string; key: string; contract: Contract }

    const boot = async (alerts: DeepPartial<Config['alerts']> = {}) => {
      const overrides: DeepPartial<Config> = {
        venues: { venuep: { feed: QUIET, catalog: CATALOG }, venuek: { feed: QUIET, catalog: CATALOG } },
        alerts: {
          ...alerts,
          delivery: {
            backoffBaseMs: 1_000,
            backoffMaxMs: 4_000,
            maxAttempts: 3,
            pollMs: 500,
            shutdownGraceMs: 300,
            ...alerts.delivery,
          },
          // The webhook receiver is on loopback, which the default policy refuses.
          webhook: { allowedCidrs: ['127.0.0.0/8'], ...alerts.webhook },
          smtp: { host: '127.0.0.1', port: smtp.port, from: 'Spread alerts <alerts@predmkt.test>', ...alerts.smtp },
        },
      }
      const config = loadConfig({ env: { NODE_ENV: 'test' }, overrides })
      app = await startApp({
        config,
        log: silentLogger,
        clock,
        simulator: sim,
        db: store.db,
        resolveHost: new FakeResolver().resolve,
      })
      await waitFor(() => app.venues.venuep.ready && app.venues.venuek.ready, 15_000, 'both venues ready')
      await waitFor(() => app.spreads.pairCount > 10, 10_000, 'matched pairs')
    }
    const service = () => ({ baseUrl: `http://127.0.0.1:${app.port}`, app }) as unknown as TestService
    const alerts = (path: string, o: RequestOptions & { user?: string } = {}): Promise<JsonResponse> => {
      const { user, ...rest } = o
      return request(service(), `/api/v2/alerts${path}`, {
        key,
        ...rest,
        headers: { ...rest.headers, 'x-user-id': user ?? 'trader-1' },
      })
    }
    const createRule = async (
      body: Record<string, unknown>,
    ): Promise<{ id: string; signing_secret?: string; delivery_status: Record<string, unknown> }> => {
      const r = await alerts('', {
        body: {
          trigger_type: 'spread_threshold',
          threshold: THRESHOLD,
          cooldown_seconds: 60,
          scope: { event_slug: pair.eventSlug, outcome_key: pair.outcomeKey },
          ...body,
        },
        operationId: 'createAlert',
      })
      assert.equal(r.status, 201, JSON.stringify(r.body))
      const rule = r.body as { id: string; signing_secret?: string; delivery_status: Record<string, unknown> }
      await waitFor(() => app.alerts.evaluator.hasRule(rule.id), 5_000, 'the rule reaches the evaluator')
      return rule
    }
    const log = async (ruleId: string, query = ''): Promise<Delivery[]> => {
      const r = await alerts(`/${ruleId}/deliveries${query}`, { operationId: 'listAlertDeliveries' })
      assert.equal(r.status, 200, JSON.stringify(r.body))
      return (r.body as { deliveries: Delivery[] }).deliveries
    }
    const spreadNow = () => app.spreads.record(pair.key)?.spread ?? 0
    const venuekMarkets = () =>
      venuekOf(sim.world)
        .questionEvents.get(pair.contract.questionId)
        ?.markets.filter((m) => m.contract.key === pair.contract.key) ?? []
    /** venuek quotes the pair far above fair value (logit offset): a gap of tens of points opens. */
    let offset = 1.5
    const openGap = async () => {
      sim.world.dislocations.delete(pair.contract.key)
      sim.engine.openDislocation(pair.contract, 'venuek', offset, 3_600_000, clock.now())
      await waitFor(() => spreadNow() >= THRESHOLD + 0.05, 5_000, 'the gap reaches the engine')
    }
    const closeGap = async () => {
      sim.world.dislocations.delete(pair.contract.key)
      for (const m of venuekMarkets()) sim.engine.moveBook('venuek', m, clock.now())
      await waitFor(() => spreadNow() < THRESHOLD - 0.01, 5_000, 'the gap closes in the engine')
    }
    /** A new quote on the pair: the open gap widens a little (the record changes; the rule's condition still holds). */
    const touch = async () => {
      const before = spreadNow()
      clock.increment(S)
      offset += 0.1
      await openGap()
      await waitFor(() => spreadNow() !== before, 5_000, 'the quote reaches the engine')
    }
    /** Moves simulated time in 1 s steps, letting sockets and the store catch up. */
    const pass = async (ms: number) => {
      for (let t = 0; t < ms; t += S) {
        clock.increment(S)
        await settle(2)
      }
    }
    const quiesce = async () => {
      await app.alerts.writer.flush()
      await app.alerts.worker.idle()
    }
    const hooksFor = (ruleId: string): ReceivedHook[] =>
      hooks.requests.filter((h) => (JSON.parse(h.body) as { rule: { id: string } }).rule.id === ruleId)

    before(async () => {
      store = await backend.open()
      clock = new SimulatedClock(TEST_ANCHOR_MS)
      hooks = await startWebhookReceiver()
      smtp = await startSmtpReceiver()
      const base = loadConfig({ env: { NODE_ENV: 'test' } })
      sim = await startSimulator({
        config: { ...base.sim, questions: 120, wallets: 10 },
        clock,
        anchorMs: TEST_ANCHOR_MS,
        startEngine: false,
      })
      await boot()
      key = await signUp(`http://127.0.0.1:${app.port}`, 'alerts-e2e@example.com')
      // A mid-priced contract listed on both venues, so a dislocation moves its price by many points.
      const truth = sim.world.truth.outcomePairs.find((p) => {
        const q = sim.world.questionsById.get(p.questionId)
        const c = q?.contracts.find((x) => x.key === p.contractKey)
        if (q === undefined || c === undefined || q.lifecycle !== 'active' || q.kind === 'binary') return false
        const fair = sim.world.venueFair(c, 'venuek', clock.now())
        return (
          fair > 0.3 &&
          fair < 0.55 &&
          app.spreads
            .eventRecords(p.a.event)
            .some((r) => app.spreads.spec(r.key)?.b.outcome.instrumentId === p.b.outcome && r.spread < 0.05)
        )
      })
      assert.ok(truth !== undefined, 'a suitable pair in the simulated world')
      const record = app.spreads
        .eventRecords(truth.a.event)
        .find((r) => app.spreads.spec(r.key)?.b.outcome.instrumentId === truth.b.outcome)!
      const contract = sim.world.questionsById
        .get(truth.questionId)!
        .contracts.find((c) => c.key === truth.contractKey)!
      pair = { eventSlug: record.eventSlug, outcomeKey: record.outcomeKey, key: record.key, contract }
    })

    after(async () => {
      await app?.close()
      await sim?.close()
      await hooks?.close()
      await smtp?.close()
      await store?.dispose()
    })

    test('a webhook fires once past the threshold, signed; not again inside the cooldown; then the held-back crossing', async () => {
      const rule = await createRule({ channel: 'webhook', target: hooks.url })
      assert.match(rule.signing_secret ?? '', /^whsec_[0-9a-f]{64}$/, 'the secret is shown once, at creation')
      assert.equal((await alerts(`/${rule.id}`)).body.signing_secret, undefined, 'and never again')
      await openGap()
      await waitFor(() => hooksFor(rule.id).length === 1, 5_000, 'the webhook arrives')
      const hook = hooksFor(rule.id)[0]!
      const body = JSON.parse(hook.body) as Record<string, unknown> & {
        spread: { event_slug: string; outcome_key: string; spread: number; platform_b: string }
      }
      assert.equal(
        verifyWebhookSignature(
          rule.signing_secret!,
          hook.headers['x-alert-timestamp'] as string,
          hook.headers['x-alert-signature'] as string,
          hook.body,
          clock.now() / 1000,
        ),
        'valid',
      )
      assert.deepEqual(
        [
          hook.headers['content-type'],
          hook.headers['x-alert-event'],
          hook.headers['x-alert-attempt'],
          hook.headers['x-alert-delivery-id'],
        ],
        ['application/json', 'alert.fired', '1', body.id],
      )
      assert.deepEqual([body.event, body.test, (body.rule as { id: string }).id], ['alert.fired', false, rule.id])
      assert.equal(body.dedupe_key, `${rule.id}:${pair.key}:1`)
      assert.deepEqual(
        [body.spread.event_slug, body.spread.outcome_key, body.spread.platform_b],
        [pair.eventSlug, pair.outcomeKey, 'venuek'],
      )
      assert.ok(body.spread.spread >= THRESHOLD)

      // The gap closes (re-arming the rule) and reopens within the 60 s cooldown: nothing is sent.
      await closeGap()
      clock.increment(10 * S)
      await openGap()
      await touch()
      await quiesce()
      assert.equal(hooksFor(rule.id).length, 1, 'not again inside the cooldown')
      const entries = await log(rule.id)
      assert.deepEqual(
        entries.map((d) => [d.status, d.attempts, d.event, d.test]),
        [['delivered', 1, 'alert.fired', false]],
      )
      assert.equal(entries[0]?.id, body.id)
      assert.equal(entries[0]?.response_status, 200)
      assert.deepEqual(
        [entries[0]?.spread?.event_slug, entries[0]?.spread?.outcome_key],
        [pair.eventSlug, pair.outcomeKey],
      )

      // Past the cooldown, the first change of the still-open gap fires the crossing that was held back.
      await pass(60 * S)
      await touch()
      await waitFor(() => hooksFor(rule.id).length === 2, 5_000, 'the held-back crossing')
      assert.equal(
        (JSON.parse(hooksFor(rule.id)[1]!.body) as { dedupe_key: string }).dedupe_key,
        `${rule.id}:${pair.key}:2`,
      )
      await alerts(`/${rule.id}`, { method: 'DELETE' })
    })

    test('e-mail arrives over SMTP with the expected subject and body', async () => {
      // The gap is open: a rule created now fires at once.
      const rule = await createRule({ channel: 'email', target: 'trader@example.com' })
      assert.equal(rule.signing_secret, undefined, 'e-mail rules have no signing secret')
      assert.deepEqual(rule.delivery_status, { ready: true }, 'an SMTP server is configured')
      await waitFor(() => smtp.messages.some((m) => m.text.includes(rule.id)), 5_000, 'the e-mail arrives')
      const mail = smtp.messages.find((m) => m.text.includes(rule.id))!
      const record = app.spreads.record(pair.key)!
      assert.deepEqual([mail.from, mail.to], ['alerts@predmkt.test', ['trader@example.com']])
      assert.match(mail.subject, /^Spread alert: .+ at \d+\.\d pts, threshold 10\.0$/)
      assert.ok(mail.subject.includes(record.outcomeTitle), mail.subject)
      assert.match(mail.text, new RegExp(`^Alert rule ${rule.id} \\(spread_threshold, threshold 0\\.1\\) fired at `))
      assert.ok(mail.text.includes(`Event:      ${record.eventTitle} (${pair.eventSlug})`), mail.text)
      assert.ok(mail.text.includes(`Outcome:    ${record.outcomeTitle} (${pair.outcomeKey})`), mail.text)
      assert.ok(mail.text.includes(`Dedupe key:  ${rule.id}:${pair.key}:1`), mail.text)
      await quiesce()
      const entries = await log(rule.id)
      assert.deepEqual(
        entries.map((d) => [d.status, d.attempts, d.response_status]),
        [['delivered', 1, null]],
      )
      assert.equal(mail.headers['x-alert-delivery-id'], entries[0]?.id)
      await alerts(`/${rule.id}`, { method: 'DELETE' })
    })

    test('a failing webhook is retried with backoff, then marked failed', async () => {
      hooks.respondWith(500)
      try {
        const rule = await createRule({ channel: 'webhook', target: `${hooks.url}?failing=1` })
        await waitFor(() => hooksFor(rule.id).length === 1, 5_000, 'the first attempt')
        await quiesce()
        let [entry] = await log(rule.id)
        assert.deepEqual(
          [entry?.status, entry?.attempts, entry?.last_error, entry?.response_status],
          ['pending', 1, 'HTTP 500: receiver says no', 500],
        )
        const wait = Date.parse(entry!.next_attempt_at!) - clock.now()
        assert.ok(wait >= 500 && wait <= 1_000, `first retry after 0.5–1 s of backoff, got ${wait} ms`)
        await pass(S)
        await waitFor(() => hooksFor(rule.id).length === 2, 5_000, 'the second attempt')
        await quiesce()
        ;[entry] = await log(rule.id)
        const wait2 = Date.parse(entry!.next_attempt_at!) - clock.now()
        assert.ok(wait2 >= 1_000 && wait2 <= 2_000, `second retry after 1–2 s, got ${wait2} ms`)
        await pass(2 * S)
        await waitFor(() => hooksFor(rule.id).length === 3, 5_000, 'the third and last attempt')
        await quiesce()
        ;[entry] = await log(rule.id)
        assert.deepEqual(
          [entry?.status, entry?.attempts, entry?.last_error, entry?.next_attempt_at, entry?.delivered_at],
          ['failed', 3, 'HTTP 500: receiver says no', null, null],
        )
        await pass(10 * S)
        await quiesce()
        const attempts = hooksFor(rule.id)
        assert.equal(attempts.length, 3, 'no attempt after the last')
        assert.deepEqual(
          attempts.map((h) => h.headers['x-alert-attempt']),
          ['1', '2', '3'],
        )
        assert.equal(
          new Set(attempts.map((h) => h.headers['x-alert-delivery-id'])).size,
          1,
          'one delivery, three attempts',
        )
        assert.equal(new Set(attempts.map((h) => h.body)).size, 1, 'the same body every time')
        for (const h of attempts)
          assert.equal(
            verifyWebhookSignature(
              rule.signing_secret!,
              h.headers['x-alert-timestamp'] as string,
              h.headers['x-alert-signature'] as string,
              h.body,
              clock.now() / 1000,
            ),
            'valid',
          )
        assert.deepEqual((await log(rule.id, '?status=failed')).length, 1)
        assert.deepEqual((await log(rule.id, '?status=delivered')).length, 0)
        await alerts(`/${rule.id}`, { method: 'DELETE' })
      } finally {
        hooks.respondWith(200)
      }
    })

    test('the test endpoint sends one test delivery; owners and parameters are checked', async () => {
      const rule = await createRule({
        channel: 'webhook',
        target: `${hooks.url}?test=1`,
        scope: { event_slug: pair.eventSlug },
      })
      await waitFor(() => hooksFor(rule.id).length === 1, 5_000, 'the firing (the gap is open)')
      const r = await alerts(`/${rule.id}/test`, { method: 'POST', operationId: 'testAlert' })
      assert.equal(r.status, 202, JSON.stringify(r.body))
      const queued = r.body as unknown as Delivery
      assert.deepEqual([queued.event, queued.test, queued.status, queued.attempts], ['alert.test', true, 'pending', 0])
      await waitFor(() => hooksFor(rule.id).length === 2, 5_000, 'the test delivery')
      const hook = hooksFor(rule.id)[1]!
      const body = JSON.parse(hook.body) as {
        id: string
        event: string
        test: boolean
        spread: { event_slug: string } | null
      }
      assert.deepEqual(
        [body.id, body.event, body.test, body.spread?.event_slug],
        [queued.id, 'alert.test', true, pair.eventSlug],
      )
      assert.equal(hook.headers['x-alert-event'], 'alert.test')
      await quiesce()
      const entries = await log(rule.id)
      assert.deepEqual(
        entries.map((d) => [d.event, d.status]),
        [
          ['alert.test', 'delivered'],
          ['alert.fired', 'delivered'],
        ],
        'newest first',
      )
      assert.deepEqual(
        (await log(rule.id, '?limit=1&offset=1')).map((d) => d.event),
        ['alert.fired'],
      )

      // The secret can be rotated; the next delivery is signed with the new one.
      const rotated = await alerts(`/${rule.id}/signing-secret`, {
        method: 'POST',
        operationId: 'rotateAlertSigningSecret',
      })
      assert.equal(rotated.status, 200)
      const secret = (rotated.body as { signing_secret: string }).signing_secret
      assert.notEqual(secret, rule.signing_secret)
      await alerts(`/${rule.id}/test`, { method: 'POST' })
      await waitFor(() => hooksFor(rule.id).length === 3, 5_000, 'the second test delivery')
      const third = hooksFor(rule.id)[2]!
      assert.equal(
        verifyWebhookSignature(
          secret,
          third.headers['x-alert-timestamp'] as string,
          third.headers['x-alert-signature'] as string,
          third.body,
          clock.now() / 1000,
        ),
        'valid',
      )

      for (const path of [`/${rule.id}/test`, `/${rule.id}/deliveries`, `/${rule.id}/signing-secret`]) {
        const method = path.endsWith('deliveries') ? 'GET' : 'POST'
        assertError(await alerts(path, { method, user: 'someone-else' }), 404, 'not_found')
        assertError(await alerts(path, { method, key: undefined }), 401, 'unauthorized')
      }
      const email = await createRule({ channel: 'email', target: 'desk@example.com', threshold: 0.9 })
      assertError(
        await alerts(`/${email.id}/signing-secret`, { method: 'POST', operationId: 'rotateAlertSigningSecret' }),
        409,
        'conflict',
      )
      assertInvalid(await alerts('/not-a-uuid/test', { method: 'POST' }), [['path', 'id']])
      assertInvalid(await alerts(`/${rule.id}/deliveries?limit=0&status=lost`), [
        ['query', 'limit'],
        ['query', 'status'],
      ])
      assertInvalid(await alerts(`/${rule.id}/deliveries?offset=-1`), [['query', 'offset']])
      await alerts(`/${rule.id}`, { method: 'DELETE' })
      await alerts(`/${email.id}`, { method: 'DELETE' })
    })

    test('survives a restart between firing and delivery: exactly one delivery, no second firing', async () => {
      // 1. A replica that evaluates but does not deliver records the firing, and stops.
      await app.close()
      await boot({ delivery: { concurrency: 0 } })
      const rule = await createRule({ channel: 'webhook', target: `${hooks.url}?restart=1` })
      await app.alerts.writer.flush()
      const { rows } = await store.db.query<{ status: string }>(
        'SELECT status FROM alert_deliveries WHERE rule_id = $1',
        [rule.id],
      )
      assert.deepEqual(
        rows.map((r) => r.status),
        ['pending'],
        'in the outbox, not delivered',
      )
      await app.close()
      assert.equal(hooksFor(rule.id).length, 0)

      // 2. A replica whose receiver hangs: the delivery is in flight at shutdown and handed back.
      hooks.respondWith('hang')
      await boot()
      await waitFor(() => hooksFor(rule.id).length === 1, 5_000, 'an attempt in flight')
      await app.close()
      const handed = await store.db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM alert_deliveries WHERE rule_id = $1',
        [rule.id],
      )
      assert.deepEqual(
        handed.rows.map((r) => [r.status, r.attempts]),
        [['pending', 0]],
        'aborted at shutdown, handed back, the attempt not counted',
      )

      // 3. The next replica delivers it, and the open gap does not fire again.
      hooks.respondWith(200)
      await boot()
      await waitFor(() => hooksFor(rule.id).length === 2, 5_000, 'delivered after the restart')
      await touch()
      await pass(5 * S)
      await touch()
      await quiesce()
      const entries = await log(rule.id)
      assert.deepEqual(
        entries.map((d) => [d.status, d.attempts]),
        [['delivered', 1]],
        'one firing, delivered once',
      )
      assert.equal(new Set(hooksFor(rule.id).map((h) => h.headers['x-alert-delivery-id'])).size, 1)
    })

    test('without an SMTP server, e-mail deliveries fail at once with smtp_not_configured', async () => {
      await app.close()
      await boot({ smtp: { host: undefined } })
      const rule = await createRule({ channel: 'email', target: 'nobody@example.com', threshold: 0.9 })
      assert.equal(rule.delivery_status.ready, false, 'the create answer says so')
      const r = await alerts(`/${rule.id}/test`, { method: 'POST', operationId: 'testAlert' })
      assert.equal(r.status, 202)
      await quiesce()
      const [entry] = await log(rule.id)
      assert.equal(entry?.status, 'failed')
      assert.equal(entry?.attempts, 1)
      assert.match(entry?.last_error ?? '', /^smtp_not_configured: /)
    })
  })
}
