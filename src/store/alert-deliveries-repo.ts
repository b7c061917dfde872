import { toMs, toMsOrNull, toNumber, type Db, type Queryable } from './db.js'
import type { Channel } from '../alerts/rule-types.js'

/**
 * The alert outbox: one row per firing (or test delivery), written in the transaction that records the firing
 * (alert-state-repo.ts) and delivered at least once by a worker (alerts/delivery-worker.ts).
 *
 * Claiming is one statement: `SELECT … FOR UPDATE SKIP LOCKED` picks due rows no other worker holds, and the
 * surrounding UPDATE sets `sending` with a lease (`lease_until`, a fresh `lease_token`) and counts the attempt.
 * A worker that dies mid-delivery leaves its rows `sending`; once the lease has passed any worker claims them
 * again. Every later write names the row's lease token, so a worker whose lease was taken over cannot overwrite
 * the new holder's outcome. Times are the caller's clock, never the database's `now()`.
 */
export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed'

/** The JSON a receiver gets (alerts/delivery-payload.ts builds it); stored verbatim. */
export type DeliveryPayload = Readonly<Record<string, unknown>>

export interface NewDelivery {
  readonly id: string
  readonly ruleId: string
  readonly pairKey: string | null
  readonly dedupeKey: string
  readonly test: boolean
  readonly channel: Channel
  readonly target: string
  readonly payload: DeliveryPayload
  readonly createdAt: number
}

export interface Delivery extends NewDelivery {
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: number
  readonly lastError: string | null
  readonly responseStatus: number | null
  readonly updatedAt: number
  readonly deliveredAt: number | null
}

/** A row a worker holds: deliver it, then report with its lease token. */
export interface ClaimedDelivery extends Delivery {
  readonly leaseToken: string
  /** The rule's webhook signing secret (null for e-mail rules). */
  readonly signingSecret: string | null
}

export interface DeliveryPage {
  readonly deliveries: Delivery[]
  readonly total: number
}

const COLUMNS =
  'id, rule_id, pair_key, dedupe_key, test, channel, target, payload, status, attempts, next_attempt_at, last_error, response_status, created_at, updated_at, delivered_at'
const D_COLUMNS = COLUMNS.split(', ')
  .map((c) => `d.${c}`)
  .join(', ')

interface DeliveryRow {
  id: string
  rule_id: string
  pair_key: string | null
  dedupe_key: string
  test: boolean
  channel: Channel
  target: string
  payload: DeliveryPayload
  status: DeliveryStatus
  attempts: unknown
  next_attempt_at: unknown
  last_error: string | null
  response_status: unknown
  created_at: unknown
  updated_at: unknown
  delivered_at: unknown
}

/** Longest `last_error` kept: a receiver's error page is not ours to store whole. */
const LAST_ERROR_MAX = 500

/**
 * Inserts an outbox row unless one with its dedupe key exists; undefined when it did (another replica, or an
 * earlier run, already recorded this firing). Used inside the firing transaction and for test deliveries.
 */
