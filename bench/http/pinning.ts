import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import type { Spawned } from '../process.js'

/**
 * CPU placement on a 2-vCPU machine (`taskset -c`). `split`, the default: the server under test (service or
 * bare) on CPU 0, wrk and the simulator on CPU 1, so the measured server has a core to itself and never
 * competes with its own load generator. `none` leaves placement to the kernel. `split-3` (machines with ≥ 3
 * vCPUs) gives the simulator CPU 2, so a boosted simulator (the spreads top-list runs) does not compete with wrk.
 * BENCH_HTTP_PINNING picks one.
 */
export interface Pinning {
  readonly name: string
  readonly servers?: string
  readonly wrk?: string
  readonly sim?: string
}

export const PINNINGS: Readonly<Record<string, Pinning>> = {
  split: { name: 'split', servers: '0', wrk: '1', sim: '1' },
  'split-sim-free': { name: 'split-sim-free', servers: '0', wrk: '1' },
  'split-3': { name: 'split-3', servers: '0', wrk: '1', sim: '2' },
  none: { name: 'none' },
}

/**
 * Lowers every thread of a running process to `nice` (Linux keeps a nice value per thread; threads created later
 * inherit their creator's).
 */
export function renice(p: Spawned, nice: number): void {
  const pid = p.child.pid as number
  for (const tid of readdirSync(`/proc/${pid}/task`))
    execFileSync('renice', ['-n', String(nice), '-p', tid], { stdio: 'ignore' })
}

/**
 * Puts every thread of a running process in the SCHED_IDLE class (chrt): it runs on whatever CPU time normal tasks
 * leave, and a normal task that wakes on its CPU preempts it at once rather than at the end of its slice. For a load
 * generator that shares a CPU with a measuring process. Returns false when the kernel refused.
 */
export function schedIdle(p: Spawned): boolean {
  try {
    execFileSync('chrt', ['-a', '-i', '-p', '0', String(p.child.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Pins every thread of a running process (`-a`; threads created later inherit it from their creator). */
export function pin(p: Spawned, cpus: string | undefined): void {
  if (cpus === undefined) return
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(p.child.pid)], { stdio: 'ignore' })
}

export function describePinning(p: Pinning): string {
  if (p.servers === undefined && p.wrk === undefined && p.sim === undefined) return 'none (kernel placement)'
  const where = (cpus: string | undefined) => (cpus === undefined ? 'unpinned' : `CPU ${cpus}`)
  return `server under test on ${where(p.servers)}, wrk on ${where(p.wrk)}, simulator on ${where(p.sim)}`
}
