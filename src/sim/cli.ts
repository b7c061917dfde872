import { ConfigError, loadConfig } from '../config/load.js'
import { systemClock } from '../core/clock.js'
import { createLogger } from '../core/logger.js'
import { SIM_PEERS } from './peers.js'
import { serviceEnvFor } from './service-env.js'
import { withPinnedCalendar } from './pinned-calendar.js'
import { startSimulator } from './simulator.js'
import { startFaultControl } from './control.js'
import { DEFAULT_CONTROL_PORT, runFaultCommand, wantsFaultCommand } from './fault-cli.js'

/**
 * `npm run sim`: the venue simulator on its own, on fixed loopback ports (config `sim.ports`), for pointing the
 * service (or the venues' official clients) at it from another process. Prints the environment the service
 * needs to use it; everything it serves is SIMULATED.
 *
 * It also serves its fault control on 127.0.0.1:`SIM_CONTROL_PORT` (default: the port below the venues', 7100, or a
 * free port when `SIM_PORT_BASE` is 0; 0 picks a free port), and
 * `npm run sim -- --fault <name> …` is the client of a running one (control.ts, fault-cli.ts).
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2)
  if (wantsFaultCommand(argv)) process.exit(await runFaultCommand(argv, process.env))
  if (argv.length > 0) {
    console.error(`unknown arguments: ${argv.join(' ')} (faults: npm run sim -- --fault <name>)`)
    process.exit(2)
  }
  const controlPort = Number(process.env.SIM_CONTROL_PORT ?? controlPortBelow(process.env.SIM_PORT_BASE))
  if (!Number.isInteger(controlPort) || controlPort < 0 || controlPort > 65_535) {
    console.error(`SIM_CONTROL_PORT must be a port number, not ${process.env.SIM_CONTROL_PORT}`)
    process.exit(2)
  }
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
  const control = await startFaultControl(new Map(SIM_PEERS.map((p) => [p.venue, sim[p.venue].faults])), controlPort)
  const env = serviceEnvFor(sim, config.dataDir)
  const urls = Object.fromEntries(SIM_PEERS.map((p) => [p.venue, sim[p.venue].urls]))
  log.info({ urls, description: sim.description, fault_control: control.url }, 'SIMULATED venues listening')
  process.stdout.write(
    `\n# The venue simulator is running (SIMULATED data). Point the service at it with:\n${Object.entries(env)
      .map(([k, v]) => `export ${k}='${v}'`)
      .join(
        '\n',
      )}\n# then: npm start\n# Fault control (loopback only): ${control.url}/faults\n#   e.g. SIM_CONTROL_URL=${control.url} npm run sim -- --fault stall --venue venuep\n\n`,
  )
  const stop = () => {
    Promise.all([control.close(), sim.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

/** The port below the venues' first (SIM_PORT_BASE), or a free one when they take free ports too. */
function controlPortBelow(base: string | undefined): number {
  if (base === undefined || !/^\d+$/.test(base)) return DEFAULT_CONTROL_PORT
  const n = Number(base)
  return n === 0 ? 0 : n - 1
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
