import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Bench } from 'tinybench'
import { generateApiKey, type NewApiKey } from '../src/accounts/api-key.js'
import { Authenticator, type KeyLookup } from '../src/accounts/authenticator.js'
import type { RateLimit } from '../src/accounts/token-bucket.js'
import { UsageMeter } from '../src/accounts/usage-meter.js'
import { systemClock, type Clock } from '../src/core/clock.js'
import { silentLogger } from '../src/core/logger.js'
import { API_KEY_HEADER, keyGuards } from '../src/http/auth.js'
import { registerRoutes, type RouteGuard } from '../src/http/register.js'
import type { Reply } from '../src/http/reply.js'
import { defineRoute } from '../src/http/route.js'
import { HttpServer, type RequestContext, type RouteDef } from '../src/http/server.js'
import type { UsageRepository } from '../src/store/usage-repo.js'
import { processCpuSeconds } from './cpu-usage.js'
import { medianAveraged } from './harness.js'
import { spawnNode, startStandaloneSim, waitReady, MAIN_JS, type Spawned } from './process.js'
import { killWrk, parseWrk } from './wrk.js'

/**
 * What does an API key cost a read? (issue 4: an authenticated read costs ≤ 5% more than the same read with
 * AUTH_REQUIRED=false.)
 *
 * 1. `micro`: the route wrapper of register.ts around a handler that returns a cached reply (a page-cache hit),
 *    with and without the key guard: cache lookup, token bucket, usage count, rate-limit headers. tinybench.
 * 2. `http`: two service processes against one standalone simulator, one with AUTH_REQUIRED=false, one with auth
 *    on (limits set out of reach), the same reads through wrk in alternating runs (ABBA), the servers pinned to
 *    CPU 0, wrk and the simulator to CPU 1. Reported per pair: req/s and server CPU per request of each; overall the
 *    median of the on/off ratios (medians, because other load on a shared machine lands in single runs).
 *    The HTTP bench (http.bench.ts) compares the service with bare uWS; this one compares the service with itself.
 *
 * 3. `uws`: between the two, the HTTP layer alone in this process (real uWS, real guard, a trivial handler), to
 *    price the guard plus its header capture and two response headers without the service's noise.
 *
 * `node dist/bench/auth.bench.js [micro|uws|http]` (all by default).
 */
/** The service's authenticator over one key (found by its hash), with caches far larger than a bench needs. */
function benchAuthenticator(key: NewApiKey, clock: Clock, rateLimit: RateLimit): Authenticator {
  const keys: KeyLookup = { findByHash: async () => ({ id: 'k1', accountId: 'a1', hash: key.hash, revokedAt: null }) }
  return new Authenticator({
    keys,
    clock,
    keyPrefix: 'pmk_live_',
    rateLimit,
    maxKeys: 10_000,
    maxUnknownKeys: 10_000,
    unknownKeyTtlMs: 60_000,
    revalidateMs: 3_600_000,
    maxPendingLookups: 64,
    log: silentLogger,
  })
}

export interface MicroResult {
  readonly name: string
  readonly nsPerRequest: number
  readonly rmePercent: number
}

