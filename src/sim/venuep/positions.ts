import type { World } from '../world/world.js'
import type { TokenPosition, VpActivity } from './ledger.js'
import type { VpMarket } from './types.js'
import { tradedPrice, type TokenIndex } from './book-view.js'
import { dateOnly, num, seconds } from './format.js'
import { venuepOf } from './state.js'

/**
 * Data API positions (venuep.md §4) from the world's ledger, with the ledger's accounting (average cost;
 * SPLIT buys both tokens at 0.5, MERGE sells both at 0.5, REDEEM pays the winner 1 and the loser 0).
 *
 * Open positions read `venuepOf(world).ledger` directly. Closed positions need per-token realized PnL including
 * redemptions, which the ledger only keeps per market, so they replay the wallet's activity with the same
 * rules; per token they sum to the ledger's per-market figures.
 */
const EPSILON_SHARES = 1e-9

export interface OpenPosition {
  readonly market: VpMarket
  readonly index: TokenIndex
  readonly pos: TokenPosition
  readonly json: Record<string, unknown>
}

export function openPositions(world: World, wallet: string, now: number): OpenPosition[] {
  const book = venuepOf(world).ledger.wallets.get(wallet)
  if (book === undefined) return []
  const out: OpenPosition[] = []
  for (const [tokenId, pos] of book.tokens) {
    if (pos.shares <= 0) continue
    const ref = venuepOf(world).tokens.get(tokenId)
    if (ref === undefined) continue
    const { market: m, index } = ref
    const other = m.tokenIds[1 - index] as string
    const curPrice = tradedPrice(world, m, index, now)
    const avgPrice = pos.cost / pos.shares
    const currentValue = pos.shares * curPrice
    const cashPnl = currentValue - pos.cost
    const sold = Math.max(0, pos.totalBought - pos.shares)
    const resolved = m.canonical.lifecycle === 'resolved'
    out.push({
      market: m,
      index,
      pos,
      json: {
        proxyWallet: wallet,
        asset: tokenId,
        conditionId: m.conditionId,
        size: num(pos.shares),
        avgPrice: num(avgPrice),
        initialValue: num(pos.cost),
        currentValue: num(currentValue),
        cashPnl: num(cashPnl),
        percentPnl: pos.cost > 0 ? num((cashPnl / pos.cost) * 100, 4) : 0,
        totalBought: num(pos.totalBought),
        realizedPnl: num(pos.realized),
        // Realized PnL over the cost basis of the shares sold so far, in percent (0 before any sale).
        percentRealizedPnl: sold > 0 && avgPrice > 0 ? num((pos.realized / (avgPrice * sold)) * 100, 4) : 0,
        curPrice: num(curPrice),
        redeemable: resolved,
        mergeable: (book.tokens.get(other)?.shares ?? 0) > 0,
        ...marketFields(m, index),
        eventId: m.event.id,
        endDate: endDateOf(m),
        negativeRisk: m.event.negRisk,
      },
    })
  }
  return out
}

interface Replayed {
  shares: number
  cost: number
  realized: number
  totalBought: number
  boughtCost: number
  lastTs: number
}

/** Per-token replay of one wallet's activity (ascending by time) with the ledger's rules. */
export function replayWallet(activity: readonly VpActivity[]): Map<string, Replayed> {
  const tokens = new Map<string, Replayed>()
  const pos = (tokenId: string): Replayed => {
    let p = tokens.get(tokenId)
    if (p === undefined)
      tokens.set(tokenId, (p = { shares: 0, cost: 0, realized: 0, totalBought: 0, boughtCost: 0, lastTs: 0 }))
    return p
  }
  const buy = (p: Replayed, size: number, price: number, ts: number) => {
    p.shares += size
    p.cost += size * price
    p.totalBought += size
    p.boughtCost += size * price
    p.lastTs = ts
  }
  const reduce = (p: Replayed, size: number, price: number, ts: number) => {
    const avg = p.shares > 0 ? p.cost / p.shares : 0
    p.realized += (price - avg) * size
    p.cost -= avg * size
    p.shares -= size
    if (p.shares < EPSILON_SHARES) p.shares = p.cost = 0
    p.lastTs = ts
  }
  for (const a of activity) {
    const [t0, t1] = a.market.tokenIds
    switch (a.type) {
      case 'TRADE': {
        const p = pos(a.market.tokenIds[a.tokenIndex ?? 0])
        if (a.side === 'BUY') buy(p, a.size, a.price ?? 0, a.ts)
        else reduce(p, a.size, a.price ?? 0, a.ts)
        break
      }
      case 'SPLIT':
        for (const id of [t0, t1]) buy(pos(id), a.size, 0.5, a.ts)
        break
      case 'MERGE':
        for (const id of [t0, t1]) reduce(pos(id), a.size, 0.5, a.ts)
        break
      case 'REDEEM': {
        // The payout (usdcSize) belongs to the winning token; the losing token realizes its whole cost.
        const winner = a.market.contract.won === true ? t0 : t1
        for (const id of [t0, t1]) {
          const p = pos(id)
          p.realized += (id === winner ? a.usdcSize : 0) - p.cost
          p.shares = p.cost = 0
          p.lastTs = a.ts
        }
        break
      }
    }
  }
  return tokens
}

export interface ClosedPosition {
  readonly market: VpMarket
  readonly realized: number
  readonly avgPrice: number
  readonly curPrice: number
  readonly lastTs: number
  readonly json: Record<string, unknown>
}

export function closedPositions(world: World, wallet: string, now: number): ClosedPosition[] {
  const out: ClosedPosition[] = []
  for (const [tokenId, p] of replayWallet(venuepOf(world).activity.activityOf(wallet))) {
    if (p.shares > 0 || p.totalBought <= 0) continue
    const ref = venuepOf(world).tokens.get(tokenId)
    if (ref === undefined) continue
    const { market: m, index } = ref
    const avgPrice = p.boughtCost / p.totalBought
    const curPrice = tradedPrice(world, m, index, now)
    out.push({
      market: m,
      realized: p.realized,
      avgPrice,
      curPrice,
      lastTs: p.lastTs,
      json: {
        proxyWallet: wallet,
        asset: tokenId,
        conditionId: m.conditionId,
        avgPrice: num(avgPrice),
        totalBought: num(p.totalBought),
        realizedPnl: num(p.realized),
        curPrice: num(curPrice),
        timestamp: seconds(p.lastTs),
        ...marketFields(m, index),
        endDate: endDateOf(m),
      },
    })
  }
  return out
}

/** The descriptive fields every Data API row repeats for its market and outcome. */
export function marketFields(m: VpMarket, index: TokenIndex): Record<string, unknown> {
  const other = (1 - index) as TokenIndex
  return {
    title: m.question,
    slug: m.slug,
    icon: m.event.image,
    eventSlug: m.event.slug,
    outcome: m.outcomes[index],
    outcomeIndex: index,
    oppositeOutcome: m.outcomes[other],
    oppositeAsset: m.tokenIds[other],
  }
}

/** The event's end as a date; a replayed event captured without any end date has none (the field is omitted). */
function endDateOf(m: VpMarket): string | undefined {
  const end = m.endDate ?? m.event.endDate
  return Number.isFinite(end) ? dateOnly(end) : undefined
}
