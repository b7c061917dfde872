import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Helpers for benches that run the service and the simulator as separate processes. */
const DIST = join(dirname(fileURLToPath(import.meta.url)), '..')
export const MAIN_JS = join(DIST, 'src/main.js')
/** The standalone simulator with a switchable boost of market activity (bench/sim-child.ts). */
export const SIM_CHILD_JS = join(DIST, 'bench/sim-child.js')

// One way to run a node child and the standalone simulator, shared with the tests that measure whole processes.
// With SIM_CHILD_JS as its script, the simulator has a boost switch (BENCH_SIM_BOOST_PER_SEC in its env).
export { childPids, spawnNode, startStandaloneSim, type Child as Spawned } from '../test/helpers/processes.js'

/** Polls /readyz until 200; returns the ms it took and the body. */
export async function waitReady(
  port: number,
  startedAt: number,
  timeoutMs = 120_000,
): Promise<{ ms: number; body: Record<string, unknown> }> {
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`)
      if (res.status === 200) return { ms: Date.now() - startedAt, body: (await res.json()) as Record<string, unknown> }
    } catch {
      // not listening yet
    }
    if (Date.now() - startedAt > timeoutMs) throw new Error(`service not ready after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN)
  return kb / 1024
}

export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024
}
