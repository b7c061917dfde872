import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { connectBus } from '../../src/bus/connection.js'
import { mdSubject, subjectToken, tokenKey } from '../../src/bus/subjects.js'
import { silentLogger } from '../../src/core/logger.js'
import { NatsServer } from '../helpers/nats-server.js'
import { waitFor } from '../helpers/wait.js'

/**
 * The bus's ground floor: subject tokens round-trip any key and are always one valid token; the link to a real
 * nats-server says when the broker goes away and when it is back, and carries messages again after.
 */
test('any key is one subject token (no dot, wildcard or whitespace) and round-trips', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, unit: 'grapheme' }), (key) => {
      const token = subjectToken(key)
      assert.match(token, /^[A-Za-z0-9_:|%-]+$/)
      assert.equal(tokenKey(token), key)
    }),
  )
  assert.equal(mdSubject('quote', 'venuek', 'venuek:KX-24.B'), 'md.quote.venuek.venuek:KX-24%2EB')
})

let nats: NatsServer
before(async () => {
  nats = await NatsServer.start()
})
after(async () => {
  await nats.close()
})

test('the link reports the broker down and back, and carries messages after a broker restart', async () => {
  const events: string[] = []
  const link = await connectBus({
    url: nats.url,
    name: 'foundation-test',
    log: silentLogger,
    onDown: () => events.push('down'),
    onUp: () => events.push('up'),
  })
  try {
    const got: string[] = []
    link.nc.subscribe('t.>', { callback: (_err, msg) => void got.push(`${msg.subject}=${msg.string()}`) })
    link.nc.publish('t.a', 'one')
    await waitFor(() => got.length === 1, 5_000, 'first message')
    await nats.stop()
    await waitFor(() => events.includes('down'), 10_000, 'down reported')
    assert.equal(link.up, false)
    await nats.restart()
    await waitFor(() => events.includes('up'), 15_000, 'up reported')
    assert.equal(link.up, true)
    link.nc.publish('t.b', 'two')
    await waitFor(() => got.length === 2, 5_000, 'message after the restart')
    assert.deepEqual(got, ['t.a=one', 't.b=two'])
    assert.deepEqual(events, ['down', 'up'])
  } finally {
    await link.close()
  }
})
