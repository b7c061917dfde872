import { mean } from '../harness.js'
import { runWrk } from '../wrk.js'
import { startBare } from './bare-server.js'
import { get, pct, type Ctx } from './context.js'
import { BOOST_SETTLE_MS, sampleFeed, setBoost, type FeedRates } from './feeds.js'
import { sameResponse, scenarioHeaders, serviceResponse, nonAscii } from './responses.js'
import type { ThroughputScenario } from './scenarios.js'
import {
  ATTEMPTS_PER_PAIR,
  describeRun,
  FOREIGN_LIMIT,
  machineQuiet,
  measuredRun,
  type ServerRun,
} from './server-run.js'

/** One throughput scenario: (bare, service) pairs of wrk runs, repeated when disturbed, and a run across a refresh. */

const PAIRS = 2
const WARMUP_SEC = 3
/** Long enough to span a whole refresh under load (10–17 s when idle, slower while serving). */
const ACROSS_REFRESH_SEC = 30
/** The simulator idles at ~0.05 cores at default rates; more means it is serving a catalog fetch. */
const SIM_BUSY_LIMIT = 0.25

export interface ThroughputResult {
  readonly scenario: ThroughputScenario
  /** The path measured (the scenario's, or what its `resolve` picked). */
  readonly path: string
  readonly bodyBytes: number
  readonly bare: readonly ServerRun[]
  readonly service: readonly ServerRun[]
  /** service / bare req/s of each (bare, service) pair. */
  readonly pairRatios: readonly number[]
  readonly ratio: number
  /**
   * Boosted scenarios: `bare` and the ratios above are the bare runs with the boost on, as in the service runs
   * (see SameBackground); these are the pairs' bare runs with it off, and service / that bare req/s per pair.
   */
  readonly quietBare?: { readonly bare: readonly ServerRun[]; readonly pairRatios: readonly number[] }
  /** Why a kept pair was disturbed, when every attempt at it was (empty when the pairs are clean). */
  readonly disturbed: readonly string[]
  /** A service run started just before a catalog refresh (scenarios with `acrossRefresh`). */
  readonly acrossRefresh?: ServerRun & {
    readonly durationSec: number
    readonly refreshInstalled: boolean
    /** Responses to a probe request every 200 ms during the run, by status and error code, e.g. "503 not_ready". */
    readonly probeStatuses: Readonly<Record<string, number>>
  }
}

