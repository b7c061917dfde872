import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, test } from 'node:test'
import { SimulatedClock } from '../../src/core/clock.js'
import { loadConfig } from '../../src/config/load.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { TEST_ANCHOR_MS } from '../helpers/service.js'

/**
 * A WebSocket upgrade the simulator refuses (venuek: a missing signature, 401; venuep: an unknown path, 404) and a
 * client that then resets the connection: the refused socket belongs to nobody by then (the HTTP server let go of
 * it at 'upgrade'), and before it had an error listener the reset threw ECONNRESET out of the simulator's process
 * (seen when the service's signed handshakes outlived their timestamps in the dashboard's browser test).
 */
let sim: Simulator

before(async () => {
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  sim = await startSimulator({
    config: { ...config.sim, questions: 5, wallets: 1, venuekAuth: true },
    clock: new SimulatedClock(TEST_ANCHOR_MS),
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
})
after(() => sim.close())

/** Sends an upgrade request for `url`, waits for the refusal's status line, then resets the connection (RST). */
function refusedThenReset(url: string): Promise<string> {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname, () =>
      socket.write(
        `GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    )
    socket.once('data', (chunk: Buffer) => {
      socket.resetAndDestroy()
      resolve(chunk.toString('latin1').split('\r\n')[0] as string)
    })
    socket.on('error', reject)
  })
}

test('a client that resets a refused WebSocket upgrade does not take the simulator down', async () => {
  const uncaught: unknown[] = []
  const onUncaught = (e: unknown) => uncaught.push(e)
  process.on('uncaughtException', onUncaught)
  try {
    const statuses: string[] = []
    for (let i = 0; i < 5; i++) {
      statuses.push(await refusedThenReset(sim.venuek.urls.ws))
      statuses.push(await refusedThenReset(sim.venuep.urls.clobWs.replace('/ws/market', '/ws/nowhere')))
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.deepEqual(new Set(statuses), new Set(['HTTP/1.1 401 Unauthorized', 'HTTP/1.1 404 Not Found']))
    assert.deepEqual(uncaught, [])
    // Still serving: an unsigned REST read of the catalog answers.
    assert.equal((await fetch(`${sim.venuek.urls.rest}/events?limit=1`)).status, 200)
  } finally {
    process.off('uncaughtException', onUncaught)
  }
})
