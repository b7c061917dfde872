import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NatsServer } from '../../test/helpers/nats-server.js'
import { cpuShares, cpuTimes, processCpuSeconds } from '../cpu-usage.js'
import { pin, schedIdle } from '../http/pinning.js'
import { MAIN_JS, SIM_CHILD_JS, spawnNode, startStandaloneSim, waitReady, type Spawned } from '../process.js'
import { ClientsProcess } from './clients-driver.js'
import type { LatencySummary } from './clients.js'
import { sleep } from './fanout.js'
import {
  BOOST_PER_SEC,
  BOOST_TICK_MS,
  LATENCY_CLIENTS,
  LATENCY_MEASURE_MS,
  LATENCY_SETTLE_MS,
  BASELINE_MS,
  setBoost,
  STREAM_QUESTIONS,
} from './service-run.js'

/**
 * The broker hop (issue 24): the stream latency run's load (the boosted simulator, 100 lean clients, each matched
 * instrument's `quote` key held by one) against one process (`ROLE=all`), then against an edge (`ROLE=edge`, no venue
 * connection) fed over a real nats-server by an ingest (`ROLE=ingest`). The edge forwards the ingest's frames
 * unchanged, so a frame's `pts` is the ingest's publish time and receive − `pts` is the hop (ingest → broker → edge)
 * plus the edge's fan-out and the client; beside the single process's receive − `pts` in the same run, the difference
 * is what the broker adds. The edge's CPU per delivered frame and the broker's message rate are the capacity model's
 * inputs (README "Capacity").
 *
 * Placement on 2 vCPUs: the single process and the ingest on CPU 0; the simulator on CPU 1 in SCHED_IDLE; the edge,
 * nats-server and the clients unpinned (four busy processes cannot each have a core here; the figures say what each
 * used).
 */
const INGEST_PORT = 18_095
const SERVING_PORT = 18_096
const SIM_PORT_BASE = 17_341

/** One configuration's latency run: the single process, or the ingest and edge split. */
export interface HopRun {
  readonly mode: 'all' | 'split'
  readonly keys: number
  readonly summary: LatencySummary
  readonly seconds: number
  readonly deltasPerSec: number
  /** The process the clients read from (the single process, or the edge). */
  readonly servingCores: number
  /** The same process with the boost on and no client connected (an edge: following the bus alone). */
  readonly servingIdleCores: number
  /** The ingest's CPU (split only). */
  readonly ingestCores: number
  readonly brokerCores: number
  readonly clientsCores: number
  readonly cpuBusy: readonly number[]
  /** Messages and bytes into the broker per second (everything the ingest publishes), and out of it. */
  readonly brokerInMsgsPerSec: number
  readonly brokerInBytesPerSec: number
  readonly brokerOutMsgsPerSec: number
  readonly readyMs: number
}

export interface BrokerReport {
  readonly single: HopRun
  readonly split: HopRun
}

/** The single process, then the split, against the same simulator and broker, with the same clients. */
export async function benchBroker(log: (line: string) => void): Promise<BrokerReport> {
  const tmp = mkdtempSync(join(tmpdir(), 'predmkt-broker-bench-'))
  const clients = new ClientsProcess()
  const nats = await NatsServer.start({ monitor: true })
  let sim: Spawned | undefined
  try {
    const started = await startStandaloneSim(
      {
        SIM_QUESTIONS: String(STREAM_QUESTIONS),
        SIM_PORT_BASE: String(SIM_PORT_BASE),
        DATA_DIR: join(tmp, 'sim-data'),
        BENCH_SIM_BOOST_PER_SEC: String(BOOST_PER_SEC),
        BENCH_SIM_BOOST_TICK_MS: String(BOOST_TICK_MS),
      },
      undefined,
      SIM_CHILD_JS,
    )
    sim = started.sim
    pin(sim, '1')
    schedIdle(sim)
    const env = { ...started.serviceEnv, NATS_URL: nats.url, AUTH_REQUIRED: 'false', STREAM_PRECISE_TIMES: '1' }
    const single = await hopRun('all', { sim, nats, clients, env, tmp }, log)
    const split = await hopRun('split', { sim, nats, clients, env, tmp }, log)
    return { single, split }
  } finally {
    await clients.stop()
    await sim?.stop()
    await nats.close()
    rmSync(tmp, { recursive: true, force: true })
  }
}

interface HopContext {
  readonly sim: Spawned
  readonly nats: NatsServer
  readonly clients: ClientsProcess
  readonly env: Record<string, string>
  readonly tmp: string
}

