import { toMs, type Db } from './db.js'
import { insertKey, type ApiKeyRecord, type StoredKey } from './api-keys-repo.js'

/**
 * Developer accounts, one per e-mail address compared case-insensitively (unique index on `lower(email)`).
 *
 * Signup is one transaction: `INSERT … ON CONFLICT DO NOTHING` either creates the account and its first key
 * together, or (the address is known) updates company and use case. Two signups for one address racing each
 * other make one account: the second insert waits for the first to commit, then finds the conflict and updates.
 */
export interface Account {
  readonly id: string
  readonly email: string
  readonly company: string
  readonly useCase: string
  readonly createdAt: number
  readonly updatedAt: number
}

export interface SignupInput {
  readonly email: string
  readonly company: string
  readonly useCase: string
}

export type SignupResult =
  | { readonly created: true; readonly account: Account; readonly key: ApiKeyRecord }
  | { readonly created: false; readonly account: Account }

const COLUMNS = 'id, email, company, use_case, created_at, updated_at'

interface AccountRow {
  id: string
  email: string
  company: string
  use_case: string
  created_at: unknown
  updated_at: unknown
}

export class AccountRepository {
  readonly #db: Db

  constructor(db: Db) {
    this.#db = db
  }

  /** Creates the account with `firstKey`, or updates the existing account of this address (no key then). */
  async signup(accountId: string, input: SignupInput, firstKey: StoredKey, nowMs: number): Promise<SignupResult> {
    const now = new Date(nowMs)
    return this.#db.transaction(async (tx) => {
      const inserted = await tx.query<AccountRow>(
        `INSERT INTO accounts (id, email, company, use_case, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT ((lower(email))) DO NOTHING RETURNING ${COLUMNS}`,
        [accountId, input.email, input.company, input.useCase, now],
      )
      const row = inserted.rows[0]
      if (row !== undefined)
        return { created: true, account: toAccount(row), key: await insertKey(tx, row.id, firstKey, nowMs) }
      const updated = await tx.query<AccountRow>(
        `UPDATE accounts SET company = $2, use_case = $3, updated_at = $4 WHERE lower(email) = lower($1) RETURNING ${COLUMNS}`,
        [input.email, input.company, input.useCase, now],
      )
      const existing = updated.rows[0]
      // Unreachable unless the account was deleted between the two statements; let the transaction fail.
      if (existing === undefined) throw new Error('signup: account vanished during update')
      return { created: false, account: toAccount(existing) }
    })
  }

  async get(id: string): Promise<Account | undefined> {
    const { rows } = await this.#db.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [id])
    return rows[0] === undefined ? undefined : toAccount(rows[0])
  }

  async findByEmail(email: string): Promise<Account | undefined> {
    const { rows } = await this.#db.query<AccountRow>(
      `SELECT ${COLUMNS} FROM accounts WHERE lower(email) = lower($1)`,
      [email],
    )
    return rows[0] === undefined ? undefined : toAccount(rows[0])
  }
}

function toAccount(r: AccountRow): Account {
  return {
    id: r.id,
    email: r.email,
    company: r.company,
    useCase: r.use_case,
    createdAt: toMs(r.created_at),
    updatedAt: toMs(r.updated_at),
  }
}
