import type { Clock } from '../../core/clock.js'
import type { FaultPlan } from '../faults.js'
import { listParam, SimRouter } from '../http-router.js'
import type { World } from '../world/world.js'
import type { VpActivity } from './ledger.js'
import { num, seconds } from './format.js'
import { walletBio } from './gamma-shapes.js'
import {
  addressParam,
  bad,
  boolParam,
  enumParam,
  intInRange,
  marketScope,
  numParam,
  sortRows,
  timeWindow,
} from './data-params.js'
import { closedPositions, marketFields, openPositions } from './positions.js'
import { guard, ok } from './wire-error.js'
import { venuepOf } from './state.js'

const ACTIVITY_TYPES = ['TRADE', 'SPLIT', 'MERGE', 'REDEEM', 'REWARD', 'CONVERSION', 'MAKER_REBATE'] as const
const SIDES = ['BUY', 'SELL'] as const
const DIRECTIONS = ['ASC', 'DESC'] as const
const POSITION_SORTS = [
  'CURRENT',
  'INITIAL',
  'TOKENS',
  'CASHPNL',
  'PERCENTPNL',
  'TITLE',
  'RESOLVING',
  'PRICE',
  'AVGPRICE',
] as const
const CLOSED_SORTS = ['REALIZEDPNL', 'TITLE', 'PRICE', 'AVGPRICE', 'TIMESTAMP'] as const

/**
 * venuep's Data API host (venuep.md §4): trades, activity, positions, closed positions and portfolio value
 * as bare arrays of camelCase rows with JSON numbers and unix-second timestamps. Everything is derived from
 * the world's activity store and ledger, so the rows agree with the wallets' realized PnL.
 *
 * Every simulated trade is a taker print (the world does not model the maker leg), so `takerOnly=false`
 * returns the same rows as the default. Non-TRADE activity rows omit `price`, `asset`, `side`,
 * `outcomeIndex` and `outcome` (the docs allow "missing or empty").
 */
