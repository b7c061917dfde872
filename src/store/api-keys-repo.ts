import { toMs, toMsOrNull, type Db, type Queryable } from './db.js'

/**
 * API keys: stored as SHA-256 hashes with a display prefix, never in plaintext (see accounts/api-key.ts). A key
 * is revoked, never deleted, so its usage history and the revocation itself stay visible.
 *
 * Writes that depend on the account's other keys (the active-key cap, "not the last active key") lock the
 * account row first, so two concurrent requests cannot both pass the check.
 */
export interface ApiKeyRecord {
  readonly id: string
  readonly accountId: string
  readonly name: string
  readonly displayPrefix: string
  readonly createdAt: number
  readonly revokedAt: number | null
}

/** What authentication needs from a key row. */
export interface KeyCredential {
  readonly id: string
  readonly accountId: string
  readonly hash: string
  readonly revokedAt: number | null
}

export interface StoredKey {
  readonly id: string
  readonly name: string
  readonly hash: string
  readonly displayPrefix: string
}

export type CreateKeyResult =
  | { readonly kind: 'created'; readonly key: ApiKeyRecord }
  | { readonly kind: 'limit'; readonly max: number }
  | { readonly kind: 'no_account' }

export type RevokeKeyResult =
  | { readonly kind: 'revoked'; readonly key: ApiKeyRecord; readonly changed: boolean }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'last_active_key' }

/** NOTIFY channel (base name) carrying the id of each revoked key to every replica. */
export const KEY_REVOKED_CHANNEL = 'key_revoked'

const COLUMNS = 'id, account_id, name, key_prefix, created_at, revoked_at'

interface KeyRow {
  id: string
  account_id: string
  name: string
  key_prefix: string
  created_at: unknown
  revoked_at: unknown
}

export class ApiKeyRepository {
  readonly #db: Db

  constructor(db: Db) {
    this.#db = db
  }

  /** Adds a key to an account unless it already has `maxActive` active keys. */
  async create(accountId: string, key: StoredKey, nowMs: number, maxActive: number): Promise<CreateKeyResult> {
    return this.#db.transaction(async (tx) => {
      const account = await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId])
      if (account.rows.length === 0) return { kind: 'no_account' }
      const active = await tx.query<{ n: unknown }>(
        'SELECT count(*) AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL',
        [accountId],
      )
      if (Number(active.rows[0]?.n ?? 0) >= maxActive) return { kind: 'limit', max: maxActive }
      return { kind: 'created', key: await insertKey(tx, accountId, key, nowMs) }
    })
  }

  /** Every key of the account, oldest first, revoked ones included. */
  async list(accountId: string): Promise<ApiKeyRecord[]> {
    const { rows } = await this.#db.query<KeyRow>(
      `SELECT ${COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY seq`,
      [accountId],
    )
    return rows.map(toRecord)
  }

  async get(accountId: string, id: string): Promise<ApiKeyRecord | undefined> {
    const { rows } = await this.#db.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1 AND account_id = $2`, [
      id,
      accountId,
    ])
    return rows[0] === undefined ? undefined : toRecord(rows[0])
  }

  /**
   * Revokes a key of the account (idempotent: an already revoked key is returned as it is). Refuses to revoke the
   * account's last active key: signing up again returns no key, so that would lock the developer out for good.
   * Every replica hears of the revocation through NOTIFY on commit (Postgres).
   */
  async revoke(accountId: string, id: string, nowMs: number): Promise<RevokeKeyResult> {
    return this.#db.transaction(async (tx) => {
      await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId])
      const found = await tx.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1 AND account_id = $2`, [
        id,
        accountId,
      ])
      const row = found.rows[0]
      if (row === undefined) return { kind: 'not_found' }
      if (row.revoked_at !== null) return { kind: 'revoked', key: toRecord(row), changed: false }
      const active = await tx.query<{ n: unknown }>(
        'SELECT count(*) AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL',
        [accountId],
      )
      if (Number(active.rows[0]?.n ?? 0) <= 1) return { kind: 'last_active_key' }
      const sql = `UPDATE api_keys SET revoked_at = $3 WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`
      const updated = await tx.query<KeyRow>(sql, [id, accountId, new Date(nowMs)])
      await tx.query('SELECT pg_notify($1, $2)', [this.#db.channel(KEY_REVOKED_CHANNEL), id])
      return { kind: 'revoked', key: toRecord(updated.rows[0] as KeyRow), changed: true }
    })
  }

  /** The key with this hash, revoked or not (authentication on a cache miss). */
  async findByHash(hash: string): Promise<KeyCredential | undefined> {
    const { rows } = await this.#db.query<{ id: string; account_id: string; key_hash: string; revoked_at: unknown }>(
      'SELECT id, account_id, key_hash, revoked_at FROM api_keys WHERE key_hash = $1',
      [hash],
    )
    const row = rows[0]
    return row === undefined
      ? undefined
      : { id: row.id, accountId: row.account_id, hash: row.key_hash, revokedAt: toMsOrNull(row.revoked_at) }
  }

  /** Ids of keys revoked after `sinceMs` (replicas poll this to evict cached keys). */
  async revokedSince(sinceMs: number): Promise<string[]> {
    const { rows } = await this.#db.query<{ id: string }>('SELECT id FROM api_keys WHERE revoked_at > $1', [
      new Date(sinceMs),
    ])
    return rows.map((r) => r.id)
  }
}

/** Inserts a key row inside a caller's transaction (signup creates the account and its first key together). */
export async function insertKey(
  tx: Queryable,
  accountId: string,
  key: StoredKey,
  nowMs: number,
): Promise<ApiKeyRecord> {
  const { rows } = await tx.query<KeyRow>(
    `INSERT INTO api_keys (id, account_id, name, key_hash, key_prefix, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [key.id, accountId, key.name, key.hash, key.displayPrefix, new Date(nowMs)],
  )
  return toRecord(rows[0] as KeyRow)
}

function toRecord(r: KeyRow): ApiKeyRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    displayPrefix: r.key_prefix,
    createdAt: toMs(r.created_at),
    revokedAt: toMsOrNull(r.revoked_at),
  }
}