export async function throughputScenario(s: ThroughputScenario, ctx: Ctx): Promise<ThroughputResult> {
  const path = s.resolve === undefined ? s.path : await s.resolve((p) => get(p, ctx))
  if (path !== s.path) ctx.log(`${s.name}: ${path}`)
  const requestHeaders = await scenarioHeaders(s, path, ctx)
  const response = await serviceResponse(path, requestHeaders, ctx, s.revalidate === true ? 304 : 200)
  const { body, headers } = response
  const bare = await startBare(response, ctx)
  try {
    await sameResponse(path, ctx.port, bare.port, requestHeaders)
    ctx.log(
      `${s.name}: ${response.status}, ${body.length} B body, ${nonAscii(body)} non-ASCII bytes; request headers ${JSON.stringify(s.requestHeaders ?? {})}; route headers ${JSON.stringify(headers)}`,
    )
    const wrk = (port: number, durationSec: number) =>
      runWrk({
        url: `http://127.0.0.1:${port}${path}`,
        connections: s.connections,
        threads: s.threads,
        durationSec,
        cpus: ctx.pinning.wrk,
        headers: requestHeaders,
      })
    const boosted = async <T>(on: boolean, fn: () => Promise<T>): Promise<T> => {
      if (!on) return fn()
      await setBoost(ctx, true)
      try {
        return await fn()
      } finally {
        await setBoost(ctx, false)
      }
    }
    // A boosted scenario's service runs have the boost on, and each pair runs the bare server twice: with the
    // boost on (the same background as the service's runs: the ratio judged, see SameBackground) and off.
    const measure = async (
      which: 'bare' | 'service',
      sampled = which === 'service' && s.boost === true,
      durationSec = s.durationSec,
    ): Promise<ServerRun> => {
      let feed: FeedRates | undefined
      const measured = await boosted(sampled, () =>
        measuredRun(which === 'bare' ? bare.spawned : ctx.service, ctx, async () => {
          const stop = sampled ? sampleFeed(ctx) : undefined
          const result = await wrk(which === 'bare' ? bare.port : ctx.port, durationSec)
          feed = await stop?.()
          return result
        }),
      )
      const run: ServerRun = feed === undefined ? measured : { ...measured, feed }
      ctx.log(`${s.name}: ${which} ${describeRun(run)}`)
      // Reported, not thrown: a service that fails under load is a finding, not a broken bench.
      if (run.wrk.errors > 0)
        ctx.log(
          `${s.name}: ${run.wrk.errors} of ${run.wrk.requests} ${which} responses were errors (non-2xx or socket):\n${run.wrk.raw}`,
        )
      return run
    }
    // Untimed warm-up of both: the service's handlers get JIT-compiled and its page cache filled first.
    await wrk(bare.port, WARMUP_SEC)
    await boosted(s.boost === true, () => wrk(ctx.port, WARMUP_SEC))
    let acrossRefresh: ThroughputResult['acrossRefresh']
    const duringRefresh = async (): Promise<void> => {
      ctx.log(`${s.name}: service run across a catalog refresh (${ACROSS_REFRESH_SEC} s)`)
      const probe = statusProbe(path, ctx)
      const run = await measure('service', s.boost === true, ACROSS_REFRESH_SEC)
      const probeStatuses = await probe()
      ctx.log(`${s.name}: probe statuses across the refresh ${JSON.stringify(probeStatuses)}`)
      acrossRefresh = {
        ...run,
        durationSec: ACROSS_REFRESH_SEC,
        refreshInstalled: !(await ctx.gate.unchanged()),
        probeStatuses,
      }
    }
    const pairs: Attempt[] = []
    for (let i = 0; i < PAIRS; i++) {
      let chosen: Attempt | undefined
      for (let attempt = 1; attempt <= ATTEMPTS_PER_PAIR; attempt++) {
        await machineQuiet(ctx, [bare.spawned, ctx.service, ctx.sim])
        // The pair's runs must all end before the next catalog refresh starts: each boosted run also switches
        // the boost on and off and lets it settle.
        const runs = s.boost === true ? 3 : 2
        const boostedRuns = s.boost === true ? 2 : 0
        const windowMs = runs * (s.durationSec + 1.5) * 1000 + boostedRuns * (BOOST_SETTLE_MS + 2_000)
        await ctx.gate.clear(
          windowMs,
          s.acrossRefresh === true && acrossRefresh === undefined ? duringRefresh : undefined,
        )
        const bareRun = await measure('bare')
        const bareBusyRun = s.boost === true ? await measure('bare', true) : undefined
        const serviceRun = await measure('service')
        const simLimit =
          s.boost === true && ctx.boostedSimCores !== undefined ? ctx.boostedSimCores + SIM_BUSY_LIMIT : SIM_BUSY_LIMIT
        const serviceLimit =
          ctx.boostedServiceCores !== undefined ? ctx.boostedServiceCores + SIM_BUSY_LIMIT : SIM_BUSY_LIMIT
        const why = disturbance(
          bareRun,
          serviceRun,
          await ctx.gate.unchanged(),
          simLimit,
          bareBusyRun,
          serviceLimit,
          s.boost === true ? ctx.boostedRecomputesPerSec : undefined,
        )
        const candidate: Attempt = {
          bare: bareRun,
          service: serviceRun,
          ...(bareBusyRun === undefined ? {} : { bareBusy: bareBusyRun }),
          ...why,
        }
        if (chosen === undefined || candidate.severity < chosen.severity) chosen = candidate
        if (candidate.why === undefined) break
        ctx.log(
          `${s.name}: pair ${i + 1} attempt ${attempt} disturbed (${candidate.why})${attempt < ATTEMPTS_PER_PAIR ? '; repeating it' : '; keeping the least disturbed attempt'}`,
        )
      }
      pairs.push(chosen as Attempt)
    }
    if (s.acrossRefresh === true && acrossRefresh === undefined) {
      await ctx.gate.acrossNextRefresh(duringRefresh)
    }
    const disturbed = pairs.flatMap((p) => (p.why === undefined ? [] : [p.why]))
    const ratios = (bare: readonly ServerRun[]) =>
      pairs.map((p, i) => p.service.wrk.requestsPerSec / (bare[i] as ServerRun).wrk.requestsPerSec)
    const quiet = pairs.map((p) => p.bare)
    // Boosted scenarios are judged against the bare runs with the boost on (SameBackground explains why); every
    // pair of a boosted scenario has one.
    const judgedBare =
      s.boost === true ? pairs.map((p) => p.bareBusy ?? fail('a boosted pair without its boosted bare run')) : quiet
    const pairRatios = ratios(judgedBare)
    const quietBare = judgedBare === quiet ? {} : { quietBare: { bare: quiet, pairRatios: ratios(quiet) } }
    const result = {
      scenario: s,
      path,
      bodyBytes: body.length,
      bare: judgedBare,
      service: pairs.map((p) => p.service),
      pairRatios,
      ratio: mean(pairRatios),
      disturbed,
      ...quietBare,
    }
    return acrossRefresh === undefined ? result : { ...result, acrossRefresh }
  } finally {
    await bare.spawned.stop()
  }
}

