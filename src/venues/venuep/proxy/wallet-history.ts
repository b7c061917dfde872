import { LRUCache } from 'lru-cache'
import { SingleFlight } from '../../upstream/single-flight.js'
import { ACTIVITY_MAX } from './activity.js'
import { upstreamCall, type ProxyContext } from './context.js'
import { keysetPage, type Anchor } from './keyset.js'
import { TTL } from './ttl.js'
import { parseActivity, type ActivityRow } from './wire.js'
import { pushAll } from '../../../core/arrays.js'

/**
 * A wallet's complete activity (TRADE, SPLIT, MERGE, REDEEM), oldest first, for realized PnL and the wallet
 * metrics. Walking a long history costs one venue call per 500 rows, so a wallet's history is kept and
 * refreshed incrementally: once it is older than TTL.walletHistoryMs, only the tail from OVERLAP_SEC before
 * its newest row is fetched again and replaces the old tail (which also picks up rows the venue indexed late
 * within that overlap). Identical concurrent refreshes share one walk.
 *
 * Never a hang: one walk stops after WALK_BUDGET_MS of wall time (the venue's latency is real time) and
 * answers with what it has, `complete: false`; the next request resumes where it stopped. A wallet with more
 * than MAX_ROWS rows is read up to MAX_ROWS (`complete: false` for good). MAX_ROWS_CACHED bounds the rows
 * kept across wallets.
 */
export interface WalletActivity {
  /** Oldest first, in the venue's order within a second. */
  readonly rows: readonly ActivityRow[]
  /** Clock time of the last refresh. */
  readonly fetchedAt: number
  /** False while the history is read only in part (a walk cut short, or past MAX_ROWS). */
  readonly complete: boolean
  /** Where an interrupted walk resumes. */
  readonly resume: Anchor | undefined
}

const TYPES = 'TRADE,SPLIT,MERGE,REDEEM'
const OVERLAP_SEC = 300
const MAX_ROWS = 100_000
const MAX_ROWS_CACHED = 300_000
const WALK_BUDGET_MS = 10_000

export interface WalletHistoryOptions {
  /** Rows per venue call (the venue's cap, 500, by default; tests shrink it to exercise long walks). */
  readonly pageSize?: number
  /** Wall time one walk may take before it answers with what it has. */
  readonly walkBudgetMs?: number
}

export class WalletHistory {
  readonly #ctx: ProxyContext
  readonly #pageSize: number
  readonly #budgetMs: number
  readonly #store = new LRUCache<string, WalletActivity>({
    max: 10_000,
    maxSize: MAX_ROWS_CACHED,
    sizeCalculation: (w) => Math.min(MAX_ROWS_CACHED, w.rows.length + 1),
  })
  readonly #flights = new SingleFlight()

  constructor(ctx: ProxyContext, options: WalletHistoryOptions = {}) {
    this.#ctx = ctx
    this.#pageSize = Math.min(ACTIVITY_MAX, options.pageSize ?? ACTIVITY_MAX)
    this.#budgetMs = options.walkBudgetMs ?? WALK_BUDGET_MS
  }

  get(wallet: string): Promise<WalletActivity> {
    const held = this.#store.get(wallet)
    if (held !== undefined && held.resume === undefined && this.#ctx.clock.now() - held.fetchedAt < TTL.walletHistoryMs)
      return Promise.resolve(held)
    return this.#flights.run(wallet, () => this.#refresh(wallet, held))
  }

  async #refresh(wallet: string, held: WalletActivity | undefined): Promise<WalletActivity> {
    const fetchedAt = this.#ctx.clock.now()
    const deadline = Date.now() + this.#budgetMs
    let rows: ActivityRow[]
    let anchor: Anchor | undefined
    const last = held?.rows.at(-1)
    if (held?.resume !== undefined) {
      rows = [...held.rows]
      anchor = held.resume
    } else if (held?.complete === true && last !== undefined) {
      const start = Math.max(0, last.ts - OVERLAP_SEC)
      rows = held.rows.filter((r) => r.ts < start)
      anchor = { ts: start, n: 0, seen: [] }
    } else {
      rows = []
      anchor = undefined
    }
    let complete = false
    let resume: Anchor | undefined
    for (;;) {
      const fetchRows = (bound: number | undefined, offset: number, limit: number) =>
        this.#fetch(wallet, bound, offset, limit)
      const page = await keysetPage<ActivityRow>(fetchRows, anchor, this.#pageSize, ACTIVITY_MAX)
      pushAll(rows, page.rows)
      if (page.next === undefined) {
        complete = true
        break
      }
      // No progress cannot happen with the venue's caps, but a loop must not depend on that.
      if (page.rows.length === 0 || rows.length >= MAX_ROWS) break
      if (Date.now() >= deadline) {
        resume = page.next
        break
      }
      anchor = page.next
    }
    const result: WalletActivity = { rows, fetchedAt, complete, resume }
    this.#store.set(wallet, result)
    return result
  }

  #fetch(wallet: string, bound: number | undefined, offset: number, limit: number): Promise<readonly ActivityRow[]> {
    return upstreamCall(
      'data',
      this.#ctx.upstreams.data.get({
        path: '/activity',
        query: {
          user: wallet,
          type: TYPES,
          limit,
          offset: offset > 0 ? offset : undefined,
          start: bound,
          sortBy: 'TIMESTAMP',
          sortDirection: 'ASC',
        },
        parse: parseActivity,
        // The walk is cached as a whole (above); its pages are not.
        ttlMs: () => 0,
      }),
    )
  }
}