export async function benchAuthMicro(): Promise<MicroResult[]> {
  const key = generateApiKey('pmk_live_')
  // The system clock (its cost is part of the path), skewed a millisecond further on each read, with a bucket of
  // burst 40 refilled at 1,000/s: one token back per request, so every request passes as in normal traffic.
  let skewMs = 0
  const clock: Clock = { ...systemClock, now: () => Date.now() + skewMs++ }
  const auth = benchAuthenticator(key, clock, { perSecond: 1_000, burst: 40 })
  const meter = new UsageMeter({ repo: NO_STORE, clock, flushMs: 3_600_000, retentionDays: 1, log: silentLogger })
  await auth.resolve(key.value)
  const cached: Reply = { status: 200, body: '{"markets":[],"total":0,"limit":25,"offset":0}' }
  const route = defineRoute({
    method: 'get',
    path: '/r',
    operationId: 'r',
    summary: 'r',
    tags: [],
    responses: { 200: { description: 'ok' } },
    handler: () => cached,
  })
  const defs: RouteDef[] = []
  const fakeServer = { route: (d: RouteDef) => defs.push(d) } as unknown as HttpServer
  const guards = keyGuards(auth, meter, clock)
  registerRoutes(fakeServer, [route])
  registerRoutes(fakeServer, [route], { guard: () => guards.metered })
  const [open, keyed] = defs as [RouteDef, RouteDef]
  const ctx: RequestContext = {
    method: 'get',
    path: '/r',
    query: '',
    params: {},
    headers: { 'x-api-key': key.value },
    body: undefined,
    responseHeaderLines: '',
  }
  const BATCH = 1_000
  const bench = new Bench({ name: 'auth per request', time: 1_500, warmupTime: 300 })
  let sink = 0
  bench.add('route, AUTH_REQUIRED=false', () => {
    for (let i = 0; i < BATCH; i++) sink += (open.handler(ctx) as Reply).status
  })
  bench.add('route behind the key guard (cached key, token, usage count, headers)', () => {
    for (let i = 0; i < BATCH; i++) sink += (keyed.handler(ctx) as Reply).status
  })
  await bench.run()
  if (sink === 0) throw new Error('unreachable')
  return bench.tasks.map((t) => {
    const r = t.result
    if (r.state !== 'completed') throw new Error(`${t.name}: ${r.state}`)
    return { name: t.name, nsPerRequest: (r.latency.mean * 1e6) / BATCH, rmePercent: r.latency.rme }
  })
}

export interface UwsResult {
  readonly bodyBytes: number
  /** Server CPU per request (µs) of each round, per stage (the stages' order in `UWS_STAGES`). */
  readonly rounds: readonly (readonly number[])[]
  /** Median server CPU per request (µs) of each stage. */
  readonly medianUs: Readonly<Record<UwsStage, number>>
}

/**
 * The keyed path in stages, each a route of its own, so the bench says where a key's cost goes:
 * - `open`: no guard, no key sent;
 * - `header`: the key sent and captured (uWS `getHeader`), a guard that lets everything through;
 * - `lookup`: that plus the cached key's lookup (a fresh header string hashed into the key cache);
 * - `keyed`: the real metered guard (plus clock, token bucket, usage count and the two rate-limit headers).
 */
export const UWS_STAGES = ['open', 'header', 'lookup', 'keyed'] as const
export type UwsStage = (typeof UWS_STAGES)[number]

/**
 * The HTTP layer alone, in this process: one HttpServer with the same cached 2 KB reply behind each stage of
 * `UWS_STAGES`, wrk against each in turn (rounds in alternating order). This process serves nothing else, so its
 * CPU time per request is the server's.
 */
