import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseSoakArgs } from './soak/args.js'
import { startFaultRotation } from './soak/fault-rotation.js'
import { soakMarkdown } from './soak/report.js'
import { startRestLoad, MAX_REQ_PER_SEC } from './soak/rest-load.js'
import { SAMPLE_EVERY_MS, storeRss, takeSample } from './soak/sampler.js'
import { startCpuWindow } from './soak/cpu-window.js'
import { CONNECTIONS_PER_API_KEY, startSoakSystem, BOOST_PER_SEC } from './soak/service.js'
import { CLIENTS, startStreamLoad, TOP_VIEW } from './soak/stream-load.js'
import { soakChart } from './soak/soak-chart.js'
import { findTargets } from './soak/targets.js'
import { judge, warmUpMs, type CeilingRule, type FlatRule, type Sample } from './soak/verdict.js'

/**
 * `npm run soak [-- --minutes N]`: the bounded soak (10 minutes by default). Starts the simulator here and the
 * service in its own process (tools/soak/service.ts), loads it with REST loops and stream clients while rotating
 * faults through the simulated venues, samples its /metrics every 10 s, then writes bench/SOAK.md and
 * bench/soak.svg and exits non-zero when the verdict fails (tools/soak/verdict.ts). Not part of `npm test`.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')

/** What the verdict holds the run to; each rule is also written into the report in words. */
const FLAT: readonly FlatRule[] = [
  { series: 'rssMiB', tolerance: 0.1 },
  { series: 'heapUsedMiB', tolerance: 0.1, peaks: false },
  { series: 'handles', tolerance: 0.1, slack: 5 },
  { series: 'storeRssMiB', tolerance: 0.1 },
]
/** Event-loop delay p99 per 10 s sample: a service answering REST in a few ms should never stall for this long. */
const ELD_P99_MAX_MS = 100
/**
 * Judged only in windows where processes other than the service, its store and this driver took at most this much
 * CPU: on a shared 2-core VM someone's test run can take both cores for minutes, and a delay it causes says
 * nothing about the service. The report lists every sample's foreign load and the max over all samples anyway.
 */
const QUIET_FOREIGN_CORES = 0.5
const CEILINGS: readonly CeilingRule[] = [
  {
    series: 'eldP99Ms',
    max: ELD_P99_MAX_MS,
    onlyWhen: {
      series: 'foreignCores',
      max: QUIET_FOREIGN_CORES,
      what: `foreign CPU ≤ ${QUIET_FOREIGN_CORES} cores`,
    },
  },
]

