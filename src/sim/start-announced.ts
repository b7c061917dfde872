import type { Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { SimConfig } from '../config/schema.js'
import { SIM_PEERS } from './peers.js'
import { startSimulator, type Simulator } from './simulator.js'

/**
 * The service's built-in simulator, started with a log line before and after: generating the world and the
 * catalogs it serves takes seconds at the default size (~2 s for 2,400 questions on an idle machine, minutes at
 * the real venues' size), which a first start would otherwise spend in silence.
 */
export async function startAnnouncedSimulator(sim: SimConfig, clock: Clock, log: Logger): Promise<Simulator> {
  const startedAt = performance.now()
  if (sim.catalog === undefined) {
    // The ladder events a peer lists alone (peer.ts `ownLadders`), logged as `<venue>_only_ladders` where it has them.
    const own = SIM_PEERS.flatMap((p) => {
      const ladders = p.ownLadders(sim)
      return ladders === undefined ? [] : [{ venue: p.venue, ladders }]
    })
    const ownFields = Object.fromEntries(own.map((p) => [`${p.venue}_only_ladders`, p.ladders]))
    const ladders = own
      .filter((p) => p.ladders > 0)
      .map((p) => ` and ${count(p.ladders)} ${p.venue}-only ladder events`)
      .join('')
    log.info(
      { seed: sim.seed, questions: sim.questions, ...ownFields },
      `building the simulated world (${count(sim.questions)} questions${ladders}) and starting the venue simulator`,
    )
  } else {
    log.info({ replay_of: sim.catalog }, 'loading the captured catalogs and starting the venue simulator')
  }
  const simulator = await startSimulator({ config: sim, clock, portsFromConfig: false })
  log.info(
    { ms: Math.round(performance.now() - startedAt), data_source: simulator.description },
    'venue simulator ready',
  )
  return simulator
}

function count(n: number): string {
  return n.toLocaleString('en-US')
}
