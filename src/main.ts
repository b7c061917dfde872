import { startApp } from './app.js'
import { ConfigError, loadConfig } from './config/load.js'
import { createLogger } from './core/logger.js'

/**
 * Composition root: config → app (simulator in sim mode, venue actors, HTTP) → graceful shutdown on
 * SIGTERM/SIGINT (stop accepting, stop feeds and actors, close the simulator).
 */
async function main(): Promise<void> {
  let config
  try {
    config = loadConfig()
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err)
    process.exit(2)
  }
  const log = createLogger(config.logLevel)
  const app = await startApp({ config, log })
  log.info(
    {
      port: app.port,
      host: app.config.http.host,
      simulated: app.source.simulated,
      data_source: app.source.description,
      profile: app.config.profile,
    },
    app.source.simulated
      ? `listening; serving SIMULATED venue data from the built-in simulator (${app.source.description}); set VENUES=live for the real venues`
      : 'listening; serving live venue data',
  )
  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'shutting down')
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
