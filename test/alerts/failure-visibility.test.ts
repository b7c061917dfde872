import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { request, type JsonResponse, type RequestOptions } from '../helpers/json-client.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { startWebhookReceiver, type WebhookReceiver } from './receivers.js'

/**
 * Failed deliveries are visible to the operator, not only in a user's delivery log: the service warns at boot when
 * e-mail cannot be delivered, and logs every failed attempt at warn (rule, delivery, channel, target host,
 * attempt, whether it is retried, cause). The whole service, its log read through the checked logger (every
 * line parsed, a duplicate key fails the suite); no SMTP server is configured, and loopback webhooks are allowed.
 */
let s: TestService
let hooks: WebhookReceiver

const MAX_ATTEMPTS = 2
/** A scope no pair matches: these rules never fire on their own, only through test deliveries. */
const QUIET_RULE = { trigger_type: 'spread_threshold', threshold: 1, scope: { event_slug: 'no-such-event' } }

before(async () => {
  hooks = await startWebhookReceiver()
  s = await startTestService({
    questions: 40,
    config: {
      alerts: {
        webhook: { allowedCidrs: ['127.0.0.1/32'] },
        delivery: { maxAttempts: MAX_ATTEMPTS, backoffBaseMs: 1_000, backoffMaxMs: 1_000, pollMs: 200 },
      },
    },
  })
})
after(async () => {
  await s.close()
  await hooks.close()
})

function alerts(path: string, o: RequestOptions = {}): Promise<JsonResponse> {
  return request(s, `/api/v2/alerts${path}`, {
    key: s.apiKey,
    ...o,
    headers: { ...o.headers, 'x-user-id': 'ops-user' },
  })
}

async function createRule(body: Record<string, unknown>): Promise<string> {
  const r = await alerts('', { body: { ...QUIET_RULE, ...body }, operationId: 'createAlert' })
  assert.equal(r.status, 201, JSON.stringify(r.body))
  return (r.body as { id: string }).id
}

/** Queues a test delivery of the rule and waits until its attempt is recorded; returns the delivery id. */
async function sendTest(ruleId: string): Promise<string> {
  const r = await alerts(`/${ruleId}/test`, { method: 'POST', operationId: 'testAlert' })
  assert.equal(r.status, 202, JSON.stringify(r.body))
  await s.app.alerts.worker.idle()
  return (r.body as { id: string }).id
}

/** The warn lines about a rule, without the fields every line has (time, pid, hostname). */
function warningsAbout(ruleId: string): Record<string, unknown>[] {
  return s.logs
    .warnings()
    .filter((w) => w.rule_id === ruleId)
    .map(({ time: _time, pid: _pid, hostname: _hostname, ...rest }) => rest)
}

const ISO_NO_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/