export async function benchAuthUws(
  body: string = JSON.stringify({ markets: [{ title: 'x'.repeat(2_000) }], total: 1, limit: 1, offset: 0 }),
): Promise<UwsResult> {
  const key = generateApiKey('pmk_live_')
  const auth = benchAuthenticator(key, systemClock, UNREACHABLE_LIMIT)
  await auth.resolve(key.value)
  const meter = new UsageMeter({
    repo: NO_STORE,
    clock: systemClock,
    flushMs: 3_600_000,
    retentionDays: 1,
    log: silentLogger,
  })
  const guards = keyGuards(auth, meter, systemClock)
  const guardOf: Record<UwsStage, RouteGuard | undefined> = {
    open: undefined,
    header: { headers: [API_KEY_HEADER], check: () => undefined },
    lookup: {
      headers: [API_KEY_HEADER],
      check: (ctx) => {
        const r = auth.resolve(ctx.headers[API_KEY_HEADER], 0)
        if (!(r instanceof Promise) && r.kind === 'key') ctx.caller = r.caller
        return undefined
      },
    },
    keyed: guards.metered,
  }
  const http = new HttpServer({ log: silentLogger })
  for (const stage of UWS_STAGES) {
    const route = defineRoute({
      method: 'get',
      path: `/${stage}`,
      operationId: stage,
      summary: stage,
      tags: [],
      responses: { 200: { description: 'ok' } },
      handler: (): Reply => ({ status: 200, body }),
    })
    const guard = guardOf[stage]
    registerRoutes(http, [route], guard === undefined ? {} : { guard: () => guard })
  }
  const port = await http.listen('127.0.0.1', 0)
  pinPid(process.pid, '0')
  const run = async (stage: UwsStage): Promise<number> => {
    const cpu0 = process.cpuUsage()
    const r = await wrk(port, `/${stage}`, UWS_RUN_SEC, stage === 'open' ? undefined : key.value, 32)
    const cpu = process.cpuUsage(cpu0)
    return (cpu.user + cpu.system) / r.requests
  }
  try {
    for (const stage of UWS_STAGES) await run(stage)
    const rounds: number[][] = []
    for (let i = 0; i < UWS_ROUNDS; i++) {
      const order = i % 2 === 0 ? UWS_STAGES : [...UWS_STAGES].reverse()
      const round: Partial<Record<UwsStage, number>> = {}
      for (const stage of order) round[stage] = await run(stage)
      rounds.push(UWS_STAGES.map((s) => round[s] as number))
    }
    const medianUs = Object.fromEntries(
      UWS_STAGES.map((s, j) => [s, medianAveraged(rounds.map((r) => r[j] as number))]),
    ) as Record<UwsStage, number>
    return { bodyBytes: Buffer.byteLength(body), rounds, medianUs }
  } finally {
    http.close()
    pinPid(process.pid, '0,1')
  }
}

const UWS_RUN_SEC = 3
const UWS_ROUNDS = 8

export interface HttpRun {
  readonly rps: number
  readonly cpuUsPerRequest: number
  readonly p99Ms: number
}

export interface HttpPair {
  readonly off: HttpRun
  readonly on: HttpRun
}

export interface HttpAuthResult {
  readonly path: string
  readonly bodyBytes: number
  readonly pairs: readonly HttpPair[]
  /** Median over the pairs of on/off req/s (1 = free). */
  readonly throughputRatio: number
  /** Median over the pairs of on/off server CPU per request (1 = free). */
  readonly cpuRatio: number
}

/** The HTTP bench's hot read (60 KB) and a one-row page, where a fixed per-request cost weighs most. */
export const AUTH_HTTP_PATHS = ['/api/v2/venuep/markets?limit=25', '/api/v2/venuek/markets?limit=1'] as const
/**
 * Limits wrk cannot reach (a million tokens per millisecond), with a bucket of 4,096 so `X-RateLimit-Remaining`
 * comes from the prebuilt header table, as it does for real buckets (40 by default); a burst of 10^9 would format a
 * fresh number per request and overstate the cost.
 */
const UNREACHABLE_LIMIT = { perSecond: 1e9, burst: 4_096 }
/** A usage store that drops everything (the benches measure counting, not writing). */
const NO_STORE = { add: async () => undefined, prune: async () => 0 } as unknown as UsageRepository
const PORT_OFF = 18_111
const PORT_ON = 18_112
const RUN_SEC = 5
const PAIRS = 6
/** The quiet background of the HTTP runs: a slow feed, and no catalog refresh during the bench (~2 min per path). */
const QUIET_QUOTE_CHANGES_PER_SEC = 20
const QUIET_CATALOG_REFRESH_MS = 30 * 60_000

