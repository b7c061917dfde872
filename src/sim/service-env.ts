import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Simulator } from './simulator.js'

/**
 * The environment that points the service at a running standalone simulator (printed by `npm run sim`, read
 * by the benches). With venuek credentials configured, the simulator's private key is written to `dataDir`.
 */
export function serviceEnvFor(sim: Simulator, dataDir: string): Record<string, string> {
  const env: Record<string, string> = {
    SIM_EXTERNAL: '1',
    VENUEP_GAMMA_URL: sim.venuep.urls.gamma,
    VENUEP_CLOB_URL: sim.venuep.urls.clob,
    VENUEP_CLOB_WS_URL: sim.venuep.urls.clobWs,
    VENUEP_DATA_URL: sim.venuep.urls.data,
    VENUEP_EVENT_URL_TEMPLATE: `${sim.venuep.urls.gamma}/events/slug/{slug}`,
    VENUEK_REST_URL: sim.venuek.urls.rest,
    VENUEK_WS_URL: sim.venuek.urls.ws,
    VENUEK_EVENT_URL_TEMPLATE: `${sim.venuek.urls.rest}/events/{event_ticker}`,
  }
  if (sim.venuekCredentials !== undefined) {
    const dir = resolve(dataDir)
    mkdirSync(dir, { recursive: true })
    const keyPath = join(dir, 'sim-venuek-key.pem')
    writeFileSync(keyPath, sim.venuekCredentials.privateKeyPem, { mode: 0o600 })
    env.VENUEK_API_KEY_ID = sim.venuekCredentials.keyId
    env.VENUEK_PRIVATE_KEY_PATH = keyPath
  }
  return env
}
