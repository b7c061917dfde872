import { money } from '../../../core/money.js'
import { directory, notFound, upstreamCall, type ProxyContext } from './context.js'
import type { MarketDirectory } from './markets.js'
import { fetchProfile } from './profile.js'
import { TTL } from './ttl.js'
import { parseActivity, parsePositions, type PositionRow } from './wire.js'

/**
 * `GET /positions/wallet/{address}`: a wallet's open positions from the Data API `/positions`, largest current
 * value first, every position at or above `size_threshold` shares (the venue pages by 500 up to its offset
 * cap; past that the list is cut and `truncated` is true). Values are the venue's: `cash_pnl` is unrealized.
 */
export interface PositionRecord {
  readonly token_id: string
  readonly condition_id: string
  readonly market_slug: string | null
  readonly event_slug: string | null
  readonly title: string | null
  readonly outcome: string | null
  readonly outcome_index: number | null
  readonly opposite_outcome: string | null
  readonly opposite_token_id: string | null
  readonly size: number
  readonly avg_price: number | null
  readonly initial_value: number | null
  readonly current_value: number | null
  readonly cash_pnl: number | null
  readonly percent_pnl: number | null
  readonly total_bought: number | null
  readonly realized_pnl: number | null
  readonly cur_price: number | null
  readonly redeemable: boolean
  readonly mergeable: boolean
  readonly negative_risk: boolean | null
  readonly end_date: string | null
}

export interface PositionsRecord {
  readonly wallet_address: string
  readonly size_threshold: number
  readonly data: PositionRecord[]
  readonly count: number
  readonly total_value: number
  readonly truncated: boolean
}

const PAGE = 500
const MAX_OFFSET = 10_000

export async function walletPositions(
  ctx: ProxyContext,
  address: string,
  sizeThreshold: number,
): Promise<PositionsRecord> {
  const dir = directory(ctx)
  const wallet = address.toLowerCase()
  const rows: PositionRow[] = []
  const seen = new Set<string>()
  let truncated = false
  for (let offset = 0; ; offset += PAGE) {
    if (offset > MAX_OFFSET) {
      truncated = true
      break
    }
    const page = await upstreamCall(
      'data',
      ctx.upstreams.data.get({
        path: '/positions',
        query: {
          user: wallet,
          sizeThreshold,
          limit: PAGE,
          offset: offset > 0 ? offset : undefined,
          sortBy: 'CURRENT',
          sortDirection: 'DESC',
        },
        parse: parsePositions,
        ttlMs: () => TTL.positionsMs,
        sizeOf: (r) => 256 + r.length * 700,
      }),
    )
    // Values move between page reads, so a position can shift across a page boundary: keep the first sighting.
    for (const r of page) {
      if (seen.has(r.tokenId)) continue
      seen.add(r.tokenId)
      rows.push(r)
    }
    if (page.length < PAGE) break
  }
  if (rows.length === 0 && !(await known(ctx, wallet)))
    throw notFound(`unknown wallet ${wallet}: the venue has no activity and no profile for it`)
  const data = rows.map((r) => positionRecord(r, dir))
  const total = rows.reduce((s, r) => s + (r.currentValue ?? 0), 0)
  return {
    wallet_address: wallet,
    size_threshold: sizeThreshold,
    data,
    count: data.length,
    total_value: money(total) as number,
    truncated,
  }
}

/** Whether the venue knows the wallet: a public profile, or any activity. */
async function known(ctx: ProxyContext, wallet: string): Promise<boolean> {
  const [profile, activity] = await Promise.all([
    fetchProfile(ctx, wallet),
    upstreamCall(
      'data',
      ctx.upstreams.data.get({
        path: '/activity',
        query: { user: wallet, limit: 1 },
        parse: parseActivity,
        ttlMs: () => TTL.activityHeadMs,
      }),
    ),
  ])
  return profile !== null || activity.length > 0
}

function positionRecord(r: PositionRow, dir: MarketDirectory): PositionRecord {
  const m = dir.condition(r.conditionId)
  return {
    token_id: r.tokenId,
    condition_id: r.conditionId,
    market_slug: r.slug ?? m?.slug ?? null,
    event_slug: r.eventSlug ?? m?.eventSlug ?? null,
    title: r.title ?? null,
    outcome: r.outcome ?? null,
    outcome_index: r.outcomeIndex ?? dir.token(r.tokenId)?.index ?? null,
    opposite_outcome: r.oppositeOutcome ?? null,
    opposite_token_id: r.oppositeTokenId ?? null,
    size: r.size,
    avg_price: r.avgPrice ?? null,
    initial_value: r.initialValue ?? null,
    current_value: r.currentValue ?? null,
    cash_pnl: r.cashPnl ?? null,
    percent_pnl: r.percentPnl ?? null,
    total_bought: r.totalBought ?? null,
    realized_pnl: r.realizedPnl ?? null,
    cur_price: r.curPrice ?? null,
    redeemable: r.redeemable,
    mergeable: r.mergeable,
    negative_risk: r.negativeRisk ?? null,
    end_date: r.endDate ?? null,
  }
}
