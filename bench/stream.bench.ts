import { median } from './harness.js'
import { benchFanout, type FanoutRun } from './stream/fanout.js'
import { benchService, type ServiceReport } from './stream/service-run.js'

/**
 * Issue 21's benchmarks of `GET /api/v2/stream`: the fan-out against bare uWS (stream/fanout.ts), then memory per
 * connection and subscription, latency from the venue frame to a client and CPU per delivered frame on the real
 * service against the boosted simulator (stream/service-run.ts). The fan-out runs first, on a machine with neither
 * simulator nor service running.
 */
export interface StreamReport {
  readonly fanout: readonly FanoutRun[]
  readonly service: ServiceReport
}

export async function benchStream(log: (line: string) => void): Promise<StreamReport> {
  const fanout = await benchFanout(log)
  const service = await benchService(log)
  return { fanout, service }
}

/** Median frames/s and per-core frames/s of one server's runs. */
export function fanoutFigures(runs: readonly FanoutRun[], server: FanoutRun['server']) {
  const mine = runs.filter((r) => r.server === server)
  return {
    framesPerSec: median(mine.map((r) => r.framesPerSec)),
    /** Frames per second of CPU 0's busy time (the server's core, loopback sends included). */
    framesPerCoreSec: median(mine.map((r) => r.framesPerSec / (r.cpuBusy[0] ?? Number.NaN))),
    runs: mine,
  }
}
