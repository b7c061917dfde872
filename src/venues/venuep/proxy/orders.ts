import { conditionOrNotFound, directory, marketsOfSlug, upstreamCall, type ProxyContext } from './context.js'
import { round6 } from './format.js'
import { keysetPage } from './keyset.js'
import type { BinaryMarket } from './markets.js'
import { anchorOf, cursorOf, pageTtlMs, type CursorScope } from './paging.js'
import { TTL } from './ttl.js'
import { parseTrades, type TradeRow } from './wire.js'

/**
 * `GET /orders`: a market's trade history (taker prints) from the Data API `/trades`, newest first, paged
 * with opaque keyset cursors (keyset.ts) so that pages stay stable while new trades arrive and paging is not
 * bounded by the venue's offset cap. A market (or event) slug with several binary markets lists the trades of
 * all of them, merged by time in one venue call per page (`/trades` takes `market` as a comma-separated list of
 * condition ids, venuep.md §4); `resolved_from` echoes a slug that named an event, group or alias.
 */
export interface OrdersQuery {
  readonly market_slug?: string | undefined
  readonly condition_id?: string | undefined
  readonly limit: number
  readonly cursor?: string | undefined
}

export interface OrderRecord {
  readonly transaction_hash: string | null
  readonly timestamp: number
  readonly side: 'BUY' | 'SELL'
  readonly price: number
  readonly size: number
  readonly usdc_size: number
  readonly token_id: string
  readonly outcome: string | null
  readonly outcome_index: number | null
  readonly condition_id: string
  readonly market_slug: string | null
  readonly title: string | null
  readonly wallet_address: string | null
  readonly pseudonym: string | null
  readonly name: string | null
}

export interface OrdersRecord {
  readonly market_slug: string
  readonly resolved_from: string | null
  readonly condition_ids: string[]
  readonly data: OrderRecord[]
  readonly count: number
  readonly limit: number
  readonly next_cursor: string | null
}

/** The venue's `/trades` page cap (venuep.md §4). */
const TRADES_MAX = 10_000

export async function marketOrders(ctx: ProxyContext, q: OrdersQuery): Promise<OrdersRecord> {
  const dir = directory(ctx)
  const markets: readonly BinaryMarket[] =
    q.condition_id !== undefined
      ? [conditionOrNotFound(dir, q.condition_id)]
      : marketsOfSlug(ctx, dir, q.market_slug as string)
  const conditionIds = [...new Set(markets.map((m) => m.conditionId))].sort()
  const scope: CursorScope = { kind: 'orders', filters: conditionIds }
  const anchor = anchorOf(q.cursor, scope)
  const market = conditionIds.join(',')
  const page = await keysetPage<TradeRow>(
    (bound, offset, limit) =>
      upstreamCall(
        'data',
        ctx.upstreams.data.get({
          path: '/trades',
          query: { market, limit, offset: offset > 0 ? offset : undefined, end: bound },
          parse: parseTrades,
          ttlMs: () => pageTtlMs(bound, ctx.clock.now(), TTL.tradesHeadMs),
          sizeOf: (rows) => 256 + rows.length * 600,
        }),
      ),
    anchor,
    q.limit,
    TRADES_MAX,
  )
  const data = page.rows.map((r) => orderRecord(r, dir.condition(r.conditionId)))
  const first = markets[0] as BinaryMarket
  const marketSlug = markets.length === 1 ? first.slug : first.marketSlug
  return {
    market_slug: marketSlug,
    resolved_from: q.condition_id !== undefined || q.market_slug === first.slug ? null : (q.market_slug as string),
    condition_ids: conditionIds,
    data,
    count: data.length,
    limit: q.limit,
    next_cursor: cursorOf(page.next, scope),
  }
}

function orderRecord(r: TradeRow, m: BinaryMarket | undefined): OrderRecord {
  return {
    transaction_hash: r.txHash ?? null,
    timestamp: r.ts,
    side: r.side,
    price: r.price,
    size: r.size,
    usdc_size: round6(r.size * r.price),
    token_id: r.tokenId,
    outcome: r.outcome ?? null,
    outcome_index:
      r.outcomeIndex ??
      (m === undefined ? null : m.tokens.indexOf(r.tokenId) >= 0 ? m.tokens.indexOf(r.tokenId) : null),
    condition_id: r.conditionId,
    market_slug: r.slug ?? m?.slug ?? null,
    title: r.title ?? null,
    wallet_address: r.wallet === '' ? null : r.wallet,
    pseudonym: r.pseudonym ?? null,
    name: r.name ?? null,
  }
}
