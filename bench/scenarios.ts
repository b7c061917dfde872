import { MICROS_PER_UNIT } from '../src/core/numbers.js'
import { Rng } from '../src/sim/world/random.js'

/**
 * Named, seeded inputs for the benches, generated outside the timed functions. The update mix follows what
 * the simulator (and the venues) produce: most changes hit the few levels at the top of the book.
 */
export const LEVELS_PER_SIDE = 20
const TICK = 10_000 // 0.01 in micros

export interface LevelUpdate {
  readonly side: 'bid' | 'ask'
  readonly price: number
  readonly size: number
}

/** A 20-levels-a-side book around 0.50 and `count` absolute updates (25% remove, 25% insert, 50% resize). */
export function bookUpdateScenario(
  seed: number,
  count: number,
): { bids: [number, number][]; asks: [number, number][]; updates: LevelUpdate[] } {
  const rng = new Rng(seed)
  const bids: [number, number][] = []
  const asks: [number, number][] = []
  for (let i = 0; i < LEVELS_PER_SIDE; i++) {
    bids.push([0.49 * MICROS_PER_UNIT - i * TICK, rng.int(1, 5_000) * 10_000])
    asks.push([0.51 * MICROS_PER_UNIT + i * TICK, rng.int(1, 5_000) * 10_000])
  }
  const updates: LevelUpdate[] = []
  for (let i = 0; i < count; i++) {
    const side = rng.chance(0.5) ? 'bid' : 'ask'
    // Distance from the top: geometric, so the top few levels see most of the traffic.
    const depth = Math.min(LEVELS_PER_SIDE + 2, Math.floor(-Math.log(1 - rng.next()) * 3))
    const price = side === 'bid' ? 0.49 * MICROS_PER_UNIT - depth * TICK : 0.51 * MICROS_PER_UNIT + depth * TICK
    const r = rng.next()
    const size = r < 0.25 ? 0 : rng.int(1, 5_000) * 10_000
    updates.push({ side, price, size })
  }
  return { bids, asks, updates }
}

/** venuep `price_change` frames (two assets each, like the venue's YES/NO pairs) over `assets` tokens. */
export function venuepFrames(seed: number, assets: readonly string[], count: number): string[] {
  const rng = new Rng(seed)
  const frames: string[] = []
  for (let i = 0; i < count; i++) {
    const a = Math.floor(rng.next() * (assets.length / 2)) * 2
    const depth = Math.floor(-Math.log(1 - rng.next()) * 3)
    const bid = (49 - depth) / 100
    const size = rng.chance(0.25) ? '0' : String(rng.int(1, 5_000))
    frames.push(
      JSON.stringify({
        event_type: 'price_change',
        market: '0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1',
        price_changes: [
          {
            asset_id: assets[a],
            price: bid.toFixed(2),
            size,
            side: 'BUY',
            hash: '56621a121a47ed9333273e21c83b660cff37ae50',
            best_bid: '0.49',
            best_ask: '0.51',
          },
          {
            asset_id: assets[a + 1],
            price: (1 - bid).toFixed(2),
            size,
            side: 'SELL',
            hash: '1895759e4df7a796bf4f1c5a5950b748306923e2',
            best_bid: '0.49',
            best_ask: '0.51',
          },
        ],
        timestamp: String(1_757_908_892_351 + i),
      }),
    )
  }
  return frames
}

/** venuek `orderbook_delta` frames on one sid, with consecutive seq numbers starting at `firstSeq`. */
export function venuekFrames(seed: number, tickers: readonly string[], count: number, firstSeq: number): string[] {
  const rng = new Rng(seed)
  const frames: string[] = []
  for (let i = 0; i < count; i++) {
    const ticker = tickers[Math.floor(rng.next() * tickers.length)] as string
    const depth = Math.floor(-Math.log(1 - rng.next()) * 3)
    const yes = rng.chance(0.5)
    const price = ((yes ? 49 : 49) - depth) / 100
    const delta = (rng.chance(0.5) ? -1 : 1) * rng.int(1, 200)
    frames.push(
      JSON.stringify({
        type: 'orderbook_delta',
        sid: 1,
        seq: firstSeq + i,
        msg: {
          market_ticker: ticker,
          market_id: 'f5ed38e2-0991-4c8f-817e-08c4fd9cbfdb',
          price_dollars: price.toFixed(4),
          delta_fp: `${delta}.00`,
          side: yes ? 'yes' : 'no',
          ts: '2026-06-11T06:31:29.957081Z',
          ts_ms: 1_781_159_489_957 + i,
        },
      }),
    )
  }
  return frames
}
