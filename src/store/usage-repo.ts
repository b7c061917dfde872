import { toNumber, type Db } from './db.js'

/**
 * Request counts per key and minute. Written in batches by the usage meter (one statement per flush, whatever
 * the traffic), read by the usage endpoint. Counts from every replica add up in the same rows.
 */
export interface UsageDelta {
  readonly keyId: string
  /** Start of the minute (ms, UTC, a multiple of 60,000). */
  readonly minuteMs: number
  readonly requests: number
  readonly rateLimited: number
}

/** Counts over trailing minute-aligned windows, each including the current (partial) minute. */
export interface UsageWindows {
  readonly currentMinute: number
  readonly lastHour: number
  readonly lastDay: number
}

export interface UsageCounts {
  readonly requests: UsageWindows
  readonly rateLimited: UsageWindows
}

export interface UsageSummary {
  readonly key: UsageCounts
  readonly account: UsageCounts
}

const MINUTE_MS = 60_000

export class UsageRepository {
  readonly #db: Db

  constructor(db: Db) {
    this.#db = db
  }

  /** Adds the deltas in one statement (rows for the same key and minute are summed). */
  async add(deltas: readonly UsageDelta[]): Promise<void> {
    if (deltas.length === 0) return
    await this.#db.query(
      `INSERT INTO api_key_usage (key_id, minute, requests, rate_limited)
       SELECT key_id, minute, sum(requests), sum(rate_limited)
         FROM unnest($1::uuid[], $2::timestamptz[], $3::int[], $4::int[]) AS d (key_id, minute, requests, rate_limited)
        GROUP BY key_id, minute
       ON CONFLICT (key_id, minute) DO UPDATE
         SET requests = api_key_usage.requests + EXCLUDED.requests, rate_limited = api_key_usage.rate_limited + EXCLUDED.rate_limited`,
      [
        deltas.map((d) => d.keyId),
        deltas.map((d) => new Date(d.minuteMs).toISOString()),
        deltas.map((d) => d.requests),
        deltas.map((d) => d.rateLimited),
      ],
    )
  }

  /** Windows for one key and for its whole account, as of `nowMs`. */
  async summary(keyId: string, accountId: string, nowMs: number): Promise<UsageSummary> {
    const minute = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS
    const hour = new Date(minute - 59 * MINUTE_MS)
    const day = new Date(minute - (24 * 60 - 1) * MINUTE_MS)
    const { rows } = await this.#db.query<Record<string, unknown>>(
      `SELECT
         coalesce(sum(u.requests) FILTER (WHERE u.key_id = $1 AND u.minute >= $3), 0) AS key_minute,
         coalesce(sum(u.requests) FILTER (WHERE u.key_id = $1 AND u.minute >= $4), 0) AS key_hour,
         coalesce(sum(u.requests) FILTER (WHERE u.key_id = $1), 0) AS key_day,
         coalesce(sum(u.rate_limited) FILTER (WHERE u.key_id = $1 AND u.minute >= $3), 0) AS key_limited_minute,
         coalesce(sum(u.rate_limited) FILTER (WHERE u.key_id = $1 AND u.minute >= $4), 0) AS key_limited_hour,
         coalesce(sum(u.rate_limited) FILTER (WHERE u.key_id = $1), 0) AS key_limited_day,
         coalesce(sum(u.requests) FILTER (WHERE u.minute >= $3), 0) AS account_minute,
         coalesce(sum(u.requests) FILTER (WHERE u.minute >= $4), 0) AS account_hour,
         coalesce(sum(u.requests), 0) AS account_day,
         coalesce(sum(u.rate_limited) FILTER (WHERE u.minute >= $3), 0) AS account_limited_minute,
         coalesce(sum(u.rate_limited) FILTER (WHERE u.minute >= $4), 0) AS account_limited_hour,
         coalesce(sum(u.rate_limited), 0) AS account_limited_day
       FROM api_key_usage u JOIN api_keys k ON k.id = u.key_id
       WHERE k.account_id = $2 AND u.minute >= $5 AND u.minute <= $3`,
      [keyId, accountId, new Date(minute), hour, day],
    )
    const r = rows[0] ?? {}
    const w = (p: string): UsageWindows => ({
      currentMinute: toNumber(r[`${p}_minute`] ?? 0),
      lastHour: toNumber(r[`${p}_hour`] ?? 0),
      lastDay: toNumber(r[`${p}_day`] ?? 0),
    })
    return {
      key: { requests: w('key'), rateLimited: w('key_limited') },
      account: { requests: w('account'), rateLimited: w('account_limited') },
    }
  }

  /** Deletes rows older than `beforeMs`; returns how many. */
  async prune(beforeMs: number): Promise<number> {
    const { rowCount } = await this.#db.query('DELETE FROM api_key_usage WHERE minute < $1', [new Date(beforeMs)])
    return rowCount
  }
}
