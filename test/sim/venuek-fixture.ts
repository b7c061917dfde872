import { generateKeyPairSync } from 'node:crypto'
import { SimulatedClock } from '../../src/core/clock.js'
import { FaultPlan } from '../../src/sim/faults.js'
import { startVenuekSim, type VenuekSim } from '../../src/sim/venuek/index.js'
import { SimEngine } from '../../src/sim/world/engine.js'
import { generateWorld, type World } from '../../src/sim/world/generate.js'
import type { VkMarket } from '../../src/sim/venuek/types.js'
import type { VenuekCredentials } from '../../src/venues/venuek/signing.js'
import { venuekOf } from '../../src/sim/venuek/state.js'
import { SIM_PEERS } from '../../src/sim/peers.js'

/**
 * Shared setup for the venuek simulator tests: a small seeded world, a simulated clock at the world's anchor,
 * an engine that only moves when a test drives it, an RSA key pair, and the simulator requiring signed
 * WebSocket handshakes.
 */
export const ANCHOR_MS = Date.UTC(2026, 10, 21, 12)
export const DAY_MS = 86_400_000
export const KEY_ID = '3f6d0c52-9a1e-4c57-8b1d-5e0c2a7d91aa'

export interface VenuekFixture {
  readonly world: World
  readonly clock: SimulatedClock
  readonly engine: SimEngine
  readonly faults: FaultPlan
  readonly sim: VenuekSim
  readonly creds: VenuekCredentials
  readonly publicKeyPem: string
}

export function newKeyPair(): { publicKey: string; privateKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  })
}

export async function startFixture(): Promise<VenuekFixture> {
  const world = generateWorld({ anchorMs: ANCHOR_MS, questions: 150, wallets: 20 })
  const clock = new SimulatedClock(ANCHOR_MS)
  // Rates of zero: tests drive book moves and trades explicitly, so every frame has a known cause.
  const engine = new SimEngine(world, {
    peers: SIM_PEERS,
    clock,
    quoteChangesPerSec: 0,
    tradesPerSec: 0,
    stepMs: 100,
    dislocationsPerMin: 0,
  })
  const faults = new FaultPlan()
  const keys = newKeyPair()
  const sim = await startVenuekSim({
    world,
    engine,
    clock,
    faults,
    auth: { required: true, publicKeys: new Map([[KEY_ID, keys.publicKey]]) },
    heartbeatMs: 10_000,
  })
  return {
    world,
    clock,
    engine,
    faults,
    sim,
    creds: { keyId: KEY_ID, privateKeyPem: keys.privateKey },
    publicKeyPem: keys.publicKey,
  }
}

export async function getJson(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(baseUrl + path, { headers })
  const text = await res.text()
  return { status: res.status, body: JSON.parse(text) }
}

export function activeMarkets(world: World): VkMarket[] {
  return venuekOf(world).markets.filter((m) => venuekOf(world).books.has(m.ticker))
}

/** The venue status a market should show, derived from the world independently of the simulator's code. */
export function expectedStatus(m: VkMarket, now: number): string {
  const q = m.canonical
  if (q.lifecycle === 'active') return 'active'
  if (q.lifecycle === 'closed') return 'closed'
  return now - (q.resolvedAt as number) < DAY_MS ? 'determined' : 'finalized'
}

/** Micro-units → the venue's 4-dp price string, computed without the simulator's formatter. */
export const price4 = (micros: number): string => (micros / 1e6).toFixed(4)
export const size2 = (micros: number): string => (micros / 1e6).toFixed(2)
