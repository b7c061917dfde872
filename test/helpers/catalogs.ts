import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock } from '../../src/core/clock.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { mappedCatalogs } from '../../src/sim/mapped-catalogs.js'
import type { Catalog } from '../../src/model/types.js'
import { REAL_CATALOG_DIR } from './fixtures.js'
import { TEST_ANCHOR_MS } from './service.js'

/** Both venues' catalogs as the service sees them: fetched from a simulator through the real adapters. */
export async function simulatorCatalogs(
  questions: number,
  seed = 42,
): Promise<{ sim: Simulator; venuep: CatalogSnapshot; venuek: CatalogSnapshot }> {
  const clock = new SimulatedClock(TEST_ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({
    config: { ...config.sim, questions, seed, venuekAuth: false },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  const { venuep, venuek } = await mappedCatalogs(sim, config, clock)
  return { sim, venuep: buildCatalogSnapshot(venuep, 1), venuek: buildCatalogSnapshot(venuek, 1) }
}

/**
 * Both venues' catalogs as the service maps them from real captured catalogs (test/fixtures/real-venues, or `dir`): the
 * simulator replays them and the real adapters fetch them, with a closed-event lookback long enough for every
 * captured event (the oldest closed in 2021).
 */
export async function replayedCatalogs(
  dir = REAL_CATALOG_DIR,
): Promise<{ sim: Simulator; venuep: Catalog; venuek: Catalog }> {
  const clock = new SimulatedClock(TEST_ANCHOR_MS)
  const config = loadConfig({ env: { NODE_ENV: 'test' } })
  const sim = await startSimulator({
    config: { ...config.sim, catalog: dir, wallets: 5, venuekAuth: false },
    clock,
    anchorMs: TEST_ANCHOR_MS,
    startEngine: false,
  })
  const { venuep, venuek } = await mappedCatalogs(
    sim,
    config,
    clock,
    Math.ceil((TEST_ANCHOR_MS - Date.UTC(2020, 0, 1)) / 86_400_000),
  )
  return { sim, venuep, venuek }
}
