import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { countRows, INJECTIONS } from '../store/scan.js'
import { assertError, assertInvalid, request, type JsonResponse, type RequestOptions } from '../helpers/json-client.js'
import { signUp, startTestService, type TestService } from '../helpers/service.js'
import { startWebhookReceiver } from '../alerts/receivers.js'

/**
 * Alert-rule CRUD through HTTP (auth on, in-memory PGlite): every rejection is a clear 4xx and leaves the
 * alert_rules table as it was.
 */
let s: TestService
let key: string

before(async () => {
  s = await startTestService({ questions: 40 })
  key = s.apiKey as string
})
after(() => s.close())

interface Rule {
  id: string
  user_id: string
  trigger_type: string
  threshold: number
  channel: string
  target: string
  scope: Record<string, unknown>
  cooldown_seconds: number
  status: string
  created_at: string
  updated_at: string
}

/** What `POST /alerts` says of an e-mail rule on this deployment: the test service has no SMTP server. */
const EMAIL_NOT_READY = {
  ready: false,
  reason: 'smtp_not_configured',
  message:
    'This deployment has no SMTP server configured: the rule is stored and evaluated, but its e-mail deliveries fail ' +
    '(`smtp_not_configured` in GET /api/v2/alerts/{id}/deliveries) until the operator configures one.',
}

/** The rule as GET returns it: the create answer without what only creation says. */
function stored(created: Record<string, unknown>): Record<string, unknown> {
  const { delivery_status: _status, signing_secret: _secret, ...rule } = created
  return rule
}

const VALID = {
  trigger_type: 'spread_threshold',
  threshold: 0.05,
  channel: 'email',
  target: 'ops@example.com',
  scope: { platforms: ['venuep', 'venuek'], min_volume: 1000 },
}

function alerts(path: string, o: RequestOptions & { user?: string | null } = {}): Promise<JsonResponse> {
  const { user, ...rest } = o
  const headers = { ...rest.headers, ...(user === null ? {} : { 'x-user-id': user ?? 'user-1' }) }
  return request(s, `/api/v2/alerts${path}`, { key, ...rest, headers })
}

function create(body: unknown, o: RequestOptions & { user?: string | null } = {}): Promise<JsonResponse> {
  return alerts('', { body, operationId: 'createAlert', ...o })
}

