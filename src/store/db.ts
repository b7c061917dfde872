/**
 * The one database interface of the service. Two implementations share it: `PostgresDb` (a `pg` pool, when
 * `DATABASE_URL` is set) and `PGliteDb` (embedded Postgres compiled to WASM, in `DATA_DIR`), so every
 * repository, migration and test runs unchanged on both (docs/DESIGN.md, Store). Postgres is never on the hot read
 * path: only accounts, keys, alert rules and batched usage go through here.
 *
 * SQL is always parameterized (`$1`, `$2`…): repositories never build SQL from values.
 */
export interface QueryResult<R> {
  readonly rows: R[]
  /** Rows inserted, updated or deleted by the statement (0 for a SELECT on PGlite). */
  readonly rowCount: number
}

/** Something that runs one parameterized statement: the database itself or an open transaction. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>
}

/** A connection with a transaction open; `exec` runs a multi-statement script (migrations only). */
export interface Tx extends Queryable {
  exec(script: string): Promise<void>
}

export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite'
  /** Where the data lives, for logs (the URL without its password, or the PGlite directory). */
  readonly description: string
  /**
   * Runs `fn` in a transaction (READ COMMITTED): committed when it resolves, rolled back when it throws, so a
   * failure never leaves half a record behind.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>
  /**
   * Runs `fn` on one connection while holding the migration lock, so replicas that boot at once apply each
   * migration exactly once (Postgres: `pg_advisory_lock`; PGlite is one connection in one process already).
   */
  withMigrationLock<T>(
    fn: (conn: Tx & { transaction<U>(fn: (tx: Tx) => Promise<U>): Promise<U> }) => Promise<T>,
  ): Promise<T>
  /**
   * Delivers `NOTIFY` payloads sent on `channel` by any replica (Postgres only: PGlite serves one process, where
   * callers already know about their own writes). `onReconnect` runs after a lost listening connection is back,
   * because notifications sent meanwhile are gone. Returns a function that stops listening.
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>
  /** Channel names are per database; this one is also per schema, so parallel test schemas do not hear each other. */
  channel(name: string): string
  close(): Promise<void>
}

/**
 * The store could not run a statement at all (the embedded store's process died or is closed, the database is
 * unreachable or shutting down, a statement timed out): nothing says the request was wrong, and a retry shortly
 * may succeed. The HTTP layer answers it 503 `store_unavailable` with Retry-After instead of a 500.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StoreUnavailableError'
  }
}

/** SQLSTATE classes and codes of a server that cannot run statements now (not of a bad statement). */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[1-3]|53300|57014)$/
/** Node's and pg's words for a connection that could not be made or was lost. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND'])
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/

/** Whether `err` says the store is unavailable (see StoreUnavailableError) rather than that a statement failed. */
export function isStoreUnavailable(err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true
  if (!(err instanceof Error)) return false
  const code = sqlState(err)
  if (code !== undefined && (UNAVAILABLE_SQLSTATES.test(code) || UNAVAILABLE_CODES.has(code))) return true
  return UNAVAILABLE_MESSAGES.test(err.message)
}

/** SQLSTATE of a unique-constraint violation (both drivers expose `code` on their errors). */
export const UNIQUE_VIOLATION = '23505'

export function sqlState(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined
}

/** Timestamps come back as `Date` from both drivers; accept ISO strings too. */
export function toMs(value: unknown): number {
  if (value instanceof Date) return value.getTime()
  if (typeof value === 'string') return Date.parse(value)
  if (typeof value === 'number') return value
  throw new TypeError(`not a timestamp: ${String(value)}`)
}

export function toMsOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : toMs(value)
}

/** `int8`/`bigint` is a string from `pg` and a number from PGlite; counts and versions fit in a double. */
export function toNumber(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value)
  if (!Number.isFinite(n)) throw new TypeError(`not a number: ${String(value)}`)
  return n
}
