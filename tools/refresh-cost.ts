import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp, type App } from '../src/app.js'
import { loadConfig } from '../src/config/load.js'
import { createLogger } from '../src/core/logger.js'
import type { FeedStatus } from '../src/venues/types.js'
import { SIM_CHILD_JS, startStandaloneSim } from '../bench/process.js'

/**
 * `npm run refresh:cost`: what one catalog refresh costs the service's whole process (issue 35's "a refresh that
 * changed nothing ≤ 20 ms of CPU, one changed event ≤ 50 ms"), measured against the standalone simulator in a
 * process of its own, with no market activity (BENCH_SIM_ENGINE=0: books and catalog stay as generated) except a
 * catalog churn: every CHURN_MS one venuek event leaves the listing and the one that left before comes back, and one
 * new venuep event is listed (bench/sim-child.ts). The service runs in this process with its own refresh timers off;
 * each round, after a churn turn:
 *
 * - **changed**: venuek's changes since its last sync are listed (catalog-changes.ts: a refresh between its whole
 *   listings), which finds the event that came back (stamped as updated when listed again) and installs a new version:
 *   the matcher's update, the read models' patch and the spread engine's install follow. The event that left is
 *   dropped at the next whole listing (`fullListingEveryMs`), not here;
 * - **unchanged**: venuek's changes are listed once more at once, which finds nothing new and installs nothing;
 * - **venuep changes: one new event**: venuep's new events and its events due to close are asked for (its refresh
 *   between whole listings, venuep/catalog-changes.ts), which finds the new event and installs a new version;
 * - **venuep changes: none**: the same at once, nothing new;
 * - **venuep whole**: venuep listed whole (as every `fullListingEveryMs`), nothing new since.
 *
 * Each figure is the process's CPU (user + system) from the refresh's start until every consequence has settled,
 * which includes listing the venue (HTTP, JSON parse, a digest per event); the service's idle cost over the same
 * time (heartbeats of the open feeds) is measured apart and given beside.
 *
 *   SIM_QUESTIONS=10000 npm run refresh:cost                      (10,000 by default)
 *   SIM_QUESTIONS=90000 SIM_VENUEK_ONLY_LADDERS=4500 npm run refresh:cost -- --rounds 3
 *   … --profile refresh.cpuprofile                                 a CPU profile of the refreshes (DevTools)
 *   … --allocations refresh.heapprofile                           what they allocate, garbage included (DevTools)
 *   … --without-whole                                              no whole venuep listing in the rounds
 *   … --idle-profile idle.cpuprofile                               a CPU profile of 20 s of the idle service
 */
