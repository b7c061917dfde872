import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processCpuSeconds } from './cpu-usage.js'
import { median } from './harness.js'
import {
  childPids,
  MAIN_JS,
  rssMiB,
  SIM_CHILD_JS,
  spawnNode,
  startStandaloneSim,
  waitReady,
  type Spawned,
} from './process.js'

/**
 * Issue 18: the service at catalog scale. For each size, the standalone simulator (bench/sim-child.ts: `npm run sim`
 * plus catalog churn) and the service (`node dist/src/main.js`, SIM_EXTERNAL=1, its own DATA_DIR, so the embedded
 * store starts empty) run in processes of their own, and this measures:
 *
 * - ready time (service process start → /readyz 200) and the instruments each venue streams (/readyz); after the
 *   soak, the ready time of a restart on the same data directory, which starts from the venues' catalog files;
 * - the hot reads: the first request of each query after ready (a fresh query: nothing cached it yet), then the
 *   median of WARM_REPEATS more of the same query;
 * - a soak of `soakSeconds` with the simulator's updates running: every `sampleSeconds` the RSS of the service and
 *   of its store process (the embedded PGlite runs in a child of the service), the heap used and the event-loop
 *   p99 from /metrics (prom-client resets its event-loop histogram at each scrape, so each sample's p99 covers the
 *   interval since the previous one), the feed-frame and quote-change counters, and the service's CPU time;
 * - the cross-venue matcher's runs, from the service's `cross-venue matching` log lines (LOG_LEVEL=info): the first
 *   is the full build, later ones follow catalog changes (the simulator's churn).
 *
 * Everything served is SIMULATED. A size that fails (a timeout, a crash) is reported with what it measured before.
 */
export interface ScaleSize {
  readonly label: string
  /** SIM_QUESTIONS. */
  readonly questions: number
  /** SIM_VENUEK_ONLY_LADDERS. */
  readonly ladders: number
}

export interface ScaleOptions {
  readonly sizes: readonly ScaleSize[]
  readonly soakSeconds: number
  readonly sampleSeconds: number
  /** SIM_QUOTE_CHANGES_PER_SEC for the simulator; undefined keeps its default. */
  readonly quoteChangesPerSec: number | undefined
  /** BENCH_SIM_CHURN_EVERY_MS: one venuek event delisted and one relisted this often (0: none). */
  readonly churnEveryMs: number
  readonly log: (line: string) => void
}

export interface ReadTiming {
  readonly path: string
  readonly firstMs: number
  readonly warmMs: number
  readonly bytes: number
  /** A like query nothing asked before (`HotRead.fresh`), after the soak: its cost once the service has settled. */
  settled?: { readonly path: string; readonly ms: number }
}

export interface HotRead {
  readonly path: string
  /** The same kind of query with other parameters (another page, word or threshold), asked once after the soak. */
  readonly fresh: string
}

export interface SoakSample {
  /** Seconds since the soak started. */
  readonly t: number
  readonly serviceRssMiB: number
  readonly storeRssMiB: number
  readonly heapUsedMiB: number
  /** Event-loop p99 over the interval since the previous scrape (ms). */
  readonly loopP99Ms: number
  readonly frames: Readonly<Record<string, number>>
  readonly quotes: Readonly<Record<string, number>>
  /**
   * Feed reconnects so far (each a new socket that is sent every book of its connection again); of them, revivals
   * (the venue answered a probe late: ws-connection.ts); and probe replies excused as read late through our own
   * loop's stall.
   */
  readonly reconnects?: Readonly<Record<string, number>>
  readonly revivals?: Readonly<Record<string, number>>
  readonly lateRepliesExcused?: Readonly<Record<string, number>>
  readonly spreadPairs: number
  readonly cpuSeconds: number
  readonly simCpuSeconds: number
}

export interface MatcherRun {
  /** When it was logged, ms after the service process was spawned. */
  readonly atMs: number | undefined
  readonly ms: number
  readonly events: number | undefined
  readonly outcomes: number | undefined
  readonly mode: string | undefined
  readonly changedEvents: number | undefined
}

