import { money } from '../../../core/money.js'
import { isoNoZone } from '../../../core/time.js'
import { directory, notFound, type ProxyContext } from './context.js'
import { isoOfSeconds, round6 } from './format.js'
import type { MarketDirectory } from './markets.js'
import { realizedPnl, type MarketPnl } from './pnl.js'
import { fetchProfile, fetchValue } from './profile.js'
import type { WalletActivity, WalletHistory } from './wallet-history.js'
import type { ProfileWire } from './wire.js'

/**
 * `GET /wallet/{address}` and `GET /wallet/{address}/pnl`: the venue's public profile and portfolio value,
 * plus figures computed from the wallet's complete activity (wallet-history.ts): volume, trade count, markets
 * traded, first and last activity, and realized PnL (pnl.ts). A wallet the venue knows nothing about (no
 * profile, no activity) is a 404.
 */
export interface WalletRecord {
  readonly wallet_address: string
  readonly name: string | null
  readonly pseudonym: string | null
  readonly bio: string | null
  readonly profile_image: string | null
  readonly x_username: string | null
  readonly verified_badge: boolean | null
  readonly created_at: string | null
  readonly portfolio_value: number | null
  readonly volume: number
  readonly trades: number
  readonly markets_traded: number
  readonly activity_count: number
  readonly first_activity_at: string | null
  readonly last_activity_at: string | null
  readonly complete: boolean
  readonly as_of: string
}

export interface MarketPnlRecord {
  readonly condition_id: string
  readonly market_slug: string | null
  readonly event_slug: string | null
  readonly title: string | null
  readonly realized_pnl: number
  readonly trades: number
  readonly volume: number
  readonly last_activity_at: string | null
}

export interface PnlRecord {
  readonly wallet_address: string
  readonly method: 'average_cost'
  readonly currency: 'USDC'
  readonly realized_pnl: number
  readonly markets: MarketPnlRecord[]
  readonly series: { readonly t: number; readonly realized_pnl: number }[]
  readonly activity_count: number
  readonly skipped_rows: number
  readonly complete: boolean
  readonly as_of: string
}

export async function walletProfile(ctx: ProxyContext, history: WalletHistory, address: string): Promise<WalletRecord> {
  directory(ctx)
  const wallet = address.toLowerCase()
  const [profile, value, activity] = await Promise.all([
    fetchProfile(ctx, wallet),
    fetchValue(ctx, wallet),
    history.get(wallet),
  ])
  ensureKnown(wallet, profile, activity)
  let volume = 0
  let trades = 0
  const markets = new Set<string>()
  for (const r of activity.rows) {
    if (r.type !== 'TRADE') continue
    trades++
    volume += r.usdcSize
    markets.add(r.conditionId)
  }
  return {
    wallet_address: wallet,
    name: profile?.name ?? null,
    pseudonym: profile?.pseudonym ?? null,
    bio: profile?.bio ?? null,
    profile_image: profile?.profileImage ?? null,
    x_username: profile?.xUsername ?? null,
    verified_badge: profile?.verifiedBadge ?? null,
    created_at: profile?.createdAtMs === undefined ? null : isoNoZone(profile.createdAtMs),
    portfolio_value: value === null ? null : round6(value),
    volume: money(volume) as number,
    trades,
    markets_traded: markets.size,
    activity_count: activity.rows.length,
    first_activity_at: isoOfSeconds(activity.rows[0]?.ts),
    last_activity_at: isoOfSeconds(activity.rows.at(-1)?.ts),
    complete: activity.complete,
    as_of: isoNoZone(activity.fetchedAt),
  }
}

export async function walletPnl(ctx: ProxyContext, history: WalletHistory, address: string): Promise<PnlRecord> {
  const dir = directory(ctx)
  const wallet = address.toLowerCase()
  const activity = await history.get(wallet)
  if (activity.rows.length === 0) ensureKnown(wallet, await fetchProfile(ctx, wallet), activity)
  const pnl = realizedPnl(activity.rows, (tokenId) => dir.token(tokenId)?.index)
  const markets = [...pnl.markets.values()]
    .map((m) => marketRecord(m, dir))
    .sort(
      (a, b) =>
        b.realized_pnl - a.realized_pnl ||
        (a.condition_id < b.condition_id ? -1 : a.condition_id > b.condition_id ? 1 : 0),
    )
  return {
    wallet_address: wallet,
    method: 'average_cost',
    currency: 'USDC',
    realized_pnl: money(pnl.total) as number,
    markets,
    series: pnl.series.map(([t, v]) => ({ t, realized_pnl: money(v) as number })),
    activity_count: activity.rows.length,
    skipped_rows: pnl.skipped,
    complete: activity.complete,
    as_of: isoNoZone(activity.fetchedAt),
  }
}

function marketRecord(m: MarketPnl, dir: MarketDirectory): MarketPnlRecord {
  const known = dir.condition(m.conditionId)
  return {
    condition_id: m.conditionId,
    market_slug: m.slug ?? known?.slug ?? null,
    event_slug: m.eventSlug ?? known?.eventSlug ?? null,
    title: m.title ?? known?.title ?? null,
    realized_pnl: money(m.realized) as number,
    trades: m.trades,
    volume: money(m.volume) as number,
    last_activity_at: isoOfSeconds(m.lastTs),
  }
}

function ensureKnown(wallet: string, profile: ProfileWire | null, activity: WalletActivity): void {
  if (profile === null && activity.rows.length === 0)
    throw notFound(`unknown wallet ${wallet}: the venue has no activity and no profile for it`)
}
