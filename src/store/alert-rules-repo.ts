import { randomBytes, randomUUID } from 'node:crypto'
import type {
  AlertRule,
  AlertScope,
  Channel,
  NewAlertRule,
  RuleOwner,
  RuleState,
  RuleStatus,
  TriggerType,
} from '../alerts/rule-types.js'
import type { AlertRuleChanges } from './alert-rule-changes.js'
import { toMs, toNumber, type Db, type Queryable } from './db.js'

/**
 * Alert rules of a user. A rule belongs to an owner: the developer account whose key made the request (null when
 * the service runs with AUTH_REQUIRED=false) and the end user named by `X-User-Id`; every read and write is scoped
 * to both, so another owner's rule is indistinguishable from a missing one.
 *
 * Writers serialize on one advisory lock, so `version` (from a sequence) increases in commit order and
 * `changesSince(cursor)` never skips a change. Deletes keep a tombstone (`status: 'deleted'`) for the feed.
 *
 * The evaluator (spread/alerts side) reads with `listActive`, `getById` and `changesSince`, and subscribes to
 * `AlertRuleChanges`.
 */
export type CreateRuleResult =
  /** `signingSecret`: the webhook signing secret (webhook rules only), to show once. */
  | { readonly kind: 'created'; readonly rule: AlertRule; readonly signingSecret: string | null }
  | { readonly kind: 'limit'; readonly max: number }

export type RotateSecretResult =
  | { readonly kind: 'rotated'; readonly signingSecret: string }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'not_webhook' }

/** NOTIFY channel (base name) carrying the newest rule version to every replica. */
export const ALERT_RULES_CHANNEL = 'alert_rules'

/** Arbitrary constant: the advisory lock alert-rule writers hold until commit. */
const WRITE_LOCK_KEY = 7_204_113_902
const COLUMNS =
  'id, account_id, user_id, trigger_type, threshold, channel, target, scope, cooldown_seconds, status, version, created_at, updated_at'
const OWNER = 'user_id = $1 AND account_id IS NOT DISTINCT FROM $2::uuid'

interface RuleRow {
  id: string
  account_id: string | null
  user_id: string
  trigger_type: TriggerType
  threshold: unknown
  channel: Channel
  target: string
  scope: AlertScope
  cooldown_seconds: unknown
  status: RuleStatus
  version: unknown
  created_at: unknown
  updated_at: unknown
}

export class AlertRuleRepository {
  readonly #db: Db
  readonly #changes: AlertRuleChanges

  constructor(db: Db, changes: AlertRuleChanges) {
    this.#db = db
    this.#changes = changes
  }