export function dataRouter(world: World, clock: Clock, faults: FaultPlan): SimRouter {
  const vp = venuepOf(world)
  const router = new SimRouter({ host: 'data', faults, errorBody: (_status, message) => ({ error: message }) })

  const profile = (wallet: string): Record<string, unknown> => {
    const w = vp.walletsByAddress.get(wallet)
    return {
      name: w?.name ?? '',
      pseudonym: w?.pseudonym ?? '',
      bio: w === undefined ? '' : walletBio(w),
      profileImage: w?.profileImage ?? '',
      profileImageOptimized: w?.profileImage ?? '',
    }
  }

  router.get('/', () => ok({ data: 'OK' }))

  router.get(
    '/trades',
    guard((req) => {
      const q = req.query
      const user = addressParam(q, 'user', false)
      const scope = marketScope(q)
      const limit = intInRange(q, 'limit', 100, 0, 10_000)
      const offset = intInRange(q, 'offset', 0, 0, 10_000)
      boolParam(q, 'takerOnly', true)
      const side = enumParam(q, 'side', SIDES, undefined)
      const inWindow = timeWindow(q)
      const filterType = enumParam(q, 'filterType', ['CASH', 'TOKENS'] as const, undefined)
      const filterAmount = numParam(q, 'filterAmount')
      if ((filterType === undefined) !== (filterAmount === undefined))
        throw bad("'filterType' and 'filterAmount' must be sent together")
      const source = user === undefined ? vp.activity.rows : vp.activity.activityOf(user)
      const rows = source.filter(
        (a) =>
          a.type === 'TRADE' &&
          (scope === undefined || scope(a.market)) &&
          (side === undefined || a.side === side) &&
          inWindow(a.ts) &&
          (filterType === undefined || (filterType === 'CASH' ? a.usdcSize : a.size) >= (filterAmount as number)),
      )
      sortRows(
        rows,
        (a) => a.ts,
        true,
        (a) => a.txHash,
      )
      return ok(rows.slice(offset, offset + limit).map((a) => tradeRow(a)))
    }),
  )

  const tradeRow = (a: VpActivity): Record<string, unknown> => {
    const index = a.tokenIndex ?? 0
    const { title, slug, icon, eventSlug, outcome, outcomeIndex } = marketFields(a.market, index)
    return {
      proxyWallet: a.wallet,
      side: a.side,
      asset: a.market.tokenIds[index],
      conditionId: a.market.conditionId,
      size: num(a.size),
      price: num(a.price ?? 0),
      timestamp: seconds(a.ts),
      title,
      slug,
      icon,
      eventSlug,
      outcome,
      outcomeIndex,
      ...profile(a.wallet),
      transactionHash: a.txHash,
    }
  }

  router.get(
    '/activity',
    guard((req) => {
      const q = req.query
      const user = addressParam(q, 'user', true)
      const scope = marketScope(q)
      const limit = intInRange(q, 'limit', 100, 0, 500)
      const offset = intInRange(q, 'offset', 0, 0, 10_000)
      const types = listParam(q, 'type').map((t) => t.toUpperCase())
      for (const t of types) {
        if (!(ACTIVITY_TYPES as readonly string[]).includes(t))
          throw bad(`'type' must be a list of ${ACTIVITY_TYPES.join(', ')}`)
      }
      const sortBy = enumParam(q, 'sortBy', ['TIMESTAMP', 'TOKENS', 'CASH'] as const, 'TIMESTAMP')
      const direction = enumParam(q, 'sortDirection', DIRECTIONS, 'DESC')
      const side = enumParam(q, 'side', SIDES, undefined)
      const inWindow = timeWindow(q)
      const rows = vp.activity
        .activityOf(user)
        .filter(
          (a) =>
            (scope === undefined || scope(a.market)) &&
            (types.length === 0 || types.includes(a.type)) &&
            (side === undefined || a.side === side) &&
            inWindow(a.ts),
        )
      const key = (a: VpActivity): number => (sortBy === 'TOKENS' ? a.size : sortBy === 'CASH' ? a.usdcSize : a.ts)
      sortRows(rows, key, direction === 'DESC', (a) => `${String(a.ts).padStart(15, '0')}${a.txHash}`)
      return ok(rows.slice(offset, offset + limit).map((a) => activityRow(a)))
    }),
  )

  const activityRow = (a: VpActivity): Record<string, unknown> => {
    const m = a.market
    const base: Record<string, unknown> = {
      proxyWallet: a.wallet,
      timestamp: seconds(a.ts),
      conditionId: m.conditionId,
      type: a.type,
      size: num(a.size),
      usdcSize: num(a.usdcSize),
      transactionHash: a.txHash,
    }
    if (a.type === 'TRADE') {
      const index = a.tokenIndex ?? 0
      Object.assign(base, { price: num(a.price ?? 0), asset: m.tokenIds[index], side: a.side, outcomeIndex: index })
    }
    Object.assign(base, { title: m.question, slug: m.slug, icon: m.event.image, eventSlug: m.event.slug })
    if (a.type === 'TRADE') base.outcome = m.outcomes[a.tokenIndex ?? 0]
    return Object.assign(base, profile(a.wallet))
  }

  router.get(
    '/positions',
    guard((req) => {
      const q = req.query
      const user = addressParam(q, 'user', true)
      const scope = marketScope(q)
      const threshold = numParam(q, 'sizeThreshold') ?? 1
      const redeemable = boolParam(q, 'redeemable', false)
      const mergeable = boolParam(q, 'mergeable', false)
      const limit = intInRange(q, 'limit', 100, 0, 500)
      const offset = intInRange(q, 'offset', 0, 0, 10_000)
      const sortBy = enumParam(q, 'sortBy', POSITION_SORTS, 'TOKENS')
      const direction = enumParam(q, 'sortDirection', DIRECTIONS, 'DESC')
      const title = titleFilter(q)
      const rows = openPositions(world, user, clock.now()).filter(
        (p) =>
          p.pos.shares >= threshold &&
          (scope === undefined || scope(p.market)) &&
          (!redeemable || p.json.redeemable === true) &&
          (!mergeable || p.json.mergeable === true) &&
          (title === undefined || p.market.question.toLowerCase().includes(title)),
      )
      const field: Record<(typeof POSITION_SORTS)[number], string> = {
        CURRENT: 'currentValue',
        INITIAL: 'initialValue',
        TOKENS: 'size',
        CASHPNL: 'cashPnl',
        PERCENTPNL: 'percentPnl',
        TITLE: 'title',
        RESOLVING: 'endDate',
        PRICE: 'curPrice',
        AVGPRICE: 'avgPrice',
      }
      sortRows(
        rows,
        (p) => p.json[field[sortBy]] as number | string,
        direction === 'DESC',
        (p) => p.json.asset as string,
      )
      return ok(rows.slice(offset, offset + limit).map((p) => p.json))
    }),
  )

  router.get(
    '/closed-positions',
    guard((req) => {
      const q = req.query
      const user = addressParam(q, 'user', true)
      const scope = marketScope(q)
      const limit = intInRange(q, 'limit', 10, 0, 50)
      const offset = intInRange(q, 'offset', 0, 0, 100_000)
      const sortBy = enumParam(q, 'sortBy', CLOSED_SORTS, 'REALIZEDPNL')
      const direction = enumParam(q, 'sortDirection', DIRECTIONS, 'DESC')
      const title = titleFilter(q)
      const rows = closedPositions(world, user, clock.now()).filter(
        (p) =>
          (scope === undefined || scope(p.market)) &&
          (title === undefined || p.market.question.toLowerCase().includes(title)),
      )
      const keys: Record<(typeof CLOSED_SORTS)[number], (p: (typeof rows)[number]) => number | string> = {
        REALIZEDPNL: (p) => p.realized,
        TITLE: (p) => p.market.question,
        PRICE: (p) => p.curPrice,
        AVGPRICE: (p) => p.avgPrice,
        TIMESTAMP: (p) => p.lastTs,
      }
      sortRows(rows, keys[sortBy], direction === 'DESC', (p) => p.json.asset as string)
      return ok(rows.slice(offset, offset + limit).map((p) => p.json))
    }),
  )

  router.get(
    '/value',
    guard((req) => {
      const q = req.query
      const user = addressParam(q, 'user', true)
      const scope = marketScope(q)
      if (!vp.ledger.wallets.has(user)) return ok([])
      const positions = openPositions(world, user, clock.now()).filter((p) => scope === undefined || scope(p.market))
      const value = positions.reduce((s, p) => s + (p.json.currentValue as number), 0)
      return ok([{ user, value: num(value) }])
    }),
  )
  return router
}

function titleFilter(q: URLSearchParams): string | undefined {
  const title = q.get('title')
  if (title === null || title === '') return undefined
  if (title.length > 100) throw bad("'title' must be at most 100 characters")
  return title.toLowerCase()
}