async function hopRun(mode: HopRun['mode'], c: HopContext, log: (line: string) => void): Promise<HopRun> {
  const children: Spawned[] = []
  try {
    let ingestPid: number | undefined
    if (mode === 'split') {
      const t = Date.now()
      const ingest = spawnNode(MAIN_JS, {
        ...c.env,
        ROLE: 'ingest',
        PORT: String(INGEST_PORT),
        DATA_DIR: join(c.tmp, 'ingest'),
      })
      children.push(ingest)
      pin(ingest, '0')
      await waitReady(INGEST_PORT, t, 180_000)
      ingestPid = ingest.child.pid as number
    }
    const t = Date.now()
    const serving = spawnNode(MAIN_JS, {
      ...c.env,
      ROLE: mode === 'split' ? 'edge' : 'all',
      PORT: String(SERVING_PORT),
      DATA_DIR: join(c.tmp, mode),
    })
    children.push(serving)
    if (mode === 'all') pin(serving, '0')
    const ready = await waitReady(SERVING_PORT, t, 180_000)
    const keys = await matchedQuoteKeys()
    // The serving process's CPU with the boost on and no client: for an edge, what following the bus costs (the
    // replica actors, read models and engine), apart from what its clients cost.
    const servingPid = serving.child.pid as number
    await setBoost(c.sim, true)
    await sleep(LATENCY_SETTLE_MS)
    const b0 = { cpu: processCpuSeconds(servingPid), at: Date.now() }
    await sleep(BASELINE_MS)
    const idleCores = (processCpuSeconds(servingPid) - b0.cpu) / ((Date.now() - b0.at) / 1000)
    await setBoost(c.sim, false)
    const keysPerClient = Math.ceil(keys.length / LATENCY_CLIENTS)
    const subs = Array.from({ length: LATENCY_CLIENTS }, (_, i) =>
      keys.slice(i * keysPerClient, (i + 1) * keysPerClient),
    ).filter((s) => s.length > 0)
    await c.clients.do({ op: 'ws', port: SERVING_PORT, apiKeys: [], n: subs.length })
    await c.clients.do({ op: 'subscribe', subs })
    await setBoost(c.sim, true)
    await sleep(LATENCY_SETTLE_MS)
    const cpu = () => ({
      serving: processCpuSeconds(servingPid),
      ingest: ingestPid === undefined ? 0 : processCpuSeconds(ingestPid),
      broker: processCpuSeconds(c.nats.pid as number),
    })
    const r0 = {
      rec: await c.clients.do<{ cpu: NodeJS.CpuUsage }>({ op: 'record', on: true }),
      cpu: cpu(),
      cpus: cpuTimes(),
      varz: await varz(c.nats),
      at: Date.now(),
    }
    await sleep(LATENCY_MEASURE_MS)
    const r1 = {
      rec: await c.clients.do<{ cpu: NodeJS.CpuUsage; summary: LatencySummary }>({ op: 'record', on: false }),
      cpu: cpu(),
      cpus: cpuTimes(),
      varz: await varz(c.nats),
      at: Date.now(),
    }
    await setBoost(c.sim, false)
    await c.clients.do({ op: 'close' })
    const seconds = (r1.at - r0.at) / 1000
    const used = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1e6
    const run: HopRun = {
      mode,
      keys: keys.length,
      summary: r1.rec.summary,
      seconds,
      deltasPerSec: r1.rec.summary.frames / seconds,
      servingCores: (r1.cpu.serving - r0.cpu.serving) / seconds,
      servingIdleCores: idleCores,
      ingestCores: (r1.cpu.ingest - r0.cpu.ingest) / seconds,
      brokerCores: (r1.cpu.broker - r0.cpu.broker) / seconds,
      clientsCores: (used(r1.rec.cpu) - used(r0.rec.cpu)) / seconds,
      cpuBusy: cpuShares(r0.cpus, r1.cpus).map((x) => x.busy),
      brokerInMsgsPerSec: (r1.varz.in_msgs - r0.varz.in_msgs) / seconds,
      brokerInBytesPerSec: (r1.varz.in_bytes - r0.varz.in_bytes) / seconds,
      brokerOutMsgsPerSec: (r1.varz.out_msgs - r0.varz.out_msgs) / seconds,
      readyMs: ready.ms,
    }
    const s = run.summary
    log(
      `${mode === 'all' ? 'single process' : 'ingest + edge'}: ${s.frames} deltas in ${seconds.toFixed(1)} s; receive − pts p50 ${s.recvMinusPts.p50.toFixed(2)} / p99 ${s.recvMinusPts.p99.toFixed(2)} ms; receive − lts p50 ${s.recvMinusLts.p50.toFixed(2)} / p99 ${s.recvMinusLts.p99.toFixed(2)} ms; seq breaks ${s.seqBreaks}; serving ${pctOf(run.servingCores)}, ingest ${pctOf(run.ingestCores)}, broker ${pctOf(run.brokerCores)}, clients ${pctOf(run.clientsCores)}; broker in ${Math.round(run.brokerInMsgsPerSec)} msgs/s (${(run.brokerInBytesPerSec / 1e6).toFixed(2)} MB/s), out ${Math.round(run.brokerOutMsgsPerSec)} msgs/s`,
    )
    return run
  } finally {
    for (const child of children.reverse())
      if (child.child.exitCode === null && child.child.signalCode === null) await child.stop()
  }
}

function pctOf(cores: number): string {
  return `${(cores * 100).toFixed(0)}%`
}

async function varz(nats: NatsServer): Promise<{ in_msgs: number; in_bytes: number; out_msgs: number }> {
  const res = await fetch(`http://127.0.0.1:${nats.monitorPort as number}/varz`)
  return (await res.json()) as { in_msgs: number; in_bytes: number; out_msgs: number }
}

/** The `quote` keys of every instrument in a matched pair, read from the process the clients read from. */
async function matchedQuoteKeys(): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${SERVING_PORT}/api/v2/spreads?min_spread=0&min_volume=0`)
  const body = (await res.json()) as { data: { match: { venuep_outcome_id: string; venuek_outcome_id: string } }[] }
  const keys = new Set<string>()
  for (const r of body.data) {
    keys.add(`venuep:${r.match.venuep_outcome_id}`)
    keys.add(`venuek:${r.match.venuek_outcome_id}`)
  }
  return [...keys]
}
