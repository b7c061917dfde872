import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { SMTPServer } from 'smtp-server'
import { EmailSender, SMTP_NOT_CONFIGURED, type SmtpSettings } from '../../src/alerts/email-sender.js'
import { WebhookSender } from '../../src/alerts/webhook-sender.js'
import { WebhookTargets, type HostResolver } from '../../src/alerts/webhook-target.js'
import { SimulatedClock } from '../../src/core/clock.js'
import type { ClaimedDelivery } from '../../src/store/alert-deliveries-repo.js'
import { newSigningSecret } from '../../src/store/alert-rules-repo.js'
import { FakeResolver } from '../helpers/resolver.js'

/**
 * The two channels against real loopback servers: what counts as success, as a retryable failure and as a
 * permanent one, and what `last_error` says.
 */
const NOW = Date.UTC(2026, 10, 21, 12)

/** A loopback port nothing listens on (fetch refuses well-known ports such as 9 outright). */
async function deadPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address() as AddressInfo
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

function delivery(channel: 'email' | 'webhook', target: string): ClaimedDelivery {
  const id = '00000000-0000-4000-8000-000000000001'
  return {
    id,
    ruleId: '00000000-0000-4000-8000-000000000002',
    pairKey: 'fed|yes',
    dedupeKey: 'r:fed|yes:1',
    test: false,
    channel,
    target,
    payload: {
      id,
      event: 'alert.fired',
      test: false,
      dedupe_key: 'r:fed|yes:1',
      rule: { id: 'r', trigger_type: 'spread_threshold', threshold: 0.05 },
      spread: null,
    },
    createdAt: NOW,
    status: 'sending',
    attempts: 1,
    nextAttemptAt: NOW,
    lastError: null,
    responseStatus: null,
    updatedAt: NOW,
    deliveredAt: null,
    leaseToken: '00000000-0000-4000-8000-000000000003',
    signingSecret: channel === 'webhook' ? newSigningSecret() : null,
  }
}

describe('webhook sender', () => {
  let base: string
  const server = createServer((req, res) => {
    const path = req.url ?? ''
    if (path === '/ok') res.writeHead(204).end()
    else if (path === '/redirect') res.writeHead(302, { location: '/ok' }).end()
    else if (path === '/slow') setTimeout(() => res.writeHead(200).end(), 1_000)
    else res.writeHead(503).end(`${'busy '.repeat(100)}`)
  })
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(() => {
    server.closeAllConnections()
    server.close()
  })
  // The receiver is on loopback, which the default policy refuses: allowed here explicitly.
  const targets = WebhookTargets.fromConfig(
    { allowPrivateTargets: false, allowedCidrs: ['127.0.0.0/8'], resolveTimeoutMs: 1_000 },
    new FakeResolver().resolve,
  )
  const sender = new WebhookSender({ clock: new SimulatedClock(NOW), timeoutMs: 200, targets })
  const send = (path: string, signal = new AbortController().signal) =>
    sender.send(delivery('webhook', `${base}${path}`), signal)

  test('2xx is delivered; other statuses, redirects, timeouts and refused connections are retryable failures', async () => {
    assert.deepEqual(await send('/ok'), { ok: true, responseStatus: 204 })
    const busy = await send('/busy')
    assert.deepEqual([busy.ok, busy.responseStatus, !busy.ok && busy.permanent], [false, 503, false])
    assert.ok(
      !busy.ok && busy.error.startsWith('HTTP 503: busy busy') && busy.error.length <= 'HTTP 503: '.length + 200,
      'a clipped snippet of the answer',
    )
    assert.deepEqual(await send('/redirect'), {
      ok: false,
      error: 'HTTP 302: (redirects are not followed)',
      responseStatus: 302,
      permanent: false,
    })
    assert.deepEqual(await send('/slow'), {
      ok: false,
      error: 'timeout: no response within 200 ms',
      responseStatus: null,
      permanent: false,
    })
    const refused = await sender.send(
      delivery('webhook', `http://127.0.0.1:${await deadPort()}/nothing-listens`),
      new AbortController().signal,
    )
    assert.ok(!refused.ok && /^network error: .*ECONNREFUSED/.test(refused.error), JSON.stringify(refused))
  })

  test('an abort (shutdown) ends the attempt at once', async () => {
    const abort = new AbortController()
    const pending = send('/slow', abort.signal)
    abort.abort()
    const out = await pending
    assert.ok(!out.ok && out.error.startsWith('aborted'))
  })
})