export async function benchAuthHttp(
  log: (line: string) => void = (l) => process.stderr.write(`bench auth: ${l}\n`),
): Promise<HttpAuthResult[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'predmkt-auth-bench-'))
  const children: Spawned[] = []
  try {
    log('starting the simulator and two services (auth off, auth on)')
    // A quiet background: the services' CPU per request is the bench's measure, and a feed at the default 400 quote
    // changes/s or a catalog refresh (a burst of ~0.5 s of CPU every minute) landing in one 5 s run but not the
    // other moved single ratios by ±15% (runs of 2026-11-25). The request path is the same either way.
    const { sim, serviceEnv } = await startStandaloneSim({
      SIM_PORT_BASE: '17401',
      DATA_DIR: join(tmp, 'sim'),
      SIM_QUOTE_CHANGES_PER_SEC: String(QUIET_QUOTE_CHANGES_PER_SEC),
    })
    children.push(sim)
    pin(sim, '1')
    const started = Date.now()
    const quiet = { CATALOG_REFRESH_MS: String(QUIET_CATALOG_REFRESH_MS) }
    const off = spawnNode(MAIN_JS, {
      ...serviceEnv,
      ...quiet,
      PORT: String(PORT_OFF),
      DATA_DIR: join(tmp, 'off'),
      AUTH_REQUIRED: 'false',
    })
    // Limits out of reach: this measures the guard's cost, not its refusals.
    const unlimited = {
      RATE_LIMIT_PER_SEC: String(UNREACHABLE_LIMIT.perSecond),
      RATE_LIMIT_BURST: String(UNREACHABLE_LIMIT.burst),
    }
    const on = spawnNode(MAIN_JS, {
      ...serviceEnv,
      ...quiet,
      PORT: String(PORT_ON),
      DATA_DIR: join(tmp, 'on'),
      AUTH_REQUIRED: 'true',
      ...unlimited,
    })
    children.push(off, on)
    pin(off, '0')
    pin(on, '0')
    await waitReady(PORT_OFF, started, 240_000)
    await waitReady(PORT_ON, started, 240_000)
    const signup = await fetch(`http://127.0.0.1:${PORT_ON}/api/v2/developers/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', company: 'bench', use_case: 'bench' }),
    })
    const key = ((await signup.json()) as { api_key: string }).api_key
    const results: HttpAuthResult[] = []
    for (const path of AUTH_HTTP_PATHS) {
      const [a, b] = await Promise.all([
        fetch(`http://127.0.0.1:${PORT_OFF}${path}`),
        fetch(`http://127.0.0.1:${PORT_ON}${path}`, { headers: { 'x-api-key': key } }),
      ])
      const bodyOff = Buffer.from(await a.arrayBuffer())
      const bodyOn = Buffer.from(await b.arrayBuffer())
      if (a.status !== 200 || b.status !== 200) throw new Error(`reads failed: ${a.status} ${b.status}`)
      if (Math.abs(bodyOff.length - bodyOn.length) > bodyOff.length * 0.05)
        throw new Error(`bodies differ: ${bodyOff.length} vs ${bodyOn.length}`)
      log(`${path}: ${bodyOff.length} B; warming up`)
      await wrk(PORT_OFF, path, 3)
      await wrk(PORT_ON, path, 3, key)
      const pairs: HttpPair[] = []
      for (let i = 0; i < PAIRS; i++) {
        // ABBA order, so a drift in machine load hits both sides alike.
        const runOff = () => measured(off, () => wrk(PORT_OFF, path, RUN_SEC))
        const runOn = () => measured(on, () => wrk(PORT_ON, path, RUN_SEC, key))
        const pair =
          i % 2 === 0 ? { off: await runOff(), on: await runOn() } : { on: await runOn(), off: await runOff() }
        pairs.push(pair)
        log(`${path} pair ${i + 1}: off ${describe(pair.off)} | on ${describe(pair.on)}`)
      }
      results.push({
        path,
        bodyBytes: bodyOff.length,
        pairs,
        throughputRatio: medianAveraged(pairs.map((p) => p.on.rps / p.off.rps)),
        cpuRatio: medianAveraged(pairs.map((p) => p.on.cpuUsPerRequest / p.off.cpuUsPerRequest)),
      })
    }
    return results
  } finally {
    killWrk()
    for (const c of children.reverse()) if (c.child.exitCode === null && c.child.signalCode === null) await c.stop()
    rmSync(tmp, { recursive: true, force: true })
  }
}

