import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  formatIp,
  inAnyCidr,
  inCidr,
  parseCidr,
  parseIp,
  unmapped,
  type Cidr,
  type IpAddress,
} from '../../src/core/ip.js'

/** IP parsing and CIDR matching: strict parsing, canonical text, mapped addresses judged as IPv4. */
const ip = (text: string): IpAddress => {
  const parsed = parseIp(text)
  assert.ok(parsed !== undefined, `parses ${text}`)
  return parsed
}
const block = (text: string): Cidr => {
  const parsed = parseCidr(text)
  assert.ok(parsed !== undefined, `parses ${text}`)
  return parsed
}

describe('parseIp and formatIp', () => {
  test('every text form of an address reads as the same address, printed canonically', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', '127.0.0.1'],
      ['0.0.0.0', '0.0.0.0'],
      ['255.255.255.255', '255.255.255.255'],
      ['::', '::'],
      ['::1', '::1'],
      ['0000:0000:0000:0000:0000:0000:0000:0001', '::1'],
      ['2001:DB8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
      ['2001:db8:0:0:0:0:2:1', '2001:db8::2:1'],
      ['fe80::1%eth0', 'fe80::1'],
      ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
      ['1::', '1::'],
      ['::ffff:127.0.0.1', '::ffff:7f00:1'],
      ['0000:0000:0000:0000:0000:ffff:7f00:0001', '::ffff:7f00:1'],
      ['64:ff9b::10.0.0.1', '64:ff9b::a00:1'],
    ]
    for (const [text, canonical] of cases) assert.equal(formatIp(ip(text)), canonical, text)
  })

  test('anything that is not exactly an address is undefined', () => {
    for (const text of [
      '',
      'localhost',
      '127.1',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '2130706433',
      '256.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      ' 1.2.3.4',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      ':::',
      '12345::',
      'g::1',
      '::1.2.3',
      '1:2:3:4:5:6:7:1.2.3.4',
    ]) {
      assert.equal(parseIp(text), undefined, JSON.stringify(text))
    }
  })

  test('IPv4-mapped IPv6 addresses unmap to IPv4 (uWS prints IPv4 clients that way on a dual-stack socket)', () => {
    assert.deepEqual(unmapped(ip('0000:0000:0000:0000:0000:ffff:7f00:0001')), ip('127.0.0.1'))
    assert.deepEqual(unmapped(ip('::ffff:10.1.2.3')), ip('10.1.2.3'))
    assert.deepEqual(unmapped(ip('::1')), ip('::1'))
    assert.deepEqual(unmapped(ip('10.1.2.3')), ip('10.1.2.3'))
  })
})

describe('CIDR blocks', () => {
  test('membership by prefix, host bits of the block ignored, families kept apart', () => {
    assert.ok(inCidr(ip('10.255.0.1'), block('10.0.0.0/8')))
    assert.ok(!inCidr(ip('11.0.0.1'), block('10.0.0.0/8')))
    assert.ok(inCidr(ip('10.1.2.3'), block('10.9.9.9/8')), 'host bits cleared')
    assert.ok(inCidr(ip('8.8.8.8'), block('0.0.0.0/0')))
    assert.ok(inCidr(ip('1.2.3.4'), block('1.2.3.4')), 'a bare address is a block of one')
    assert.ok(!inCidr(ip('1.2.3.5'), block('1.2.3.4')))
    assert.ok(inCidr(ip('fd12::1'), block('fc00::/7')))
    assert.ok(!inCidr(ip('fe00::1'), block('fc00::/7')))
    assert.ok(inCidr(ip('2001:db8::1'), block('::/0')))
    assert.ok(!inCidr(ip('10.0.0.1'), block('::/0')), 'an IPv4 address is not in an IPv6 block')
  })

  test('mapped addresses and mapped blocks compare as IPv4', () => {
    assert.ok(inAnyCidr(ip('::ffff:127.0.0.1'), [block('127.0.0.0/8')]))
    assert.deepEqual(block('::ffff:10.0.0.0/104'), block('10.0.0.0/8'))
    assert.ok(inAnyCidr(ip('10.3.2.1'), [block('::ffff:10.0.0.0/104')]))
  })

  test('malformed blocks are undefined', () => {
    for (const text of [
      '10.0.0.0/33',
      '10.0.0.0/-1',
      '10.0.0.0/',
      '10.0.0.0/08',
      '::/129',
      'example.com/8',
      '10.0.0.0/8/8',
    ])
      assert.equal(parseCidr(text), undefined, text)
  })
})