describe('webhook sender: the target is checked at every attempt and the connection goes only to the checked address', () => {
  let port: number
  const seen: { host: string | undefined; path: string }[] = []
  const server = createServer((req, res) => {
    seen.push({ host: req.headers.host, path: req.url ?? '' })
    res.writeHead(204).end()
  })
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  after(() => {
    server.closeAllConnections()
    server.close()
  })
  const senderWith = (resolve: HostResolver, allowedCidrs: string[] = []) =>
    new WebhookSender({
      clock: new SimulatedClock(NOW),
      timeoutMs: 2_000,
      targets: WebhookTargets.fromConfig(
        { allowPrivateTargets: false, allowedCidrs, resolveTimeoutMs: 1_000 },
        resolve,
      ),
    })
  const signal = () => new AbortController().signal

  test('a host that resolves to a private or loopback address now fails at once, permanently (target_not_allowed); nothing is sent', async () => {
    seen.length = 0
    const resolver = new FakeResolver()
      .set('hooks.example.com', '10.0.0.7')
      .set('rebound.example.com', '93.184.215.14', '127.0.0.1')
    const sender = senderWith(resolver.resolve)
    assert.deepEqual(await sender.send(delivery('webhook', 'https://hooks.example.com/spreads'), signal()), {
      ok: false,
      error:
        'target_not_allowed: hooks.example.com resolves to a private address; webhooks are delivered only to public addresses',
      responseStatus: null,
      permanent: true,
    })
    assert.deepEqual(await sender.send(delivery('webhook', `http://rebound.example.com:${port}/ok`), signal()), {
      ok: false,
      error:
        'target_not_allowed: rebound.example.com resolves to a loopback address; webhooks are delivered only to public addresses',
      responseStatus: null,
      permanent: true,
    })
    assert.deepEqual(await sender.send(delivery('webhook', `http://127.0.0.1:${port}/ok`), signal()), {
      ok: false,
      error: 'target_not_allowed: 127.0.0.1 is a loopback address; webhooks are delivered only to public addresses',
      responseStatus: null,
      permanent: true,
    })
    assert.deepEqual(seen, [], 'the receiver heard nothing')
  })

  test('a name that does not resolve, or a failed lookup, is retried like a network error', async () => {
    const sender = senderWith(new FakeResolver().fail('flaky.example.com', 'EAI_AGAIN').resolve)
    assert.deepEqual(await sender.send(delivery('webhook', 'https://gone.example.com/x'), signal()), {
      ok: false,
      error: 'dns: gone.example.com does not resolve to any address (ENOTFOUND)',
      responseStatus: null,
      permanent: false,
    })
    assert.deepEqual(await sender.send(delivery('webhook', 'https://flaky.example.com/x'), signal()), {
      ok: false,
      error: 'dns: the address of flaky.example.com could not be looked up (EAI_AGAIN)',
      responseStatus: null,
      permanent: false,
    })
  })

  test('DNS rebinding loses: one lookup per attempt, and the request goes to the address that lookup gave', async () => {
    seen.length = 0
    // The first answer is the allowed loopback receiver; every later one is an address the policy refuses. Any
    // second lookup (by the HTTP client, at connect time) would get the refused address, or real DNS: no answer.
    const answers = ['127.0.0.1', '10.9.9.9']
    const calls: string[] = []
    const resolve: HostResolver = async (host) => {
      calls.push(host)
      return [{ address: answers[Math.min(calls.length - 1, 1)] as string, family: 4 }]
    }
    const sender = senderWith(resolve, ['127.0.0.0/8'])
    assert.deepEqual(await sender.send(delivery('webhook', `http://rebind.example.com:${port}/hook`), signal()), {
      ok: true,
      responseStatus: 204,
    })
    assert.deepEqual(calls, ['rebind.example.com'])
    assert.deepEqual(
      seen,
      [{ host: `rebind.example.com:${port}`, path: '/hook' }],
      'the Host header names the host; the socket went to the checked address',
    )
    // The next attempt looks again, gets the rebound answer, and is refused before connecting.
    assert.deepEqual(await sender.send(delivery('webhook', `http://rebind.example.com:${port}/hook`), signal()), {
      ok: false,
      error:
        'target_not_allowed: rebind.example.com resolves to a private address; webhooks are delivered only to public addresses',
      responseStatus: null,
      permanent: true,
    })
    assert.deepEqual(calls, ['rebind.example.com', 'rebind.example.com'])
    assert.equal(seen.length, 1)
  })

  test('an allowed name with IPv4 and IPv6 addresses connects to one of them (localhost, allowed explicitly)', async () => {
    seen.length = 0
    const sender = senderWith(new FakeResolver().resolve, ['127.0.0.0/8', '::1'])
    assert.deepEqual(await sender.send(delivery('webhook', `http://localhost:${port}/both`), signal()), {
      ok: true,
      responseStatus: 204,
    })
    assert.deepEqual(seen, [{ host: `localhost:${port}`, path: '/both' }])
  })
})