  /**
   * Stores a new active rule unless the owner already has `maxPerUser` rules (active or paused). A webhook rule
   * gets a fresh signing secret (alerts/webhook-signature.ts); it is returned here and never listed again.
   */
  async create(owner: RuleOwner, rule: NewAlertRule, nowMs: number, maxPerUser: number): Promise<CreateRuleResult> {
    const signingSecret = rule.channel === 'webhook' ? newSigningSecret() : null
    const result = await this.#write(async (tx): Promise<CreateRuleResult> => {
      const count = await tx.query<{ n: unknown }>(
        `SELECT count(*) AS n FROM alert_rules WHERE ${OWNER} AND status <> 'deleted'`,
        [owner.userId, owner.accountId],
      )
      if (toNumber(count.rows[0]?.n ?? 0) >= maxPerUser) return { kind: 'limit', max: maxPerUser }
      const { rows } = await tx.query<RuleRow>(
        `INSERT INTO alert_rules (id, account_id, user_id, trigger_type, threshold, channel, target, scope, cooldown_seconds,
                                  status, version, created_at, updated_at, signing_secret)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'active', nextval('alert_rules_version_seq'), $10, $10, $11)
         RETURNING ${COLUMNS}`,
        [
          randomUUID(),
          owner.accountId,
          owner.userId,
          rule.triggerType,
          rule.threshold,
          rule.channel,
          rule.target,
          JSON.stringify(rule.scope),
          rule.cooldownSeconds,
          new Date(nowMs),
          signingSecret,
        ],
      )
      return { kind: 'created', rule: toRule(rows[0] as RuleRow), signingSecret }
    })
    if (result.kind === 'created') this.#changes.publish(result.rule.version)
    return result
  }

  /** The owner's rules (not deleted), newest first. */
  async list(
    owner: RuleOwner,
    filter: { status?: RuleState; limit: number; offset: number },
  ): Promise<{ rules: AlertRule[]; total: number }> {
    const status = filter.status ?? null
    const where = `${OWNER} AND status <> 'deleted' AND ($3::text IS NULL OR status = $3::text)`
    const params = [owner.userId, owner.accountId, status]
    const [page, count] = await Promise.all([
      this.#db.query<RuleRow>(
        `SELECT ${COLUMNS} FROM alert_rules WHERE ${where} ORDER BY seq DESC LIMIT $4 OFFSET $5`,
        [...params, filter.limit, filter.offset],
      ),
      this.#db.query<{ n: unknown }>(`SELECT count(*) AS n FROM alert_rules WHERE ${where}`, params),
    ])
    return { rules: page.rows.map(toRule), total: toNumber(count.rows[0]?.n ?? 0) }
  }

  async get(owner: RuleOwner, id: string): Promise<AlertRule | undefined> {
    const sql = `SELECT ${COLUMNS} FROM alert_rules WHERE ${OWNER} AND id = $3 AND status <> 'deleted'`
    const { rows } = await this.#db.query<RuleRow>(sql, [owner.userId, owner.accountId, id])
    return rows[0] === undefined ? undefined : toRule(rows[0])
  }

  /** Pauses or resumes; a rule already in that state is returned unchanged (no new version). */
  async setStatus(owner: RuleOwner, id: string, status: RuleState, nowMs: number): Promise<AlertRule | undefined> {
    const current = await this.get(owner, id)
    if (current === undefined || current.status === status) return current
    return this.#change(owner, id, `status = $4, updated_at = $5`, [status, new Date(nowMs)])
  }

  /** Deletes (a tombstone for the change feed); undefined when the owner has no such rule. */
  async delete(owner: RuleOwner, id: string, nowMs: number): Promise<AlertRule | undefined> {
    return this.#change(owner, id, `status = 'deleted', updated_at = $4, deleted_at = $4`, [new Date(nowMs)])
  }

  /**
   * Replaces a webhook rule's signing secret (the old one stops verifying at once, also for deliveries already
   * queued: they are signed when sent). Not a rule change for evaluators: no new version.
   */
  async rotateSigningSecret(owner: RuleOwner, id: string): Promise<RotateSecretResult> {
    const secret = newSigningSecret()
    const { rows } = await this.#db.query<{ channel: Channel; signing_secret: string | null }>(
      `UPDATE alert_rules SET signing_secret = CASE WHEN channel = 'webhook' THEN $4 ELSE signing_secret END
        WHERE ${OWNER} AND id = $3 AND status <> 'deleted' RETURNING channel, signing_secret`,
      [owner.userId, owner.accountId, id, secret],
    )
    const row = rows[0]
    if (row === undefined) return { kind: 'not_found' }
    return row.channel === 'webhook' && row.signing_secret !== null
      ? { kind: 'rotated', signingSecret: row.signing_secret }
      : { kind: 'not_webhook' }
  }

  // ---- for the evaluator ----

  /** Any rule by id, deleted ones included (status tells). */
  async getById(id: string): Promise<AlertRule | undefined> {
    const { rows } = await this.#db.query<RuleRow>(`SELECT ${COLUMNS} FROM alert_rules WHERE id = $1`, [id])
    return rows[0] === undefined ? undefined : toRule(rows[0])
  }

  /**
   * Every active rule and the version the list is complete up to: start `changesSince(version)` from it. A rule
   * changed after `version` was read is left out here and comes back from `changesSince`, so nothing is missed.
   */
  async listActive(): Promise<{ rules: AlertRule[]; version: number }> {
    const version = await currentVersion(this.#db)
    const sql = `SELECT ${COLUMNS} FROM alert_rules WHERE status = 'active' AND version <= $1 ORDER BY version`
    const { rows } = await this.#db.query<RuleRow>(sql, [version])
    return { rules: rows.map(toRule), version }
  }

  /** Rules changed after `version` (created, paused, resumed or deleted), oldest change first. */
  async changesSince(version: number, limit = 1_000): Promise<AlertRule[]> {
    const sql = `SELECT ${COLUMNS} FROM alert_rules WHERE version > $1 ORDER BY version LIMIT $2`
    const { rows } = await this.#db.query<RuleRow>(sql, [version, limit])
    return rows.map(toRule)
  }

  /** Newest committed version (0 when there are no rules). */
  currentVersion(): Promise<number> {
    return currentVersion(this.#db)
  }

  async #change(owner: RuleOwner, id: string, set: string, params: readonly unknown[]): Promise<AlertRule | undefined> {
    const rule = await this.#write(async (tx) => {
      const { rows } = await tx.query<RuleRow>(
        `UPDATE alert_rules SET ${set}, version = nextval('alert_rules_version_seq')
          WHERE ${OWNER} AND id = $3 AND status <> 'deleted' RETURNING ${COLUMNS}`,
        [owner.userId, owner.accountId, id, ...params],
      )
      return rows[0] === undefined ? undefined : toRule(rows[0])
    })
    if (rule !== undefined) this.#changes.publish(rule.version)
    return rule
  }

  /** A write transaction holding the writers' lock until commit, then NOTIFY (delivered on commit). */
  #write<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK_KEY])
      const result = await fn(tx)
      const version = await currentVersion(tx)
      await tx.query('SELECT pg_notify($1, $2)', [this.#db.channel(ALERT_RULES_CHANNEL), String(version)])
      return result
    })
  }
}

/** A webhook signing secret: `whsec_` and 64 hex digits (256 random bits); the HMAC key is this whole string. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`
}

async function currentVersion(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ v: unknown }>('SELECT coalesce(max(version), 0) AS v FROM alert_rules')
  return toNumber(rows[0]?.v ?? 0)
}

function toRule(r: RuleRow): AlertRule {
  return {
    id: r.id,
    accountId: r.account_id,
    userId: r.user_id,
    triggerType: r.trigger_type,
    threshold: toNumber(r.threshold),
    channel: r.channel,
    target: r.target,
    scope: r.scope,
    cooldownSeconds: toNumber(r.cooldown_seconds),
    status: r.status,
    version: toNumber(r.version),
    createdAt: toMs(r.created_at),
    updatedAt: toMs(r.updated_at),
  }
}
