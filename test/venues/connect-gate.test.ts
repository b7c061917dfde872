import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { WebSocketServer } from 'ws'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { noLoopStalls } from '../../src/core/loop-stalls.js'
import { ConnectGate } from '../../src/venues/connect-gate.js'
import { WsConnection } from '../../src/venues/ws-connection.js'
import { settle, waitFor } from '../helpers/wait.js'

/**
 * The connect gate: at most `max` handshakes at once across a venue's connections, the rest in arrival order; an
 * attempt's slot is freed when its handshake opens, fails or times out, and a waiting attempt can be withdrawn.
 */
test('at most max run at once, the rest in arrival order; release is idempotent; a waiting one can withdraw', () => {
  const gate = new ConnectGate(2)
  const started: number[] = []
  const tickets = [0, 1, 2, 3, 4].map((i) => gate.enter(() => started.push(i)))
  assert.deepEqual(started, [0, 1])
  assert.equal(gate.waiting, 3)
  tickets[3]?.release() // withdrawn while waiting: never starts
  tickets[0]?.release()
  tickets[0]?.release()
  assert.deepEqual(started, [0, 1, 2])
  assert.equal(gate.inFlight, 2)
  tickets[1]?.release()
  assert.deepEqual(started, [0, 1, 2, 4])
  tickets[2]?.release()
  tickets[4]?.release()
  assert.equal(gate.inFlight, 0)
  assert.equal(gate.waiting, 0)
  assert.throws(() => new ConnectGate(0), RangeError)
})

let wss: WebSocketServer
let url: string
/** Upgrades the server holds (verifyClient not yet answered), in arrival order. */
const held: Array<(ok: boolean) => void> = []
let mostHeld = 0

before(async () => {
  wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: (_info, done) => {
      held.push(done)
      mostHeld = Math.max(mostHeld, held.length)
    },
  })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`
})

after(async () => {
  for (const c of wss.clients) c.terminate()
  await new Promise<void>((resolve) => wss.close(() => resolve()))
})

/** A connection to the test server through `gate`, on `clock`, that does nothing with what it hears. */
function gated(
  name: string,
  clock: SimulatedClock,
  gate: ConnectGate,
  headers?: () => Record<string, string>,
): WsConnection {
  return new WsConnection({
    name,
    url,
    clock,
    log: silentLogger,
    reconnectBaseMs: 20,
    reconnectMaxMs: 20,
    staleAfterMs: 60_000,
    connectTimeoutMs: 5_000,
    connectGate: gate,
    loopStalls: noLoopStalls,
    headers,
    onOpen: () => {},
    onMessage: () => {},
    onDown: () => {},
  })
}

test("a venue's connections open two handshakes at a time; a timed-out handshake frees its slot", async () => {
  const clock = new SimulatedClock(0)
  const gate = new ConnectGate(2)
  const conns = Array.from({ length: 5 }, (_, i) => gated(`gated-${i}`, clock, gate))
  try {
    for (const c of conns) c.start()
    await waitFor(() => held.length === 2, 5_000, 'two handshakes at the server')
    await settle(50)
    assert.equal(held.length, 2, 'the other three wait at the gate')
    assert.equal(gate.waiting, 3)
    // The first handshake completes at 3 s: one more is let through (its connect timeout runs from 3 s).
    clock.increment(3_000)
    held.shift()?.(true)
    await waitFor(() => held.length === 2 && conns.filter((c) => c.isOpen).length === 1, 5_000, 'the third let in')
    // The second never completes: at its connect timeout (5 s) its slot goes to the next attempt.
    clock.increment(2_001)
    await waitFor(() => gate.waiting === 1 && held.length >= 3, 5_000, 'a timed-out handshake freed its slot')
    // Answer everything from now on: every connection opens, never more than two handshakes at once.
    while (conns.some((c) => !c.isOpen)) {
      held.shift()?.(true)
      clock.increment(25)
      await settle(5)
    }
    assert.ok(mostHeld <= 3, `at most two handshakes of the gate at the server (one abandoned): ${mostHeld}`)
    assert.equal(gate.inFlight, 0)
    assert.equal(gate.waiting, 0)
  } finally {
    for (const c of conns) c.close()
  }
})

test('an attempt that fails before its handshake (no headers) frees its slot at once', async () => {
  const clock = new SimulatedClock(0)
  const gate = new ConnectGate(1)
  const failing = gated('no-headers', clock, gate, () => {
    throw new Error('no key')
  })
  const healthy = gated('healthy', clock, gate)
  try {
    failing.start()
    assert.equal(gate.inFlight, 0, 'the failed attempt released its slot')
    healthy.start()
    await waitFor(() => held.length > 0, 5_000, 'the healthy connection let through')
    held.shift()?.(true)
    await waitFor(() => healthy.isOpen, 5_000, 'the healthy connection open')
  } finally {
    failing.close()
    healthy.close()
  }
})
