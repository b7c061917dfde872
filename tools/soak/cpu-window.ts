import { foreignLoad } from '../../bench/http/server-run.js'
import { processCpuSeconds } from '../../bench/cpu-usage.js'
import type { Spawned } from '../../bench/process.js'

/**
 * CPU over one sample window, from /proc: the service's and its store's, in cores, and the machine's CPU taken by
 * processes other than these two and this driver (bench/http/server-run.ts `foreignLoad`: someone's tests on a
 * shared VM). The soak judges its latency ceiling only in windows where that foreign load is small.
 */
export interface CpuWindow {
  readonly serviceCores: number
  readonly storeCores: number
  readonly foreignCores: number
}

export function startCpuWindow(servicePid: number, storePid: number | undefined): () => CpuWindow {
  const pids = storePid === undefined ? [servicePid] : [servicePid, storePid]
  const ours = pids.map((pid) => ({ child: { pid } }) as Spawned)
  const cpu = (pid: number | undefined): number => {
    if (pid === undefined) return Number.NaN
    try {
      return processCpuSeconds(pid)
    } catch {
      return Number.NaN
    }
  }
  const before = { service: cpu(servicePid), store: cpu(storePid), at: Date.now() }
  let foreign: (extra?: number) => number
  try {
    foreign = foreignLoad(ours)
  } catch {
    foreign = () => Number.NaN
  }
  return () => {
    const secs = (Date.now() - before.at) / 1000
    let foreignCores: number
    try {
      foreignCores = foreign()
    } catch {
      foreignCores = Number.NaN
    }
    return {
      serviceCores: (cpu(servicePid) - before.service) / secs,
      storeCores: (cpu(storePid) - before.store) / secs,
      foreignCores,
    }
  }
}