const CHURN_MS = 20_000

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? undefined : process.argv[i + 1]
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since)
  return (u.user + u.system) / 1000
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `condition` every 5 ms (the polling's own cost is in the figure: a few µs per poll). */
async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

/**
 * A CPU profile of this process from now, when `file` is given: the returned function stops it, writes it to `file`
 * (open it in Chrome's DevTools) and gives the file's name.
 */
async function startCpuProfile(file: string | undefined): Promise<(() => Promise<string>) | undefined> {
  if (file === undefined) return undefined
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  return async () => {
    const { profile } = await session.post('Profiler.stop')
    writeFileSync(file, JSON.stringify(profile))
    return file
  }
}

/** Every consequence of a catalog change is done: no matcher run, view rebuild or spread recompute pending. */
const settled = (app: App) => app.matching.settled && app.models.settled && app.spreads.pendingRecomputes === 0

interface Refresh {
  readonly kind: string
  readonly cpuMs: number
  /** Of which listing the venue (HTTP, JSON parse, a digest per event, mapping what changed). */
  readonly listingCpuMs: number | undefined
  readonly wallMs: number
  readonly mapped: number | undefined
  /** Events a refresh of changes installed (the venue's changes listing: no mapped and reused counts then). */
  readonly changedEvents: number | undefined
  readonly reused: number | undefined
  /** Of the reused, those not parsed (their page's bytes, or their own, were the last sync's). */
  readonly unparsed: number | undefined
  readonly pagesReused: number | undefined
  readonly installed: boolean
  /**
   * Feed connections of both venues resubscribed meanwhile (reconnects, revivals among them: the venue answered its
   * probes late, ws-connection.ts). Each sends every book of its connection again: at real size that work, not the
   * refresh's, can be most of the CPU counted.
   */
  readonly resubscribed: number
  /** Probe replies read late through our own loop's stall, excused (no resubscription; ws-connection.ts). */
  readonly excused: number
  /** How each read-model rebuild meanwhile made each venue's view (kept, patched, built whole), e.g. `p:patched k:kept`. */
  readonly views: readonly string[]
}

/** Reconnects so far, both venues' feeds (a revival, the venue late to answer a probe, is one of them). */
function resubscriptions(app: App): number {
  return feedCounts(app, (feed) => feed?.reconnects ?? 0)
}

/** Late probe replies excused as our own loop's stall so far, both venues' feeds. */
function excusedReplies(app: App): number {
  return feedCounts(app, (feed) => feed?.lateRepliesExcused ?? 0)
}

function feedCounts(app: App, count: (feed: FeedStatus | undefined) => number): number {
  let n = 0
  for (const venue of ['venuep', 'venuek'] as const) n += count(app.venues[venue].venueStatus().feed)
  return n
}

/** What a refresh listed: the changed events a refresh of changes installed, or a whole listing's mapped and reused. */
const listed = (r: Refresh) =>
  r.mapped === undefined
    ? `changed events ${r.changedEvents ?? 0}`
    : `mapped ${r.mapped}, reused ${r.reused} (${r.unparsed} unparsed, ${r.pagesReused} whole pages)`

async function refresh(
  app: App,
  venue: 'venuep' | 'venuek',
  kind: string,
  lines: Record<string, unknown>[],
  whole = false,
) {
  const actor = app.venues[venue]
  const logged = lines.length
  const resubscribedBefore = resubscriptions(app)
  const excusedBefore = excusedReplies(app)
  const cpu = process.cpuUsage()
  const wall = performance.now()
  const synced = (l: Record<string, unknown>) =>
    l.venue === venue && (l.msg === 'catalog installed' || l.msg === 'catalog unchanged')
  actor.refreshCatalog(whole)
  // The sync's end is read from the log lines captured (a look at a few new lines per poll), not from
  // venueStatus(): that builds the whole status, the feeds' included, and polled every 5 ms it was a few ms of
  // each figure that were the tool's, not the service's.
  let seen = logged
  await until(
    () => {
      for (; seen < lines.length; seen++) if (synced(lines[seen] as Record<string, unknown>)) return true
      return false
    },
    600_000,
    `${venue} listed`,
  )
  // The matcher and the views hear of a new version on the next turns: settled twice, 20 ms apart.
  await sleep(20)
  await until(() => settled(app), 600_000, 'settled')
  const cpuUsed = cpuMs(cpu)
  const wallMs = performance.now() - wall
  const line = lines.slice(logged).find(synced)
  const at = line?.cpuAt as NodeJS.CpuUsage | undefined
  return {
    kind,
    cpuMs: cpuUsed,
    listingCpuMs: at === undefined ? undefined : (at.user - cpu.user + at.system - cpu.system) / 1000,
    wallMs,
    mapped: line?.mapped as number | undefined,
    changedEvents: line?.changedEvents as number | undefined,
    reused: line?.reused as number | undefined,
    unparsed: line?.unparsed as number | undefined,
    pagesReused: line?.pagesReused as number | undefined,
    installed: line?.msg === 'catalog installed',
    resubscribed: resubscriptions(app) - resubscribedBefore,
    excused: excusedReplies(app) - excusedBefore,
    views: lines
      .slice(logged)
      .filter((l) => l.msg === 'read models rebuilt')
      .map((l) =>
        Object.entries((l.made ?? {}) as Record<string, string>)
          .map(([venue, made]) => `${venue}:${made}`)
          .join(' '),
      ),
  } satisfies Refresh
}

async function main(): Promise<void> {
  const rounds = Number(arg('rounds') ?? 3)
  // --without-whole: no whole venuep listing (its cost and the resubscriptions it causes leave the profile to the rest).
  const withoutWhole = process.argv.includes('--without-whole')
  const questions = process.env.SIM_QUESTIONS ?? '10000'
  const dataDir = mkdtempSync(join(tmpdir(), 'refresh-cost-'))
  const say = (s: string) => process.stdout.write(`${s}\n`)
  say(`simulator: ${questions} questions, no market activity, catalog churn every ${CHURN_MS / 1000} s`)
  const { sim, serviceEnv } = await startStandaloneSim(
    {
      SIM_QUESTIONS: questions,
      SIM_PORT_BASE: process.env.SIM_PORT_BASE ?? '17200',
      BENCH_SIM_ENGINE: '0',
      BENCH_SIM_CHURN_EVERY_MS: String(CHURN_MS),
    },
    600_000,
    SIM_CHILD_JS,
  )
  const lines: Record<string, unknown>[] = []
  /** Why feed connections went down, numbers masked ("venue silent for # ms, then back…"), with how often. */
  const downReasons = new Map<string, number>()
  const log = createLogger('debug', 'predmkt', {
    write(line: string) {
      const entry = JSON.parse(line) as Record<string, unknown>
      // The process's CPU when the sync's result reached the actor: listing it cost up to here.
      if (entry.msg === 'catalog installed' || entry.msg === 'catalog unchanged')
        lines.push({ ...entry, cpuAt: process.cpuUsage() })
      if (entry.msg === 'read models rebuilt') lines.push(entry)
      if (entry.msg === 'websocket down') {
        const reason = `${String(entry.feed).replace(/\d+/g, '#')}: ${String(entry.reason).replace(/\d+/g, '#')}`
        downReasons.set(reason, (downReasons.get(reason) ?? 0) + 1)
      }
    },
  })
  const config = loadConfig({
    env: {
      ...serviceEnv,
      DATA_DIR: dataDir,
      PORT: '0',
      AUTH_REQUIRED: 'false',
      // Only the refreshes this tool starts, and no catalog files.
      CATALOG_REFRESH_MS: String(24 * 3600_000),
      CATALOG_FILE_EVERY_MS: '0',
    },
  })
  const started = performance.now()
  const app = await startApp({ config, log })
  try {
    await until(
      () => app.spreads.ready && app.models.serving && Object.values(app.venues).every((v) => v.ready),
      1_800_000,
      'ready',
    )
    await until(() => settled(app), 600_000, 'settled')
    const events = (v: 'venuep' | 'venuek') => app.venues[v].catalog()?.events.length ?? 0
    say(
      `ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${events('venuep')} venuep and ${events('venuek')} venuek events, ${app.spreads.pairCount} pairs`,
    )
    // --idle-profile <file>: a CPU profile of the idle service instead (20 s of it): what the background costs.
    const idleProfile = await startCpuProfile(arg('idle-profile'))
    const idleCpu = process.cpuUsage()
    const idleWall = performance.now()
    await sleep(idleProfile === undefined ? 5_000 : 20_000)
    const idlePerSec = cpuMs(idleCpu) / ((performance.now() - idleWall) / 1000)
    say(`idle: ${idlePerSec.toFixed(1)} ms of CPU per second`)
    if (idleProfile !== undefined) say(`CPU profile of the idle service: ${await idleProfile()}`)
    const results: Refresh[] = []
    let turns = 0
    // --profile <file>: a CPU profile of the refreshes alone (open it in Chrome's DevTools).
    const profile = await startCpuProfile(arg('profile'))
    // --allocations <file>: a sampling profile of what the refreshes allocate, garbage included (a .heapprofile for
    // Chrome's DevTools): where a refresh's collections come from.
    const allocationFile = arg('allocations')
    const allocations = allocationFile === undefined ? undefined : new Session()
    if (allocations !== undefined) {
      allocations.connect()
      await allocations.post('HeapProfiler.startSampling', {
        samplingInterval: 32_768,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      })
    }
    for (let round = 0; round < rounds; round++) {
      const seen = turns
      await until(() => (sim.output().match(/churn turn \d+/g)?.length ?? 0) > seen, CHURN_MS * 2, 'a churn turn')
      turns = sim.output().match(/churn turn \d+/g)?.length ?? 0
      const kinds = [
        () => refresh(app, 'venuek', 'venuek changes: one event back', lines),
        () => refresh(app, 'venuek', 'venuek changes: none', lines),
        () => refresh(app, 'venuep', 'venuep changes: one new event', lines),
        () => refresh(app, 'venuep', 'venuep changes: none', lines),
        ...(withoutWhole ? [] : [() => refresh(app, 'venuep', 'venuep whole, unchanged', lines, true)]),
      ]
      for (const kind of kinds) {
        const r = await kind()
        results.push(r)
        say(
          `round ${round + 1}: ${r.kind}: ${r.cpuMs.toFixed(1)} ms CPU (listing ${r.listingCpuMs?.toFixed(1)}), ${r.wallMs.toFixed(0)} ms wall; ${listed(r)}, ${r.installed ? 'installed' : 'nothing installed'}; feed connections resubscribed meanwhile: ${r.resubscribed} (late replies excused as our own stall: ${r.excused}); views: ${r.views.join(', ') || 'none rebuilt'}`,
        )
      }
    }
    if (profile !== undefined) say(`CPU profile of the refreshes: ${await profile()}`)
    if (allocations !== undefined && allocationFile !== undefined) {
      const { profile: taken } = await allocations.post('HeapProfiler.stopSampling')
      writeFileSync(allocationFile, JSON.stringify(taken))
      say(`allocation profile of the refreshes (garbage included): ${allocationFile}`)
    }
    say(
      `\nmedian per kind (CPU ms, of which listing; the same less the idle cost over its wall, ${idlePerSec.toFixed(1)} ms/s; wall ms; events changed or mapped):`,
    )
    for (const kind of [...new Set(results.map((r) => r.kind))]) {
      const of = results.filter((r) => r.kind === kind)
      const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number
      say(
        `  ${kind}: ${median(of.map((r) => r.cpuMs)).toFixed(1)} ms CPU (listing ${median(of.map((r) => r.listingCpuMs ?? 0)).toFixed(1)}; less idle ${median(of.map((r) => r.cpuMs - (idlePerSec * r.wallMs) / 1000)).toFixed(1)}), ${median(of.map((r) => r.wallMs)).toFixed(0)} ms wall, ${
          of[0]?.mapped === undefined
            ? `changed events ${median(of.map((r) => r.changedEvents ?? 0))}`
            : `mapped ${median(of.map((r) => r.mapped ?? 0))} of ${(of[0]?.mapped ?? 0) + (of[0]?.reused ?? 0)}`
        }`,
      )
    }
    if (downReasons.size > 0) {
      say('\nfeed connections down, by reason (since the start):')
      for (const [reason, n] of [...downReasons].sort((a, b) => b[1] - a[1])) say(`  ${n} × ${reason}`)
    }
  } finally {
    await app.close()
    await sim.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err)
    process.exit(1)
  },
)
