import { generateKeyPairSync } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createVenuekAdapter } from '../../venues/venuek/adapter.js'
import type { VenuekCredentials } from '../../venues/venuek/signing.js'
import { FaultPlan } from '../faults.js'
import type { SimPeer } from '../peer.js'
import type { VkCapturedEvent } from './capture-schema.js'
import { readVenuekCapture } from './capture-file.js'
import { startVenuekSim, type VenuekSim } from './index.js'
import { buildVenuekBooks, buildVenuekHistory } from './initial-state.js'
import { addVenuekOnlyLadders } from './ladders.js'
import { listVenuek } from './listing.js'
import { replayVenuek } from './replay.js'
import { venuekOf, VENUE } from './state.js'
import { venuekMoves } from './engine-moves.js'

export interface StartedVenuek extends VenuekSim {
  readonly faults: FaultPlan
  /** The simulated account's key, present when signed WebSocket handshakes are required (`sim.venuekAuth`). */
  readonly credentials: (VenuekCredentials & { readonly publicKeyPem: string }) | undefined
}

/** What the venuek peer adds to the simulator: the simulated account the service signs with. */
export interface VenuekSimulatorFields {
  /** The simulator's venuek API key, present when signed WebSocket handshakes are required. */
  readonly venuekCredentials: VenuekCredentials | undefined
  readonly venuekPublicKeyPem: string | undefined
}

/** venuek as a simulator peer (peer.ts): REST and WebSocket on one loopback port. */
export const venuekPeer: SimPeer<'venuek', StartedVenuek, VenuekSimulatorFields, readonly VkCapturedEvent[]> = {
  venue: VENUE,
  world: {
    moves: venuekMoves,
    truthLeg(world, contractKey) {
      const m = venuekOf(world).listing.get(contractKey)
      return m === undefined
        ? undefined
        : { venue: VENUE, event: m.event.eventTicker, market: m.ticker, outcome: m.ticker }
    },
    list: listVenuek,
    // Seeded per event, drawn only when there are some: at 0 nothing else in the world changes.
    addOwnListings(world) {
      const count = world.options.ownLadders?.venuek ?? 0
      if (count > 0) addVenuekOnlyLadders(world, count)
    },
    buildBooks: buildVenuekBooks,
    buildHistory: buildVenuekHistory,
    readCapture: readVenuekCapture,
    replay: replayVenuek,
    capturedMarkets: (events) => events.reduce((n, e) => n + e.markets.length, 0),
    replayTraders: () => {},
  },
  async start({ world, engine, clock, config, portsFromConfig }) {
    const credentials = config.venuekAuth ? simulatorKey(config.seed) : undefined
    const faults = new FaultPlan()
    const sim = await startVenuekSim({
      world,
      engine,
      clock,
      faults,
      host: config.host,
      port: portsFromConfig ? config.ports.venuek : 0,
      auth:
        credentials === undefined
          ? undefined
          : { required: true, publicKeys: new Map([[credentials.keyId, credentials.publicKeyPem]]) },
    })
    return Object.assign(sim, { faults, credentials })
  },
  simulatorFields: (sim) => ({
    venuekCredentials:
      sim.credentials === undefined
        ? undefined
        : { keyId: sim.credentials.keyId, privateKeyPem: sim.credentials.privateKeyPem },
    venuekPublicKeyPem: sim.credentials?.publicKeyPem,
  }),
  events: (world) => venuekOf(world).events.length,
  ownLadders: (config) => config.venuekOnlyLadders,
  serviceEnv(sim, dataDir) {
    const env: Record<string, string> = {
      VENUEK_REST_URL: sim.urls.rest,
      VENUEK_WS_URL: sim.urls.ws,
      VENUEK_EVENT_URL_TEMPLATE: `${sim.urls.rest}/events/{event_ticker}`,
    }
    if (sim.credentials !== undefined) {
      // The service reads the key from a file: written to the data directory, readable by its owner only.
      const dir = resolve(dataDir)
      mkdirSync(dir, { recursive: true })
      const keyPath = join(dir, 'sim-venuek-key.pem')
      writeFileSync(keyPath, sim.credentials.privateKeyPem, { mode: 0o600 })
      env.VENUEK_API_KEY_ID = sim.credentials.keyId
      env.VENUEK_PRIVATE_KEY_PATH = keyPath
    }
    return env
  },
  mappedCatalog(sim, config, ctx, closedLookbackDays) {
    const vk = config.venues.venuek
    const catalog = closedLookbackDays === undefined ? vk.catalog : { ...vk.catalog, closedLookbackDays }
    const adapter = createVenuekAdapter({ ...vk, catalog, restUrl: sim.urls.rest, wsUrl: sim.urls.ws }, ctx)
    return adapter.fetchCatalog(new AbortController().signal)
  },
}

/** A fresh RSA key for the simulated venuek account (the real venue issues RSA keys only). */
function simulatorKey(seed: number): { keyId: string; privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    keyId: `sim-key-${seed}`,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  }
}
