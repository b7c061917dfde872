import { cpus } from 'node:os'
import type { CatalogSnapshot } from '../src/actors/catalog-snapshot.js'
import { loadConfig } from '../src/config/load.js'
import { runToEnd } from '../src/core/slices.js'
import { loadAliases, type Aliases } from '../src/spreads/matching/aliases.js'
import { MatchState } from '../src/spreads/matching/matcher.js'
import { loadCatalogs } from './matching/catalog-source.js'

/**
 * `npm run matcher:cost`: what one full matcher build costs on a catalog pair, measured alone (no feeds, no HTTP):
 * CPU and wall time of each run from nothing, the contracts held, the pairs published, and the heap the state keeps.
 * The service pays this once at start (and when a reviewer's file changes); refreshes are incremental.
 *
 *   SIM_QUESTIONS=90000 SIM_VENUEK_ONLY_LADDERS=4500 npm run matcher:cost    a simulated world of the venues' size
 *   npm run matcher:cost -- --catalog <dir>                                  captured catalogs
 *   … --runs N                                                               builds in one process (default 3)
 *
 * The first run is the one a starting service pays (code not yet optimized). The npm script gives node
 * --expose-gc (for the retained heap) and room for the in-process simulator's world beside the catalogs.
 */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? undefined : process.argv[i + 1]
}

type Gc = (() => void) | undefined

/**
 * One full build from nothing. A function of its own so that the state is garbage once it returns: the next build's
 * heap baseline does not include it.
 */
function build(a: CatalogSnapshot, b: CatalogSnapshot, aliases: Aliases, gc: Gc) {
  const heapBefore = process.memoryUsage().heapUsed
  const cpu = process.cpuUsage()
  const wall = performance.now()
  const state = new MatchState()
  const update = runToEnd(state.updateSteps(a, b, { aliases: { lookup: aliases.lookup, version: aliases.version } }))
  const wallMs = Math.round(performance.now() - wall)
  const used = process.cpuUsage(cpu)
  gc?.()
  return {
    cpuMs: Math.round((used.user + used.system) / 1000),
    wallMs,
    contracts: state.contracts,
    judged: update.judged,
    pairs: update.matches.reduce((n, m) => n + m.outcomes.length, 0),
    eventPairs: update.matches.length,
    retained:
      gc === undefined
        ? 'n/a (run node with --expose-gc)'
        : `${Math.round((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20)} MiB`,
  }
}

async function main(): Promise<void> {
  const runs = Number(arg('runs') ?? 3)
  const loadStarted = performance.now()
  const { a, b, description } = await loadCatalogs({ catalog: arg('catalog') })
  const outcomes = (s: CatalogSnapshot) =>
    s.events.reduce((n, e) => n + e.markets.reduce((m, k) => m + k.outcomes.length, 0), 0)
  console.log(
    `${description}: ${a.venue} ${a.events.length} events / ${outcomes(a)} outcomes, ${b.venue} ${b.events.length} events / ${outcomes(b)} outcomes (loaded in ${Math.round(performance.now() - loadStarted)} ms)`,
  )
  const gc = (globalThis as { gc?: () => void }).gc
  const aliases = loadAliases(loadConfig().spreads.aliasesPath)
  for (let i = 0; i < runs; i++) {
    gc?.()
    const r = build(a, b, aliases, gc)
    console.log(
      `run ${i + 1}: CPU ${r.cpuMs} ms (all threads), wall ${r.wallMs} ms; ${r.contracts} contracts, ${r.judged} candidate pairs judged, ${r.pairs} outcome pairs in ${r.eventPairs} event pairs; matcher state retained ${r.retained}`,
    )
  }
  console.log(`${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`)
}

await main()
