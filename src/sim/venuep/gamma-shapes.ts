import { MICROS_PER_UNIT } from '../../core/numbers.js'
import type { World } from '../world/world.js'
import type { EventTag } from '../world/types.js'
import type { VpEvent, VpMarket, VpWallet } from './types.js'
import { lastTrade, tokenTop, tradedPrice } from './book-view.js'
import { dateOnly, fmtNum, isoTime, jsonListString, num, pgTime } from './format.js'
import { capturedEventJson, capturedMarketJson } from './gamma-captured.js'
import {
  eventTotals,
  isClosed,
  liquidityOf,
  openInterestByCondition,
  volume24hOf,
  volumeOf,
  type OpenInterest,
} from './market-stats.js'
import { venuepOf } from './state.js'

/**
 * Gamma wire objects (venuep.md §1.5–1.7): camelCase, ids as strings, `outcomes`/`outcomePrices`/
 * `clobTokenIds` as JSON-encoded strings, unknown values omitted rather than null. Field order follows the
 * real captures so a diff against one reads naturally.
 */
const NEW_FOR_MS = 2 * 86_400_000
const FEE_SCHEDULE = { exponent: 2, rate: 0.25, takerOnly: true, rebateRate: 0.2 } as const

/** Per-request view: the clock reading and the ledger-wide open interest, computed at most once. */
export class GammaView {
  readonly world: World
  readonly now: number
  #oi: OpenInterest | undefined
  readonly #parents = new Map<VpEvent, Record<string, unknown>>()

  constructor(world: World, now: number) {
    this.world = world
    this.now = now
  }

  get openInterest(): OpenInterest {
    this.#oi ??= openInterestByCondition(this.world)
    return this.#oi
  }

  /** The abbreviated parent event, built once per event per request (every sibling market repeats it). */
  parentEvent(e: VpEvent): Record<string, unknown> {
    let json = this.#parents.get(e)
    if (json === undefined) this.#parents.set(e, (json = eventJson(this, e, false)))
    return json
  }
}

/** Everything a human reads says that it is simulated; the world's own texts are neutral. */
export function simulatedText(text: string): string {
  return /simulat/i.test(text) ? text : `${text} (Simulated market data from the venue simulator.)`
}

/** `Tag {id: string, label, slug}` (§1.6); a captured tag without id or slug is served without them. */
export function tagJson(tag: EventTag): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (tag.id !== undefined) out.id = tag.id
  out.label = tag.label
  if (tag.slug !== undefined) out.slug = tag.slug
  return out
}

/** A full Gamma market; `includeTag` adds `tags` as `include_tag=true` does. */
export function marketJson(view: GammaView, m: VpMarket, includeTag: boolean): Record<string, unknown> {
  if (m.capture !== undefined) return capturedMarketJson(view, m, m.capture, includeTag)
  const { world, now } = view
  const e = m.event
  const q = m.canonical
  const closed = isClosed(m)
  const book = venuepOf(world).books.get(m.conditionId)
  const top = book === undefined ? undefined : tokenTop(book, 0)
  const last = lastTrade(world, m, 0)
  const resolved = q.lifecycle === 'resolved' && m.contract.won !== undefined
  // An inactive placeholder has never traded: no price at all (the captures show `outcomePrices: []`).
  const listed = m.active !== false
  const live = () =>
    listed ? [fmtNum(tradedPrice(world, m, 0, now), 4), fmtNum(tradedPrice(world, m, 1, now), 4)] : []
  const prices = resolved ? (m.contract.won === true ? ['1', '0'] : ['0', '1']) : live()
  const endDate = m.endDate ?? e.endDate
  const volume = volumeOf(world, m, now)
  const liquidity = liquidityOf(m)
  const fees = m.takerBaseFeeBps > 0
  const out: Record<string, unknown> = {
    id: m.id,
    question: m.question,
    conditionId: m.conditionId,
    slug: m.slug,
    endDate: isoTime(endDate),
    startDate: isoTime(e.startDate),
    image: e.image,
    icon: e.image,
    description: simulatedText(m.description ?? ''),
    outcomes: jsonListString(m.outcomes),
    outcomePrices: jsonListString(prices),
    volume: String(volume),
    liquidity: String(liquidity),
    active: listed,
    closed,
    marketMakerAddress: '',
    createdAt: isoTime(e.createdAt),
    updatedAt: isoTime(closed ? (q.resolvedAt ?? q.endTime) : Math.max(e.createdAt, book?.updatedAt ?? e.createdAt)),
  }
  if (closed) out.closedTime = pgTime(q.endTime)
  Object.assign(out, { new: now - e.createdAt < NEW_FOR_MS, featured: false, archived: false, restricted: true })
  if (m.groupItemTitle !== undefined) out.groupItemTitle = m.groupItemTitle
  if (m.groupItemThreshold !== undefined) out.groupItemThreshold = m.groupItemThreshold
  Object.assign(out, {
    questionID: m.questionHash,
    enableOrderBook: true,
    orderPriceMinTickSize: book === undefined ? m.tickSize : book.tickMicros / MICROS_PER_UNIT,
    orderMinSize: m.minOrderSize,
  })
  // An ended market has a proposal on the oracle; a settled one is "resolved" (values seen live, §1.5).
  if (closed) out.umaResolutionStatus = resolved ? 'resolved' : 'proposed'
  Object.assign(out, {
    volumeNum: volume,
    liquidityNum: liquidity,
    endDateIso: dateOnly(endDate),
    startDateIso: dateOnly(e.startDate),
    volume24hr: volume24hOf(world, m, now),
    clobTokenIds: jsonListString(m.tokenIds),
    umaResolutionStatuses: '[]',
    volumeClob: volume,
    liquidityClob: liquidity,
    makerBaseFee: m.takerBaseFeeBps,
    takerBaseFee: m.takerBaseFeeBps,
    acceptingOrders: !closed && listed,
    acceptingOrdersTimestamp: isoTime(e.startDate),
    negRisk: e.negRisk,
  })
  if (e.negRiskMarketId !== undefined) out.negRiskMarketID = e.negRiskMarketId
  if (top?.bid !== undefined && top.ask !== undefined) out.spread = num((top.ask - top.bid) / MICROS_PER_UNIT)
  if (last !== undefined) out.lastTradePrice = num(last.price)
  if (top?.bid !== undefined) out.bestBid = top.bid / MICROS_PER_UNIT
  if (top?.ask !== undefined) out.bestAsk = top.ask / MICROS_PER_UNIT
  Object.assign(out, { negRiskOther: false, rfqEnabled: false, feesEnabled: fees })
  if (fees) Object.assign(out, { feeType: 'crypto_fees', feeSchedule: { ...FEE_SCHEDULE } })
  out.events = [view.parentEvent(e)]
  if (includeTag) out.tags = e.tags.map(tagJson)
  return out
}

