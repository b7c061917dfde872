import { parseUtc } from './format.js'

/**
 * The selected pair's chart series: `/api/v2/spreads/history` for the range (one point per bucket, stamped with
 * the bucket's start), extended by the `spread` channel's live values. Pure, so the rules are unit-tested
 * (test/dashboard/history.test.ts): times only move forward (a live value older than the last point is dropped,
 * so a replayed frame cannot fold the line back), and the live tail is bounded.
 */
export const HISTORY_RANGES = ['1d', '1w', '1m', 'all'] as const
export type HistoryRange = (typeof HISTORY_RANGES)[number]

export function isHistoryRange(x: string | undefined): x is HistoryRange {
  return (HISTORY_RANGES as readonly (string | undefined)[]).includes(x)
}

export interface HistoryPoint {
  readonly timestamp: string
  readonly spread_bps: number
}

/** Live points kept after the history's last: a day of one point a second would be 86,400; the chart needs fewer. */
export const MAX_LIVE_POINTS = 5_000

export class SpreadSeries {
  /** Seconds since the epoch (uPlot's time unit). */
  readonly #xs: number[] = []
  readonly #ys: number[] = []
  readonly historyPoints: number
  #live = 0

  constructor(history: readonly HistoryPoint[]) {
    for (const p of history) {
      const t = parseUtc(p.timestamp) / 1000
      if (!Number.isFinite(t) || !Number.isFinite(p.spread_bps)) continue
      if (this.#xs.length > 0 && t <= (this.#xs.at(-1) as number)) continue
      this.#xs.push(t)
      this.#ys.push(p.spread_bps)
    }
    this.historyPoints = this.#xs.length
  }

  /** Adds a live value at `tsMs`; false when it is not after the last point (nothing changed). */
  append(tsMs: number, spreadBps: number): boolean {
    const t = tsMs / 1000
    if (!Number.isFinite(t) || !Number.isFinite(spreadBps)) return false
    if (this.#xs.length > 0 && t <= (this.#xs.at(-1) as number)) return false
    this.#xs.push(t)
    this.#ys.push(spreadBps)
    this.#live++
    if (this.#live > MAX_LIVE_POINTS) {
      // Drop the oldest live point (the first after the history), keeping the history whole.
      this.#xs.splice(this.historyPoints, 1)
      this.#ys.splice(this.historyPoints, 1)
      this.#live--
    }
    return true
  }

  get livePoints(): number {
    return this.#live
  }

  /** The series as uPlot takes it: `[xs, ys]` (the arrays are the series' own: do not change them). */
  data(): [number[], number[]] {
    return [this.#xs, this.#ys]
  }
}
