import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ClientThrottle } from '../../src/accounts/client-throttle.js'
import { parseCidr, type Cidr } from '../../src/core/ip.js'
import { clientKey } from '../../src/http/client-address.js'

/** Per-client buckets for signup: who the client is, and a bounded map of buckets. */
describe('client throttle', () => {
  test('a bucket per client: a burst, then refill at the rate; Retry-After in whole seconds', () => {
    const t = new ClientThrottle({ limit: { perSecond: 5 / 60, burst: 10 }, maxClients: 100 })
    const a = Array.from({ length: 11 }, () => t.take('203.0.113.1', 0))
    assert.deepEqual(
      a.slice(0, 10).map((r) => r.ok && r.remaining),
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    )
    assert.deepEqual(a[10], { ok: false, retryAfterSeconds: 12 })
    assert.deepEqual(t.take('203.0.113.2', 0), { ok: true, remaining: 9 }, 'another client has its own bucket')
    assert.deepEqual(t.take('203.0.113.1', 11_999), { ok: false, retryAfterSeconds: 1 })
    assert.deepEqual(t.take('203.0.113.1', 12_000), { ok: true, remaining: 0 })
  })

  test('the map of buckets is bounded (LRU): the least recently seen client is dropped, and starts again full', () => {
    const t = new ClientThrottle({ limit: { perSecond: 1 / 60, burst: 1 }, maxClients: 2 })
    assert.equal(t.take('a', 0).ok, true)
    assert.equal(t.take('b', 0).ok, true)
    assert.equal(t.take('a', 0).ok, false, 'a is empty and now most recent')
    assert.equal(t.take('c', 0).ok, true, 'c pushes out b, the least recently seen')
    assert.equal(t.size, 2)
    assert.equal(t.take('a', 0).ok, false, 'a kept its empty bucket')
    assert.equal(t.take('b', 0).ok, true, 'b was forgotten: a full bucket again')
    for (let i = 0; i < 1_000; i++) t.take(`flood-${i}`, 0)
    assert.equal(t.size, 2)
  })
})

describe('client key', () => {
  const cidrs = (...texts: string[]): Cidr[] => texts.map((x) => parseCidr(x) as Cidr)

  test('the peer address: IPv4 as is, IPv4-mapped as IPv4 (uWS full form), IPv6 by /64', () => {
    assert.equal(clientKey('198.51.100.7', undefined, []), '198.51.100.7')
    assert.equal(clientKey('0000:0000:0000:0000:0000:ffff:7f00:0001', undefined, []), '127.0.0.1')
    assert.equal(clientKey('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd', undefined, []), '2001:db8:1:2::/64')
    assert.equal(clientKey('2001:db8:1:2::ffff', undefined, []), '2001:db8:1:2::/64', 'one /64, one bucket')
    assert.equal(clientKey('2001:db8:1:3::1', undefined, []), '2001:db8:1:3::/64')
    assert.equal(clientKey('0000:0000:0000:0000:0000:0000:0000:0001', undefined, []), '::/64')
  })

  test('X-Forwarded-For is ignored unless the peer is a trusted proxy', () => {
    assert.equal(
      clientKey('198.51.100.7', '203.0.113.9', []),
      '198.51.100.7',
      "nobody trusted: the header is anyone's to send",
    )
    assert.equal(
      clientKey('198.51.100.7', '203.0.113.9', cidrs('10.0.0.0/8')),
      '198.51.100.7',
      'the peer is not a trusted proxy',
    )
  })

  test("from a trusted proxy: the rightmost hop that is not a trusted proxy; entries left of it are the client's own words", () => {
    const trusted = cidrs('10.0.0.0/8', '127.0.0.1')
    assert.equal(clientKey('127.0.0.1', '203.0.113.9', trusted), '203.0.113.9')
    assert.equal(
      clientKey('0000:0000:0000:0000:0000:ffff:7f00:0001', '203.0.113.9', trusted),
      '203.0.113.9',
      'a mapped peer is matched as IPv4',
    )
    assert.equal(
      clientKey('127.0.0.1', '1.1.1.1, 203.0.113.9, 10.1.1.1', trusted),
      '203.0.113.9',
      'a spoofed leftmost entry changes nothing',
    )
    assert.equal(clientKey('127.0.0.1', ' 2001:db8:9:9::1 ,10.2.2.2', trusted), '2001:db8:9:9::/64')
    assert.equal(clientKey('127.0.0.1', '10.3.3.3, 10.2.2.2', trusted), '10.3.3.3', 'every hop trusted: the leftmost')
    assert.equal(
      clientKey('127.0.0.1', 'unknown', trusted),
      'unknown',
      'what the proxy wrote, when it is not an address',
    )
  })
})
