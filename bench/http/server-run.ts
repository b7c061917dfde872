import { cpuShares, cpuTimes, processCpuSeconds } from '../cpu-usage.js'
import type { Spawned } from '../process.js'
import type { WrkResult } from '../wrk.js'
import { pct, type Ctx } from './context.js'
import type { FeedRates } from './feeds.js'

/** Measuring one run of a server under load: its CPU, the machine's, and other load that would spoil it. */

export const ATTEMPTS_PER_PAIR = 3
/** A pair with more foreign CPU than this in either run is repeated (it measured someone else's load). */
export const FOREIGN_LIMIT = 0.2

export interface ServerRun {
  readonly wrk: WrkResult
  /** CPU time of the measured server's process over the run, in cores (softirq network work not included). */
  readonly serverCores: number
  /** CPU time of the service's process during a bare run (its live feeds), in cores. */
  readonly idleServiceCores: number
  readonly simCores: number
  /** Busy share of each CPU over the run (includes softirq and steal). */
  readonly cpuBusy: readonly number[]
  readonly cpuSteal: readonly number[]
  /**
   * Process CPU on the machine beyond our processes (server, wrk, simulator, idle service, this bench), in
   * cores: other work on the shared VM, e.g. someone's test run. ~0.03 when the machine is ours. Interrupt
   * time (our loopback traffic) and hypervisor steal are not in it; steal is in `cpuSteal`.
   */
  readonly foreignCores: number
  /** Boosted service runs: what the service took in from its feeds meanwhile. */
  readonly feed?: FeedRates
}

export async function measuredRun(server: Spawned, ctx: Ctx, run: () => Promise<WrkResult>): Promise<ServerRun> {
  const pids = {
    server: server.child.pid as number,
    service: ctx.service.child.pid as number,
    sim: ctx.sim.child.pid as number,
  }
  const ours = server === ctx.service ? [ctx.service, ctx.sim] : [server, ctx.service, ctx.sim]
  const before = {
    server: processCpuSeconds(pids.server),
    service: processCpuSeconds(pids.service),
    sim: processCpuSeconds(pids.sim),
    cpus: cpuTimes(),
    at: process.hrtime.bigint(),
  }
  const load = foreignLoad(ours)
  const wrk = await run()
  const wall = Number(process.hrtime.bigint() - before.at) / 1e9
  const shares = cpuShares(before.cpus, cpuTimes())
  return {
    wrk,
    serverCores: (processCpuSeconds(pids.server) - before.server) / wall,
    idleServiceCores: server === ctx.service ? Number.NaN : (processCpuSeconds(pids.service) - before.service) / wall,
    simCores: (processCpuSeconds(pids.sim) - before.sim) / wall,
    cpuBusy: shares.map((c) => c.busy),
    cpuSteal: shares.map((c) => c.steal),
    foreignCores: load(wrk.wrkCpu),
  }
}

/**
 * Waits while other processes keep more than FOREIGN_LIMIT cores busy (someone's tests or load run on the
 * shared VM), within what is left of the bench's QUIET_BUDGET_MS; a pair measured in that load is repeated anyway.
 */
export async function machineQuiet(ctx: Ctx, ours: readonly Spawned[]): Promise<void> {
  for (let waited = 0; ;) {
    const load = foreignLoad(ours)
    await new Promise((r) => setTimeout(r, 1_000))
    const foreign = load()
    if (foreign <= FOREIGN_LIMIT || ctx.quietBudgetMs <= 0) {
      if (waited > 0)
        ctx.log(`waited ${waited} s for other load on the machine to pass (now ${foreign.toFixed(2)} cores)`)
      return
    }
    waited++
    ctx.quietBudgetMs -= 1_000
  }
}

/**
 * Starts counting CPU; the returned function gives the cores used since by anything but `ours`, this process
 * and `extraCores` (wrk, which is not a Spawned).
 */
export function foreignLoad(ours: readonly Spawned[]): (extraCores?: number) => number {
  const pids = ours.map((p) => p.child.pid as number)
  const before = {
    ours: pids.map(processCpuSeconds),
    self: process.cpuUsage(),
    cpus: cpuTimes(),
    at: process.hrtime.bigint(),
  }
  return (extraCores = 0) => {
    const wall = Number(process.hrtime.bigint() - before.at) / 1e9
    const task = cpuShares(before.cpus, cpuTimes()).reduce((a, c) => a + c.task, 0)
    const self = process.cpuUsage(before.self)
    const used =
      pids.reduce((a, pid, i) => a + processCpuSeconds(pid) - (before.ours[i] as number), 0) +
      (self.user + self.system) / 1e6
    return Math.max(0, task - used / wall - extraCores)
  }
}

export function describeRun(r: ServerRun): string {
  const w = r.wrk
  const cpus = r.cpuBusy
    .map((b, i) => `cpu${i} ${pct(b)}${(r.cpuSteal[i] ?? 0) >= 0.02 ? ` (steal ${pct(r.cpuSteal[i] as number)})` : ''}`)
    .join(', ')
  const idle = Number.isNaN(r.idleServiceCores) ? '' : `, idle service ${pct(r.idleServiceCores)}`
  const feed =
    r.feed === undefined
      ? ''
      : `; feeds ${r.feed.framesPerSec.toFixed(0)} frames/s, ${r.feed.recomputesPerSec.toFixed(0)} spread recomputations/s, ${r.feed.pageMissesPerSec.toFixed(0)} page rebuilds/s, max mailbox ${r.feed.maxMailbox}`
  return `${w.requestsPerSec.toFixed(0)} req/s, p50 ${w.p50Ms.toFixed(2)} ms, p99 ${w.p99Ms.toFixed(2)} ms, max ${w.maxMs.toFixed(1)} ms, ${w.bytesPerResponse.toFixed(0)} B/response; process CPU: server ${pct(r.serverCores)}, wrk ${pct(w.wrkCpu)}, sim ${pct(r.simCores)}${idle}; ${cpus}; foreign ${r.foreignCores.toFixed(2)} cores${feed}`
}
