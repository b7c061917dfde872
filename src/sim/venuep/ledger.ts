import type { VpMarket } from './types.js'

/**
 * venuep wallet activity and the ledger that gives each wallet's known realized PnL.
 *
 * Accounting (the method the service's /wallet/{addr}/pnl must reproduce from the Data API):
 * - average cost per token; a BUY adds shares at its price, a SELL realizes (price − average cost) × size;
 * - a SPLIT of X USDC creates X shares of each token at 0.5 each (the activity row has no price);
 * - a MERGE of X returns X USDC for X shares of each token: realizes X − (cost of those shares);
 * - a REDEEM pays `usdcSize` for every share of the market held: realizes usdcSize − remaining cost, and
 *   closes both tokens.
 */
export type VpActivityType = 'TRADE' | 'SPLIT' | 'MERGE' | 'REDEEM'

export interface VpActivity {
  /** Milliseconds (the Data API reports seconds). */
  readonly ts: number
  readonly wallet: string
  readonly type: VpActivityType
  readonly market: VpMarket
  /** TRADE: shares; SPLIT/MERGE: shares of each token (= USDC); REDEEM: shares redeemed across both tokens. */
  readonly size: number
  readonly usdcSize: number
  readonly price: number | undefined
  readonly side: 'BUY' | 'SELL' | undefined
  readonly tokenIndex: 0 | 1 | undefined
  readonly txHash: string
}

export interface TokenPosition {
  shares: number
  cost: number
  realized: number
  /** Shares ever bought (BUY and SPLIT), for the Data API's totalBought. */
  totalBought: number
  lastTs: number
}

export interface WalletBook {
  /** tokenId → position. */
  readonly tokens: Map<string, TokenPosition>
  realized: number
  /** conditionId → realized PnL. */
  readonly realizedByMarket: Map<string, number>
  /** Cumulative realized PnL after each activity that changed it: [ms, total]. */
  readonly realizedSeries: [number, number][]
}

const EPSILON_SHARES = 1e-9

export class Ledger {
  readonly wallets = new Map<string, WalletBook>()
  /**
   * tokenId → shares every wallet holds together, kept as activities apply: what open interest is made of, read
   * per market by each catalog page instead of summing every wallet's positions again.
   */
  readonly outstanding = new Map<string, number>()

  book(wallet: string): WalletBook {
    let b = this.wallets.get(wallet)
    if (b === undefined) {
      b = { tokens: new Map(), realized: 0, realizedByMarket: new Map(), realizedSeries: [] }
      this.wallets.set(wallet, b)
    }
    return b
  }

  position(wallet: string, tokenId: string): TokenPosition | undefined {
    return this.wallets.get(wallet)?.tokens.get(tokenId)
  }

  sharesOf(wallet: string, tokenId: string): number {
    return this.position(wallet, tokenId)?.shares ?? 0
  }

  /** Applies one activity; throws if it would sell or merge shares the wallet does not hold. */
  apply(a: VpActivity): void {
    const b = this.book(a.wallet)
    const [t0, t1] = a.market.tokenIds
    const before0 = b.tokens.get(t0)?.shares ?? 0
    const before1 = b.tokens.get(t1)?.shares ?? 0
    try {
      this.#apply(a, b, t0, t1)
    } finally {
      // Whatever the activity changed before it threw (a MERGE short of its second token) is counted too.
      this.#outstandingMoved(t0, (b.tokens.get(t0)?.shares ?? 0) - before0)
      this.#outstandingMoved(t1, (b.tokens.get(t1)?.shares ?? 0) - before1)
    }
  }

  #outstandingMoved(tokenId: string, delta: number): void {
    if (delta === 0) return
    const total = (this.outstanding.get(tokenId) ?? 0) + delta
    if (total > EPSILON_SHARES) this.outstanding.set(tokenId, total)
    else this.outstanding.delete(tokenId)
  }

  #apply(a: VpActivity, b: WalletBook, t0: string, t1: string): void {
    let realized = 0
    switch (a.type) {
      case 'TRADE': {
        const tokenId = a.market.tokenIds[a.tokenIndex ?? 0]
        const pos = this.#pos(b, tokenId)
        const price = a.price ?? 0
        if (a.side === 'BUY') {
          pos.shares += a.size
          pos.cost += a.size * price
          pos.totalBought += a.size
        } else {
          realized += this.#reduce(pos, a.size, price, a)
        }
        pos.lastTs = a.ts
        break
      }
      case 'SPLIT':
        for (const tokenId of [t0, t1]) {
          const pos = this.#pos(b, tokenId)
          pos.shares += a.size
          pos.cost += a.size * 0.5
          pos.totalBought += a.size
          pos.lastTs = a.ts
        }
        break
      case 'MERGE':
        for (const tokenId of [t0, t1]) realized += this.#reduce(this.#pos(b, tokenId), a.size, 0.5, a)
        break
      case 'REDEEM': {
        let cost = 0
        for (const tokenId of [t0, t1]) {
          const pos = this.#pos(b, tokenId)
          cost += pos.cost
          pos.shares = 0
          pos.cost = 0
          pos.lastTs = a.ts
        }
        realized += a.usdcSize - cost
        break
      }
    }
    if (realized !== 0) {
      b.realized += realized
      b.realizedByMarket.set(a.market.conditionId, (b.realizedByMarket.get(a.market.conditionId) ?? 0) + realized)
      b.realizedSeries.push([a.ts, b.realized])
    }
  }

  #pos(b: WalletBook, tokenId: string): TokenPosition {
    let pos = b.tokens.get(tokenId)
    if (pos === undefined) {
      pos = { shares: 0, cost: 0, realized: 0, totalBought: 0, lastTs: 0 }
      b.tokens.set(tokenId, pos)
    }
    return pos
  }

  #reduce(pos: TokenPosition, size: number, price: number, a: VpActivity): number {
    if (size > pos.shares + EPSILON_SHARES) {
      throw new Error(`${a.wallet} cannot ${a.type} ${size} shares of ${a.market.slug}: holds ${pos.shares}`)
    }
    const avg = pos.shares > 0 ? pos.cost / pos.shares : 0
    const realized = (price - avg) * size
    pos.cost -= avg * size
    pos.shares -= size
    if (pos.shares < EPSILON_SHARES) {
      pos.shares = 0
      pos.cost = 0
    }
    pos.realized += realized
    pos.lastTs = a.ts
    return realized
  }
}
