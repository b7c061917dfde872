import { toMs, toMsOrNull, toNumber, type Db } from './db.js'
import { insertDelivery, type Delivery, type NewDelivery } from './alert-deliveries-repo.js'

/**
 * What the alert evaluator persists so that a restart resumes instead of re-firing, and so that replicas
 * evaluating the same spread change deliver once:
 *
 * - `alert_pair_state`: per (rule, pair) whether the trigger is armed, its episode counter and expansion baseline;
 * - `alert_rule_cooldowns`: when each rule last fired (the cooldown is per rule);
 * - `alert_seen_pairs`: when the deployment first saw each pair (new_pair).
 *
 * `fire` is the one transaction that turns a decision into a delivery: the rule must still be active, its
 * cooldown must have passed, the pair must still be armed (compare-and-set), and then the outbox row is inserted
 * with the dedupe key `rule:pair:episode`. Whichever replica commits first fires; the other finds the pair
 * disarmed or the rule cooling down and writes nothing.
 */
export interface PairStateRow {
  readonly ruleId: string
  readonly pairKey: string
  readonly armed: boolean
  readonly episode: number
  readonly baseline: number | null
  readonly lastFiredAt: number | null
}

export interface RuleEvaluationState {
  readonly pairs: PairStateRow[]
  /** Last firing of the rule (undefined: never fired). */
  readonly lastFiredAt: number | undefined
}

export interface ArmChange {
  readonly ruleId: string
  readonly pairKey: string
  readonly armed: boolean
}

export interface FiringRequest {
  readonly ruleId: string
  readonly pairKey: string
  readonly firedAt: number
  readonly cooldownMs: number
  /** Whether the pair is disarmed by this firing (every trigger but spread_expansion). */
  readonly disarm: boolean
  /** spread_expansion: the new baseline (the spread that fired). */
  readonly baseline: number | null
  /** The outbox row, given the episode this firing gets (its dedupe key depends on it). */
  readonly delivery: (episode: number) => NewDelivery
}

export type FiringOutcome =
  | { readonly kind: 'fired'; readonly episode: number; readonly delivery: Delivery }
  /** The rule is paused or deleted (the evaluator has not heard yet). */
  | { readonly kind: 'inactive' }
  /** The rule fired less than its cooldown ago (possibly on another replica). */
  | { readonly kind: 'cooldown'; readonly lastFiredAt: number }
  /** The pair is already disarmed: another replica recorded this crossing. */
  | { readonly kind: 'already_fired' }
  /** An outbox row with this dedupe key exists already. */
  | { readonly kind: 'duplicate' }

/** Rolls the firing transaction back with an outcome (nothing of a refused firing is kept). */
class Refused extends Error {
  constructor(readonly outcome: FiringOutcome) {
    super(outcome.kind)
  }
}

interface PairRow {
  rule_id: string
  pair_key: string
  armed: boolean
  episode: unknown
  baseline: unknown
  last_fired_at: unknown
}

const PAIR_COLUMNS = 'rule_id, pair_key, armed, episode, baseline, last_fired_at'

export class AlertStateRepository {
  readonly #db: Db

  constructor(db: Db) {
    this.#db = db
  }

