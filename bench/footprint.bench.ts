import { childPids, peakRssMiB, rssMiB, spawnNode, startStandaloneSim, waitReady, MAIN_JS } from './process.js'

/**
 * Process-level figures: the service's resident memory with ~20,000 streamed books per venue at 20 levels a
 * side (the simulator runs in its own process, so only the service is measured), and time from process start
 * to /readyz 200 for `npm start`'s default (in-process simulator, default world).
 */
export interface Footprint {
  readonly instruments: { venuep: number; venuek: number }
  readonly levelsPerSide: number
  readonly readyMs: number
  readonly rssMiB: number
  readonly peakRssMiB: number
  /** RSS of the service's child processes (the embedded store's process), 0 when it has none. */
  readonly childrenRssMiB: number
}

export async function benchMemory(questions: number, serviceExtraEnv: Record<string, string> = {}): Promise<Footprint> {
  const { sim, serviceEnv } = await startStandaloneSim({
    SIM_QUESTIONS: String(questions),
    SIM_BOOK_DEPTH: '20',
    SIM_PORT_BASE: '17101',
    DATA_DIR: '/tmp/predmkt-bench',
  })
  const port = 18_090
  const service = spawnNode(MAIN_JS, { ...serviceEnv, ...serviceExtraEnv, PORT: String(port) })
  try {
    const started = Date.now()
    const { ms, body } = await waitReady(port, started)
    // Let the feeds run for a while so the figure includes steady-state garbage, not just the boot.
    await new Promise((r) => setTimeout(r, 10_000))
    const venues = body.venues as Record<string, { books: { instruments: number } }>
    return {
      instruments: { venuep: venues.venuep?.books.instruments ?? 0, venuek: venues.venuek?.books.instruments ?? 0 },
      levelsPerSide: 20,
      readyMs: ms,
      rssMiB: rssMiB(service.child.pid as number),
      peakRssMiB: peakRssMiB(service.child.pid as number),
      childrenRssMiB: childPids(service.child.pid as number).reduce((sum, pid) => sum + rssMiB(pid), 0),
    }
  } finally {
    await service.stop()
    await sim.stop()
  }
}

/** `npm start` on the default world: process start → ready (the TypeScript build step excluded). */
export async function benchStartup(): Promise<{ readyMs: number; body: Record<string, unknown> }> {
  const port = 18_091
  const started = Date.now()
  const service = spawnNode(MAIN_JS, { PORT: String(port), SIM_PORT_BASE: '0' })
  try {
    const { ms, body } = await waitReady(port, started)
    return { readyMs: ms, body }
  } finally {
    await service.stop()
  }
}
