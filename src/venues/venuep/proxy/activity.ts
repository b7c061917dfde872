import { directory, notFound, upstreamCall, type ProxyContext } from './context.js'
import { keysetPage } from './keyset.js'
import type { MarketDirectory } from './markets.js'
import { anchorOf, cursorOf, pageTtlMs, type CursorScope } from './paging.js'
import { fetchProfile } from './profile.js'
import { TTL } from './ttl.js'
import { parseActivity, type ActivityRow } from './wire.js'

/**
 * `GET /activity`: a wallet's activity (trades, splits, merges, redeems, and whatever else the venue reports)
 * from the Data API `/activity`, newest first, with the same keyset cursors as the trade history. A wallet the
 * venue knows nothing about (no activity and no public profile) is a 404; a known wallet with nothing in the
 * requested market is an empty page.
 */
export interface ActivityQuery {
  readonly wallet_address: string
  readonly market?: string | undefined
  readonly limit: number
  readonly cursor?: string | undefined
}

export interface ActivityRecord {
  readonly type: string
  readonly timestamp: number
  readonly transaction_hash: string | null
  readonly condition_id: string
  readonly market_slug: string | null
  readonly event_slug: string | null
  readonly title: string | null
  readonly token_id: string | null
  readonly outcome: string | null
  readonly outcome_index: number | null
  readonly side: 'BUY' | 'SELL' | null
  readonly price: number | null
  readonly size: number
  readonly usdc_size: number
}

export interface ActivityPage {
  readonly wallet_address: string
  readonly market: string | null
  readonly data: ActivityRecord[]
  readonly count: number
  readonly limit: number
  readonly next_cursor: string | null
}

/** The venue's `/activity` page cap (venuep.md §4). */
export const ACTIVITY_MAX = 500

export async function walletActivity(ctx: ProxyContext, q: ActivityQuery): Promise<ActivityPage> {
  const dir = directory(ctx)
  const wallet = q.wallet_address.toLowerCase()
  const market = q.market?.toLowerCase()
  const scope: CursorScope = { kind: 'activity', filters: [wallet, market ?? ''] }
  const anchor = anchorOf(q.cursor, scope)
  const page = await keysetPage<ActivityRow>(
    (bound, offset, limit) =>
      upstreamCall(
        'data',
        ctx.upstreams.data.get({
          path: '/activity',
          query: {
            user: wallet,
            market,
            limit,
            offset: offset > 0 ? offset : undefined,
            end: bound,
            sortBy: 'TIMESTAMP',
            sortDirection: 'DESC',
          },
          parse: parseActivity,
          ttlMs: () => pageTtlMs(bound, ctx.clock.now(), TTL.activityHeadMs),
          sizeOf: (rows) => 256 + rows.length * 500,
        }),
      ),
    anchor,
    q.limit,
    ACTIVITY_MAX,
  )
  if (
    page.rows.length === 0 &&
    anchor === undefined &&
    market === undefined &&
    (await fetchProfile(ctx, wallet)) === null
  ) {
    throw notFound(`unknown wallet ${wallet}: the venue has no activity and no profile for it`)
  }
  const data = page.rows.map((r) => activityRecord(r, dir))
  return {
    wallet_address: wallet,
    market: market ?? null,
    data,
    count: data.length,
    limit: q.limit,
    next_cursor: cursorOf(page.next, scope),
  }
}

export function activityRecord(r: ActivityRow, dir: MarketDirectory): ActivityRecord {
  const m = dir.condition(r.conditionId)
  return {
    type: r.type,
    timestamp: r.ts,
    transaction_hash: r.txHash ?? null,
    condition_id: r.conditionId,
    market_slug: r.slug ?? m?.slug ?? null,
    event_slug: r.eventSlug ?? m?.eventSlug ?? null,
    title: r.title ?? null,
    token_id: r.tokenId ?? null,
    outcome: r.outcome ?? null,
    outcome_index: r.outcomeIndex ?? null,
    side: r.side ?? null,
    price: r.price ?? null,
    size: r.size,
    usdc_size: r.usdcSize,
  }
}
