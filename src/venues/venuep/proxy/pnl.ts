import type { ActivityRow } from './wire.js'

/**
 * Realized profit and loss of a wallet from its complete activity, at average cost per token, in USDC:
 *
 * - TRADE BUY of s shares at p: the token's shares += s, its cost += s·p.
 * - TRADE SELL of s shares at p: realizes (p − avg)·s, where avg = cost / shares; cost −= avg·s, shares −= s.
 * - SPLIT of x USDC: creates x shares of *each* token of the market at 0.5 each (cost += 0.5·x each).
 * - MERGE of x: returns x shares of each token for x USDC: each token sells x shares at 0.5 (as a SELL).
 * - REDEEM paying u USDC: closes both tokens of the market: realizes u − (remaining cost of both tokens).
 *
 * Rows are applied oldest first, in the venue's order within a second. A position that falls below 1e-9
 * shares is closed (shares and cost set to 0) so float dust never lingers as cost. Fees are not modelled
 * (the venue's activity rows carry none), nor are REWARD/CONVERSION/rebate rows (not trading PnL).
 *
 * This is the method of the venue simulator's ledger (src/sim/venuep/ledger.ts), so on simulated wallets the
 * result equals the known answer.
 */
export interface MarketPnl {
  readonly conditionId: string
  realized: number
  trades: number
  volume: number
  lastTs: number
  title: string | undefined
  slug: string | undefined
  eventSlug: string | undefined
}

export interface PnlResult {
  readonly total: number
  /** By condition id, in order of first activity. */
  readonly markets: ReadonlyMap<string, MarketPnl>
  /** Cumulative realized PnL after each second in which it changed: [unix seconds, total]. */
  readonly series: readonly (readonly [number, number])[]
  /** TRADE rows that name neither an outcome index nor a token of a known market (not accounted). */
  readonly skipped: number
}

interface Position {
  shares: number
  cost: number
}

const EPSILON_SHARES = 1e-9

/** `indexOfToken` maps a token id to its outcome index when a row does not carry one. */
export function realizedPnl(
  rows: readonly ActivityRow[],
  indexOfToken: (tokenId: string) => 0 | 1 | undefined,
): PnlResult {
  const positions = new Map<string, Position>()
  const markets = new Map<string, MarketPnl>()
  const series: [number, number][] = []
  let total = 0
  let skipped = 0

  const pos = (cid: string, index: 0 | 1): Position => {
    const key = `${cid}#${index}`
    let p = positions.get(key)
    if (p === undefined) positions.set(key, (p = { shares: 0, cost: 0 }))
    return p
  }
  const buy = (p: Position, size: number, price: number): void => {
    p.shares += size
    p.cost += size * price
  }
  const reduce = (p: Position, size: number, price: number): number => {
    const avg = p.shares > 0 ? p.cost / p.shares : 0
    p.cost -= avg * size
    p.shares -= size
    if (p.shares < EPSILON_SHARES) {
      p.shares = 0
      p.cost = 0
    }
    return (price - avg) * size
  }

  for (const r of rows) {
    let m = markets.get(r.conditionId)
    if (m === undefined) {
      m = {
        conditionId: r.conditionId,
        realized: 0,
        trades: 0,
        volume: 0,
        lastTs: r.ts,
        title: undefined,
        slug: undefined,
        eventSlug: undefined,
      }
      markets.set(r.conditionId, m)
    }
    m.lastTs = r.ts
    m.title ??= r.title
    m.slug ??= r.slug
    m.eventSlug ??= r.eventSlug
    let realized = 0
    switch (r.type) {
      case 'TRADE': {
        const index =
          r.outcomeIndex === 0 || r.outcomeIndex === 1
            ? r.outcomeIndex
            : r.tokenId === undefined
              ? undefined
              : indexOfToken(r.tokenId)
        if (index === undefined || r.price === undefined) {
          skipped++
          continue
        }
        m.trades++
        m.volume += r.usdcSize
        const p = pos(r.conditionId, index)
        if (r.side === 'BUY') buy(p, r.size, r.price)
        else realized += reduce(p, r.size, r.price)
        break
      }
      case 'SPLIT':
        buy(pos(r.conditionId, 0), r.size, 0.5)
        buy(pos(r.conditionId, 1), r.size, 0.5)
        break
      case 'MERGE':
        realized += reduce(pos(r.conditionId, 0), r.size, 0.5)
        realized += reduce(pos(r.conditionId, 1), r.size, 0.5)
        break
      case 'REDEEM': {
        const p0 = pos(r.conditionId, 0)
        const p1 = pos(r.conditionId, 1)
        realized += r.usdcSize - (p0.cost + p1.cost)
        p0.shares = p0.cost = 0
        p1.shares = p1.cost = 0
        break
      }
      default:
        continue
    }
    if (realized !== 0) {
      total += realized
      m.realized += realized
      const last = series.at(-1)
      if (last !== undefined && last[0] === r.ts) last[1] = total
      else series.push([r.ts, total])
    }
  }
  return { total, markets, series, skipped }
}
