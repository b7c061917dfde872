import { sequentialLatency, type LatencyResult } from '../http-latency.js'
import { startBare } from './bare-server.js'
import type { Ctx } from './context.js'
import { sameResponse, serviceResponse } from './responses.js'
import type { LatencyScenario } from './scenarios.js'
import { ATTEMPTS_PER_PAIR, FOREIGN_LIMIT, foreignLoad, machineQuiet } from './server-run.js'

/** One latency scenario: sequential requests to the bare server, then the service, repeated under other load. */
export async function latencyScenario(
  s: LatencyScenario,
  ctx: Ctx,
): Promise<{ bodyBytes: number; service: LatencyResult; bare: LatencyResult; foreignCores: number }> {
  const response = await serviceResponse(s.path, ctx.headers, ctx)
  const body = response.body
  const bare = await startBare(response, ctx)
  try {
    await sameResponse(s.path, ctx.port, bare.port, ctx.headers)
    let best: { service: LatencyResult; bare: LatencyResult; foreignCores: number } | undefined
    for (let attempt = 1; attempt <= ATTEMPTS_PER_PAIR; attempt++) {
      await machineQuiet(ctx, [bare.spawned, ctx.service, ctx.sim])
      // Generous: 2 × (warm-up + requests) of a few MB each.
      await ctx.gate.clear(15_000)
      const load = foreignLoad([bare.spawned, ctx.service, ctx.sim])
      const bareResult = await sequentialLatency(bare.port, s.path, s.warmup, s.requests, ctx.headers)
      const service = await sequentialLatency(ctx.port, s.path, s.warmup, s.requests, ctx.headers)
      const foreignCores = load()
      for (const [which, r] of [
        ['bare', bareResult],
        ['service', service],
      ] as const) {
        ctx.log(
          `${s.name}: ${which} p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms (nearest rank of ${r.samples}), ${r.bytes} B; foreign ${foreignCores.toFixed(2)} cores`,
        )
      }
      if (best === undefined || foreignCores < best.foreignCores) best = { service, bare: bareResult, foreignCores }
      if (foreignCores <= FOREIGN_LIMIT) break
      if (attempt < ATTEMPTS_PER_PAIR) ctx.log(`${s.name}: other load on the machine; repeating`)
    }
    return {
      bodyBytes: body.length,
      ...(best as { service: LatencyResult; bare: LatencyResult; foreignCores: number }),
    }
  } finally {
    await bare.spawned.stop()
  }
}
