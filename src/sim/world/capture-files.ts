import { resolve } from 'node:path'
import type { CaptureOf } from '../peer.js'
import { SIM_PEERS, type SimPeers } from '../peers.js'

export { CaptureFormatError } from './capture-check.js'

/**
 * Reads a directory of captured catalogs (one file per simulated venue, `<venue>.json`, in
 * test/fixtures/real-venues/FORMAT.md): each peer of the sim list reads and checks its own (peer.ts `readCapture`)
 * before a replay builds on them.
 */
export type CapturedCatalogs = {
  /** Absolute directory the files were read from. */
  readonly dir: string
} & PerPeerCaptures

type PerPeerCaptures = { readonly [P in SimPeers[number] as P['venue']]: CaptureOf<P> }

/** `dir` relative to the process's working directory, like every other path in the configuration. */
export function readCapturedCatalogs(dir: string): CapturedCatalogs {
  const abs = resolve(dir)
  const captures = Object.fromEntries(SIM_PEERS.map((peer) => [peer.venue, peer.world.readCapture(abs)]))
  return { dir: abs, ...captures } as CapturedCatalogs
}
