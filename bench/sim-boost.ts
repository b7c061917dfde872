import type { Simulator } from '../src/sim/simulator.js'
import type { EngineMarket } from '../src/sim/world/engine.js'
import { Rng } from '../src/sim/world/random.js'
import { venuepOf } from '../src/sim/venuep/state.js'
import { venuekOf } from '../src/sim/venuek/state.js'

/**
 * A boost of market activity for a running simulator: `perSec` times a second its own engine re-sizes the best bid
 * or best ask of a random market of a question listed on both venues (`SimEngine.churnTop`: order churn at the top
 * of the book), so every change is one book event that moves a matched instrument's quote. The changes are spread
 * over ticks (BOOST_TICK_MS unless told): a venue's feed is a stream, not the 50 ms bursts of the engine's own step. Used by the
 * standalone bench simulator (sim-child.ts, switched by SIGUSR2) and by the soak (tools/soak/), in-process.
 */
export interface Boost {
  /** Matched markets the boost moves, per venue. */
  readonly markets: { readonly venuep: number; readonly venuek: number }
  stop(): void
}

/** The default tick (the HTTP and spreads benches, the soak); the stream bench asks for 1 ms (stream/service-run.ts). */
export const BOOST_TICK_MS = 5
/**
 * A late tick makes up for at most 50 ms: a simulator short of CPU (it shares a core with wrk) streams fewer
 * changes, which the bench reports, rather than catching up in bursts that would stall it and the service.
 */
const MAX_CATCH_UP_SEC = 0.05

/** The matched markets (a question listed on both venues, with a book) the boost picks from. */
export function boostTargets(sim: Simulator): { venuep: EngineMarket[]; venuek: EngineMarket[] } {
  const world = sim.world
  const shared = new Set(world.truth.outcomePairs.map((p) => p.contractKey))
  return {
    venuep: venuepOf(world).markets.filter(
      (m) => shared.has(m.contract.key) && venuepOf(world).books.has(m.conditionId),
    ),
    venuek: venuekOf(world).markets.filter((m) => shared.has(m.contract.key) && venuekOf(world).books.has(m.ticker)),
  }
}

export function startBoost(sim: Simulator, perSec: number, rng = new Rng(7), tickMs = BOOST_TICK_MS): Boost {
  const targets = boostTargets(sim)
  const vp = targets.venuep
  const vk = targets.venuek
  let last = Date.now()
  let carry = 0
  const timer = setInterval(() => {
    const now = Date.now()
    carry += perSec * Math.min(MAX_CATCH_UP_SEC, (now - last) / 1000)
    last = now
    for (; carry >= 1; carry--) {
      if (rng.chance(0.5)) sim.engine.churnTop('venuep', rng.pick(vp), now)
      else sim.engine.churnTop('venuek', rng.pick(vk), now)
    }
  }, tickMs)
  return { markets: { venuep: vp.length, venuek: vk.length }, stop: () => clearInterval(timer) }
}