/** A catalog sync that succeeded, from the service's `catalog installed` / `catalog unchanged` log lines. */
export interface CatalogSyncLine {
  readonly venue: string
  /** Listed only the events changed since a time (catalog-changes.ts), not the venue whole. */
  readonly changesOnly: boolean
  /** Installed a new catalog version (else the venue listed what was installed). */
  readonly installed: boolean
  /** The catalog version it installed or confirmed (1: the start's first sync). */
  readonly version: number
  /** Events the install added or replaced (the snapshot's changes), when it was a patch. */
  readonly changedEvents: number | undefined
  readonly elapsedMs: number
  /** The process's CPU while the sync ran (its own cost and whatever else ran meanwhile: an upper bound). */
  readonly processCpuMs: number
}

export interface ScaleResult {
  readonly size: ScaleSize
  /** The error that ended the size early, if one did; the fields below hold what was measured before it. */
  readonly error?: string
  /** The first boot on the fresh DATA_DIR: spawn → `store ready` (initdb and migrations), then stopped. */
  storeInitMs?: number
  readyMs?: number
  /** A restart on the same data directory after the soak: spawn → /readyz 200, and whether every venue served its file. */
  restart?: { readyMs: number; fromFile: boolean; matchesFromFile: boolean }
  instruments?: { venuep: number; venuek: number }
  catalogs?: Record<string, { events: number; markets: number; outcomes: number }>
  simRssMiB?: number
  /** Spread pairs when the first reads were made (the matcher may still be running at ready). */
  pairsAtFirstRead?: number
  reads: ReadTiming[]
  samples: SoakSample[]
  matcher: MatcherRun[]
  /** The catalog syncs of the run before the restart (the first sync of each venue included, version 1). */
  syncs: CatalogSyncLine[]
}

export const WARM_REPEATS = 20

/** The hot reads, each first requested right after ready. */
export const HOT_READS: readonly HotRead[] = [
  { path: '/api/v2/venuep/markets?limit=25', fresh: '/api/v2/venuep/markets?limit=25&offset=25' },
  { path: '/api/v2/venuek/markets?limit=25', fresh: '/api/v2/venuek/markets?limit=25&offset=25' },
  { path: '/api/v2/events?limit=25', fresh: '/api/v2/events?limit=25&offset=25' },
  { path: '/api/v2/events?search=bitcoin', fresh: '/api/v2/events?search=ethereum' },
  { path: '/api/v2/venuek/markets?search=bitcoin', fresh: '/api/v2/venuek/markets?search=ethereum' },
  { path: '/api/v2/venuep/markets?search=election', fresh: '/api/v2/venuep/markets?search=temperature' },
  {
    path: '/api/v2/venuek/markets?sort=volume_24h&limit=25',
    fresh: '/api/v2/venuek/markets?sort=volume_24h&limit=25&offset=25',
  },
  // The scanner has no limit parameter (spec §4.3): its defaults (min_spread 0.02, min_volume 1000).
  { path: '/api/v2/spreads', fresh: '/api/v2/spreads?min_spread=0.03' },
  { path: '/api/v2/spreads/top', fresh: '/api/v2/spreads/top?limit=21' },
]

const SIM_PORT_BASE = 17_701
const SERVICE_PORT = 18_121

export async function benchScale(options: ScaleOptions): Promise<ScaleResult[]> {
  const results: ScaleResult[] = []
  for (const [i, size] of options.sizes.entries()) results.push(await runSize(size, i, options))
  return results
}

