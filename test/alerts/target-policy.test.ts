import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { classify, TargetPolicy } from '../../src/alerts/target-policy.js'
import { ConfigError } from '../../src/config/load.js'
import { parseIp, type IpAddress } from '../../src/core/ip.js'

/** Which addresses a webhook may reach: public unicast only, unless the operator allows more. */
const ip = (text: string): IpAddress => {
  const parsed = parseIp(text)
  assert.ok(parsed !== undefined, text)
  return parsed
}
const DEFAULT = new TargetPolicy({ allowPrivateTargets: false, allowedCidrs: [] })

/** Non-public addresses and what they are called in messages. */
const SPECIAL: [string, string][] = [
  ['0.0.0.0', 'unspecified ("this network")'],
  ['10.0.0.1', 'private'],
  ['172.16.5.4', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'shared (carrier-grade NAT)'],
  ['100.127.255.254', 'shared (carrier-grade NAT)'],
  ['100.100.100.200', 'cloud metadata'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'cloud metadata'],
  ['169.254.10.1', 'link-local'],
  ['192.0.0.192', 'cloud metadata'],
  ['192.0.0.8', 'reserved (IETF protocol assignments)'],
  ['192.0.2.1', 'reserved (documentation)'],
  ['198.18.0.1', 'reserved (benchmarking)'],
  ['198.51.100.7', 'reserved (documentation)'],
  ['203.0.113.9', 'reserved (documentation)'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:169.254.169.254', 'cloud metadata'],
  ['::ffff:10.0.0.1', 'private'],
  ['::127.0.0.1', 'reserved'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
  ['64:ff9b:1::1', 'reserved (local-use NAT64)'],
  ['fc00::1', 'unique-local (private)'],
  ['fd12:3456::1', 'unique-local (private)'],
  ['fd00:ec2::254', 'cloud metadata'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved (documentation)'],
  ['2001::1', 'reserved (IETF protocol assignments)'],
  ['2002:7f00:1::1', 'reserved (6to4)'],
  ['100::1', 'reserved (discard-only)'],
  ['4000::1', 'reserved'],
]
const PUBLIC = [
  '93.184.215.14',
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '100.128.0.1',
  '169.255.0.1',
  '192.169.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001::200e',
  '64:ff9b::808:808',
  '::ffff:8.8.8.8',
]

describe('target policy', () => {
  test('by default every special-purpose address is refused, with what it is', () => {
    for (const [text, label] of SPECIAL) assert.deepEqual(DEFAULT.check(ip(text)), { allowed: false, label }, text)
  })

  test('public unicast addresses are allowed (IPv4, IPv6, mapped, NAT64 of a public address)', () => {
    for (const text of PUBLIC) {
      assert.deepEqual(DEFAULT.check(ip(text)), { allowed: true }, text)
      assert.equal(classify(ip(text)), undefined, text)
    }
  })

  test('allowPrivateTargets allows private, loopback, shared and reserved, never unspecified, link-local, metadata, multicast, broadcast', () => {
    const open = new TargetPolicy({ allowPrivateTargets: true, allowedCidrs: [] })
    const stillRefused = new Set([
      'unspecified ("this network")',
      'unspecified',
      'link-local',
      'cloud metadata',
      'multicast',
      'broadcast',
    ])
    for (const [text, label] of SPECIAL) {
      const expected = stillRefused.has(label) ? { allowed: false, label } : { allowed: true }
      assert.deepEqual(open.check(ip(text)), expected, text)
    }
  })

  test('allowedCidrs allows exactly its blocks, whatever they are (mapped forms included)', () => {
    const policy = new TargetPolicy({
      allowPrivateTargets: false,
      allowedCidrs: ['127.0.0.0/8', ' 10.20.0.0/16 ', 'fd00:ec2::254', '::1'],
    })
    for (const text of ['127.0.0.1', '127.9.9.9', '::ffff:127.0.0.1', '10.20.3.4', 'fd00:ec2::254', '::1'])
      assert.deepEqual(policy.check(ip(text)), { allowed: true }, text)
    assert.deepEqual(policy.check(ip('10.21.0.1')), { allowed: false, label: 'private' })
    assert.deepEqual(policy.check(ip('169.254.169.254')), { allowed: false, label: 'cloud metadata' })
  })

  test('a malformed allowedCidrs entry fails the boot, naming the key', () => {
    assert.throws(
      () => new TargetPolicy({ allowPrivateTargets: false, allowedCidrs: ['10.0.0.0/8', 'intranet', '10.0.0.0/40'] }),
      (err: unknown) =>
        err instanceof ConfigError &&
        JSON.stringify(err.problems) ===
          JSON.stringify([
            '/alerts/webhook/allowedCidrs/1: "intranet" is not an IP address or CIDR block',
            '/alerts/webhook/allowedCidrs/2: "10.0.0.0/40" is not an IP address or CIDR block',
          ]),
    )
  })
})
