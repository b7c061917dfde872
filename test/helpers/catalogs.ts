import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { createVenuekAdapter } from '../../src/venues/venuek/adapter.js'
import { createVenuepAdapter } from '../../src/venues/venuep/adapter.js'
import { TEST_ANCHOR_MS } from './service.js'

/** Both venues' catalogs as the service sees them: fetched from a simulator through the real adapters. */
export async function simulatorCatalogs(questions: number, seed = 42): Promise<{ sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }> {
  const clock = new SimulatedClock(TEST_ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({ config: { ...config.sim, questions, seed, venuekAuth: false }, clock, anchorMs: TEST_ANCHOR_MS, startEngine: false })
  const ctx = { clock, log: silentLogger }
  const p = createVenuepAdapter({ ...config.venues.venuep, gammaUrl: sim.venuep.urls.gamma, clobUrl: sim.venuep.urls.clob, clobWsUrl: sim.venuep.urls.clobWs, dataUrl: sim.venuep.urls.data }, ctx)
  const k = createVenuekAdapter({ ...config.venues.venuek, restUrl: sim.venuek.urls.rest, wsUrl: sim.venuek.urls.ws }, ctx)
  const signal = new AbortController().signal
  const [cp, ck] = await Promise.all([p.fetchCatalog(signal), k.fetchCatalog(signal)])
  return { sim, venuep: buildCatalogSnapshot(cp, 1), venuek: buildCatalogSnapshot(ck, 1) }
}