interface Attempt {
  readonly bare: ServerRun
  /** Boosted scenarios: the bare server with the boost on. */
  readonly bareBusy?: ServerRun
  readonly service: ServerRun
  /** Why the pair does not compare like with like; undefined when it does. */
  readonly why: string | undefined
  /** For keeping the least disturbed of several attempts: 0 clean, then other load by amount, then the rest. */
  readonly severity: number
}

/**
 * `simLimit`: the simulator's CPU above which a boosted run is disturbed (the service run, and `bareBusy`, the
 * bare run with the boost on); `busyServiceLimit`: the service's CPU during `bareBusy` above which it is.
 */
function disturbance(
  bare: ServerRun,
  service: ServerRun,
  catalogsUnchanged: boolean,
  simLimit = SIM_BUSY_LIMIT,
  bareBusy?: ServerRun,
  busyServiceLimit = SIM_BUSY_LIMIT,
  boostedRecomputesPerSec?: number,
): Pick<Attempt, 'why' | 'severity'> {
  if (!catalogsUnchanged) return { why: 'a catalog refresh landed in it', severity: 100 }
  // A boosted run in which the engine saw far fewer quote changes than the boost gives (a refresh under way in
  // the simulator or the service, which the catalog versions do not show until it installs).
  if (boostedRecomputesPerSec !== undefined) {
    const seen = Math.min(
      service.feed?.recomputesPerSec ?? 0,
      bareBusy?.feed?.recomputesPerSec ?? Number.POSITIVE_INFINITY,
    )
    if (seen < boostedRecomputesPerSec / 2)
      return { why: `the boost did not reach the engine (${seen.toFixed(0)} quote changes/s)`, severity: 90 }
  }
  if (bare.idleServiceCores > SIM_BUSY_LIMIT)
    return {
      why: `the service was busy during the bare run (${pct(bare.idleServiceCores)})`,
      severity: 50 + bare.idleServiceCores,
    }
  if (bareBusy !== undefined && bareBusy.idleServiceCores > busyServiceLimit)
    return {
      why: `the service was busy during the boosted bare run (${pct(bareBusy.idleServiceCores)})`,
      severity: 50 + bareBusy.idleServiceCores,
    }
  if (bareBusy !== undefined && bareBusy.simCores > simLimit)
    return { why: `the simulator was busy (${pct(bareBusy.simCores)})`, severity: 10 + bareBusy.simCores }
  if (bare.simCores > SIM_BUSY_LIMIT || service.simCores > simLimit) {
    const sim = Math.max(bare.simCores, service.simCores)
    return { why: `the simulator was busy (${pct(sim)})`, severity: 10 + sim }
  }
  const foreign = Math.max(bare.foreignCores, service.foreignCores, bareBusy?.foreignCores ?? 0)
  if (foreign > FOREIGN_LIMIT)
    return { why: `other load on the machine: ${foreign.toFixed(2)} cores`, severity: foreign }
  return { why: undefined, severity: 0 }
}

/** GETs `path` from the service every 200 ms until the returned function is called; tallies what came back. */
function statusProbe(path: string, ctx: Ctx): () => Promise<Record<string, number>> {
  const tally: Record<string, number> = {}
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      let key: string
      try {
        const res = await fetch(`http://127.0.0.1:${ctx.port}${path}`, {
          headers: ctx.headers,
          signal: AbortSignal.timeout(10_000),
        })
        const text = await res.text()
        key = res.status === 200 ? '200' : `${res.status} ${/"code":"([^"]*)"/.exec(text)?.[1] ?? ''}`.trim()
      } catch (err) {
        key = err instanceof Error ? err.name : 'error'
      }
      tally[key] = (tally[key] ?? 0) + 1
      await new Promise((r) => setTimeout(r, 200))
    }
  })()
  return async () => {
    stopped = true
    await loop
    return tally
  }
}

function fail(message: string): never {
  throw new Error(`http bench: ${message}`)
}
