import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { WebhookTargets, type TargetCheck } from '../../src/alerts/webhook-target.js'
import { FakeResolver } from '../helpers/resolver.js'

/**
 * The webhook target check (rule creation and every delivery): the host as the URL parser reads it, every address
 * it resolves to, and the resolver's failures. The resolver is a stand-in: no real DNS.
 */
const ONLY_PUBLIC = '; webhooks are delivered only to public addresses'

function targets(
  resolver = new FakeResolver(),
  config: { allowPrivateTargets?: boolean; allowedCidrs?: string[]; resolveTimeoutMs?: number } = {},
) {
  return WebhookTargets.fromConfig(
    { allowPrivateTargets: false, allowedCidrs: [], resolveTimeoutMs: 1_000, ...config },
    resolver.resolve,
  )
}

/** The outcome without the URL object, for whole-value comparison. */
function summary(c: TargetCheck): Record<string, unknown> {
  return c.ok ? { ok: true, host: c.host, addresses: c.addresses, href: c.url.href } : { ...c }
}

describe('webhook target check', () => {
  test('refused hosts: addresses in every spelling the URL parser normalizes, localhost names', async () => {
    const resolver = new FakeResolver()
    const check = targets(resolver)
    const cases: [string, string, string][] = [
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', '169.254.169.254 is a cloud metadata address'],
      ['http://127.0.0.1:5432/', '127.0.0.1', '127.0.0.1 is a loopback address'],
      ['http://10.0.0.1/', '10.0.0.1', '10.0.0.1 is a private address'],
      ['http://2130706433/', '127.0.0.1', '127.0.0.1 is a loopback address'],
      ['http://0x7f000001/', '127.0.0.1', '127.0.0.1 is a loopback address'],
      ['http://0x7f.1/', '127.0.0.1', '127.0.0.1 is a loopback address'],
      ['http://0177.0.0.1/', '127.0.0.1', '127.0.0.1 is a loopback address'],
      ['http://017700000001/', '127.0.0.1', '127.0.0.1 is a loopback address'],
      ['http://127.1/', '127.0.0.1', '127.0.0.1 is a loopback address'],
      ['http://0/', '0.0.0.0', '0.0.0.0 is a unspecified ("this network") address'],
      ['http://0xA9FEA9FE/', '169.254.169.254', '169.254.169.254 is a cloud metadata address'],
      ['https://192.168.0.1.:8443/x', '192.168.0.1', '192.168.0.1 is a private address'],
      ['http://100.64.1.1/', '100.64.1.1', '100.64.1.1 is a shared (carrier-grade NAT) address'],
      ['http://224.0.0.1/', '224.0.0.1', '224.0.0.1 is a multicast address'],
      ['http://255.255.255.255/', '255.255.255.255', '255.255.255.255 is a broadcast address'],
      ['http://[::1]:8080/', '::1', '::1 is a loopback address'],
      ['http://[::]/', '::', ':: is a unspecified address'],
      ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1', '::ffff:7f00:1 is a loopback address'],
      ['http://[::ffff:a9fe:a9fe]/', '::ffff:a9fe:a9fe', '::ffff:a9fe:a9fe is a cloud metadata address'],
      ['http://[fd00:ec2::254]/', 'fd00:ec2::254', 'fd00:ec2::254 is a cloud metadata address'],
      ['http://[fd12::1]/', 'fd12::1', 'fd12::1 is a unique-local (private) address'],
      ['http://[fe80::1%25eth0]/', 'fe80::1%25eth0', 'fe80::1%25eth0 is a link-local address'],
      ['http://localhost:8080/hook', 'localhost', 'localhost resolves to a loopback address'],
      ['http://LOCALHOST./hook', 'localhost', 'localhost resolves to a loopback address'],
      ['http://api.localhost/hook', 'api.localhost', 'api.localhost resolves to a loopback address'],
    ]
    for (const [target, host, reason] of cases) {
      if (target.includes('%25')) continue // WHATWG URLs have no zone ids: the parser rejects the URL (below)
      assert.deepEqual(
        summary(await check.check(target)),
        { ok: false, kind: 'refused', host, reason: `${reason}${ONLY_PUBLIC}` },
        target,
      )
    }
    assert.deepEqual(resolver.calls, [], 'no literal and no localhost name is looked up')
    assert.deepEqual(summary(await check.check('http://[fe80::1%25eth0]/')), {
      ok: false,
      kind: 'invalid',
      host: '',
      reason: 'not a valid URL',
    })
  })

  test('names: allowed only if every address is; NXDOMAIN is unresolvable; other failures and slow lookups are dns_failed', async () => {
    const resolver = new FakeResolver()
      .set('metadata.google.internal', '169.254.169.254')
      .set('mixed.example.com', '93.184.215.14', '10.0.0.7')
      .set('v6.example.com', '2606:4700:4700::1111', 'fd00::1')
      .fail('flaky.example.com', 'EAI_AGAIN')
    let hang!: () => void
    const check = targets(resolver, { resolveTimeoutMs: 100 })
    assert.deepEqual(summary(await check.check('https://hooks.example.com/p?x=1')), {
      ok: true,
      host: 'hooks.example.com',
      addresses: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
      href: 'https://hooks.example.com/p?x=1',
    })
    assert.deepEqual(summary(await check.check('HTTP://Hooks.Example.COM./p')), {
      ok: true,
      host: 'hooks.example.com',
      addresses: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
      href: 'http://hooks.example.com./p',
    })
    assert.deepEqual(summary(await check.check('http://8.8.8.8/')), {
      ok: true,
      host: '8.8.8.8',
      addresses: [{ address: '8.8.8.8', family: 4 }],
      href: 'http://8.8.8.8/',
    })
    const refused = (host: string, label: string) => ({
      ok: false,
      kind: 'refused',
      host,
      reason: `${host} resolves to a ${label} address${ONLY_PUBLIC}`,
    })
    assert.deepEqual(
      summary(await check.check('http://metadata.google.internal/computeMetadata/v1/')),
      refused('metadata.google.internal', 'cloud metadata'),
    )
    assert.deepEqual(summary(await check.check('http://mixed.example.com/')), refused('mixed.example.com', 'private'))
    assert.deepEqual(
      summary(await check.check('http://v6.example.com/')),
      refused('v6.example.com', 'unique-local (private)'),
    )
    assert.deepEqual(summary(await check.check('http://nowhere.example.com/')), {
      ok: false,
      kind: 'unresolvable',
      host: 'nowhere.example.com',
      reason: 'nowhere.example.com does not resolve to any address (ENOTFOUND)',
    })
    assert.deepEqual(summary(await check.check('http://flaky.example.com/')), {
      ok: false,
      kind: 'dns_failed',
      host: 'flaky.example.com',
      reason: 'the address of flaky.example.com could not be looked up (EAI_AGAIN)',
    })
    const slow = targets(
      { calls: [], resolve: () => new Promise((resolve) => (hang = () => resolve([]))) } as unknown as FakeResolver,
      { resolveTimeoutMs: 100 },
    )
    assert.deepEqual(summary(await slow.check('http://slow.example.com/')), {
      ok: false,
      kind: 'dns_failed',
      host: 'slow.example.com',
      reason: 'the address of slow.example.com could not be looked up (ETIMEOUT)',
    })
    hang()
    assert.deepEqual(resolver.calls, [
      'hooks.example.com',
      'hooks.example.com',
      'metadata.google.internal',
      'mixed.example.com',
      'v6.example.com',
      'nowhere.example.com',
      'flaky.example.com',
    ])
  })

  test('an abort (delivery timeout, shutdown) ends a lookup at once', async () => {
    const check = targets({ calls: [], resolve: () => new Promise(() => undefined) } as unknown as FakeResolver, {
      resolveTimeoutMs: 60_000,
    })
    const abort = new AbortController()
    const pending = check.check('http://slow.example.com/', abort.signal)
    abort.abort()
    assert.deepEqual(summary(await pending), {
      ok: false,
      kind: 'dns_failed',
      host: 'slow.example.com',
      reason: 'the address of slow.example.com could not be looked up (ABORTED)',
    })
  })

  test('the operator can allow blocks (allowedCidrs) or every private address (allowPrivateTargets)', async () => {
    const resolver = new FakeResolver().set('internal.corp', '10.20.0.5')
    const loopback = targets(resolver, { allowedCidrs: ['127.0.0.0/8'] })
    assert.equal((await loopback.check('http://127.0.0.1:9000/')).ok, true)
    assert.equal((await loopback.check('http://2130706433/')).ok, true)
    // localhost is 127.0.0.1 and ::1: both must be allowed.
    assert.deepEqual(summary(await loopback.check('http://localhost/')), {
      ok: false,
      kind: 'refused',
      host: 'localhost',
      reason: `localhost resolves to a loopback address${ONLY_PUBLIC}`,
    })
    assert.equal(
      (await targets(resolver, { allowedCidrs: ['127.0.0.0/8', '::1'] }).check('http://localhost/')).ok,
      true,
    )
    const open = targets(resolver, { allowPrivateTargets: true })
    assert.equal((await open.check('http://internal.corp/hook')).ok, true)
    assert.equal((await open.check('http://[::1]/')).ok, true)
    assert.deepEqual(summary(await open.check('http://169.254.169.254/')), {
      ok: false,
      kind: 'refused',
      host: '169.254.169.254',
      reason: `169.254.169.254 is a cloud metadata address${ONLY_PUBLIC}`,
    })
  })
})
