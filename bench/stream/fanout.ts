import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cpuShares, cpuTimes, processCpuSeconds } from '../cpu-usage.js'
import { foreignLoad } from '../http/server-run.js'
import { pin } from '../http/pinning.js'
import { spawnNode, type Spawned } from '../process.js'
import { ClientsProcess } from './clients-driver.js'
import { FANOUT_API_KEY, FANOUT_KEYS } from './frames.js'

/**
 * Fan-out: the same 1,000 clients (one lean-clients process), subscribed to the same FANOUT_KEYS, against the
 * service's publish path (fanout-service.ts) and a bare uWS app publishing the same bytes (fanout-bare.ts), each
 * publishing as fast as the slowest client takes frames (pacing.ts). Runs alternate bare, service, bare, service,
 * so the VM's drift falls on both; each server and the clients get a fresh process, the server on CPU 0, the
 * clients on CPU 1.
 */
const HERE = dirname(fileURLToPath(import.meta.url))
export const FANOUT_CLIENTS = Number(process.env.BENCH_STREAM_FANOUT_CLIENTS ?? '') || 1_000
export const FANOUT_WARMUP_MS = 2_000
export const FANOUT_MEASURE_MS = Number(process.env.BENCH_STREAM_FANOUT_MS ?? '') || 6_000
export const FANOUT_PAIRS = 3

export type FanoutServer = 'bare' | 'service'

export interface FanoutRun {
  readonly server: FanoutServer
  /** Deltas received per second, all clients together. */
  readonly framesPerSec: number
  /** Frames published per second (each reaches every client). */
  readonly publishesPerSec: number
  readonly serverCores: number
  readonly clientsCores: number
  readonly cpuBusy: readonly number[]
  /** Process CPU on the machine beyond the server, the clients and this bench, in cores (another user's load). */
  readonly foreignCores: number
  readonly connectMs: number
}

export async function fanoutRun(server: FanoutServer, log: (line: string) => void): Promise<FanoutRun> {
  const script = join(HERE, server === 'bare' ? 'fanout-bare.js' : 'fanout-service.js')
  // BENCH_STREAM_SERVER_NODE_ARGS: node flags for the server (e.g. --cpu-prof to see where its time goes).
  const nodeArgs = (process.env.BENCH_STREAM_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const spawned = spawnNode(script, {}, nodeArgs)
  const clients = new ClientsProcess()
  try {
    const port = await listening(spawned)
    pin(spawned, '0')
    pin({ child: clients.child } as Spawned, '1')
    const connected = await clients.do<{ ms: number }>({
      op: 'lean',
      port,
      n: FANOUT_CLIENTS,
      apiKey: FANOUT_API_KEY,
      keys: [...FANOUT_KEYS],
    })
    await clients.do({ op: 'run', on: true })
    await sleep(FANOUT_WARMUP_MS)
    const foreign = foreignLoad([spawned, { child: clients.child } as Spawned])
    const before = {
      count: await clients.do<Count>({ op: 'count' }),
      server: processCpuSeconds(spawned.child.pid as number),
      cpus: cpuTimes(),
    }
    await sleep(FANOUT_MEASURE_MS)
    const after = {
      count: await clients.do<Count>({ op: 'count' }),
      server: processCpuSeconds(spawned.child.pid as number),
      cpus: cpuTimes(),
    }
    await clients.do({ op: 'run', on: false })
    const wall = (after.count.at - before.count.at) / 1000
    const clientsCpu =
      (after.count.cpu.user + after.count.cpu.system - before.count.cpu.user - before.count.cpu.system) / 1e6
    const run: FanoutRun = {
      server,
      framesPerSec: (after.count.deltas - before.count.deltas) / wall,
      publishesPerSec: (after.count.slowest - before.count.slowest) / wall,
      serverCores: (after.server - before.server) / wall,
      clientsCores: clientsCpu / wall,
      cpuBusy: cpuShares(before.cpus, after.cpus).map((c) => c.busy),
      foreignCores: foreign(),
      connectMs: connected.ms,
    }
    log(
      `fan-out, ${server}: ${Math.round(run.framesPerSec).toLocaleString('en-US')} frames/s delivered (${Math.round(run.publishesPerSec).toLocaleString('en-US')} publishes/s × ${FANOUT_CLIENTS} clients); server ${pct(run.serverCores)}, clients ${pct(run.clientsCores)}; ${run.cpuBusy.map((b, i) => `cpu${i} ${pct(b)}`).join(', ')}; foreign ${run.foreignCores.toFixed(2)} cores; ${FANOUT_CLIENTS} clients subscribed in ${connected.ms} ms`,
    )
    return run
  } finally {
    await clients.do({ op: 'close' }).catch(() => undefined)
    await clients.stop()
    await spawned.stop()
  }
}

export async function benchFanout(log: (line: string) => void): Promise<FanoutRun[]> {
  const runs: FanoutRun[] = []
  for (let i = 0; i < FANOUT_PAIRS; i++) {
    runs.push(await fanoutRun('bare', log))
    runs.push(await fanoutRun('service', log))
  }
  return runs
}

interface Count {
  deltas: number
  slowest: number
  at: number
  cpu: NodeJS.CpuUsage
}

async function listening(s: Spawned): Promise<number> {
  const deadline = Date.now() + 15_000
  for (;;) {
    const m = /^listening (\d+)$/m.exec(s.output())
    if (m !== null) return Number(m[1])
    if (Date.now() > deadline || s.child.exitCode !== null)
      throw new Error(`fan-out server did not start:\n${s.output()}`)
    await sleep(20)
  }
}

export function pct(share: number): string {
  return `${(share * 100).toFixed(0)}%`
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}
