import type { VenueId } from '../model/types.js'
import { toMs, type Queryable } from './db.js'

/**
 * Sampled spread points (migration 0004). Written in batches by the history sampler, one statement per batch that
 * also upserts each pair's daily close; read per pair and range by GET /api/v2/spreads/history; pruned in bounded
 * batches by the retention job.
 */
export interface HistoryPoint {
  readonly eventSlug: string
  readonly outcomeKey: string
  /** When the spread took this value (service clock, ms). */
  readonly at: number
  readonly spreadBps: number
  readonly priceA: number
  readonly priceB: number
  readonly platformA: VenueId
}

/** The last point of one time bucket. */
export interface HistoryBucket {
  /** Bucket start (ms, UTC). */
  readonly bucketStart: number
  /** Time of the point that closed the bucket (ms). */
  readonly at: number
  readonly spreadBps: number
  readonly priceA: number
  readonly priceB: number
}

/** Where a range is read from: raw points (bounded by retention) or the daily closes (kept forever). */
export type HistorySource = 'raw' | 'daily'

export interface BucketQuery {
  readonly source: HistorySource
  /** Bucket width (ms); `daily` reads are always one day. */
  readonly bucketMs: number
  /** Inclusive lower bound (ms, a bucket start); undefined reads from the first point. */
  readonly fromMs: number | undefined
}

/** Where the buckets are aligned: the Unix epoch, so every width that divides a day starts at UTC midnight. */
const ORIGIN = '1970-01-01T00:00:00Z'
const DAY_MS = 86_400_000

interface BucketRow {
  bucket: unknown
  ts: unknown
  spread_bps: number
  price_a: number
  price_b: number
}

export class SpreadHistoryRepository {
  readonly #db: Queryable

  constructor(db: Queryable) {
    this.#db = db
  }

  /**
   * Writes the points and the daily closes they move, in one statement (atomic: both or neither). A pair and
   * instant written twice keeps the later value, within a batch (by position) and across batches; a daily close
   * is only replaced by a point at least as recent, so a late retried batch never rewinds it.
   */
  async insert(points: readonly HistoryPoint[]): Promise<void> {
    if (points.length === 0) return
    await this.#db.query(
      `WITH batch AS (
         SELECT DISTINCT ON (event_slug, outcome_key, ts) event_slug, outcome_key, ts, spread_bps, price_a, price_b, platform_a
           FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::float8[], $5::float8[], $6::float8[], $7::text[])
                WITH ORDINALITY AS b (event_slug, outcome_key, ts, spread_bps, price_a, price_b, platform_a, ord)
          ORDER BY event_slug, outcome_key, ts, ord DESC
       ), raw AS (
         INSERT INTO spread_history (event_slug, outcome_key, ts, spread_bps, price_a, price_b, platform_a)
         SELECT event_slug, outcome_key, ts, spread_bps, price_a, price_b, platform_a FROM batch
         ON CONFLICT (event_slug, outcome_key, ts) DO UPDATE
           SET spread_bps = EXCLUDED.spread_bps, price_a = EXCLUDED.price_a, price_b = EXCLUDED.price_b, platform_a = EXCLUDED.platform_a
       )
       INSERT INTO spread_history_daily (event_slug, outcome_key, day, ts, spread_bps, price_a, price_b, platform_a)
       SELECT DISTINCT ON (event_slug, outcome_key, day) event_slug, outcome_key, day, ts, spread_bps, price_a, price_b, platform_a
         FROM (SELECT *, date_bin('1 day', ts, $8::timestamptz) AS day FROM batch) d
        ORDER BY event_slug, outcome_key, day, ts DESC
       ON CONFLICT (event_slug, outcome_key, day) DO UPDATE
         SET ts = EXCLUDED.ts, spread_bps = EXCLUDED.spread_bps, price_a = EXCLUDED.price_a, price_b = EXCLUDED.price_b, platform_a = EXCLUDED.platform_a
         WHERE EXCLUDED.ts >= spread_history_daily.ts`,
      [
        points.map((p) => p.eventSlug),
        points.map((p) => p.outcomeKey),
        points.map((p) => new Date(p.at).toISOString()),
        points.map((p) => p.spreadBps),
        points.map((p) => p.priceA),
        points.map((p) => p.priceB),
        points.map((p) => p.platformA),
        ORIGIN,
      ],
    )
  }

  /**
   * The last point of each bucket of one pair, oldest bucket first. Raw reads bucket with `date_bin` and keep each
   * bucket's newest point (`DISTINCT ON`), walking the primary key from `fromMs`; daily reads are the stored closes.
   */
  async buckets(eventSlug: string, outcomeKey: string, q: BucketQuery): Promise<HistoryBucket[]> {
    const from = q.fromMs === undefined ? null : new Date(q.fromMs)
    const { rows } =
      q.source === 'daily'
        ? await this.#db.query<BucketRow>(
            `SELECT day AS bucket, ts, spread_bps, price_a, price_b FROM spread_history_daily
              WHERE event_slug = $1 AND outcome_key = $2 AND ($3::timestamptz IS NULL OR day >= $3)
              ORDER BY day`,
            [eventSlug, outcomeKey, from],
          )
        : await this.#db.query<BucketRow>(
            `SELECT DISTINCT ON (bucket) bucket, ts, spread_bps, price_a, price_b
               FROM (SELECT date_bin(make_interval(secs => $4::float8), ts, $5::timestamptz) AS bucket, ts, spread_bps, price_a, price_b
                       FROM spread_history
                      WHERE event_slug = $1 AND outcome_key = $2 AND ($3::timestamptz IS NULL OR ts >= $3)) p
              ORDER BY bucket, ts DESC`,
            [eventSlug, outcomeKey, from, q.bucketMs / 1000, ORIGIN],
          )
    return rows.map((r) => ({
      bucketStart: toMs(r.bucket),
      at: toMs(r.ts),
      spreadBps: r.spread_bps,
      priceA: r.price_a,
      priceB: r.price_b,
    }))
  }

  /** Whether the pair ever had a point (every raw point leaves a daily close, and closes are kept forever). */
  async hasHistory(eventSlug: string, outcomeKey: string): Promise<boolean> {
    const { rows } = await this.#db.query(
      'SELECT 1 FROM spread_history_daily WHERE event_slug = $1 AND outcome_key = $2 LIMIT 1',
      [eventSlug, outcomeKey],
    )
    return rows.length > 0
  }

  /**
   * Deletes at most `limit` raw points older than `beforeMs`; returns how many. Rows locked by another replica's
   * retention run are skipped, not waited for. Daily closes are never pruned.
   */
  async pruneRaw(beforeMs: number, limit: number): Promise<number> {
    const { rowCount } = await this.#db.query(
      `DELETE FROM spread_history
        WHERE ctid = ANY (ARRAY(SELECT ctid FROM spread_history WHERE ts < $1 LIMIT $2 FOR UPDATE SKIP LOCKED))`,
      [new Date(beforeMs), limit],
    )
    return rowCount
  }
}

/** Start of the UTC day of `ms` (the `day` of spread_history_daily). */
export function utcDayStart(ms: number): number {
  return ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS)
}
