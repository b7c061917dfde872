import type { Config } from '../config/schema.js'
import type { Clock } from '../core/clock.js'
import { silentLogger } from '../core/logger.js'
import type { Catalog } from '../model/types.js'
import type { PerPeer } from './peer.js'
import { SIM_PEERS, type SimPeers } from './peers.js'
import type { Simulator } from './simulator.js'

/**
 * Every simulated venue's catalog as the service maps it, fetched from a running simulator through the real
 * adapters, under its venue id: what the matcher sees in service, for the matcher's tests and `npm run
 * eval:matching`. `closedLookbackDays` widens which closed events are listed (a replay of old captures holds events
 * closed years ago).
 */
export async function mappedCatalogs(
  sim: Simulator,
  config: Config,
  clock: Clock,
  closedLookbackDays?: number,
): Promise<PerPeer<SimPeers, Catalog>> {
  const ctx = { clock, log: silentLogger }
  // `sim[peer.venue]` is that peer's own handle; TypeScript cannot pair the two across the list's union.
  const catalogs = await Promise.all(
    SIM_PEERS.map((peer) => peer.mappedCatalog(sim[peer.venue] as never, config, ctx, closedLookbackDays)),
  )
  return Object.fromEntries(SIM_PEERS.map((peer, i) => [peer.venue, catalogs[i]])) as PerPeer<SimPeers, Catalog>
}
