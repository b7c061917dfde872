import { resolve } from 'node:path'
import { buildCatalogSnapshot, type CatalogSnapshot } from '../../src/actors/catalog-snapshot.js'
import { loadConfig } from '../../src/config/load.js'
import { SimulatedClock, systemClock } from '../../src/core/clock.js'
import { silentLogger } from '../../src/core/logger.js'
import { mappedCatalogs } from '../../src/sim/mapped-catalogs.js'
import { startSimulator } from '../../src/sim/simulator.js'
import { VENUES } from '../../src/venues/index.js'
import { venueConfig } from '../../src/venues/module.js'

/**
 * The two venues' catalogs as the service maps them, for the matching tools (tools/matches-review.ts): from captured
 * catalogs replayed by the simulator (`catalog`: a directory in the format of test/fixtures/real-venues/FORMAT.md),
 * from the simulated world the service would start (the config's `sim` section), or from the real venues over the
 * network (`live`, what `VENUES=live npm start` reads). The first two venues of the registry, as matching pairs them.
 */
export interface CatalogSource {
  readonly catalog?: string
  readonly live?: boolean
}

export interface LoadedCatalogs {
  readonly a: CatalogSnapshot
  readonly b: CatalogSnapshot
  readonly description: string
}

/** The replay's clock (as the eval's): every captured event listed, closed ones included. */
const REPLAY_ANCHOR_MS = Date.UTC(2026, 10, 21, 12)

export async function loadCatalogs(source: CatalogSource): Promise<LoadedCatalogs> {
  const config = loadConfig(source.live === true ? { env: { ...process.env, VENUES: 'live' } } : {})
  if (source.live === true) {
    const [ma, mb] = VENUES
    if (ma === undefined || mb === undefined) throw new Error('matching needs two registered venues')
    const fetch = async (m: typeof ma) => {
      const section = venueConfig(config, m)
      const secrets: unknown = m.readSecrets?.({ config: section, simulator: undefined, log: silentLogger })
      const adapter = m.createAdapter(section, { clock: systemClock, log: silentLogger }, secrets)
      return buildCatalogSnapshot(await adapter.fetchCatalog(new AbortController().signal), 1)
    }
    return { a: await fetch(ma), b: await fetch(mb), description: 'the live venues' }
  }
  const replay = source.catalog === undefined ? undefined : resolve(source.catalog)
  const anchor = replay === undefined ? Date.now() : REPLAY_ANCHOR_MS
  const clock = new SimulatedClock(anchor)
  const sim = await startSimulator({
    config:
      replay === undefined
        ? { ...config.sim, venuekAuth: false }
        : { ...config.sim, catalog: replay, wallets: 5, venuekAuth: false },
    clock,
    anchorMs: anchor,
    startEngine: false,
  })
  try {
    const lookback = replay === undefined ? undefined : Math.ceil((anchor - Date.UTC(2020, 0, 1)) / 86_400_000)
    const c = await mappedCatalogs(sim, config, clock, lookback)
    return {
      a: buildCatalogSnapshot(c.venuep, 1),
      b: buildCatalogSnapshot(c.venuek, 1),
      description: replay === undefined ? `the simulated world (seed ${config.sim.seed})` : `the catalogs in ${replay}`,
    }
  } finally {
    await sim.close()
  }
}
