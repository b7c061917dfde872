import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { createVenuekAdapter } from '../../src/venues/venuek/adapter.js'
import { createVenuepAdapter } from '../../src/venues/venuep/adapter.js'
import type { Catalog } from '../../src/model/types.js'
import { REAL_CATALOG_DIR } from './fixtures.js'
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

/**
 * Both venues' catalogs as the service maps them from the real captured catalogs (test/fixtures/real-venues): the
 * simulator replays them and the real adapters fetch them, with a closed-event lookback long enough for every
 * captured event (the oldest closed in 2021).
 */
export async function replayedCatalogs(): Promise<{ sim: Simulator; venuep: Catalog; venuek: Catalog }> {
  const clock = new SimulatedClock(TEST_ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({ config: { ...config.sim, catalog: REAL_CATALOG_DIR, wallets: 5, venuekAuth: false }, clock, anchorMs: TEST_ANCHOR_MS, startEngine: false })
  const ctx = { clock, log: silentLogger }
  const lookback = <C extends { closedLookbackDays: number }>(c: C): C => ({ ...c, closedLookbackDays: Math.ceil((TEST_ANCHOR_MS - Date.UTC(2020, 0, 1)) / 86_400_000) })
  const vp = config.venues.venuep
  const vk = config.venues.venuek
  const p = createVenuepAdapter({ ...vp, catalog: lookback(vp.catalog), gammaUrl: sim.venuep.urls.gamma, clobUrl: sim.venuep.urls.clob, clobWsUrl: sim.venuep.urls.clobWs, dataUrl: sim.venuep.urls.data }, ctx)
  const k = createVenuekAdapter({ ...vk, catalog: lookback(vk.catalog), restUrl: sim.venuek.urls.rest, wsUrl: sim.venuek.urls.ws }, ctx)
  const signal = new AbortController().signal
  const [venuep, venuek] = await Promise.all([p.fetchCatalog(signal), k.fetchCatalog(signal)])
  return { sim, venuep, venuek }
}
