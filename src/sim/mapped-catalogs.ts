import type { Config } from '../config/schema.js'
import type { Clock } from '../core/clock.js'
import { silentLogger } from '../core/logger.js'
import type { Catalog } from '../model/types.js'
import { createVenuekAdapter } from '../venues/venuek/adapter.js'
import { createVenuepAdapter } from '../venues/venuep/adapter.js'
import type { Simulator } from './simulator.js'

/**
 * Both venues' catalogs as the service maps them, fetched from a running simulator through the real adapters:
 * what the matcher sees in service, for the matcher's tests and `npm run eval:matching`. `closedLookbackDays`
 * widens which closed events are listed (a replay of old captures holds events closed years ago).
 */
export async function mappedCatalogs(sim: Simulator, config: Config, clock: Clock, closedLookbackDays?: number): Promise<{ venuep: Catalog; venuek: Catalog }> {
  const ctx = { clock, log: silentLogger }
  const lookback = <C extends { closedLookbackDays: number }>(c: C): C => (closedLookbackDays === undefined ? c : { ...c, closedLookbackDays })
  const vp = config.venues.venuep
  const vk = config.venues.venuek
  const p = createVenuepAdapter({ ...vp, catalog: lookback(vp.catalog), gammaUrl: sim.venuep.urls.gamma, clobUrl: sim.venuep.urls.clob, clobWsUrl: sim.venuep.urls.clobWs, dataUrl: sim.venuep.urls.data }, ctx)
  const k = createVenuekAdapter({ ...vk, catalog: lookback(vk.catalog), restUrl: sim.venuek.urls.rest, wsUrl: sim.venuek.urls.ws }, ctx)
  const signal = new AbortController().signal
  const [venuep, venuek] = await Promise.all([p.fetchCatalog(signal), k.fetchCatalog(signal)])
  return { venuep, venuek }
}
