import { venueFair, type DislocationLog } from '../world/fair.js'
import type { VpActivity } from './ledger.js'
import { Rng } from '../world/random.js'
import type { VpMarket, VpWallet } from './types.js'

/**
 * Simulated venuep wallets and their historical activity: buys, sells, splits, merges and redeems on real
 * (simulated) markets at prices taken from each market's own price path, so positions, activity, trades
 * and realized PnL all agree.
 */
const ADJECTIVES = [
  'Bright',
  'Quiet',
  'Grim',
  'Swift',
  'Amber',
  'Hollow',
  'Lucky',
  'Frosty',
  'Velvet',
  'Rusty',
  'Noble',
  'Silent',
]
const NOUNS = [
  'Sandal',
  'Lamp',
  'Harbor',
  'Falcon',
  'Ledger',
  'Comet',
  'Thistle',
  'Anchor',
  'Pebble',
  'Lantern',
  'Otter',
  'Quill',
]

export function generateWallets(rng: Rng, count: number, anchorMs: number): VpWallet[] {
  const wallets: VpWallet[] = []
  for (let i = 0; i < count; i++) {
    const named = rng.chance(0.6)
    const pseudonym = `${rng.pick(ADJECTIVES)}-${rng.pick(NOUNS)}`
    wallets.push({
      address: `0x${rng.hex(40)}`,
      name: named ? `${pseudonym.split('-')[0]!.toLowerCase()}trader${rng.int(1, 999)}` : '',
      pseudonym,
      bio: named && rng.chance(0.5) ? 'Simulated trader (venue simulator).' : '',
      profileImage: '',
      xUsername: named && rng.chance(0.3) ? `sim_${pseudonym.toLowerCase().replace('-', '_')}` : undefined,
      verifiedBadge: rng.chance(0.05),
      createdAt: anchorMs - rng.int(30, 900) * 86_400_000,
      userId: String(rng.int(1_000_000, 9_999_999)),
    })
  }
  return wallets
}

const HOUR = 3_600_000
const DAY = 86_400_000

export interface ActivityContext {
  readonly anchorMs: number
  readonly dislocations: DislocationLog
}

/** Price a taker pays (BUY, at the ask) or receives (SELL, at the bid) for `tokenIndex` at time t. */
export function takerPrice(
  m: VpMarket,
  tokenIndex: 0 | 1,
  side: 'BUY' | 'SELL',
  t: number,
  ctx: ActivityContext,
): number {
  const q = m.canonical
  const yes = venueFair(q, m.contract.index, 'venuep', t, ctx.dislocations)
  const fair = tokenIndex === 0 ? yes : 1 - yes
  const raw = side === 'BUY' ? fair + m.contract.halfSpread : fair - m.contract.halfSpread
  const ticks = side === 'BUY' ? Math.ceil(raw / m.tickSize - 1e-9) : Math.floor(raw / m.tickSize + 1e-9)
  const price = Math.min(1 - m.tickSize, Math.max(m.tickSize, ticks * m.tickSize))
  return Number(price.toFixed(4))
}

function shares(rng: Rng, median: number): number {
  return Math.max(1, Math.round(rng.logNormal(median, 0.9) * 100) / 100)
}

function txHash(rng: Rng): string {
  return `0x${rng.hex(64)}`
}

/**
 * One wallet's history on one market, in time order. Returns rows that never sell or merge more than the
 * wallet holds at that moment (the ledger enforces it).
 */
export function episode(rng: Rng, wallet: string, m: VpMarket, ctx: ActivityContext): VpActivity[] {
  const q = m.canonical
  const tEnd = Math.min(ctx.anchorMs - 60_000, q.lifecycle === 'active' ? ctx.anchorMs : q.endTime)
  const tStart = Math.max(m.event.createdAt, tEnd - 30 * DAY)
  if (tEnd - tStart < HOUR) return []
  const rows: VpActivity[] = []
  const held: [number, number] = [0, 0]
  let t = tStart + rng.next() * (tEnd - tStart) * 0.6
  const step = () => (t = Math.min(tEnd, t + rng.next() * (tEnd - t) * 0.5 + 60_000))

  const trade = (tokenIndex: 0 | 1, side: 'BUY' | 'SELL', size: number) => {
    const price = takerPrice(m, tokenIndex, side, t, ctx)
    held[tokenIndex] += side === 'BUY' ? size : -size
    rows.push({
      ts: Math.floor(t),
      wallet,
      type: 'TRADE',
      market: m,
      size,
      usdcSize: round2(size * price),
      price,
      side,
      tokenIndex,
      txHash: txHash(rng),
    })
  }

  if (rng.chance(0.15)) {
    const x = shares(rng, 150)
    held[0] += x
    held[1] += x
    rows.push({
      ts: Math.floor(t),
      wallet,
      type: 'SPLIT',
      market: m,
      size: x,
      usdcSize: x,
      price: undefined,
      side: undefined,
      tokenIndex: undefined,
      txHash: txHash(rng),
    })
    step()
    const drop: 0 | 1 = rng.chance(0.5) ? 0 : 1
    trade(drop, 'SELL', round2(x * (0.4 + rng.next() * 0.6)))
  } else {
    const tokenIndex: 0 | 1 = rng.chance(0.6) ? 0 : 1
    trade(tokenIndex, 'BUY', shares(rng, 120))
    if (rng.chance(0.4)) {
      step()
      trade(tokenIndex, 'BUY', shares(rng, 80))
    }
  }
  if (rng.chance(0.5)) {
    const idx: 0 | 1 = held[0] >= held[1] ? 0 : 1
    if (held[idx] > 0.01) {
      step()
      trade(idx, 'SELL', round2(Math.min(held[idx], held[idx] * (0.3 + rng.next() * 0.8))))
    }
  }
  if (held[0] > 0.01 && held[1] > 0.01 && rng.chance(0.5)) {
    step()
    const x = round2(Math.min(held[0], held[1]) * (0.5 + rng.next() * 0.5))
    if (x > 0) {
      held[0] -= x
      held[1] -= x
      rows.push({
        ts: Math.floor(t),
        wallet,
        type: 'MERGE',
        market: m,
        size: x,
        usdcSize: x,
        price: undefined,
        side: undefined,
        tokenIndex: undefined,
        txHash: txHash(rng),
      })
    }
  }
  if (q.resolvedAt !== undefined && held[0] + held[1] > 0.01 && rng.chance(0.85)) {
    const redeemAt = q.resolvedAt + HOUR + rng.next() * 4 * DAY
    if (redeemAt < ctx.anchorMs - 60_000) {
      const winner: 0 | 1 = m.contract.won === true ? 0 : 1
      rows.push({
        ts: Math.floor(redeemAt),
        wallet,
        type: 'REDEEM',
        market: m,
        size: round2(held[0] + held[1]),
        usdcSize: round2(held[winner]),
        price: undefined,
        side: undefined,
        tokenIndex: undefined,
        txHash: txHash(rng),
      })
    }
  }
  return rows
}

function round2(x: number): number {
  return Math.round(x * 100) / 100
}
