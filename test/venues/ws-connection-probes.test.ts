import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, afterEach, before, test } from 'node:test'
import { WebSocketServer, type WebSocket } from 'ws'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import type { LoopStalls } from '../../src/core/loop-stalls.js'
import { SharedTicker } from '../../src/core/shared-ticker.js'
import { LIVENESS_CHECK_MS, WsConnection } from '../../src/venues/ws-connection.js'
import { settle, waitFor } from '../helpers/wait.js'

/**
 * WsConnection's liveness on a simulated clock against a loopback server that answers `PING` with `PONG` only when
 * told: a stall is declared within LIVENESS_CHECK_MS of `staleAfterMs`; a venue that answers again after missing its
 * probes is resubscribed on a fresh socket (a revival); a venue slow to answer each time gets twice the time after
 * each revival in a row, not a reconnect loop; a quiet socket is probed every `intervalMs`, a busy one as soon as it
 * has been silent for `replyWithinMs`; a reply read late only because our own event loop was stalled is excused.
 */
let wss: WebSocketServer
let url: string
/** Answer PINGs at once (true), or hold them until `flush()`. */
let answering = true
let held = 0
let pings: number[] = []
const sockets: WebSocket[] = []

before(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`
  wss.on('connection', (ws) => {
    sockets.push(ws)
    ws.on('message', (data) => {
      if (data.toString() !== 'PING') return
      pings.push(clock.now())
      if (answering) ws.send('PONG')
      else held++
    })
  })
})

after(async () => {
  await new Promise<void>((resolve) => wss.close(() => resolve()))
})

let clock: SimulatedClock
let conn: WsConnection | undefined
const downs: string[] = []

afterEach(() => {
  conn?.close()
  for (const ws of sockets.splice(0)) ws.terminate()
})

/** Our own loop's stalls as the test declares them (from, to): what a LoopStallMeter would have measured. */
let ourStalls: Array<[number, number]> = []
const declaredStalls: LoopStalls = {
  stalledWithin: (from, to) =>
    ourStalls.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0),
}

function start(): WsConnection {
  ourStalls = []
  clock = new SimulatedClock(0)
  answering = true
  held = 0
  pings = []
  downs.length = 0
  conn = connection('probe-test', (reason) => downs.push(reason))
  conn.start()
  return conn
}

/** A connection to the test server on the test's clock: 10 s stale, a probe every 5 s answered within 1 s. */
function connection(name: string, onDown: (reason: string) => void): WsConnection {
  return new WsConnection({
    name,
    url,
    clock,
    log: silentLogger,
    reconnectBaseMs: 20,
    reconnectMaxMs: 20,
    staleAfterMs: 10_000,
    connectTimeoutMs: 5_000,
    keepalive: { intervalMs: 5_000, replyWithinMs: 1_000, message: 'PING' },
    onOpen: () => {},
    onMessage: () => {},
    onDown,
    loopStalls: declaredStalls,
  })
}

/** The open socket on the server side (the latest). */
function server(): WebSocket {
  return sockets[sockets.length - 1] as WebSocket
}

async function flush(): Promise<void> {
  for (; held > 0; held--) server().send('PONG')
  await settle(20)
}

async function advance(ms: number, step = 50): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    clock.increment(step)
    await settle(2)
  }
}

async function opened(c: WsConnection, connects: number): Promise<void> {
  await waitFor(() => c.counters.connects === connects && c.isOpen, 5_000, `connection ${connects} open`)
  await settle(20)
}

test('a silent socket is declared stale within LIVENESS_CHECK_MS of staleAfterMs', async () => {
  const c = start()
  await opened(c, 1)
  answering = false
  const lastHeard = clock.now()
  while (downs.length === 0) await advance(50)
  const silence = clock.now() - lastHeard
  assert.match(downs[0] ?? '', /stale: nothing received for 10000 ms/)
  assert.ok(silence > 10_000 && silence <= 10_000 + LIVENESS_CHECK_MS, `declared after ${silence} ms of silence`)
  assert.equal(c.counters.staleTimeouts, 1)
})

test('a venue that answers after missing its probes is resubscribed at once on a fresh socket', async () => {
  const c = start()
  await opened(c, 1)
  answering = false
  await advance(7_000)
  // The regular probe at 5 s went unanswered: probes every second since.
  assert.ok(pings.filter((t) => t >= 5_000).length >= 3, `probes ${pings.join(', ')}`)
  answering = true
  await flush()
  assert.equal(c.counters.revivals, 1)
  assert.match(downs[0] ?? '', /venue silent for \d+ ms, then back/)
  await advance(50)
  await opened(c, 2)
  assert.equal(c.counters.staleTimeouts, 0, 'recovered before the stale threshold')
})

test('a venue slow to answer every time: twice the time after a revival, then back to the normal allowance', async () => {
  const c = start()
  await opened(c, 1)
  // The next probe answered 1.5 s late: a revival (allowed 1 s).
  answering = false
  await advance(6_500)
  await flush()
  assert.equal(c.counters.revivals, 1)
  await advance(50)
  await opened(c, 2)
  // The new socket's probe answered 1.5 s late too: within the doubled 2 s, no revival; the allowance resets.
  await advance(1_500)
  await flush()
  assert.equal(c.counters.revivals, 1, 'no reconnect loop against a slow venue')
  assert.equal(c.counters.connects, 2)
  // Slow again later: the allowance is back to 1 s.
  await advance(6_500)
  await flush()
  assert.equal(c.counters.revivals, 2)
})

test('a quiet socket is probed every intervalMs; a busy one as soon as it has been silent for replyWithinMs', async () => {
  const c = start()
  await opened(c, 1)
  await advance(20_000, 250)
  assert.deepEqual(
    pings.map((t) => Math.round(t / 250) * 250),
    [0, 5_000, 10_000, 15_000, 20_000],
    'quiet: the probe on open, then one per interval',
  )
  // Data for a while, then silence: probed within replyWithinMs (+ one check period), not at the next interval.
  for (let i = 0; i < 8; i++) {
    server().send('{"data":1}')
    await advance(250, 250)
  }
  const quietFrom = clock.now()
  const before = pings.length
  await advance(2_000, 50)
  const probe = pings[before]
  assert.ok(
    probe !== undefined && probe - quietFrom <= 1_000 + LIVENESS_CHECK_MS,
    `probed at +${(probe ?? 0) - quietFrom} ms`,
  )
  assert.equal(c.counters.revivals, 0)
})

test('a reply read late because our own loop was stalled is excused: no resubscription', async () => {
  const c = start()
  await opened(c, 1)
  // The probe at 5 s answered on time but read 1.5 s late: our loop was stalled from 5.1 s to 6.5 s.
  answering = false
  await advance(6_500)
  ourStalls.push([5_100, 6_500])
  await flush()
  assert.equal(c.counters.revivals, 0)
  assert.equal(c.counters.excusedLateReplies, 1)
  assert.deepEqual(downs, [])
  // A venue late beyond our stall still is: the next probe unanswered for about 2.5 s, only 0.5 s of it ours.
  answering = true
  await advance(1_000)
  answering = false
  await advance(7_000)
  ourStalls.push([clock.now() - 500, clock.now()])
  await flush()
  assert.equal(c.counters.revivals, 1)
  assert.match(downs[0] ?? '', /venue silent for \d+ ms \(500 ms of it our own loop's stall\), then back/)
})

test('a socket silent through a stall of ours is declared stale only once the venue itself was silent staleAfterMs', async () => {
  const c = start()
  await opened(c, 1)
  answering = false
  const lastHeard = clock.now()
  ourStalls.push([lastHeard + 1_000, lastHeard + 4_000])
  while (downs.length === 0) await advance(50)
  const silence = clock.now() - lastHeard
  assert.match(downs[0] ?? '', /stale: nothing received for 10000 ms/)
  assert.ok(silence > 13_000 && silence <= 13_000 + LIVENESS_CHECK_MS, `declared after ${silence} ms of silence`)
})

test('connections on one clock share one liveness timer, and a closed one leaves it', async () => {
  const c = start()
  const others = [0, 1, 2].map((k) => connection(`probe-test-${k}`, () => {}))
  for (const o of others) o.start()
  await opened(c, 1)
  for (const o of others) await opened(o, 1)
  assert.equal(SharedTicker.joined(clock, LIVENESS_CHECK_MS), 4)
  assert.equal(clock.pendingTimers, 1, 'one timer: the shared liveness check')
  for (const o of others) o.close()
  assert.equal(SharedTicker.joined(clock, LIVENESS_CHECK_MS), 1)
  // The one left still has its stall declared on the shared timer.
  answering = false
  const lastHeard = clock.now()
  while (downs.length === 0) await advance(50)
  assert.match(downs[0] ?? '', /stale: nothing received for 10000 ms/)
  assert.ok(clock.now() - lastHeard <= 10_000 + LIVENESS_CHECK_MS)
})
