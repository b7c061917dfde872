import type { Spawned } from '../process.js'
import type { RefreshGate } from '../refresh-gate.js'
import type { Pinning } from './pinning.js'

/** What the parts of one HTTP bench run (http.bench.ts) share: its processes and settings, a GET, the share format. */

/**
 * 'string' hands the bare server's uWS the body as a JS string, as our Reply does, instead of bytes: the gap
 * between the two baselines is uWS encoding the string on every response, not our code.
 */
export type BareBody = 'buffer' | 'string'

export interface Ctx {
  readonly port: number
  readonly service: Spawned
  readonly sim: Spawned
  readonly pinning: Pinning
  readonly bareBody: BareBody
  readonly tmp: string
  readonly children: Spawned[]
  readonly gate: RefreshGate
  readonly log: (line: string) => void
  /** Sent with every request to either server (the API key). */
  readonly headers: Readonly<Record<string, string>>
  /** What is left of QUIET_BUDGET_MS. */
  quietBudgetMs: number
  /** The simulator's CPU with the boost on and no HTTP load (boosted runs judge "simulator busy" against it). */
  boostedSimCores?: number
  /** The service's CPU with the boost on and no HTTP load: its feed handling, beside the bare server when that runs boosted. */
  boostedServiceCores?: number
  /** The engine's recomputations/s with the boost on and no HTTP load: a boosted run far below it was disturbed. */
  boostedRecomputesPerSec?: number
  boosted?: boolean
}

/** A GET with the API key, for scenarios that pick their path (ThroughputScenario.resolve). */
export async function get(path: string, ctx: Ctx): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${ctx.port}${path}`, { headers: ctx.headers })
  return { status: res.status, body: await res.text() }
}

export function pct(share: number): string {
  return `${(share * 100).toFixed(0)}%`
}
