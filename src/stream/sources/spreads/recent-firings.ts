import { toMs, type Queryable } from '../../../store/db.js'
import type { DeliveryPayload } from '../../../store/alert-deliveries-repo.js'

/**
 * Each account's most recent alert firings, in memory, so that an `alerts` snapshot can be answered synchronously
 * (a source's methods are: subscribe-and-snapshot is one step). It mirrors the outbox: `load` reads the newest
 * firings of every account from the store at boot, and `add` appends each firing as the outbox writer commits it.
 *
 * Bounds: PER_ACCOUNT firings per account (a snapshot's length), and the boot load reads at most LOAD_MAX rows
 * (the newest), so memory stays bounded by the accounts that fire. Firings committed by another replica are not
 * seen until the next boot (the outbox has no change feed yet): the delivery log over REST has them all.
 */
export const PER_ACCOUNT = 100
export const LOAD_MAX = 10_000

export interface RecentFiring {
  /** The durable delivery id (the outbox row's, also `payload.id`). */
  readonly id: string
  readonly firedAt: number
  /** What the webhook receiver gets, verbatim. */
  readonly payload: DeliveryPayload
}

export class RecentFirings {
  readonly #byAccount = new Map<string, RecentFiring[]>()

  /** Reads the newest firings (not test deliveries) of every account from the outbox. */
  async load(db: Queryable): Promise<void> {
    const { rows } = await db.query<{ account_id: string; id: string; created_at: unknown; payload: DeliveryPayload }>(
      `SELECT r.account_id, d.id, d.created_at, d.payload
         FROM alert_deliveries d JOIN alert_rules r ON r.id = d.rule_id
        WHERE NOT d.test AND r.account_id IS NOT NULL
        ORDER BY d.seq DESC LIMIT $1`,
      [LOAD_MAX],
    )
    // Newest first: the oldest of each account's PER_ACCOUNT go in first.
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i] as (typeof rows)[number]
      this.add(row.account_id, { id: row.id, firedAt: toMs(row.created_at), payload: row.payload })
    }
  }

  /** Appends a firing (ignored when the account holds it already: the boot load and the hook can overlap). */
  add(accountId: string, firing: RecentFiring): boolean {
    let list = this.#byAccount.get(accountId)
    if (list === undefined) this.#byAccount.set(accountId, (list = []))
    if (list.some((f) => f.id === firing.id)) return false
    list.push(firing)
    if (list.length > PER_ACCOUNT) list.splice(0, list.length - PER_ACCOUNT)
    return true
  }

  /** The account's recent firings, oldest first. */
  of(accountId: string): readonly RecentFiring[] {
    return this.#byAccount.get(accountId) ?? []
  }
}
