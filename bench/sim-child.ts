import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { loadConfig } from '../src/config/load.js'
import { systemClock } from '../src/core/clock.js'
import { serviceEnvFor } from '../src/sim/service-env.js'
import { boostTargets, startBoost, type Boost } from './sim-boost.js'
import { startSimulator } from '../src/sim/simulator.js'
import { Rng } from '../src/sim/world/random.js'
import { venuekOf } from '../src/sim/venuek/state.js'
import type { VkEvent } from '../src/sim/venuek/types.js'
import { isEventClosed } from '../src/sim/venuep/market-stats.js'
import { venuepOf } from '../src/sim/venuep/state.js'

/**
 * The standalone simulator (what `npm run sim` runs, src/sim/cli.ts: same world, same ports, same printed
 * environment) plus a switchable boost of market activity, for benches that read while quotes change far faster
 * than the simulator's default rates give (`sim.quoteChangesPerSec` = 400 book changes/s across ~40,000 books,
 * of which ~150 change a matched pair's quote; the environment cannot raise it, and raising it barely helps:
 * a book already at its fair-value ladder has nothing to move).
 *
 * SIGUSR2 toggles the boost; each toggle prints `boost on` or `boost off`. Boosted, BENCH_SIM_BOOST_PER_SEC times
 * a second the simulator's own engine re-sizes the best bid or best ask of a random market of a question listed
 * on both venues (`SimEngine.churnTop`: order churn at the top of the book), so every
 * boost change is one book event that moves a matched instrument's quote, i.e. reaches the spread engine as a
 * quote change. The changes are spread over ticks of BENCH_SIM_BOOST_TICK_MS (default 5 ms, sim-boost.ts): a venue's
 * feed is a stream, not the 50 ms bursts of the engine's own step. The service starts against the default rates, and benches boost only around
 * the runs that need it.
 *
 * BENCH_SIM_CHURN_EVERY_MS (default 0: off) adds catalog churn: at that period one venuek event, drawn at random,
 * leaves the event listing and the one that left at the previous turn comes back (at the end of the listing), so
 * the catalog keeps its size while its set of events changes between two of the service's refreshes, as a real
 * venue's does (events listed, others closed): what makes the service re-run its cross-venue matching. A delisted
 * event's markets still answer (books, subscriptions, lookups by ticker); only the listing the service's catalog
 * sync pages through no longer holds it. A listing's later pages read the selection its first page made
 * (src/sim/listing-snapshots.ts), so a refresh that pages across a turn sees the turn at the next refresh. Each turn prints
 * `churn turn <n>`. On venuep, whose events are new by id (it cannot list changes by stamp: the service finds new
 * events as the newest by id), the churn lists a new event each turn instead: the BENCH_SIM_VENUEP_NEW_EVENTS (default 50)
 * newest open events are held back from the listing at start and listed one per turn, newest last, until none is left.
 *
 * BENCH_SIM_ENGINE=0 starts no market activity: the books and the catalog stay as generated, apart from the churn.
 *
 * BENCH_SIM_PROFILE=<file> writes a CPU profile of the simulator's whole run to that file when it stops (DevTools'
 * format): where a saturated simulator's time goes, when the service sees the venue answer late.
 */
const profileFile = process.env.BENCH_SIM_PROFILE
const profiler = profileFile === undefined || profileFile === '' ? undefined : new Session()
if (profiler !== undefined) {
  profiler.connect()
  await profiler.post('Profiler.enable')
  // Every 2 ms, not 1: a run of many minutes must still be written within the stop's grace (5 s before SIGKILL).
  await profiler.post('Profiler.setSamplingInterval', { interval: 2_000 })
  await profiler.post('Profiler.start')
}
const config = loadConfig()
// BENCH_SIM_ENGINE=0: no market activity at all (a catalog that changes only by the churn below).
const sim = await startSimulator({
  config: config.sim,
  clock: systemClock,
  portsFromConfig: true,
  startEngine: process.env.BENCH_SIM_ENGINE !== '0',
})
const env = serviceEnvFor(sim, config.dataDir)

const boostPerSec = Number(process.env.BENCH_SIM_BOOST_PER_SEC ?? '0')
const boostTickMs = Number(process.env.BENCH_SIM_BOOST_TICK_MS ?? '') || undefined
const world = sim.world
const targets = boostTargets(sim)
/** One random stream across toggles, as before the boost moved to sim-boost.ts. */
const boostRng = new Rng(7)
let boost: Boost | undefined
process.on('SIGUSR2', () => {
  if (boost !== undefined) {
    boost.stop()
    boost = undefined
    process.stdout.write('boost off\n')
    return
  }
  boost = startBoost(sim, boostPerSec, boostRng, boostTickMs)
  process.stdout.write('boost on\n')
})

const churnEveryMs = Number(process.env.BENCH_SIM_CHURN_EVERY_MS ?? '0')
const churnRng = new Rng(11)
let delisted: VkEvent | undefined
let churns = 0
/** venuep's events not listed yet, the oldest first (the venue's new events come in id order). */
const unlisted = churnEveryMs > 0 ? holdBackNewest(Number(process.env.BENCH_SIM_VENUEP_NEW_EVENTS ?? '50')) : []
const churn =
  churnEveryMs > 0
    ? setInterval(() => {
        const fresh = unlisted.shift()
        if (fresh !== undefined) venuepOf(world).events.push(fresh)
        // The world's listing array is what the venuek catalog routes page through (rest-catalog.ts).
        const i = churnRng.int(0, venuekOf(world).events.length - 1)
        const [out] = venuekOf(world).events.splice(i, 1)
        if (delisted !== undefined) {
          // Listed again: new to the venue's listings of changes too (`min_updated_ts`).
          delisted.lastUpdated = Date.now()
          venuekOf(world).events.push(delisted)
        }
        delisted = out
        churns++
        process.stdout.write(`churn turn ${churns}\n`)
      }, churnEveryMs)
    : undefined
churn?.unref()

/** Takes the `n` newest open venuep events out of the listing; returns them oldest first. */
function holdBackNewest(n: number) {
  const listing = venuepOf(world).events
  const newest = listing
    .filter((e) => !isEventClosed(e))
    .sort((a, b) => Number(b.id) - Number(a.id))
    .slice(0, n)
  const held = new Set(newest)
  const kept = listing.filter((e) => !held.has(e))
  listing.length = 0
  for (const e of kept) listing.push(e)
  return newest.reverse()
}

process.stdout.write(
  `# ${sim.description}; boost of ${boostPerSec} top-of-book changes/s on ${targets.venuep.length} + ${targets.venuek.length} matched markets on SIGUSR2${churnEveryMs > 0 ? `; catalog churn every ${churnEveryMs} ms` : ''}\n${Object.entries(
    env,
  )
    .map(([k, v]) => `export ${k}='${v}'`)
    .join('\n')}\n# then: npm start\n`,
)
const stop = (): void => {
  boost?.stop()
  clearInterval(churn)
  if (churns > 0) process.stdout.write(`churn: ${churns} turns\n`)
  const profiled =
    profiler === undefined
      ? Promise.resolve()
      : profiler
          .post('Profiler.stop')
          .then(({ profile }) => writeFileSync(profileFile as string, JSON.stringify(profile)))
  // The profile first: closing a large world's servers can outlast the grace.
  profiled
    .then(() => sim.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    )
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