describe('failures the operator can see', () => {
  test('at boot: a warning that e-mail rules are accepted but not delivered until SMTP is configured', () => {
    const boot = s.logs.warnings().filter((w) => w.smtp_configured === false)
    assert.deepEqual(
      boot.map(({ time: _time, pid: _pid, hostname: _hostname, ...rest }) => rest),
      [
        {
          level: 40,
          name: 'predmkt',
          component: 'alerts',
          smtp_configured: false,
          msg:
            'e-mail alerts are not configured: e-mail rules are accepted, but every e-mail delivery fails with smtp_not_configured ' +
            'until SMTP_URL is set (smtp://user:password@host:587 or smtps://…:465; sender address: SMTP_FROM)',
        },
      ],
    )
  })

  test('an e-mail delivery without SMTP: one warn line, not retried, the address shown only by its domain', async () => {
    const ruleId = await createRule({ channel: 'email', target: 'desk@trading.example.com' })
    const deliveryId = await sendTest(ruleId)
    assert.deepEqual(warningsAbout(ruleId), [
      {
        level: 40,
        name: 'predmkt',
        component: 'alerts',
        part: 'delivery',
        rule_id: ruleId,
        delivery_id: deliveryId,
        channel: 'email',
        target_host: 'trading.example.com',
        test_delivery: true,
        attempt: 1,
        max_attempts: MAX_ATTEMPTS,
        will_retry: false,
        cause: 'smtp_not_configured: no SMTP server is configured (alerts.smtp.url or alerts.smtp.host; SMTP_URL)',
        msg: 'alert delivery failed: not retried (retrying cannot help)',
      },
    ])
  })

  test('a webhook answering 500: a line per attempt, the first retried, the last giving up; the URL shown only by host:port', async () => {
    hooks.respondWith(500)
    const target = `${hooks.url}?token=do-not-log-me`
    const host = new URL(hooks.url).host
    const ruleId = await createRule({ channel: 'webhook', target })
    const deliveryId = await sendTest(ruleId)
    const [first] = warningsAbout(ruleId)
    assert.match(String(first?.next_attempt_at), ISO_NO_ZONE)
    const common = {
      level: 40,
      name: 'predmkt',
      component: 'alerts',
      part: 'delivery',
      rule_id: ruleId,
      delivery_id: deliveryId,
      channel: 'webhook',
      target_host: host,
      test_delivery: true,
      max_attempts: MAX_ATTEMPTS,
      response_status: 500,
      cause: 'HTTP 500: receiver says no',
    }
    assert.deepEqual(first, {
      ...common,
      attempt: 1,
      will_retry: true,
      next_attempt_at: first?.next_attempt_at,
      msg: 'alert delivery attempt failed; retrying',
    })
    // The retry is due within the backoff (1 s); the worker's poll claims it.
    s.clock.increment(1_200)
    await waitForAttempts(ruleId, 2)
    assert.deepEqual(warningsAbout(ruleId)[1], {
      ...common,
      attempt: 2,
      will_retry: false,
      msg: 'alert delivery failed: no attempts left',
    })
    assert.equal(hooks.requests.length, 2)
    for (const w of s.logs.warnings())
      assert.ok(!JSON.stringify(w).includes('do-not-log-me'), "the URL's query never reaches the log")
    hooks.respondWith(200)
  })

  test('a webhook host that stopped resolving (ENOTFOUND): logged and retried', async () => {
    s.resolver.set('gone.example.com', '93.184.215.14')
    const ruleId = await createRule({ channel: 'webhook', target: 'https://gone.example.com/hooks/spreads' })
    s.resolver.fail('gone.example.com', 'ENOTFOUND')
    const deliveryId = await sendTest(ruleId)
    const [line] = warningsAbout(ruleId)
    assert.deepEqual(line, {
      level: 40,
      name: 'predmkt',
      component: 'alerts',
      part: 'delivery',
      rule_id: ruleId,
      delivery_id: deliveryId,
      channel: 'webhook',
      target_host: 'gone.example.com',
      test_delivery: true,
      attempt: 1,
      max_attempts: MAX_ATTEMPTS,
      will_retry: true,
      next_attempt_at: line?.next_attempt_at,
      cause: 'dns: gone.example.com does not resolve to any address (ENOTFOUND)',
      msg: 'alert delivery attempt failed; retrying',
    })
    assert.match(String(line?.next_attempt_at), ISO_NO_ZONE)
  })

  test('a webhook host that now resolves into a refused network: logged once, not retried', async () => {
    s.resolver.set('moved.example.com', '93.184.215.14')
    const ruleId = await createRule({ channel: 'webhook', target: 'https://moved.example.com/hooks' })
    s.resolver.set('moved.example.com', '10.0.0.7')
    const deliveryId = await sendTest(ruleId)
    assert.deepEqual(warningsAbout(ruleId), [
      {
        level: 40,
        name: 'predmkt',
        component: 'alerts',
        part: 'delivery',
        rule_id: ruleId,
        delivery_id: deliveryId,
        channel: 'webhook',
        target_host: 'moved.example.com',
        test_delivery: true,
        attempt: 1,
        max_attempts: MAX_ATTEMPTS,
        will_retry: false,
        cause:
          'target_not_allowed: moved.example.com resolves to a private address; webhooks are delivered only to public addresses',
        msg: 'alert delivery failed: not retried (retrying cannot help)',
      },
    ])
  })

  test('a delivered webhook logs no warning', async () => {
    const ruleId = await createRule({ channel: 'webhook', target: hooks.url })
    await sendTest(ruleId)
    assert.equal(hooks.requests.at(-1)?.headers['x-alert-event'], 'alert.test')
    assert.deepEqual(warningsAbout(ruleId), [])
  })
})

/** Waits (real time: the claim and the POST are I/O) until the rule's delivery warnings number `n`. */
async function waitForAttempts(ruleId: string, n: number): Promise<void> {
  const deadline = Date.now() + 5_000
  while (warningsAbout(ruleId).length < n) {
    if (Date.now() > deadline) throw new Error(`only ${warningsAbout(ruleId).length} of ${n} failed attempts logged`)
    await new Promise((r) => setTimeout(r, 10))
  }
  await s.app.alerts.worker.idle()
}
