import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Harness, type Client } from './harness.js'

/**
 * Every bad command gets its stable code, echoing its id, and the connection stays usable; limits close only
 * where the contract says (frame size: 4400; persistent command flood: 4029).
 */
let h: Harness

before(async () => {
  h = await new Harness({ config: { keysPerConnection: 2, commandsPerSecond: 50, maxFrameBytes: 1_024 } }).start()
})

after(async () => {
  await h.close()
})

describe('bad commands', () => {
  let c: Client

  before(async () => {
    c = await h.connect()
  })

  const cases: [string, unknown, Record<string, unknown>][] = [
    ['not JSON', '{nope', { id: null, code: 'BAD_REQUEST', message: 'not JSON' }],
    ['not an object', '[1,2]', { id: null, code: 'BAD_REQUEST', message: 'a command is a JSON object' }],
    [
      'an unknown op',
      { op: 'dance', id: 1 },
      {
        id: 1,
        code: 'BAD_REQUEST',
        message: '`op` must be one of auth, subscribe, update, snapshot, unsubscribe, list, ping',
      },
    ],
    [
      'an unknown channel',
      { op: 'subscribe', id: 2, ch: 'weather', keys: ['x'] },
      { id: 2, code: 'UNKNOWN_CHANNEL', message: 'no channel "weather"' },
    ],
    [
      'a channel with no source',
      { op: 'subscribe', id: 3, ch: 'spread', keys: ['x'] },
      { id: 3, code: 'UNKNOWN_CHANNEL', message: 'no channel "spread"' },
    ],
    [
      'a depth not in 10/25/100',
      { op: 'subscribe', id: 4, ch: 'book', keys: ['venuep:A'], depth: 7 },
      { id: 4, code: 'BAD_REQUEST', message: '`depth` must be one of 10, 25, 100' },
    ],
    [
      'a depth on a channel without depth',
      { op: 'subscribe', id: 5, ch: 'quote', keys: ['venuep:A'], depth: 10 },
      { id: 5, code: 'BAD_REQUEST', message: '`depth` is for the book channel only' },
    ],
    [
      'no keys',
      { op: 'subscribe', id: 6, ch: 'quote', keys: [] },
      { id: 6, code: 'BAD_REQUEST', message: '`keys` must not be empty' },
    ],
    [
      'keys not strings',
      { op: 'subscribe', id: 7, ch: 'quote', keys: [1] },
      { id: 7, code: 'BAD_REQUEST', message: '`keys` must be an array of non-empty strings' },
    ],
    [
      'a bad resume token',
      { op: 'subscribe', id: 8, ch: 'quote', keys: ['venuep:A'], resume: { 'venuep:A': { epoch: 1 } } },
      { id: 8, code: 'BAD_REQUEST', message: '`resume.venuep:A` must be {epoch: string, seq: non-negative integer}' },
    ],
    [
      'an unknown sid',
      { op: 'unsubscribe', id: 9, sid: 's99' },
      { id: 9, code: 'BAD_REQUEST', message: 'no subscription s99' },
    ],
    [
      'an update of an unknown sid',
      { op: 'update', id: 10, sid: 's99', add: ['venuep:A'] },
      { id: 10, code: 'BAD_REQUEST', message: 'no subscription s99' },
    ],
    [
      'a bad id',
      { op: 'ping', id: { x: 1 } },
      { id: null, code: 'BAD_REQUEST', message: '`id` must be a number or a string' },
    ],
  ]
  for (const [what, command, error] of cases)
    test(`${what}: ${String(error.code)}, and the server stays up`, async () => {
      await c.send(command)
      assert.deepEqual(await c.next(), { type: 'error', ...error })
      assert.deepEqual(await c.command({ op: 'ping', id: 'p' }), { type: 'pong', id: 'p' })
    })

  test('keys beyond keys_per_connection are rejected per key with SUBSCRIPTION_LIMIT', async () => {
    const ack = await c.command({ op: 'subscribe', id: 20, ch: 'quote', keys: ['venuep:A', 'venuep:B', 'venuek:C'] })
    assert.deepEqual(ack, {
      type: 'ack',
      id: 20,
      sid: 's1',
      accepted: ['venuep:A', 'venuep:B'],
      rejected: [{ key: 'venuek:C', code: 'SUBSCRIPTION_LIMIT', reason: 'a connection holds at most 2 keys' }],
      recovered: false,
    })
  })

  test('no more subscriptions than keys_per_connection', async () => {
    await c.command({ op: 'subscribe', id: 21, ch: 'book', keys: ['venuep:A'] })
    assert.deepEqual(await c.command({ op: 'subscribe', id: 22, ch: 'book', keys: ['venuep:B'] }), {
      type: 'error',
      id: 22,
      code: 'SUBSCRIPTION_LIMIT',
      message: 'at most 2 subscriptions',
    })
  })

  test('a frame over max_frame_bytes: BAD_REQUEST, close 4400', async () => {
    await c.send({ op: 'ping', id: 1, pad: 'x'.repeat(1_100) })
    for (;;) {
      const f = await c.next()
      if (f.type !== 'error') continue
      assert.deepEqual(f, { type: 'error', id: null, code: 'BAD_REQUEST', message: 'frame over 1024 bytes' })
      break
    }
    assert.equal(await c.closed(), 4400)
  })
})

describe('command rate', () => {
  test('beyond commands_per_second: RATE_LIMITED with the id; persistent: close 4029', async () => {
    const c = await h.connect()
    for (let i = 0; i < 50; i++) await c.send({ op: 'ping', id: i })
    const pongs = await c.take(50)
    assert.ok(pongs.every((f) => f.type === 'pong'))
    await c.send({ op: 'ping', id: 50 })
    assert.deepEqual(await c.next(), {
      type: 'error',
      id: 50,
      code: 'RATE_LIMITED',
      message: 'more than 50 commands per second',
    })
    h.clock.increment(1_000)
    assert.deepEqual(await c.command({ op: 'ping', id: 51 }), { type: 'pong', id: 51 }, 'refilled after a second')
    for (let i = 0; i < 200; i++) await c.send({ op: 'ping', id: 100 + i })
    assert.equal(await c.closed(), 4029)
    const frames = c.unread
    assert.deepEqual(frames.at(-1), {
      type: 'error',
      id: null,
      code: 'RATE_LIMITED',
      message: 'too many commands, persistently',
    })
  })
})
