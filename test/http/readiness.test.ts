import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startApp } from '../../src/app.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { checkedLogger } from '../helpers/checked-logger.js'
import { freshPGlite } from '../helpers/db.js'
import { signUp, TEST_ANCHOR_MS } from '../helpers/service.js'

/**
 * /readyz is a promise to a client: at its first 200, every read it covers answers. The read models behind the
 * list endpoints are built in event-loop slices after the catalogs load, so a readiness that looked only at the
 * venues said "ready" while the lists still answered 503 `not_ready`.
 */
const LIST_READS = [
  '/api/v2/venuep/markets',
  '/api/v2/venuep/events',
  '/api/v2/venuep/prices',
  '/api/v2/venuek/markets',
  '/api/v2/venuek/events',
  '/api/v2/venuek/prices',
  '/api/v2/events',
  '/api/v2/sitemap/events',
  '/api/v2/spreads',
  '/api/v2/spreads/top',
]

test('at the first 200 of /readyz, polled from boot, every list endpoint answers 200', async () => {
  const clock = new SimulatedClock(TEST_ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  // Enough questions that the read-model build takes several event-loop slices after the venues are ready.
  const sim = await startSimulator({ config: { ...config.sim, questions: 1_500, wallets: 5, venuekAuth: true }, clock, anchorMs: TEST_ANCHOR_MS, startEngine: false })
  const db = await freshPGlite()
  const logs = checkedLogger()
  const app = await startApp({ config, log: logs.log, clock, simulator: sim, db })
  try {
    const base = `http://127.0.0.1:${app.port}`
    const key = await signUp(base, 'readiness@example.com')
    const headers = { 'x-api-key': key }
    const seen: number[] = []
    const deadline = Date.now() + 60_000
    for (;;) {
      assert.ok(Date.now() < deadline, `/readyz never answered 200 (statuses seen: ${[...new Set(seen)].join(', ')})`)
      const res = await fetch(`${base}/readyz`)
      const body = (await res.json()) as { status: string; read_models: { ready: boolean } }
      seen.push(res.status)
      if (res.status === 200) {
        assert.equal(body.status, 'ready')
        assert.equal(body.read_models.ready, true)
        break
      }
      assert.equal(res.status, 503)
      assert.equal(body.status, 'not_ready')
    }
    // No await between the 200 and these requests being sent: they all leave in the same turn.
    const answers = await Promise.all(LIST_READS.map(async (path) => ({ path, res: await fetch(`${base}${path}`, { headers }) })))
    const statuses = await Promise.all(answers.map(async ({ path, res }) => `${path} ${res.status}${res.status === 200 ? '' : ` ${await res.text()}`}`))
    assert.deepEqual(statuses, LIST_READS.map((path) => `${path} 200`))
    assert.ok(seen.includes(503), 'the poll started before the service was ready')
  } finally {
    await app.close()
    await sim.close()
    await db.close()
  }
  assert.deepEqual(logs.problems(), [])
})
