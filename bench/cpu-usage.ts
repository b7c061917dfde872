import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * CPU accounting for process benches, from /proc. Per-process time misses the loopback TCP work the kernel
 * does in softirq context, so the HTTP bench also reports per-CPU busy shares: with the server pinned to one
 * CPU, that CPU's busy share is the honest "is the server saturated" figure.
 */
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100

/** User + system CPU seconds of a process, all threads. */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the parenthesised command name (which may contain spaces); utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK
}

export interface CpuSample {
  readonly busy: number
  /** user + nice + system: what processes' utime/stime add up to (interrupts and steal excluded). */
  readonly task: number
  /** Time the hypervisor ran someone else on this vCPU (shared VM). */
  readonly steal: number
  readonly total: number
}

/** One sample per CPU from /proc/stat; busy counts everything but idle and iowait (steal included). */
export function cpuTimes(): CpuSample[] {
  const out: CpuSample[] = []
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    if (!/^cpu\d+ /.test(line)) continue
    const t = line.trim().split(/\s+/).slice(1, 9).map(Number)
    const total = t.reduce((a, b) => a + b, 0)
    out.push({
      busy: total - (t[3] as number) - (t[4] as number),
      task: (t[0] as number) + (t[1] as number) + (t[2] as number),
      steal: t[7] as number,
      total,
    })
  }
  return out
}

/** Busy, task and steal shares of each CPU between two samples (0..1). */
export function cpuShares(
  before: readonly CpuSample[],
  after: readonly CpuSample[],
): { busy: number; task: number; steal: number }[] {
  return after.map((a, i) => {
    const b = before[i] as CpuSample
    const dt = a.total - b.total
    return dt === 0
      ? { busy: 0, task: 0, steal: 0 }
      : { busy: (a.busy - b.busy) / dt, task: (a.task - b.task) / dt, steal: (a.steal - b.steal) / dt }
  })
}
