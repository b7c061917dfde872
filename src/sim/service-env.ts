import { SIM_PEERS } from './peers.js'
import type { Simulator } from './simulator.js'

/**
 * The environment that points the service at a running standalone simulator (printed by `npm run sim`, read
 * by the benches): each peer's (peer.ts `serviceEnv`), in the sim list's order. A peer may write files the service
 * reads (a simulated account's private key) to `dataDir`.
 */
export function serviceEnvFor(sim: Simulator, dataDir: string): Record<string, string> {
  const env: Record<string, string> = { SIM_EXTERNAL: '1' }
  // `sim[peer.venue]` is that peer's own handle; TypeScript cannot pair the two across the list's union.
  for (const peer of SIM_PEERS) Object.assign(env, peer.serviceEnv(sim[peer.venue] as never, dataDir))
  return env
}
