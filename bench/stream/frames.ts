import type { QuotePayload } from '../../src/stream/sources/market/quote-payload.js'

/**
 * What the fan-out run (fanout-service.ts against fanout-bare.ts) publishes: `quote` deltas of FANOUT_KEYS, every
 * client subscribed to all of them. Both servers publish frames of the same shape and size: the service builds each
 * one through its Sequencer (a fresh payload, JSON.stringify, the resume ring), the bare app sends frames built the
 * same way before the run.
 */
export const FANOUT_KEYS: readonly string[] = Array.from({ length: 10 }, (_, i) => `venuek:KXBENCH-26DEC31-T${i + 1}`)
export const FANOUT_TOPICS: readonly string[] = FANOUT_KEYS.map((k) => `quote|${k}`)
/** The API key both fan-out servers accept. */
export const FANOUT_API_KEY = 'pmk_bench_fanout'
/** The route on both fan-out servers where the clients process grants credit (pacing.ts). */
export const PACE_PATH = '/bench/pace'

/** The n-th quote change of a stream: a real quote's payload, varying as a live book's top does. */
export function quoteChange(n: number): QuotePayload {
  const bid = 40 + (n % 7)
  return {
    best_bid: bid / 100,
    best_ask: (bid + 1 + (n % 2)) / 100,
    bid_size: 1_000 + ((n * 37) % 5_000) + 0.25,
    ask_size: 800 + ((n * 53) % 4_000),
    probability: (bid + 0.5) / 100,
    stale: false,
  }
}
