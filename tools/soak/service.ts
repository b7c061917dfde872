import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MAIN_JS, spawnNode, waitReady, type Spawned } from '../../bench/process.js'
import { startBoost, type Boost } from '../../bench/sim-boost.js'
import { loadConfig } from '../../src/config/load.js'
import { systemClock } from '../../src/core/clock.js'
import { serviceEnvFor } from '../../src/sim/service-env.js'
import { startSimulator, type Simulator } from '../../src/sim/simulator.js'
import { Inspector } from '../../test/helpers/processes.js'
import { LogCounter } from './log-counter.js'

/**
 * What the soak runs: the simulator in this process (so a fault is a direct call on `sim[venue].faults`), on
 * loopback ports of its own, with a boost of top-of-book churn; and the service as users run it, `node
 * dist/src/main.js` in its own process, pointed at the simulator the way `npm run sim` prints (SIM_EXTERNAL and
 * the peers' variables, serviceEnvFor), on the default embedded store (PGlite) in a temporary DATA_DIR, with
 * auth on and the per-key rate limits raised above the soak's load (the load is not the throttle's test).
 */
export const BOOST_PER_SEC = 500
/** A key holds this many stream connections by default (config `stream.connectionsPerKey`). */
export const CONNECTIONS_PER_API_KEY = 10

export interface SoakSystem {
  readonly sim: Simulator
  readonly boost: Boost
  readonly service: Spawned
  readonly port: number
  readonly log: LogCounter
  readonly readyMs: number
  readonly apiKeys: readonly string[]
  /** The service's heap after a forced full collection, through the DevTools protocol. */
  liveHeapMiB(): Promise<number>
  stop(): Promise<{ exitCode: number | null; signal: string | null; stopMs: number }>
}

export async function startSoakSystem(apiKeys: number, say: (line: string) => void): Promise<SoakSystem> {
  const tmp = mkdtempSync(join(tmpdir(), 'predmkt-soak-'))
  const config = loadConfig()
  const sim = await startSimulator({ config: config.sim, clock: systemClock })
  const boost = startBoost(sim, BOOST_PER_SEC)
  say(
    `simulator: ${sim.description}; boost ${BOOST_PER_SEC} top-of-book changes/s on ${boost.markets.venuep} + ${boost.markets.venuek} matched markets`,
  )
  const port = await freePort()
  const started = Date.now()
  const service = spawnNode(
    MAIN_JS,
    {
      ...serviceEnvFor(sim, join(tmp, 'sim-data')),
      PORT: String(port),
      DATA_DIR: join(tmp, 'service-data'),
      LOG_LEVEL: 'info',
      AUTH_REQUIRED: 'true',
      RATE_LIMIT_PER_SEC: '100000',
      RATE_LIMIT_BURST: '100000',
      SIGNUP_RATE_LIMIT_PER_MIN: '1000',
      SIGNUP_RATE_LIMIT_BURST: '1000',
      // The inspector (loopback, a free port) is only for two forced full collections: the live heap at the end of
      // the warm-up and at the end of the run (tools/soak/verdict.ts LiveHeap).
    },
    ['--inspect=127.0.0.1:0'],
  )
  const log = new LogCounter()
  service.child.stdout?.on('data', (d: Buffer) => log.push(d.toString()))
  service.child.stderr?.on('data', (d: Buffer) => log.push(d.toString()))
  let inspector: Inspector | undefined
  const stopAll = async (): Promise<{ exitCode: number | null; signal: string | null; stopMs: number }> => {
    inspector?.close()
    boost.stop()
    const t0 = Date.now()
    const exited = new Promise<void>((resolve) => {
      if (service.child.exitCode !== null || service.child.signalCode !== null) resolve()
      else service.child.once('exit', () => resolve())
    })
    await service.stop()
    await exited
    const stopMs = Date.now() - t0
    log.end()
    await sim.close()
    rmSync(tmp, { recursive: true, force: true })
    return { exitCode: service.child.exitCode, signal: service.child.signalCode, stopMs }
  }
  try {
    await waitReady(port, started, 300_000)
    const readyMs = Date.now() - started
    const attached = await Inspector.attach(service)
    inspector = attached
    const liveHeapMiB = async (): Promise<number> => (await attached.heapUsedAfterGc()) / 2 ** 20
    const keys: string[] = []
    for (let i = 0; i < apiKeys; i++) keys.push(await signup(port, i))
    return { sim, boost, service, port, log, readyMs, apiKeys: keys, liveHeapMiB, stop: stopAll }
  } catch (err) {
    await stopAll()
    throw err
  }
}

async function signup(port: number, i: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v2/developers/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `soak-${i}@example.com`, company: 'Soak', use_case: 'soak test' }),
  })
  const body = (await res.json()) as { api_key?: string }
  if (res.status !== 201 || body.api_key === undefined) throw new Error(`signup: ${res.status} ${JSON.stringify(body)}`)
  return body.api_key
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}
