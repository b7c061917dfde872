import { loadConfig } from '../src/config/load.js'
import { systemClock } from '../src/core/clock.js'
import { serviceEnvFor } from '../src/sim/service-env.js'
import { startSimulator } from '../src/sim/simulator.js'
import { Rng } from '../src/sim/world/random.js'

/**
 * The standalone simulator (what `npm run sim` runs, src/sim/cli.ts: same world, same ports, same printed
 * environment) plus a switchable boost of market activity, for benches that read while quotes change far faster
 * than the simulator's default rates give (`sim.quoteChangesPerSec` = 400 book changes/s across ~40,000 books,
 * of which ~150 change a matched pair's quote; the environment cannot raise it, and raising it barely helps:
 * a book already at its fair-value ladder has nothing to move).
 *
 * SIGUSR2 toggles the boost; each toggle prints `boost on` or `boost off`. Boosted, BENCH_SIM_BOOST_PER_SEC times
 * a second the simulator's own engine re-sizes the best bid or best ask of a random market of a question listed
 * on both venues (`SimEngine.churnVenuepTop`/`churnVenuekTop`: order churn at the top of the book), so every
 * boost change is one book event that moves a matched instrument's quote, i.e. reaches the spread engine as a
 * quote change. The changes are spread over BOOST_TICK_MS ticks: a venue's feed is a stream, not the 50 ms
 * bursts of the engine's own step. The service starts against the default rates, and benches boost only around
 * the runs that need it.
 */
const config = loadConfig()
const sim = await startSimulator({ config: config.sim, clock: systemClock, portsFromConfig: true })
const env = serviceEnvFor(sim, config.dataDir)

const boostPerSec = Number(process.env.BENCH_SIM_BOOST_PER_SEC ?? '0')
const world = sim.world
const shared = new Set(world.truth.outcomePairs.map((p) => p.contractKey))
const vpMatched = world.vpMarkets.filter((m) => shared.has(m.contract.key) && world.vpBooks.has(m.conditionId))
const vkMatched = world.vkMarkets.filter((m) => shared.has(m.contract.key) && world.vkBooks.has(m.ticker))
const rng = new Rng(7)
const BOOST_TICK_MS = 5
/**
 * A late tick makes up for at most 50 ms: a simulator short of CPU (it shares a core with wrk) streams fewer
 * changes, which the bench reports, rather than catching up in bursts that would stall it and the service.
 */
const MAX_CATCH_UP_SEC = 0.05
let boost: NodeJS.Timeout | undefined
process.on('SIGUSR2', () => {
  if (boost !== undefined) {
    clearInterval(boost)
    boost = undefined
    process.stdout.write('boost off\n')
    return
  }
  let last = Date.now()
  let carry = 0
  boost = setInterval(() => {
    const now = Date.now()
    carry += boostPerSec * Math.min(MAX_CATCH_UP_SEC, (now - last) / 1000)
    last = now
    for (; carry >= 1; carry--) {
      if (rng.chance(0.5)) sim.engine.churnVenuepTop(rng.pick(vpMatched), now)
      else sim.engine.churnVenuekTop(rng.pick(vkMatched), now)
    }
  }, BOOST_TICK_MS)
  process.stdout.write('boost on\n')
})

process.stdout.write(`# ${sim.description}; boost of ${boostPerSec} top-of-book changes/s on ${vpMatched.length} + ${vkMatched.length} matched markets on SIGUSR2\n${Object.entries(env).map(([k, v]) => `export ${k}='${v}'`).join('\n')}\n# then: npm start\n`)
const stop = (): void => {
  clearInterval(boost)
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
