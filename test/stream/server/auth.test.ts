import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Harness, VALID_KEY } from './harness.js'

/**
 * Auth as REST: the key in `X-API-Key` on the upgrade, `?api_key=`, or a first `auth` frame within the timeout.
 * A bad or missing key is an accepted upgrade closed with 4401 after an AUTH_FAILED error (browsers cannot read an
 * HTTP 401 on an upgrade). The welcome states the limits.
 */
let h: Harness

before(async () => {
  h = await new Harness({ config: { connectionsPerKey: 2 } }).start()
})

after(async () => {
  await h.close()
})

const WELCOME = {
  type: 'welcome',
  limits: {
    connections_per_key: 2,
    keys_per_connection: 500,
    commands_per_second: 20,
    max_lifetime_s: 86_400,
    max_frame_bytes: 16_384,
  },
}

describe('auth', () => {
  test('X-API-Key on the upgrade: welcome with the limits', async () => {
    const c = h.open({ 'x-api-key': VALID_KEY })
    assert.deepEqual(await c.next(), WELCOME)
    c.ws.close()
    await c.closed()
  })

  test('?api_key= on the upgrade: welcome', async () => {
    const c = h.open({}, `?api_key=${VALID_KEY}`)
    assert.deepEqual(await c.next(), WELCOME)
    c.ws.close()
    await c.closed()
  })

  test('a first auth frame: its ack with the id, then welcome', async () => {
    const c = h.open()
    await c.send({ op: 'auth', id: 'a1', key: VALID_KEY })
    assert.deepEqual(await c.take(2), [{ type: 'ack', id: 'a1' }, WELCOME])
    assert.deepEqual(await c.command({ op: 'ping', id: 2 }), { type: 'pong', id: 2 })
    c.ws.close()
    await c.closed()
  })

  test('commands sent right behind the key wait for it, then run', async () => {
    const c = h.open()
    await c.send({ op: 'auth', id: 1, key: VALID_KEY })
    await c.send({ op: 'ping', id: 2 })
    assert.deepEqual(await c.take(3), [{ type: 'ack', id: 1 }, WELCOME, { type: 'pong', id: 2 }])
    c.ws.close()
    await c.closed()
  })

  test('a bad key on the upgrade: AUTH_FAILED, then close 4401', async () => {
    const c = h.open({ 'x-api-key': 'pmk_live_bad' })
    assert.deepEqual(await c.next(), {
      type: 'error',
      id: null,
      code: 'AUTH_FAILED',
      message: 'invalid or revoked API key',
    })
    assert.equal(await c.closed(), 4401)
  })

  test('a bad key in the auth frame: AUTH_FAILED echoing its id, then close 4401', async () => {
    const c = h.open()
    await c.send({ op: 'auth', id: 5, key: 'nope' })
    assert.deepEqual(await c.next(), {
      type: 'error',
      id: 5,
      code: 'AUTH_FAILED',
      message: 'invalid or revoked API key',
    })
    assert.equal(await c.closed(), 4401)
  })

  test('another command first: AUTH_FAILED, close 4401', async () => {
    const c = h.open()
    await c.send({ op: 'subscribe', id: 1, ch: 'quote', keys: ['venuep:A'] })
    const f = await c.next()
    assert.deepEqual([f.type, f.id, f.code], ['error', 1, 'AUTH_FAILED'])
    assert.equal(await c.closed(), 4401)
  })

  test('no key within the auth timeout: close 4401', async () => {
    const c = h.open()
    await c.opened()
    h.clock.increment(h.config.authTimeoutMs - 1)
    await new Promise((r) => setTimeout(r, 30))
    assert.equal(c.closeCode, undefined)
    h.clock.increment(1)
    assert.deepEqual(await c.next(), {
      type: 'error',
      id: null,
      code: 'AUTH_FAILED',
      message: 'no API key within the auth timeout',
    })
    assert.equal(await c.closed(), 4401)
  })

  test('connections per key: the one beyond the limit gets CONNECTION_LIMIT and close 4029', async () => {
    const a = await h.connect()
    const b = await h.connect()
    const c = h.open({ 'x-api-key': VALID_KEY })
    assert.deepEqual(await c.next(), {
      type: 'error',
      id: null,
      code: 'CONNECTION_LIMIT',
      message: 'this key already holds 2 connections (limit 2)',
    })
    assert.equal(await c.closed(), 4029)
    a.ws.close()
    await a.closed()
    const d = await h.connect()
    d.ws.close()
    b.ws.close()
    await Promise.all([b.closed(), d.closed()])
  })
})

describe('auth off (AUTH_REQUIRED=false)', () => {
  let open: Harness

  before(async () => {
    open = await new Harness({ authRequired: false }).start()
  })

  after(async () => {
    await open.close()
  })

  test('a connection without a key is let in at once', async () => {
    const c = open.open()
    assert.deepEqual(await c.next(), WELCOME_DEFAULT)
    c.ws.close()
  })

  test('an auth frame sent anyway: acked when good, 4401 when bad', async () => {
    const c = open.open()
    await c.next()
    assert.deepEqual(await c.command({ op: 'auth', id: 1, key: VALID_KEY }), { type: 'ack', id: 1 })
    const d = open.open()
    await d.next()
    await d.send({ op: 'auth', id: 1, key: 'bad' })
    assert.equal((await d.next()).code, 'AUTH_FAILED')
    assert.equal(await d.closed(), 4401)
    c.ws.close()
  })
})

const WELCOME_DEFAULT = { ...WELCOME, limits: { ...WELCOME.limits, connections_per_key: 10 } }
