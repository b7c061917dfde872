import { venuekPeer } from './venuek/peer.js'
import { venuepPeer } from './venuep/peer.js'

/**
 * The simulated venues, one line per peer folder under src/sim/, in the order of the service's registry
 * (src/venues/index.ts). Everything else in the simulator takes its venues from this list.
 */
export const SIM_PEERS = [venuepPeer, venuekPeer] as const

export type SimPeers = typeof SIM_PEERS
