import { ConfigError, loadConfig } from '../config/load.js'
import { systemClock } from '../core/clock.js'
import { createLogger } from '../core/logger.js'
import { SIM_PEERS } from './peers.js'
import { serviceEnvFor } from './service-env.js'
import { withPinnedCalendar } from './pinned-calendar.js'
import { startSimulator } from './simulator.js'

/**
 * `npm run sim`: the venue simulator on its own, on fixed loopback ports (config `sim.ports`), for pointing the
 * service (or the venues' official clients) at it from another process. Prints the environment the service
 * needs to use it; everything it serves is SIMULATED.
 */
async function main(): Promise<void> {
  let config
  try {
    config = loadConfig()
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err)
    process.exit(2)
  }
  const log = createLogger(config.logLevel, 'venue-simulator')
  const sim = await startSimulator({
    config: withPinnedCalendar(config.sim, config.dataDir, systemClock.now(), log),
    clock: systemClock,
    portsFromConfig: true,
  })
  const env = serviceEnvFor(sim, config.dataDir)
  const urls = Object.fromEntries(SIM_PEERS.map((p) => [p.venue, sim[p.venue].urls]))
  log.info({ urls, description: sim.description }, 'SIMULATED venues listening')
  process.stdout.write(
    `\n# The venue simulator is running (SIMULATED data). Point the service at it with:\n${Object.entries(env)
      .map(([k, v]) => `export ${k}='${v}'`)
      .join('\n')}\n# then: npm start\n\n`,
  )
  const stop = () => {
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
