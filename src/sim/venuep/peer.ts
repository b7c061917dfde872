import { createVenuepAdapter } from '../../venues/venuep/adapter.js'
import { FaultPlan } from '../faults.js'
import type { SimPeer } from '../peer.js'
import type { VpCapturedEvent } from './capture-schema.js'
import { readVenuepCapture } from './capture-file.js'
import { startVenuepSim, type VenuepSim } from './index.js'
import { buildVenuepBooks, buildVenuepHistory } from './initial-state.js'
import { listVenuep } from './listing.js'
import { replayVenuep } from './replay.js'
import { generateWallets } from './wallets.js'
import { venuepOf, VENUE } from './state.js'
import { venuepMoves } from './engine-moves.js'

export type StartedVenuep = VenuepSim & { readonly faults: FaultPlan }

/** venuep as a simulator peer (peer.ts): Gamma, CLOB and Data API on three loopback ports. */
export const venuepPeer: SimPeer<'venuep', StartedVenuep, object, readonly VpCapturedEvent[]> = {
  venue: VENUE,
  world: {
    moves: venuepMoves,
    truthLeg(world, contractKey) {
      const listed = venuepOf(world).listing.get(contractKey)
      if (listed === undefined) return undefined
      const { market, index } = listed
      return {
        venue: VENUE,
        event: market.event.slug,
        market: market.conditionId,
        outcome: market.tokenIds[index],
        outcomeIndex: index,
      }
    },
    list: listVenuep,
    addOwnListings: () => {},
    buildBooks: buildVenuepBooks,
    buildHistory: buildVenuepHistory,
    readCapture: readVenuepCapture,
    replay: replayVenuep,
    capturedMarkets: (events) => events.reduce((n, e) => n + e.markets.length, 0),
    replayTraders(world, count, rng) {
      for (const w of generateWallets(rng, count, world.anchorMs)) {
        venuepOf(world).wallets.push(w)
        venuepOf(world).walletsByAddress.set(w.address, w)
      }
    },
  },
  async start({ world, engine, clock, config, portsFromConfig }) {
    const faults = new FaultPlan()
    const ports = portsFromConfig
      ? { gamma: config.ports.gamma, clob: config.ports.clob, data: config.ports.data }
      : { gamma: 0, clob: 0, data: 0 }
    const sim = await startVenuepSim({ world, engine, clock, faults, host: config.host, ports })
    return Object.assign(sim, { faults })
  },
  simulatorFields: () => ({}),
  events: (world) => venuepOf(world).events.length,
  ownLadders: () => undefined,
  serviceEnv: (sim) => ({
    VENUEP_GAMMA_URL: sim.urls.gamma,
    VENUEP_CLOB_URL: sim.urls.clob,
    VENUEP_CLOB_WS_URL: sim.urls.clobWs,
    VENUEP_DATA_URL: sim.urls.data,
    VENUEP_EVENT_URL_TEMPLATE: `${sim.urls.gamma}/events/slug/{slug}`,
  }),
  mappedCatalog(sim, config, ctx, closedLookbackDays) {
    const vp = config.venues.venuep
    const catalog = closedLookbackDays === undefined ? vp.catalog : { ...vp.catalog, closedLookbackDays }
    const adapter = createVenuepAdapter(
      {
        ...vp,
        catalog,
        gammaUrl: sim.urls.gamma,
        clobUrl: sim.urls.clob,
        clobWsUrl: sim.urls.clobWs,
        dataUrl: sim.urls.data,
      },
      ctx,
    )
    return adapter.fetchCatalog(new AbortController().signal)
  },
}
