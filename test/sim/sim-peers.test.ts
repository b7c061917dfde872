import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { FaultPlan } from '../../src/sim/faults.js'
import { mappedCatalogs } from '../../src/sim/mapped-catalogs.js'
import { SIM_PEERS } from '../../src/sim/peers.js'
import { serviceEnvFor } from '../../src/sim/service-env.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { venuepOf } from '../../src/sim/venuep/state.js'
import { venuekOf } from '../../src/sim/venuek/state.js'

/**
 * The simulator takes its venues from the sim list (src/sim/peers.ts): each peer is started under its venue id,
 * with its own faults, and says what environment points the service at it, what its catalog maps to and its part of
 * the description. What an operator sees (the printed environment, the description) is the same as before the list.
 */
const ANCHOR_MS = Date.UTC(2026, 10, 21, 12)
const config = loadConfig({ env: { NODE_ENV: 'test' } })

test('every peer of the sim list is started, described and pointed at, in list order', async () => {
  assert.deepEqual(
    SIM_PEERS.map((p) => p.venue),
    ['venuep', 'venuek'],
  )
  const dataDir = mkdtempSync(join(tmpdir(), 'sim-peers-'))
  const clock = new SimulatedClock(ANCHOR_MS)
  const sim = await startSimulator({
    config: { ...config.sim, questions: 40, wallets: 5, venuekAuth: true },
    clock,
    anchorMs: ANCHOR_MS,
    startEngine: false,
  })
  try {
    for (const peer of SIM_PEERS) assert.ok(sim[peer.venue].faults instanceof FaultPlan, peer.venue)
    assert.notEqual(sim.venuep.faults, sim.venuek.faults)
    assert.equal(
      sim.description,
      `simulated venues (seed ${config.sim.seed}, calendar 2026-11-21T12:00Z, 40 questions, ${venuepOf(sim.world).events.length} venuep events, ${venuekOf(sim.world).events.length} venuek events)`,
    )

    const env = serviceEnvFor(sim, dataDir)
    const keyPath = join(dataDir, 'sim-venuek-key.pem')
    assert.deepEqual(env, {
      SIM_EXTERNAL: '1',
      VENUEP_GAMMA_URL: sim.venuep.urls.gamma,
      VENUEP_CLOB_URL: sim.venuep.urls.clob,
      VENUEP_CLOB_WS_URL: sim.venuep.urls.clobWs,
      VENUEP_DATA_URL: sim.venuep.urls.data,
      VENUEP_EVENT_URL_TEMPLATE: `${sim.venuep.urls.gamma}/events/slug/{slug}`,
      VENUEK_REST_URL: sim.venuek.urls.rest,
      VENUEK_WS_URL: sim.venuek.urls.ws,
      VENUEK_EVENT_URL_TEMPLATE: `${sim.venuek.urls.rest}/events/{event_ticker}`,
      VENUEK_API_KEY_ID: `sim-key-${config.sim.seed}`,
      VENUEK_PRIVATE_KEY_PATH: keyPath,
    })
    // deepEqual ignores key order; the printed order is the list's, the same block an operator copied before.
    assert.deepEqual(Object.keys(env), [
      'SIM_EXTERNAL',
      'VENUEP_GAMMA_URL',
      'VENUEP_CLOB_URL',
      'VENUEP_CLOB_WS_URL',
      'VENUEP_DATA_URL',
      'VENUEP_EVENT_URL_TEMPLATE',
      'VENUEK_REST_URL',
      'VENUEK_WS_URL',
      'VENUEK_EVENT_URL_TEMPLATE',
      'VENUEK_API_KEY_ID',
      'VENUEK_PRIVATE_KEY_PATH',
    ])
    assert.equal(readFileSync(keyPath, 'utf8'), sim.venuekCredentials?.privateKeyPem)
    assert.equal(statSync(keyPath).mode & 0o777, 0o600)
    assert.match(sim.venuekPublicKeyPem ?? '', /BEGIN PUBLIC KEY/)

    const catalogs = await mappedCatalogs(sim, config, clock)
    assert.deepEqual(Object.keys(catalogs), ['venuep', 'venuek'])
    assert.ok(catalogs.venuep.events.length > 0 && catalogs.venuek.events.length > 0)
  } finally {
    await sim.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
})
