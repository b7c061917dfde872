import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE } from '../../core/time.js'
import type { BucketQuery, HistorySource } from '../../store/spread-history-repo.js'

/**
 * The ranges of GET /api/v2/spreads/history (spec 4.3) and how each is read: a window back from now, cut into
 * buckets of a width that gives a few hundred points per chart, each bucket its last point. Every width divides a
 * day, and buckets are aligned on the Unix epoch, so they start at whole UTC minutes, hours and days.
 *
 * | range | window  | bucket     | points | read from                                |
 * |-------|---------|------------|--------|------------------------------------------|
 * | 1d    | 24 h    | 5 minutes  | ≤ 289  | raw points                               |
 * | 1w    | 7 days  | 30 minutes | ≤ 337  | raw points                               |
 * | 1m    | 30 days | 2 hours    | ≤ 361  | raw points (kept 35 days by default)     |
 * | all   | all     | 1 day      | 1/day  | daily closes (kept forever)              |
 *
 * The window starts at the start of the bucket holding `now − window`, so the first bucket is whole.
 */
export const HISTORY_RANGES = ['1d', '1w', '1m', 'all'] as const
export type HistoryRange = (typeof HISTORY_RANGES)[number]

export interface RangePlan {
  /** Window length (ms); undefined for `all`. */
  readonly windowMs: number | undefined
  readonly bucketMs: number
  readonly source: HistorySource
}

export const RANGE_PLANS: Readonly<Record<HistoryRange, RangePlan>> = {
  '1d': { windowMs: MS_PER_DAY, bucketMs: 5 * MS_PER_MINUTE, source: 'raw' },
  '1w': { windowMs: 7 * MS_PER_DAY, bucketMs: 30 * MS_PER_MINUTE, source: 'raw' },
  '1m': { windowMs: 30 * MS_PER_DAY, bucketMs: 2 * MS_PER_HOUR, source: 'raw' },
  all: { windowMs: undefined, bucketMs: MS_PER_DAY, source: 'daily' },
}

/** The store query for `range` as of `nowMs`. */
export function bucketQuery(range: HistoryRange, nowMs: number): BucketQuery {
  const plan = RANGE_PLANS[range]
  const fromMs = plan.windowMs === undefined ? undefined : floorTo(nowMs - plan.windowMs, plan.bucketMs)
  return { source: plan.source, bucketMs: plan.bucketMs, fromMs }
}

function floorTo(ms: number, step: number): number {
  return ms - (((ms % step) + step) % step)
}