function describe(r: HttpRun): string {
  return `${r.rps.toFixed(0)} req/s, ${r.cpuUsPerRequest.toFixed(1)} µs CPU/req, p99 ${r.p99Ms.toFixed(2)} ms`
}

async function measured(
  server: Spawned,
  run: () => Promise<{ rps: number; requests: number; p99Ms: number }>,
): Promise<HttpRun> {
  const cpu0 = processCpuSeconds(server.child.pid as number)
  const r = await run()
  const cpu = processCpuSeconds(server.child.pid as number) - cpu0
  return { rps: r.rps, cpuUsPerRequest: (cpu * 1e6) / r.requests, p99Ms: r.p99Ms }
}

/** wrk on CPU 1 with 64 connections (as the HTTP bench), with the key header when given. */
function wrk(
  port: number,
  path: string,
  durationSec: number,
  key?: string,
  connections = 64,
): Promise<{ rps: number; requests: number; p99Ms: number }> {
  const header = key === undefined ? [] : ['-H', `X-API-Key: ${key}`]
  const args = [
    '-c',
    '1',
    'wrk',
    '-t',
    '1',
    '-c',
    String(connections),
    '-d',
    `${durationSec}s`,
    '--latency',
    ...header,
    `http://127.0.0.1:${port}${path}`,
  ]
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${out}`))
      try {
        const r = parseWrk(out)
        if (r.errors > 0) return reject(new Error(`wrk saw ${r.errors} errors (non-2xx included):\n${out}`))
        resolve({ rps: r.requestsPerSec, requests: r.requests, p99Ms: r.p99Ms })
      } catch (err) {
        reject(err)
      }
    })
  })
}

function pin(p: Spawned, cpus: string): void {
  pinPid(p.child.pid as number, cpus)
}

function pinPid(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' })
}

async function main(): Promise<void> {
  const which = process.argv[2]
  if (which === undefined || which === 'micro') {
    const micro = await benchAuthMicro()
    for (const m of micro)
      console.log(`${m.name}: ${m.nsPerRequest.toFixed(0)} ns/request (±${m.rmePercent.toFixed(1)}%)`)
    const [open, keyed] = micro as [MicroResult, MicroResult]
    console.log(
      `auth + rate limit + usage count: ${(keyed.nsPerRequest - open.nsPerRequest).toFixed(0)} ns per request`,
    )
  }
  if (which === undefined || which === 'uws') {
    const u = await benchAuthUws()
    console.log(
      `HTTP layer in process (${u.bodyBytes} B reply, wrk -c32, ${u.rounds.length} rounds of ${UWS_RUN_SEC} s): server CPU per request`,
    )
    for (const [i, r] of u.rounds.entries())
      console.log(`  round ${i + 1}: ${UWS_STAGES.map((s, j) => `${s} ${(r[j] as number).toFixed(2)} µs`).join(', ')}`)
    console.log(`  medians: ${UWS_STAGES.map((s) => `${s} ${u.medianUs[s].toFixed(2)} µs`).join(', ')}`)
  }
  if (which === undefined || which === 'http') {
    for (const r of await benchAuthHttp()) {
      console.log(
        `${r.path} (${r.bodyBytes} B), ${r.pairs.length} ABBA pairs of ${RUN_SEC} s, servers on CPU 0, wrk -c64 and the simulator on CPU 1:`,
      )
      for (const [i, p] of r.pairs.entries())
        console.log(`  pair ${i + 1}: off ${describe(p.off)} | on ${describe(p.on)}`)
      const pct = (x: number) => `${(x * 100).toFixed(1)}%`
      console.log(
        `  authenticated / AUTH_REQUIRED=false, median of pairs: throughput ${pct(r.throughputRatio)}, server CPU per request ${pct(r.cpuRatio)} (target ≤ 105%)`,
      )
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err)
    process.exit(1)
  })
}