async function main(): Promise<number> {
  const args = parseSoakArgs(process.argv.slice(2))
  const durationMs = args.minutes * 60_000
  const say = (line: string): void => void process.stdout.write(`[soak] ${line}\n`)
  const startedAt = new Date()
  say(`${args.minutes} min; starting the simulator and the service`)
  const system = await startSoakSystem(Math.ceil(CLIENTS / CONNECTIONS_PER_API_KEY) + 1, say)
  const failures: string[] = []
  let exited = false
  let ending = false
  system.service.child.once('exit', (code, signal) => {
    exited = true
    if (!ending) failures.push(`the service exited during the soak (code ${code}, signal ${signal})`)
  })
  // The driver's own event-loop delay: the simulator, the clients and the REST loops share this loop, so a REST
  // latency tail or a late frame may be the driver's, not the service's; the report says which.
  const driverDelay = monitorEventLoopDelay({ resolution: 1 })
  say(`service ready in ${(system.readyMs / 1000).toFixed(1)} s on port ${system.port}`)
  const restKey = system.apiKeys[system.apiKeys.length - 1] as string
  const targets = await findTargets(system.port, restKey)
  const t0 = Date.now()
  driverDelay.enable()
  // A forced collection pauses the service; the clients notice it up to their heartbeat timeout (3 s) after it ends.
  let measuringUntil = 0
  const measuring = (): boolean => Date.now() < measuringUntil
  const liveHeap = async (): Promise<number | undefined> => {
    measuringUntil = Number.POSITIVE_INFINITY
    try {
      return await system.liveHeapMiB()
    } catch {
      return undefined
    } finally {
      measuringUntil = Date.now() + 5_000
    }
  }
  const stream = await startStreamLoad(system.port, system.apiKeys.slice(0, -1), targets, t0, measuring)
  const rest = startRestLoad(system.port, restKey, targets, t0)
  const faults = startFaultRotation(system.sim, t0, say)
  say(`load on: ${CLIENTS} stream clients, REST loops capped at ${MAX_REQ_PER_SEC} req/s`)

  const samples: Sample[] = []
  let last = { at: t0, rest: 0, frames: 0 }
  let liveHeapAtWarmUp: number | undefined
  const servicePid = system.service.child.pid as number
  let cpuWindow = startCpuWindow(servicePid, storeRss(servicePid)?.pid)
  for (let k = 0; k * SAMPLE_EVERY_MS <= durationMs && !exited; k++) {
    const wait = t0 + k * SAMPLE_EVERY_MS - Date.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    try {
      const now = Date.now()
      const s = await takeSample(system.port, servicePid, now - t0)
      const cpu = cpuWindow()
      cpuWindow = startCpuWindow(servicePid, storeRss(servicePid)?.pid)
      const secs = Math.max(0.001, (now - last.at) / 1000)
      const values: Record<string, number> = {
        ...s.values,
        restPerSec: k === 0 ? Number.NaN : (rest.stats.sent - last.rest) / secs,
        framesPerSec: k === 0 ? Number.NaN : (stream.stats.frames - last.frames) / secs,
        serviceCores: k === 0 ? Number.NaN : cpu.serviceCores,
        storeCores: k === 0 ? Number.NaN : cpu.storeCores,
        foreignCores: k === 0 ? Number.NaN : cpu.foreignCores,
      }
      last = { at: now, rest: rest.stats.sent, frames: stream.stats.frames }
      values.driverEldP99Ms = driverDelay.percentile(99) / 1e6
      driverDelay.reset()
      samples.push({ atMs: s.atMs, values })
      if (liveHeapAtWarmUp === undefined && s.atMs >= warmUpMs(durationMs)) liveHeapAtWarmUp = await liveHeap()
      const v = (name: string, digits = 1): string => values[name]?.toFixed(digits) ?? '-'
      say(
        `${(s.atMs / 1000).toFixed(0)} s: RSS ${v('rssMiB')} MiB, heap ${v('heapUsedMiB')} MiB, handles ${v('handles', 0)}, ELD p99 ${v('eldP99Ms')} ms, store RSS ${v('storeRssMiB')} MiB; ${v('restPerSec', 0)} req/s, ${v('framesPerSec', 0)} frames/s; driver ELD p99 ${v('driverEldP99Ms')} ms; CPU service ${v('serviceCores', 2)}, store ${v('storeCores', 2)}, foreign ${v('foreignCores', 2)} cores; log errors ${system.log.errors}`,
      )
    } catch (err) {
      failures.push(`sample at ${((Date.now() - t0) / 1000).toFixed(0)} s failed: ${String(err)}`)
    }
  }
  const elapsedMs = Date.now() - t0
  ending = true
  driverDelay.disable()
  faults.stop()
  await rest.stop()
  // The clients' figures are taken before the last forced collection: its pause (seconds on a busy machine) can
  // outlast their 3 s heartbeat timeout, and what it causes is the measurement's, not the service's.
  const streamStats = { ...stream.stats, notes: [...stream.stats.notes] }
  const openAtEnd = stream.open()
  const liveHeapAtEnd = exited ? undefined : await liveHeap()
  say(
    `live heap after a full collection: ${liveHeapAtWarmUp?.toFixed(1) ?? '-'} MiB after the warm-up, ${liveHeapAtEnd?.toFixed(1) ?? '-'} MiB at the end`,
  )
  if (liveHeapAtWarmUp === undefined || liveHeapAtEnd === undefined)
    failures.push('the live heap after a full collection could not be measured')
  stream.stop()
  const simCounters = {
    venuep: { ...system.sim.venuep.faults.counters },
    venuek: { ...system.sim.venuek.faults.counters },
  }
  const stopped = await system.stop()
  const shutdown = `SIGTERM at the end: exit code ${stopped.exitCode ?? '-'}${stopped.signal === null ? '' : `, signal ${stopped.signal}`} after ${stopped.stopMs} ms.`
  say(shutdown)
  if (rest.stats.sent === 0) failures.push('no REST request was sent')
  if (streamStats.frames === 0) failures.push('no stream frame arrived')
  if (streamStats.gaps > 0) failures.push(`${streamStats.gaps} gaps seen by the stream clients`)
  if (streamStats.crcMismatches > 0) failures.push(`${streamStats.crcMismatches} checksum mismatches`)
  const verdict = judge({
    samples,
    durationMs: elapsedMs,
    flat: FLAT,
    ceilings: CEILINGS,
    errorLines: system.log.errors,
    failures,
    ...(liveHeapAtWarmUp === undefined || liveHeapAtEnd === undefined
      ? {}
      : { liveHeap: { atWarmUpMiB: liveHeapAtWarmUp, atEndMiB: liveHeapAtEnd, tolerance: 0.1 } }),
  })
  const rules = [
    `RSS and the store's RSS are flat: the mean of the last quarter of the judged samples (by time) is within +10% of the mean of the first quarter, and the last quarter's highest sample within +10% of the first quarter's highest.`,
    `Active handles likewise, with a slack of 5 handles (a reconnect leaves a socket or two for a moment).`,
    `The heap: the sampled heap used by its quarters' means alone (where a scrape lands in the collector's sawtooth decides a peak), and the live heap, measured after a forced full collection (DevTools protocol) right after the warm-up and at the end, within +10%. (That first collection pauses the service once, in the window after the warm-up's end.)`,
    `Event-loop delay p99 of every judged 10 s sample at most ${ELD_P99_MAX_MS} ms, among the samples where processes other than the service, its store and the soak driver took at most ${QUIET_FOREIGN_CORES} cores (on a shared machine someone else's load is not the service's delay; such samples are listed, and the max over all of them is given).`,
    `No log line at level error or fatal; no gap or checksum mismatch seen by a stream client; the service stays up.`,
  ]
  const command = `npm run soak${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`
  const setup = [
    `**Setup**: ${system.sim.description}; boost ${BOOST_PER_SEC} top-of-book changes/s on ${system.boost.markets.venuep} + ${system.boost.markets.venuek} matched markets; service ready in ${(system.readyMs / 1000).toFixed(1)} s; auth on (${system.apiKeys.length} keys from the signup route), rate limits raised; ${CLIENTS} stream clients on \`spreads.top\` \`${TOP_VIEW}\`, 10 of them on 5 quote keys, 5 on 2 book keys (depth 10); REST ${MAX_REQ_PER_SEC} req/s cap over 4 loops.`,
  ]
  writeFileSync(
    join(ROOT, 'bench/SOAK.md'),
    soakMarkdown({
      command,
      startedAt,
      durationMs: elapsedMs,
      setup,
      rest: rest.stats,
      stream: { ...streamStats, clients: CLIENTS, openAtEnd },
      faults: faults.injected,
      simCounters,
      log: system.log,
      samples,
      verdict,
      rules,
      shutdown,
    }),
  )
  writeFileSync(join(ROOT, 'bench/soak.svg'), soakChart(samples, verdict.warmUpMs, startedAt))
  say(`verdict: ${verdict.pass ? 'PASS' : 'FAIL'}${verdict.reasons.map((r) => `\n  - ${r}`).join('')}`)
  say('wrote bench/SOAK.md and bench/soak.svg')
  return verdict.pass ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err)
    process.exit(2)
  },
)