async function runSize(size: ScaleSize, index: number, o: ScaleOptions): Promise<ScaleResult> {
  const r: ScaleResult = { size, reads: [], samples: [], matcher: [], syncs: [] }
  const tmp = mkdtempSync(join(tmpdir(), 'predmkt-scale-bench-'))
  const children: Spawned[] = []
  /** The measured boot's matcher runs were read before the restart (its output is gone with it). */
  let matcherCollected = false
  // An interrupted bench must not leave a simulator or service behind: the finally below never runs then.
  const onSignal = (signal: NodeJS.Signals): void => {
    for (const c of children) c.child.kill('SIGKILL')
    rmSync(tmp, { recursive: true, force: true })
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const say = (line: string) => o.log(`${size.label}: ${line}`)
  let service: Spawned | undefined
  let serviceStarted = 0
  try {
    say(
      `starting the simulator (${size.questions.toLocaleString('en-US')} questions + ${size.ladders.toLocaleString('en-US')} venuek-only ladder events)`,
    )
    const simEnv: Record<string, string> = {
      SIM_QUESTIONS: String(size.questions),
      SIM_VENUEK_ONLY_LADDERS: String(size.ladders),
      SIM_PORT_BASE: String(SIM_PORT_BASE + index * 10),
      DATA_DIR: join(tmp, 'sim-data'),
      BENCH_SIM_CHURN_EVERY_MS: String(o.churnEveryMs),
      ...(o.quoteChangesPerSec === undefined ? {} : { SIM_QUOTE_CHANGES_PER_SEC: String(o.quoteChangesPerSec) }),
    }
    // A real-scale world takes minutes to generate.
    const { sim, serviceEnv } = await startStandaloneSim(simEnv, 900_000, SIM_CHILD_JS)
    children.push(sim)
    const simPid = sim.child.pid as number
    r.simRssMiB = rssMiB(simPid)
    say(`simulator up (RSS ${r.simRssMiB.toFixed(0)} MiB); starting the service`)

    const port = SERVICE_PORT + index
    // Auth off and no rate limit: the bench times reads, not the key guard (the auth section prices that). Info
    // logs for the matcher's runs.
    const env = {
      ...serviceEnv,
      PORT: String(port),
      DATA_DIR: join(tmp, 'service-data'),
      AUTH_REQUIRED: 'false',
      RATE_LIMIT_PER_SEC: '1000000000',
      RATE_LIMIT_BURST: '1000000000',
      LOG_LEVEL: 'info',
    }
    // A first boot initializes the store (initdb and migrations: a first install's cost, not a restart's) and is
    // stopped once it is ready; the measured boot is a restart on that data directory, as in production.
    r.storeInitMs = await initStore(env)
    say(
      `store initialized in ${(r.storeInitMs / 1000).toFixed(1)} s (a first boot, stopped); starting the measured boot`,
    )
    const started = Date.now()
    service = spawnNode(MAIN_JS, env)
    children.push(service)
    const pid = service.child.pid as number
    serviceStarted = started
    const ready = await waitReady(port, started, 900_000)
    r.readyMs = ready.ms
    const venues = ready.body.venues as Record<
      string,
      { catalog: { events: number; markets: number; outcomes: number }; books: { instruments: number } }
    >
    r.instruments = { venuep: venues.venuep?.books.instruments ?? 0, venuek: venues.venuek?.books.instruments ?? 0 }
    r.catalogs = Object.fromEntries(
      Object.entries(venues).map(([v, s]) => [
        v,
        { events: s.catalog.events, markets: s.catalog.markets, outcomes: s.catalog.outcomes },
      ]),
    )
    say(
      `ready in ${(ready.ms / 1000).toFixed(1)} s: ${r.instruments.venuep} venuep + ${r.instruments.venuek} venuek instruments`,
    )

    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      // Opens the connection, so the first reads time the request, not the TCP handshake.
      await timeGet(agent, port, '/healthz').catch(() => timeGet(agent, port, '/readyz'))
      r.pairsAtFirstRead = metricValue(await metricsText(agent, port), 'predmkt_spread_pairs')
      const first = new Map<string, { ms: number; bytes: number }>()
      for (const { path } of HOT_READS) first.set(path, await timeGet(agent, port, path))
      for (const { path } of HOT_READS) {
        const times: number[] = []
        for (let k = 0; k < WARM_REPEATS; k++) times.push((await timeGet(agent, port, path)).ms)
        const f = first.get(path) as { ms: number; bytes: number }
        r.reads.push({ path, firstMs: f.ms, warmMs: median(times), bytes: f.bytes })
      }
      say(`reads done; soak of ${o.soakSeconds} s, a sample every ${o.sampleSeconds} s`)

      const soakStart = Date.now()
      const sample = async (): Promise<SoakSample> => {
        const text = await metricsText(agent, port)
        const store = childPids(pid)
        return {
          t: (Date.now() - soakStart) / 1000,
          serviceRssMiB: rssMiB(pid),
          storeRssMiB: store.reduce((sum, p) => sum + safe(() => rssMiB(p)), 0),
          heapUsedMiB: metricValue(text, 'predmkt_nodejs_heap_size_used_bytes') / 2 ** 20,
          loopP99Ms: metricValue(text, 'predmkt_nodejs_eventloop_lag_p99_seconds') * 1000,
          frames: perVenue(text, 'predmkt_feed_frames_total'),
          quotes: perVenue(text, 'predmkt_quotes_published_total'),
          reconnects: perVenue(text, 'predmkt_feed_reconnects_total'),
          revivals: perVenue(text, 'predmkt_feed_stall_resyncs_total'),
          lateRepliesExcused: perVenue(text, 'predmkt_feed_late_replies_excused_total'),
          spreadPairs: metricValue(text, 'predmkt_spread_pairs'),
          cpuSeconds: processCpuSeconds(pid),
          simCpuSeconds: processCpuSeconds(simPid),
        }
      }
      r.samples.push(await sample())
      const steps = Math.max(1, Math.round(o.soakSeconds / o.sampleSeconds))
      for (let k = 1; k <= steps; k++) {
        const due = soakStart + (k * o.soakSeconds * 1000) / steps
        await new Promise((res) => setTimeout(res, Math.max(0, due - Date.now())))
        if (service.child.exitCode !== null)
          throw new Error(`service exited with code ${service.child.exitCode} during the soak`)
        r.samples.push(await sample())
      }
      for (const [k, read] of HOT_READS.entries()) {
        const timing = r.reads[k] as ReadTiming
        timing.settled = { path: read.fresh, ms: (await timeGet(agent, port, read.fresh)).ms }
      }
      const last = r.samples[r.samples.length - 1] as SoakSample
      say(
        `soak done: service RSS ${last.serviceRssMiB.toFixed(0)} MiB, store ${last.storeRssMiB.toFixed(0)} MiB, loop p99 ${last.loopP99Ms.toFixed(1)} ms`,
      )
    } finally {
      agent.destroy()
    }

    // A restart on the same data directory: each venue's last catalog is in its file (src/actors/catalog-file.ts).
    r.matcher.push(...matcherRuns(service.output(), serviceStarted))
    r.syncs.push(...catalogSyncs(service.output()))
    matcherCollected = true
    await stopTree(service)
    const restartedAt = Date.now()
    service = spawnNode(MAIN_JS, env)
    children.push(service)
    const again = await waitReady(port, restartedAt, 900_000)
    const againVenues = again.body.venues as Record<string, { catalog: { from_file?: boolean } }>
    r.restart = {
      readyMs: again.ms,
      fromFile: Object.values(againVenues).every((v) => v.catalog.from_file === true),
      matchesFromFile: (again.body.spreads as { matches_from_file?: boolean }).matches_from_file === true,
    }
    say(
      `restarted on the same data directory: ready in ${(again.ms / 1000).toFixed(1)} s, ${r.restart.fromFile ? 'every venue serving its catalog file' : 'not every venue from its catalog file'}, ${r.restart.matchesFromFile ? 'the matches from their file' : "the matcher's own matches"}`,
    )
    return r
  } catch (err) {
    say(`failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`)
    return { ...r, error: err instanceof Error ? err.message.split('\n')[0] : String(err) }
  } finally {
    if (service !== undefined && !matcherCollected) {
      r.matcher.push(...matcherRuns(service.output(), serviceStarted))
      r.syncs.push(...catalogSyncs(service.output()))
    }
    for (const c of children.reverse()) await stopTree(c)
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * Boots the service on `env`'s fresh DATA_DIR until its store is ready (the `store ready` log line), then stops it;
 * returns the ms from spawn to that line.
 */
async function initStore(env: Record<string, string>): Promise<number> {
  const started = Date.now()
  const first = spawnNode(MAIN_JS, env)
  try {
    for (;;) {
      if (first.output().includes('"msg":"store ready"')) return Date.now() - started
      if (first.child.exitCode !== null)
        throw new Error(
          `the store's first boot exited with code ${first.child.exitCode}: ${first.output().slice(-500)}`,
        )
      if (Date.now() - started > 300_000) throw new Error('the store was not ready after 300 s on its first boot')
      await new Promise((res) => setTimeout(res, 50))
    }
  } finally {
    await stopTree(first)
  }
}

/** Stops a spawned process and then any child it left (the service's store process, should it outlive the service). */
async function stopTree(p: Spawned): Promise<void> {
  const pid = p.child.pid
  const kids = pid === undefined || p.child.exitCode !== null ? [] : childPids(pid)
  await p.stop()
  for (const kid of kids) {
    for (let i = 0; i < 50 && alive(kid); i++) await new Promise((res) => setTimeout(res, 100))
    if (alive(kid)) process.kill(kid, 'SIGKILL')
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The service's `cross-venue matching` info lines (pino JSON), in order; `startedAt`: when the service was spawned. */
export function matcherRuns(output: string, startedAt: number): MatcherRun[] {
  const runs: MatcherRun[] = []
  for (const line of output.split('\n')) {
    if (!line.includes('"cross-venue matching"')) continue
    let o: Record<string, unknown>
    try {
      o = JSON.parse(line) as Record<string, unknown>
    } catch {
      continue
    }
    if (o.msg !== 'cross-venue matching' || typeof o.ms !== 'number') continue
    const num = (v: unknown) => (typeof v === 'number' ? v : undefined)
    runs.push({
      atMs: typeof o.time === 'number' ? o.time - startedAt : undefined,
      ms: o.ms,
      events: num(o.events),
      outcomes: num(o.outcomes),
      mode: typeof o.mode === 'string' ? o.mode : undefined,
      changedEvents: num(o.changed_events),
    })
  }
  return runs
}

/**
 * The service's catalog syncs that succeeded, in order: its `catalog installed` lines and its `catalog unchanged` lines
 * (logged at info for a sync of changes, at debug for a whole listing: those are not seen at LOG_LEVEL=info).
 */
export function catalogSyncs(output: string): CatalogSyncLine[] {
  const syncs: CatalogSyncLine[] = []
  for (const line of output.split('\n')) {
    if (!line.includes('"catalog installed"') && !line.includes('"catalog unchanged"')) continue
    let o: Record<string, unknown>
    try {
      o = JSON.parse(line) as Record<string, unknown>
    } catch {
      continue
    }
    if (typeof o.processCpuMs !== 'number' || typeof o.elapsedMs !== 'number' || typeof o.venue !== 'string') continue
    syncs.push({
      venue: o.venue,
      changesOnly: typeof o.changesSince === 'string',
      installed: o.msg === 'catalog installed',
      version: typeof o.version === 'number' ? o.version : 0,
      changedEvents: typeof o.changedEvents === 'number' ? o.changedEvents : undefined,
      elapsedMs: o.elapsedMs,
      processCpuMs: o.processCpuMs,
    })
  }
  return syncs
}

/** One GET on the keep-alive agent, timed from sending the request to the last body byte. */
function timeGet(agent: Agent, port: number, path: string): Promise<{ ms: number; bytes: number; body: string }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const req = get({ host: '127.0.0.1', port, path, agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.once('end', () => {
        const ms = Number(process.hrtime.bigint() - start) / 1e6
        const body = Buffer.concat(chunks).toString('utf8')
        if (res.statusCode !== 200) return reject(new Error(`GET ${path}: ${res.statusCode} ${body.slice(0, 300)}`))
        resolve({ ms, bytes: Buffer.byteLength(body), body })
      })
      res.once('error', reject)
    })
    req.once('timeout', () => req.destroy(new Error(`GET ${path}: timed out`)))
    req.once('error', reject)
  })
}

async function metricsText(agent: Agent, port: number): Promise<string> {
  return (await timeGet(agent, port, '/metrics')).body
}

/** The value of an unlabelled series (NaN when absent). */
export function metricValue(text: string, name: string): number {
  const m = new RegExp(`^${name} ([^\\s]+)$`, 'm').exec(text)
  return m === null ? Number.NaN : Number(m[1])
}

/** A per-venue series' values by venue. */
export function perVenue(text: string, name: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const m of text.matchAll(new RegExp(`^${name}\\{venue="(\\w+)"\\} ([^\\s]+)$`, 'gm')))
    out[m[1] as string] = Number(m[2])
  return out
}

function safe(f: () => number): number {
  try {
    return f()
  } catch {
    return 0
  }
}