export async function insertDelivery(q: Queryable, d: NewDelivery): Promise<Delivery | undefined> {
  const { rows } = await q.query<DeliveryRow>(
    `INSERT INTO alert_deliveries (id, rule_id, pair_key, dedupe_key, test, channel, target, payload, status, attempts,
                                   next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0, $9, $9, $9)
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      d.id,
      d.ruleId,
      d.pairKey,
      d.dedupeKey,
      d.test,
      d.channel,
      d.target,
      JSON.stringify(d.payload),
      new Date(d.createdAt),
    ],
  )
  return rows[0] === undefined ? undefined : toDelivery(rows[0])
}

export class AlertDeliveryRepository {
  readonly #db: Db

  constructor(db: Db) {
    this.#db = db
  }

  /** A test delivery (or any row written outside a firing transaction). */
  enqueue(d: NewDelivery): Promise<Delivery | undefined> {
    return insertDelivery(this.#db, d)
  }

  async get(id: string): Promise<Delivery | undefined> {
    const { rows } = await this.#db.query<DeliveryRow>(`SELECT ${COLUMNS} FROM alert_deliveries WHERE id = $1`, [id])
    return rows[0] === undefined ? undefined : toDelivery(rows[0])
  }

  /** The delivery log of one rule, newest first. */
  async listForRule(
    ruleId: string,
    page: { status?: DeliveryStatus; limit: number; offset: number },
  ): Promise<DeliveryPage> {
    const where = 'rule_id = $1 AND ($2::text IS NULL OR status = $2::text)'
    const params = [ruleId, page.status ?? null]
    const [rows, count] = await Promise.all([
      this.#db.query<DeliveryRow>(
        `SELECT ${COLUMNS} FROM alert_deliveries WHERE ${where} ORDER BY seq DESC LIMIT $3 OFFSET $4`,
        [...params, page.limit, page.offset],
      ),
      this.#db.query<{ n: unknown }>(`SELECT count(*) AS n FROM alert_deliveries WHERE ${where}`, params),
    ])
    return { deliveries: rows.rows.map(toDelivery), total: toNumber(count.rows[0]?.n ?? 0) }
  }

  /**
   * Claims up to `limit` rows that are due (`pending` with `next_attempt_at` ≤ now) or whose lease has passed,
   * oldest due first, skipping rows another worker holds. Each claimed row is `sending` until `now + leaseMs`,
   * and its attempt is counted now (so a delivery that kills its worker still uses up attempts).
   */
  async claim(limit: number, nowMs: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    // One statement is one transaction: the row locks taken by the SELECT are held until the UPDATE commits.
    const { rows } = await this.#db.query<DeliveryRow & { lease_token: string; signing_secret: string | null }>(
      `WITH due AS (
         SELECT id FROM alert_deliveries
          WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND lease_until <= $1)
          ORDER BY next_attempt_at, seq
          LIMIT $2
          FOR UPDATE SKIP LOCKED)
       UPDATE alert_deliveries d
          SET status = 'sending', lease_until = $3, lease_token = gen_random_uuid(), attempts = d.attempts + 1, updated_at = $1
         FROM due, alert_rules r
        WHERE d.id = due.id AND r.id = d.rule_id
       RETURNING ${D_COLUMNS}, d.lease_token, r.signing_secret`,
      [new Date(nowMs), limit, new Date(nowMs + leaseMs)],
    )
    return rows.map((r) => ({ ...toDelivery(r), leaseToken: r.lease_token, signingSecret: r.signing_secret }))
  }

  /** Delivered. False when the lease was no longer this worker's. */
  async complete(d: ClaimedDelivery, nowMs: number, responseStatus: number | null): Promise<boolean> {
    return this.#settle(d, `status = 'delivered', delivered_at = $3, last_error = NULL, response_status = $4`, [
      new Date(nowMs),
      responseStatus,
    ])
  }

  /** Failed for now: back to `pending`, due again at `nextAttemptMs`. */
  async retry(
    d: ClaimedDelivery,
    nowMs: number,
    nextAttemptMs: number,
    error: string,
    responseStatus: number | null,
  ): Promise<boolean> {
    return this.#settle(d, `status = 'pending', next_attempt_at = $5, last_error = $4, response_status = $6`, [
      new Date(nowMs),
      clip(error),
      new Date(nextAttemptMs),
      responseStatus,
    ])
  }

  /** Failed for good (attempts used up, or a failure no retry can fix). */
  async fail(d: ClaimedDelivery, nowMs: number, error: string, responseStatus: number | null): Promise<boolean> {
    return this.#settle(d, `status = 'failed', last_error = $4, response_status = $5`, [
      new Date(nowMs),
      clip(error),
      responseStatus,
    ])
  }

  /**
   * Gives rows back unattempted (graceful shutdown: deliveries aborted before an answer). They are due at once
   * for any worker, and the aborted attempt does not count.
   */
  async release(held: readonly ClaimedDelivery[], nowMs: number): Promise<number> {
    if (held.length === 0) return 0
    const { rowCount } = await this.#db.query(
      `UPDATE alert_deliveries
          SET status = 'pending', lease_until = NULL, lease_token = NULL, attempts = greatest(attempts - 1, 0), next_attempt_at = $2, updated_at = $2
        WHERE status = 'sending' AND lease_token = ANY($1::uuid[])`,
      [held.map((d) => d.leaseToken), new Date(nowMs)],
    )
    return rowCount
  }

  /** Deletes delivered and failed rows older than `beforeMs` (the log's retention). */
  async prune(beforeMs: number): Promise<number> {
    const { rowCount } = await this.#db.query(
      `DELETE FROM alert_deliveries WHERE status IN ('delivered', 'failed') AND updated_at < $1`,
      [new Date(beforeMs)],
    )
    return rowCount
  }

  /** $1 = id, $2 = lease token, $3 = now; `set` may use $4… from `params` after now. */
  async #settle(d: ClaimedDelivery, set: string, params: readonly unknown[]): Promise<boolean> {
    const { rowCount } = await this.#db.query(
      `UPDATE alert_deliveries SET ${set}, lease_until = NULL, lease_token = NULL, updated_at = $3
        WHERE id = $1 AND lease_token = $2 AND status = 'sending'`,
      [d.id, d.leaseToken, ...params],
    )
    return rowCount === 1
  }
}

function clip(error: string): string {
  return error.length <= LAST_ERROR_MAX ? error : `${error.slice(0, LAST_ERROR_MAX - 1)}…`
}

function toDelivery(r: DeliveryRow): Delivery {
  return {
    id: r.id,
    ruleId: r.rule_id,
    pairKey: r.pair_key,
    dedupeKey: r.dedupe_key,
    test: r.test,
    channel: r.channel,
    target: r.target,
    // Both drivers parse `json` columns; a string would mean a driver that does not.
    payload: typeof r.payload === 'string' ? (JSON.parse(r.payload) as DeliveryPayload) : r.payload,
    status: r.status,
    attempts: toNumber(r.attempts),
    nextAttemptAt: toMs(r.next_attempt_at),
    lastError: r.last_error,
    responseStatus: r.response_status === null ? null : toNumber(r.response_status),
    createdAt: toMs(r.created_at),
    updatedAt: toMs(r.updated_at),
    deliveredAt: toMsOrNull(r.delivered_at),
  }
}