  /** State of every active rule (boot). */
  async loadActive(): Promise<Map<string, RuleEvaluationState>> {
    const [pairs, cooldowns] = await Promise.all([
      this.#db.query<PairRow>(
        `SELECT ${PAIR_COLUMNS.split(', ')
          .map((c) => `s.${c}`)
          .join(', ')} FROM alert_pair_state s JOIN alert_rules r ON r.id = s.rule_id WHERE r.status = 'active'`,
      ),
      this.#db.query<{ rule_id: string; last_fired_at: unknown }>(
        `SELECT c.rule_id, c.last_fired_at FROM alert_rule_cooldowns c JOIN alert_rules r ON r.id = c.rule_id WHERE r.status = 'active'`,
      ),
    ])
    const out = new Map<string, { pairs: PairStateRow[]; lastFiredAt: number | undefined }>()
    const of = (ruleId: string) => {
      let s = out.get(ruleId)
      if (s === undefined) out.set(ruleId, (s = { pairs: [], lastFiredAt: undefined }))
      return s
    }
    for (const row of pairs.rows) of(row.rule_id).pairs.push(toPairState(row))
    for (const row of cooldowns.rows) of(row.rule_id).lastFiredAt = toMs(row.last_fired_at)
    return out
  }

  /** State of one rule (a rule created or resumed while running). */
  async loadRule(ruleId: string): Promise<RuleEvaluationState> {
    const [pairs, cooldown] = await Promise.all([
      this.#db.query<PairRow>(`SELECT ${PAIR_COLUMNS} FROM alert_pair_state WHERE rule_id = $1`, [ruleId]),
      this.#db.query<{ last_fired_at: unknown }>('SELECT last_fired_at FROM alert_rule_cooldowns WHERE rule_id = $1', [
        ruleId,
      ]),
    ])
    const last = cooldown.rows[0]?.last_fired_at
    return { pairs: pairs.rows.map(toPairState), lastFiredAt: last === undefined ? undefined : toMs(last) }
  }

  /**
   * Arms or disarms pairs in one statement (re-arming below the hysteresis band, arming a collapse trigger).
   * Only the last change per (rule, pair) is written. Rules that no longer exist are skipped.
   */
  async setArmed(changes: readonly ArmChange[], nowMs: number): Promise<void> {
    const last = new Map<string, ArmChange>()
    for (const c of changes) last.set(`${c.ruleId}\u0000${c.pairKey}`, c)
    if (last.size === 0) return
    const list = [...last.values()]
    await this.#db.query(
      `INSERT INTO alert_pair_state (rule_id, pair_key, armed, episode, updated_at)
       SELECT c.rule_id, c.pair_key, c.armed, 0, $4
         FROM unnest($1::uuid[], $2::text[], $3::boolean[]) AS c (rule_id, pair_key, armed)
        WHERE EXISTS (SELECT 1 FROM alert_rules r WHERE r.id = c.rule_id)
       ON CONFLICT (rule_id, pair_key) DO UPDATE SET armed = EXCLUDED.armed, updated_at = EXCLUDED.updated_at`,
      [list.map((c) => c.ruleId), list.map((c) => c.pairKey), list.map((c) => c.armed), new Date(nowMs)],
    )
  }

  /** Pairs the deployment has seen, with when first (new_pair). */
  async seenPairs(): Promise<Map<string, number>> {
    const { rows } = await this.#db.query<{ pair_key: string; first_seen_at: unknown }>(
      'SELECT pair_key, first_seen_at FROM alert_seen_pairs',
    )
    return new Map(rows.map((r) => [r.pair_key, toMs(r.first_seen_at)]))
  }

  /** Records first sightings; an earlier sighting (another replica's) wins. */
  async recordSeen(pairs: readonly { readonly pairKey: string; readonly at: number }[]): Promise<void> {
    if (pairs.length === 0) return
    await this.#db.query(
      `INSERT INTO alert_seen_pairs (pair_key, first_seen_at)
       SELECT pair_key, min(at) FROM unnest($1::text[], $2::timestamptz[]) AS p (pair_key, at) GROUP BY pair_key
       ON CONFLICT (pair_key) DO UPDATE SET first_seen_at = least(alert_seen_pairs.first_seen_at, EXCLUDED.first_seen_at)`,
      [pairs.map((p) => p.pairKey), pairs.map((p) => new Date(p.at))],
    )
  }

  /** Records a firing and its outbox row together, or nothing (see `FiringOutcome`). */
  async fire(req: FiringRequest): Promise<FiringOutcome> {
    try {
      return await this.#db.transaction(async (tx) => {
        // FOR SHARE: a pause or delete of this rule waits for this firing, or this firing sees it; never both.
        const rule = await tx.query<{ status: string }>('SELECT status FROM alert_rules WHERE id = $1 FOR SHARE', [
          req.ruleId,
        ])
        if (rule.rows[0]?.status !== 'active') throw new Refused({ kind: 'inactive' })
        const firedAt = new Date(req.firedAt)
        const cooldown = await tx.query(
          `INSERT INTO alert_rule_cooldowns (rule_id, last_fired_at) VALUES ($1, $2)
           ON CONFLICT (rule_id) DO UPDATE SET last_fired_at = EXCLUDED.last_fired_at WHERE alert_rule_cooldowns.last_fired_at <= $3
           RETURNING rule_id`,
          [req.ruleId, firedAt, new Date(req.firedAt - req.cooldownMs)],
        )
        if (cooldown.rows.length === 0) {
          const { rows } = await tx.query<{ last_fired_at: unknown }>(
            'SELECT last_fired_at FROM alert_rule_cooldowns WHERE rule_id = $1',
            [req.ruleId],
          )
          throw new Refused({ kind: 'cooldown', lastFiredAt: toMs(rows[0]?.last_fired_at ?? firedAt) })
        }
        // Compare-and-set on the pair: only an armed pair (or one with no row yet: the initial state) fires.
        const cas = await tx.query<{ episode: unknown }>(
          `INSERT INTO alert_pair_state (rule_id, pair_key, armed, episode, baseline, last_fired_at, updated_at) VALUES ($1, $2, $3, 1, $4, $5, $5)
           ON CONFLICT (rule_id, pair_key) DO UPDATE
             SET armed = EXCLUDED.armed, episode = alert_pair_state.episode + 1, baseline = EXCLUDED.baseline,
                 last_fired_at = EXCLUDED.last_fired_at, updated_at = EXCLUDED.updated_at
             WHERE alert_pair_state.armed
           RETURNING episode`,
          [req.ruleId, req.pairKey, !req.disarm, req.baseline, firedAt],
        )
        const row = cas.rows[0]
        if (row === undefined) throw new Refused({ kind: 'already_fired' })
        const episode = toNumber(row.episode)
        const delivery = await insertDelivery(tx, req.delivery(episode))
        if (delivery === undefined) throw new Refused({ kind: 'duplicate' })
        return { kind: 'fired', episode, delivery } as const
      })
    } catch (err) {
      if (err instanceof Refused) return err.outcome
      throw err
    }
  }
}

/** The dedupe key of a firing: one delivery per rule, pair and episode, whichever replica writes it. */
export function firingDedupeKey(ruleId: string, pairKey: string, episode: number): string {
  return `${ruleId}:${pairKey}:${episode}`
}

function toPairState(r: PairRow): PairStateRow {
  return {
    ruleId: r.rule_id,
    pairKey: r.pair_key,
    armed: r.armed,
    episode: toNumber(r.episode),
    baseline: r.baseline === null || r.baseline === undefined ? null : toNumber(r.baseline),
    lastFiredAt: toMsOrNull(r.last_fired_at),
  }
}