/** An event; `full` adds nested markets and tags (the abbreviated form sits inside a market's `events`). */
export function eventJson(view: GammaView, e: VpEvent, full: boolean): Record<string, unknown> {
  if (e.capture !== undefined) return capturedEventJson(view, e, e.capture, full)
  const q = e.question
  if (q === undefined) throw new Error(`generated event ${e.id} lists no question`)
  const closed = q.lifecycle !== 'active'
  const totals = eventTotals(view.world, e, view.openInterest, view.now)
  let updated = e.createdAt
  if (closed) updated = q.resolvedAt ?? q.endTime
  else
    for (const m of e.markets)
      updated = Math.max(updated, venuepOf(view.world).books.get(m.conditionId)?.updatedAt ?? 0)
  const out: Record<string, unknown> = {
    id: e.id,
    ticker: e.slug,
    slug: e.slug,
    title: e.title,
    description: simulatedText(e.description),
    startDate: isoTime(e.startDate),
    creationDate: isoTime(e.createdAt),
    endDate: isoTime(e.endDate),
    image: e.image,
    icon: e.image,
    active: true,
    closed,
    archived: false,
    new: view.now - e.createdAt < NEW_FOR_MS,
    featured: false,
    restricted: true,
    liquidity: totals.liquidity,
    volume: totals.volume,
    openInterest: totals.openInterest,
    createdAt: isoTime(e.createdAt),
    updatedAt: isoTime(updated),
  }
  if (closed) out.closedTime = pgTime(q.endTime)
  Object.assign(out, {
    volume24hr: totals.volume24hr,
    enableOrderBook: true,
    liquidityClob: totals.liquidity,
    negRisk: e.negRisk,
    enableNegRisk: e.negRisk,
    negRiskAugmented: false,
  })
  if (e.negRiskMarketId !== undefined) out.negRiskMarketID = e.negRiskMarketId
  out.commentCount = 0
  if (full) {
    out.markets = e.markets.map((m) => marketJson(view, m, false))
    out.tags = e.tags.map(tagJson)
  }
  return out
}

/** Simulated wallets always say so in their bio (venuep.md §1.7 shape). */
export function walletBio(w: VpWallet): string {
  return w.bio !== '' ? w.bio : 'Simulated wallet (venue simulator).'
}

/** `GET /public-profile` body (§1.7); optional fields are omitted, never null. */
export function profileJson(w: VpWallet): Record<string, unknown> {
  const out: Record<string, unknown> = {
    createdAt: isoTime(w.createdAt),
    proxyWallet: w.address,
    profileImage: w.profileImage,
    displayUsernamePublic: w.name !== '',
    bio: walletBio(w),
    pseudonym: w.pseudonym,
    name: w.name,
    users: [{ id: w.userId, creator: false, mod: false }],
  }
  if (w.xUsername !== undefined) out.xUsername = w.xUsername
  out.verifiedBadge = w.verifiedBadge
  return out
}