describe('alert rules', () => {
  test('create: 201 with the rule, active, default cooldown; read back; listed newest first', async () => {
    const r = await create(VALID)
    assert.equal(r.status, 201, JSON.stringify(r.body))
    const rule = r.body as unknown as Rule
    assert.deepEqual(
      { ...rule, id: '-', created_at: '-', updated_at: '-' },
      {
        ...VALID,
        id: '-',
        user_id: 'user-1',
        cooldown_seconds: 300,
        status: 'active',
        created_at: '-',
        updated_at: '-',
        delivery_status: EMAIL_NOT_READY,
      },
    )
    assert.match(rule.id, /^[0-9a-f-]{36}$/)
    assert.ok(r.headers.get('x-ratelimit-remaining') !== null)
    const got = await alerts(`/${rule.id}`, { operationId: 'getAlert' })
    assert.deepEqual(got.body, stored(r.body as Record<string, unknown>))

    const webhook = await create({
      trigger_type: 'new_pair',
      threshold: 1,
      channel: 'webhook',
      target: 'https://hooks.example.com/p?x=1',
      cooldown_seconds: 60,
      scope: {},
    })
    assert.equal(webhook.status, 201, JSON.stringify(webhook.body))
    const hook = webhook.body as Record<string, unknown>
    assert.match(String(hook.signing_secret), /^whsec_[0-9a-f]{64}$/)
    assert.deepEqual(
      { ...hook, id: '-', created_at: '-', updated_at: '-', signing_secret: '-' },
      {
        id: '-',
        user_id: 'user-1',
        trigger_type: 'new_pair',
        threshold: 1,
        channel: 'webhook',
        target: 'https://hooks.example.com/p?x=1',
        scope: {},
        cooldown_seconds: 60,
        status: 'active',
        created_at: '-',
        updated_at: '-',
        delivery_status: { ready: true },
        signing_secret: '-',
      },
    )
    assert.deepEqual((await alerts(`/${hook.id as string}`, { operationId: 'getAlert' })).body, stored(hook))
    for (const trigger of ['spread_expansion', 'spread_collapse'])
      assert.equal(
        (
          await create({
            ...VALID,
            trigger_type: trigger,
            scope: { event_slug: 'e', outcome_key: 'o', min_confidence: 0.5 },
          })
        ).status,
        201,
      )
    const list = await alerts('?limit=2', { operationId: 'listAlerts' })
    const page = list.body as { alerts: Rule[]; total: number; limit: number; offset: number }
    assert.equal(page.total, 4)
    assert.deepEqual(
      page.alerts.map((a) => a.trigger_type),
      ['spread_collapse', 'spread_expansion'],
    )
    assert.deepEqual([page.limit, page.offset], [2, 0])
  })

  test("the spec's body (no target): an e-mail rule to the address of the key's account", async () => {
    const r = await create(
      { trigger_type: 'spread_threshold', threshold: 0.05, channel: 'email', scope: {} },
      { user: 'spec-user' },
    )
    assert.equal(r.status, 201, JSON.stringify(r.body))
    const rule = r.body as unknown as Rule
    assert.deepEqual(
      { ...rule, id: '-', created_at: '-', updated_at: '-' },
      {
        id: '-',
        user_id: 'spec-user',
        trigger_type: 'spread_threshold',
        threshold: 0.05,
        channel: 'email',
        target: 'test-suite@example.com',
        scope: {},
        cooldown_seconds: 300,
        status: 'active',
        created_at: '-',
        updated_at: '-',
        delivery_status: EMAIL_NOT_READY,
      },
    )
    // Resolved at creation and stored: the rule reads back (and is delivered) with the address.
    assert.deepEqual(
      (await alerts(`/${rule.id}`, { user: 'spec-user', operationId: 'getAlert' })).body,
      stored(r.body as Record<string, unknown>),
    )
    const { rows } = await s.db.query<{ target: string }>('SELECT target FROM alert_rules WHERE id = $1', [rule.id])
    assert.equal(rows[0]?.target, 'test-suite@example.com')
    // Another account's key: its own address.
    const otherKey = await signUp(s.baseUrl, 'Second.Desk@Example.com')
    const other = await create(
      { trigger_type: 'new_pair', threshold: 0.1, channel: 'email' },
      { user: 'spec-user', key: otherKey, operationId: 'createAlert' },
    )
    assert.equal(other.status, 201, JSON.stringify(other.body))
    assert.equal((other.body as unknown as Rule).target, 'Second.Desk@Example.com')
  })

  test('a webhook rule without target is 422 at ["body","target"] and stores nothing', async () => {
    const before = await countRows(s.db, 'alert_rules')
    const r = await create({ trigger_type: 'spread_threshold', threshold: 0.05, channel: 'webhook', scope: {} })
    assert.equal(r.status, 422)
    assert.deepEqual(r.body, {
      detail: [{ type: 'missing', loc: ['body', 'target'], msg: 'Field required', input: null }],
    })
    assert.equal(await countRows(s.db, 'alert_rules'), before)
  })

  test('pause, resume, delete; afterwards 404; the status filter', async () => {
    const rule = (await create(VALID, { user: 'pauser' })).body as unknown as Rule
    const paused = await alerts(`/${rule.id}`, {
      method: 'PATCH',
      body: { status: 'paused' },
      user: 'pauser',
      operationId: 'updateAlert',
    })
    assert.equal(paused.status, 200)
    assert.equal((paused.body as unknown as Rule).status, 'paused')
    assert.equal(((await alerts('?status=paused', { user: 'pauser' })).body as { total: number }).total, 1)
    assert.equal(((await alerts('?status=active', { user: 'pauser' })).body as { total: number }).total, 0)
    const resumed = await alerts(`/${rule.id}`, {
      method: 'PATCH',
      body: { status: 'active' },
      user: 'pauser',
      operationId: 'updateAlert',
    })
    assert.equal((resumed.body as unknown as Rule).status, 'active')
    assertInvalid(await alerts(`/${rule.id}`, { method: 'PATCH', body: { status: 'deleted' }, user: 'pauser' }), [
      ['body', 'status'],
    ])
    assertInvalid(
      await alerts(`/${rule.id}`, { method: 'PATCH', body: { status: 'paused', threshold: 0.2 }, user: 'pauser' }),
      [['body', 'threshold']],
    )
    const deleted = await alerts(`/${rule.id}`, { method: 'DELETE', user: 'pauser', operationId: 'deleteAlert' })
    assert.deepEqual(deleted.body, { id: rule.id, deleted: true })
    for (const o of [{}, { method: 'DELETE' as const }, { method: 'PATCH' as const, body: { status: 'active' } }]) {
      assertError(await alerts(`/${rule.id}`, { ...o, user: 'pauser', operationId: 'getAlert' }), 404, 'not_found')
    }
    assert.equal(((await alerts('', { user: 'pauser' })).body as { total: number }).total, 0)
  })

  test("another user's or another account's rule is 404, and never listed", async () => {
    const rule = (await create(VALID, { user: 'owner' })).body as unknown as Rule
    const otherKey = await signUp(s.baseUrl, 'other-account@example.com')
    for (const [user, k] of [
      ['intruder', key],
      ['owner', otherKey],
    ] as const) {
      assertError(await alerts(`/${rule.id}`, { user, key: k }), 404, 'not_found')
      assertError(
        await alerts(`/${rule.id}`, { user, key: k, method: 'PATCH', body: { status: 'paused' } }),
        404,
        'not_found',
      )
      assertError(await alerts(`/${rule.id}`, { user, key: k, method: 'DELETE' }), 404, 'not_found')
      assert.equal(((await alerts('', { user, key: k })).body as { total: number }).total, 0)
    }
    assert.equal(((await alerts(`/${rule.id}`, { user: 'owner' })).body as unknown as Rule).status, 'active')
  })

  test('every invalid request is rejected with a clear 4xx and stores nothing', async () => {
    const before = await countRows(s.db, 'alert_rules')
    const body = (patch: Record<string, unknown>) => ({ ...VALID, ...patch })
    assertError(await create(VALID, { key: undefined }), 401, 'unauthorized')
    assertInvalid(await create(VALID, { user: null }), [['header', 'x-user-id']])
    assertInvalid(await create(VALID, { user: 'bad user id' }), [['header', 'x-user-id']])
    assertInvalid(await create(VALID, { user: "x'; DROP TABLE alert_rules; --" }), [['header', 'x-user-id']])
    assertInvalid(await create(VALID, { user: 'u'.repeat(129) }), [['header', 'x-user-id']])
    assertInvalid(await create(body({ trigger_type: 'price_moved' })), [['body', 'trigger_type']])
    assertInvalid(await create(body({ channel: 'sms' })), [['body', 'channel']])
    for (const threshold of [0, -0.1, 1.01, 5, '0.1', null])
      assertInvalid(await create(body({ threshold })), [['body', 'threshold']])
    assertInvalid(await create(body({ scope: { event_slug: 'e', market: 'm' } })), [['body', 'scope', 'market']])
    assertInvalid(await create(body({ scope: { platforms: ['venuex'] } })), [['body', 'scope', 'platforms', 0]])
    assertInvalid(await create(body({ scope: { platforms: [] } })), [['body', 'scope', 'platforms']])
    assertInvalid(await create(body({ scope: { min_volume: -1 } })), [['body', 'scope', 'min_volume']])
    assertInvalid(await create(body({ scope: { min_confidence: 1.5 } })), [['body', 'scope', 'min_confidence']])
    assertInvalid(await create(body({ scope: 'all' })), [['body', 'scope']])
    assertInvalid(await create(body({ target: 'not an address' })), [['body', 'target']])
    assertInvalid(await create(body({ channel: 'webhook', target: 'ops@example.com' })), [['body', 'target']])
    assertInvalid(await create(body({ channel: 'webhook', target: 'ftp://example.com/x' })), [['body', 'target']])
    assertInvalid(await create(body({ channel: 'webhook', target: 'javascript:alert(1)' })), [['body', 'target']])
    assertInvalid(await create(body({ channel: 'webhook', target: undefined })), [['body', 'target']])
    assertInvalid(await create(body({ cooldown_seconds: 5 })), [['body', 'cooldown_seconds']])
    assertInvalid(await create(body({ cooldown_seconds: 1.5 })), [['body', 'cooldown_seconds']])
    assertInvalid(await create(body({ status: 'paused' })), [['body', 'status']])
    assertInvalid(await create('{"trigger_type": "spread_threshold", '), [['body', 37]])
    assertInvalid(await create('[1]'), [['body']])
    assertInvalid(await alerts('', { method: 'POST', operationId: 'createAlert' }), [['body']])
    assertError(await create(VALID, { contentType: 'text/plain' }), 415, 'unsupported_media_type')
    assertError(
      await create(VALID, { contentType: 'application/x-www-form-urlencoded' }),
      415,
      'unsupported_media_type',
    )
    assertError(await create({ ...VALID, scope: { event_slug: 'x'.repeat(70_000) } }), 413, 'payload_too_large')
    assertInvalid(await alerts('/not-a-uuid'), [['path', 'id']])
    assertInvalid(await alerts('?limit=500'), [['query', 'limit']])
    assert.equal(await countRows(s.db, 'alert_rules'), before, 'nothing stored')
  })

  test('webhook targets into our own network are 422 at ["body","target"] with the default config, and nothing is stored', async () => {
    s.resolver
      .set('metadata.google.internal', '169.254.169.254')
      .set('split.example.com', '93.184.215.14', '10.1.2.3')
      .set('db.internal.example.com', '::ffff:127.0.0.1')
    const before = await countRows(s.db, 'alert_rules')
    const cases: [string, string][] = [
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address'],
      ['http://127.0.0.1:5432/', '127.0.0.1 is a loopback address'],
      ['http://10.0.0.1/', '10.0.0.1 is a private address'],
      ['http://172.20.0.1/', '172.20.0.1 is a private address'],
      ['http://192.168.1.10/hook', '192.168.1.10 is a private address'],
      ['http://100.64.0.1/', '100.64.0.1 is a shared (carrier-grade NAT) address'],
      ['http://0.0.0.0:8080/', '0.0.0.0 is a unspecified ("this network") address'],
      ['http://224.0.0.251/', '224.0.0.251 is a multicast address'],
      ['http://255.255.255.255/', '255.255.255.255 is a broadcast address'],
      ['http://240.0.0.1/', '240.0.0.1 is a reserved address'],
      ['http://2130706433/', '127.0.0.1 is a loopback address'],
      ['http://0x7f000001/', '127.0.0.1 is a loopback address'],
      ['http://0177.0.0.01/', '127.0.0.1 is a loopback address'],
      ['http://[::1]/', '::1 is a loopback address'],
      ['http://[::ffff:127.0.0.1]:8080/', '::ffff:7f00:1 is a loopback address'],
      ['http://[fd00::5]/', 'fd00::5 is a unique-local (private) address'],
      ['http://[fe80::1]/', 'fe80::1 is a link-local address'],
      ['http://localhost:8080/', 'localhost resolves to a loopback address'],
      [
        'http://metadata.google.internal/computeMetadata/v1/',
        'metadata.google.internal resolves to a cloud metadata address',
      ],
      ['https://split.example.com/hook', 'split.example.com resolves to a private address'],
      ['https://db.internal.example.com/hook', 'db.internal.example.com resolves to a loopback address'],
    ]
    for (const [target, reason] of cases) {
      const error = `${reason}; webhooks are delivered only to public addresses`
      const r = await create({ ...VALID, channel: 'webhook', target }, { operationId: 'createAlert' })
      assert.equal(r.status, 422, target)
      assert.deepEqual(
        r.body,
        {
          detail: [
            {
              type: 'value_error',
              loc: ['body', 'target'],
              msg: `Value error, ${error}`,
              input: target,
              ctx: { error },
            },
          ],
        },
        target,
      )
    }
    const nowhere = await create({ ...VALID, channel: 'webhook', target: 'https://nowhere.example.com/hook' })
    const error = 'nowhere.example.com does not resolve to any address (ENOTFOUND)'
    assert.deepEqual(
      [nowhere.status, nowhere.body],
      [
        422,
        {
          detail: [
            {
              type: 'value_error',
              loc: ['body', 'target'],
              msg: `Value error, ${error}`,
              input: 'https://nowhere.example.com/hook',
              ctx: { error },
            },
          ],
        },
      ],
    )
    assert.equal(await countRows(s.db, 'alert_rules'), before, 'nothing stored')
  })

  test('a DNS failure at creation is 503 dns_unavailable with Retry-After, and stores nothing', async () => {
    s.resolver.fail('flaky.example.com', 'EAI_AGAIN')
    const before = await countRows(s.db, 'alert_rules')
    const r = await create(
      { ...VALID, channel: 'webhook', target: 'https://flaky.example.com/hook' },
      { operationId: 'createAlert' },
    )
    assert.equal(r.status, 503)
    assert.deepEqual(r.body, {
      detail:
        'The webhook host could not be checked: the address of flaky.example.com could not be looked up (EAI_AGAIN); retry shortly.',
      code: 'dns_unavailable',
    })
    assert.equal(r.headers.get('retry-after'), '5')
    assert.equal(await countRows(s.db, 'alert_rules'), before)
  })

  test('checked again at delivery: a host that now resolves into our network fails the delivery at once (target_not_allowed), nothing is sent', async () => {
    const receiver = await startWebhookReceiver()
    try {
      const port = new URL(receiver.url).port
      s.resolver.set('rebind.example.com', '93.184.215.14')
      const created = await create(
        { ...VALID, channel: 'webhook', target: `http://rebind.example.com:${port}/hooks` },
        { user: 'rebinder', operationId: 'createAlert' },
      )
      assert.equal(created.status, 201, JSON.stringify(created.body))
      const id = (created.body as unknown as Rule).id
      // The name now points at our own loopback, where a receiver listens.
      s.resolver.set('rebind.example.com', '127.0.0.1')
      const queued = await alerts(`/${id}/test`, { method: 'POST', user: 'rebinder', operationId: 'testAlert' })
      assert.equal(queued.status, 202, JSON.stringify(queued.body))
      const deliveryId = (queued.body as { id: string }).id
      // sendTest woke the worker before answering: idle() returns once the attempt is recorded.
      await s.app.alerts.worker.idle()
      const log = (await alerts(`/${id}/deliveries`, { user: 'rebinder', operationId: 'listAlertDeliveries' }))
        .body as { deliveries: Record<string, unknown>[] }
      const d = log.deliveries[0] as Record<string, unknown>
      assert.deepEqual(
        {
          id: d.id,
          status: d.status,
          attempts: d.attempts,
          last_error: d.last_error,
          response_status: d.response_status,
          next_attempt_at: d.next_attempt_at,
          delivered_at: d.delivered_at,
        },
        {
          id: deliveryId,
          status: 'failed',
          attempts: 1,
          last_error:
            'target_not_allowed: rebind.example.com resolves to a loopback address; webhooks are delivered only to public addresses',
          response_status: null,
          next_attempt_at: null,
          delivered_at: null,
        },
      )
      assert.deepEqual(receiver.requests, [], 'the loopback receiver heard nothing')
    } finally {
      await receiver.close()
    }
  })

  test('SQL injection attempts in target and scope are stored verbatim', async () => {
    for (const evil of INJECTIONS) {
      const r = await create(
        {
          ...VALID,
          channel: 'webhook',
          target: `https://hooks.example.com/?q=${encodeURIComponent(evil)}`,
          scope: { event_slug: evil, outcome_key: evil },
        },
        { user: 'inj' },
      )
      assert.equal(r.status, 201, JSON.stringify(r.body))
      const rule = r.body as unknown as Rule
      assert.deepEqual(rule.scope, { event_slug: evil, outcome_key: evil })
      const { rows } = await s.db.query<{ scope: unknown; target: string }>(
        'SELECT scope, target FROM alert_rules WHERE id = $1',
        [rule.id],
      )
      assert.deepEqual(rows[0]?.scope, { event_slug: evil, outcome_key: evil })
    }
    assert.equal(((await alerts('', { user: 'inj' })).body as { total: number }).total, INJECTIONS.length)
  })

  test('the evaluator sees each change: versions are published in process', async () => {
    const heard: number[] = []
    const stop = s.app.store.alertRuleChanges.subscribe((v) => heard.push(v))
    const rule = (await create(VALID, { user: 'evaluated' })).body as unknown as Rule
    await alerts(`/${rule.id}`, { method: 'PATCH', body: { status: 'paused' }, user: 'evaluated' })
    stop()
    assert.equal(heard.length, 2)
    const feed = await s.app.store.alertRules.changesSince((heard[0] as number) - 1)
    assert.deepEqual(
      feed.map((r) => [r.id, r.status]),
      [[rule.id, 'paused']],
    )
  })
})
