import { createHash } from 'node:crypto'
import pg from 'pg'
import type { Logger } from '../core/logger.js'
import type { Db, QueryResult, Tx } from './db.js'

/**
 * `Db` over a `pg` pool (DATABASE_URL). Shared by every replica of the service, so anything that must happen
 * once (migrations) takes a Postgres lock, and cache invalidations travel as NOTIFY between replicas.
 *
 * Timeouts keep a sick database from holding requests forever: connecting waits at most `connectTimeoutMs`, a
 * statement runs at most `statementTimeoutMs` (server side) before it fails with a 503 to the client.
 */
export interface PostgresOptions {
  readonly url: string
  readonly poolMax?: number
  readonly connectTimeoutMs?: number
  readonly statementTimeoutMs?: number
  /** Sets `search_path` on every connection (tests isolate runs in their own schema). */
  readonly schema?: string
  readonly log: Logger
}

/** Arbitrary constant: the advisory lock every replica takes around the migration run. */
const MIGRATION_LOCK_KEY = 7_204_113_901
const LISTEN_RETRY_MS = 1_000

export class PostgresDb implements Db {
  readonly kind = 'postgres' as const
  readonly description: string
  readonly #pool: pg.Pool
  readonly #options: PostgresOptions
  readonly #log: Logger
  readonly #listeners: { stop(): Promise<void> }[] = []
  #channelSuffix = ''
  #closed = false

  private constructor(options: PostgresOptions) {
    this.#options = options
    this.#log = options.log
    this.description = `postgres ${redact(options.url)}${options.schema === undefined ? '' : ` (schema ${options.schema})`}`
    this.#pool = new pg.Pool(this.#clientConfig(options.poolMax ?? 10))
    // An idle client can lose its connection at any time; without a listener that error crashes the process.
    this.#pool.on('error', (err) => this.#log.warn({ err }, 'postgres: idle client error'))
  }

  /** Connects (so a wrong URL fails the boot, not the first request) and learns the schema for channel names. */
  static async open(options: PostgresOptions): Promise<PostgresDb> {
    const db = new PostgresDb(options)
    try {
      const { rows } = await db.query<{ schema: string }>('SELECT current_schema() AS schema')
      db.#channelSuffix = createHash('sha256')
        .update(rows[0]?.schema ?? 'public')
        .digest('hex')
        .slice(0, 10)
    } catch (err) {
      await db.#pool.end()
      throw err
    }
    return db
  }

  async query<R extends object>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    const res = await this.#pool.query<R>(sql, params as unknown[] | undefined)
    return { rows: res.rows, rowCount: res.rowCount ?? 0 }
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect()
    let broken = false
    try {
      return await inTransaction(client, fn)
    } catch (err) {
      broken = err instanceof BrokenConnection
      throw broken ? (err as BrokenConnection).original : err
    } finally {
      client.release(broken)
    }
  }

  async withMigrationLock<T>(
    fn: (conn: Tx & { transaction<U>(fn: (tx: Tx) => Promise<U>): Promise<U> }) => Promise<T>,
  ): Promise<T> {
    const client = await this.#pool.connect()
    let broken = false
    try {
      // Session-level: held across the per-migration transactions, released with the connection if we die.
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
      try {
        return await fn({ ...txOf(client), transaction: (f) => inTransaction(client, f) })
      } finally {
        // If this fails the connection is destroyed below, which releases the lock as well.
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => (broken = true))
      }
    } catch (err) {
      // Whatever failed, this session may still hold the lock or a transaction: never reuse it.
      broken = true
      throw err instanceof BrokenConnection ? err.original : err
    } finally {
      client.release(broken)
    }
  }

  channel(name: string): string {
    return `predmkt_${name}_${this.#channelSuffix}`
  }

  async listen(
    channel: string,
    onPayload: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>> {
    const listener = new ChannelListener(this.#clientConfig(1), channel, onPayload, onReconnect, this.#log)
    await listener.start()
    this.#listeners.push(listener)
    return () => listener.stop()
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await Promise.all(this.#listeners.map((l) => l.stop()))
    await this.#pool.end()
  }

  #clientConfig(max: number): pg.PoolConfig {
    const o = this.#options
    return {
      connectionString: o.url,
      max,
      connectionTimeoutMillis: o.connectTimeoutMs ?? 5_000,
      statement_timeout: o.statementTimeoutMs ?? 10_000,
      ...(o.schema === undefined ? {} : { options: `-c search_path=${o.schema}` }),
    }
  }
}

/** A ROLLBACK that failed: the connection is in an unknown state and must be destroyed, not pooled. */
class BrokenConnection extends Error {
  constructor(readonly original: unknown) {
    super('connection broken during a transaction')
  }
}

async function inTransaction<T>(client: pg.PoolClient, fn: (tx: Tx) => Promise<T>): Promise<T> {
  await client.query('BEGIN')
  try {
    const result = await fn(txOf(client))
    await client.query('COMMIT')
    return result
  } catch (err) {
    try {
      await client.query('ROLLBACK')
    } catch {
      throw new BrokenConnection(err)
    }
    throw err
  }
}

function txOf(client: pg.PoolClient): Tx {
  return {
    async query<R extends object>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      const res = await client.query<R>(sql, params as unknown[] | undefined)
      return { rows: res.rows, rowCount: res.rowCount ?? 0 }
    },
    async exec(script: string): Promise<void> {
      // No parameters: the simple query protocol, which accepts several statements.
      await client.query(script)
    },
  }
}

/**
 * One dedicated connection per channel (LISTEN needs a session that stays open, outside the pool). When the
 * connection drops it reconnects every second and calls `onReconnect`, because NOTIFYs sent in between are lost.
 */
class ChannelListener {
  #client: pg.Client | undefined
  #stopped = false
  #retry: ReturnType<typeof setTimeout> | undefined

  constructor(
    readonly config: pg.ClientConfig,
    readonly channel: string,
    readonly onPayload: (payload: string) => void,
    readonly onReconnect: (() => void) | undefined,
    readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client(this.config)
    client.on('notification', (msg) => {
      if (msg.channel === this.channel && msg.payload !== undefined) this.onPayload(msg.payload)
    })
    client.on('error', (err) => {
      this.log.warn({ err, channel: this.channel }, 'postgres: listening connection lost; reconnecting')
      this.#drop(client)
    })
    client.on('end', () => this.#drop(client))
    await client.connect()
    await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`)
    this.#client = client
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#retry)
    const client = this.#client
    this.#client = undefined
    if (client !== undefined) await client.end().catch(() => undefined)
  }

  #drop(client: pg.Client): void {
    if (this.#client !== client) return
    this.#client = undefined
    client.end().catch(() => undefined)
    this.#scheduleReconnect()
  }

  #scheduleReconnect(): void {
    if (this.#stopped || this.#retry !== undefined) return
    this.#retry = setTimeout(() => {
      this.#retry = undefined
      if (this.#stopped) return
      this.start().then(
        () => this.onReconnect?.(),
        (err: unknown) => {
          this.log.warn({ err, channel: this.channel }, 'postgres: cannot listen yet; retrying')
          this.#scheduleReconnect()
        },
      )
    }, LISTEN_RETRY_MS)
    this.#retry.unref()
  }
}

/** The connection string without its password, for logs. */
function redact(url: string): string {
  try {
    const u = new URL(url)
    if (u.password !== '') u.password = '***'
    return u.toString()
  } catch {
    return 'postgres (unparsable URL)'
  }
}