describe('e-mail sender', () => {
  let smtp: SMTPServer
  let port: number
  before(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('unknown@'))
          callback(Object.assign(new Error('no such mailbox'), { responseCode: 550 }))
        else if (address.address.startsWith('later@'))
          callback(Object.assign(new Error('try again later'), { responseCode: 451 }))
        else callback()
      },
      onData(stream, _session, callback) {
        stream.resume()
        stream.on('end', () => callback())
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
    port = (smtp.server.address() as AddressInfo).port
  })
  after(() => new Promise<void>((resolve) => smtp.close(() => resolve())))
  const settings = (patch: Partial<SmtpSettings> = {}): SmtpSettings => ({
    host: '127.0.0.1',
    port,
    secure: false,
    requireTls: false,
    from: 'alerts@predmkt.test',
    timeoutMs: 2_000,
    ...patch,
  })

  test('accepted is delivered; a 5xx rejection is permanent, a 4xx one and a dead server are retried', async () => {
    const sender = new EmailSender(settings())
    try {
      assert.deepEqual(await sender.send(delivery('email', 'desk@example.com')), { ok: true, responseStatus: null })
      const unknown = await sender.send(delivery('email', 'unknown@example.com'))
      assert.ok(!unknown.ok && unknown.permanent && unknown.error.startsWith('smtp: '), JSON.stringify(unknown))
      const later = await sender.send(delivery('email', 'later@example.com'))
      assert.ok(!later.ok && !later.permanent, JSON.stringify(later))
    } finally {
      sender.close()
    }
    const dead = new EmailSender(settings({ port: await deadPort() }))
    const out = await dead.send(delivery('email', 'desk@example.com'))
    assert.ok(!out.ok && !out.permanent, JSON.stringify(out))
    dead.close()
  })

  test('an smtp:// URL works too; no server configured fails at once, permanently', async () => {
    const byUrl = new EmailSender({ ...settings(), host: undefined, url: `smtp://127.0.0.1:${port}` })
    assert.deepEqual(await byUrl.send(delivery('email', 'desk@example.com')), { ok: true, responseStatus: null })
    byUrl.close()
    const none = new EmailSender({ ...settings(), host: undefined })
    assert.deepEqual(await none.send(delivery('email', 'desk@example.com')), {
      ok: false,
      error: SMTP_NOT_CONFIGURED,
      responseStatus: null,
      permanent: true,
    })
  })
})
