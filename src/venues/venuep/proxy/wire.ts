import { createHash } from 'node:crypto'
import { parseDecimal, parseInteger, parseMicros } from '../../../core/numbers.js'
import { UpstreamProtocolError } from '../../http-client.js'

/**
 * venuep wire payloads the proxies read (venuep.md §1.7, §2.2, §2.4, §4), checked and converted once, at the
 * edge. Lenient where the venue is known to vary (numbers as strings, optional descriptive fields, the Data
 * API's occasional `{data: [...]}` envelope) and strict where a wrong guess would mislead: a body that is not
 * the expected container, or a row without the fields that give it meaning, is an `UpstreamProtocolError`
 * (a 502 to the client), never a silently invented value.
 */

/** A Data API `/trades` row (taker prints of a market). */
export interface TradeRow {
  readonly wallet: string
  readonly side: 'BUY' | 'SELL'
  readonly tokenId: string
  readonly conditionId: string
  readonly size: number
  readonly price: number
  /** Unix seconds. */
  readonly ts: number
  readonly title: string | undefined
  readonly slug: string | undefined
  readonly eventSlug: string | undefined
  readonly outcome: string | undefined
  readonly outcomeIndex: number | undefined
  readonly name: string | undefined
  readonly pseudonym: string | undefined
  readonly txHash: string | undefined
  /** Identity of the row for keyset paging (see keyset.ts). */
  readonly digest: string
}

export type ActivityType = 'TRADE' | 'SPLIT' | 'MERGE' | 'REDEEM' | string

/** A Data API `/activity` row. Non-TRADE rows have no price, token, side or outcome (venuep.md §4). */
export interface ActivityRow {
  readonly type: ActivityType
  /** Unix seconds. */
  readonly ts: number
  readonly conditionId: string
  readonly size: number
  readonly usdcSize: number
  readonly price: number | undefined
  readonly tokenId: string | undefined
  readonly side: 'BUY' | 'SELL' | undefined
  readonly outcomeIndex: number | undefined
  readonly outcome: string | undefined
  readonly title: string | undefined
  readonly slug: string | undefined
  readonly eventSlug: string | undefined
  readonly txHash: string | undefined
  readonly digest: string
}

export interface PositionRow {
  readonly tokenId: string
  readonly conditionId: string
  readonly size: number
  readonly avgPrice: number | undefined
  readonly initialValue: number | undefined
  readonly currentValue: number | undefined
  readonly cashPnl: number | undefined
  readonly percentPnl: number | undefined
  readonly totalBought: number | undefined
  readonly realizedPnl: number | undefined
  readonly curPrice: number | undefined
  readonly redeemable: boolean
  readonly mergeable: boolean
  readonly title: string | undefined
  readonly slug: string | undefined
  readonly eventSlug: string | undefined
  readonly outcome: string | undefined
  readonly outcomeIndex: number | undefined
  readonly oppositeOutcome: string | undefined
  readonly oppositeTokenId: string | undefined
  readonly endDate: string | undefined
  readonly negativeRisk: boolean | undefined
}

export interface ProfileWire {
  readonly name: string | undefined
  readonly pseudonym: string | undefined
  readonly bio: string | undefined
  readonly profileImage: string | undefined
  readonly xUsername: string | undefined
  readonly verifiedBadge: boolean | undefined
  readonly createdAtMs: number | undefined
}

/** A CLOB `/book` answer in micro-units (levels in the venue's order; the caller sorts). */
export interface BookWire {
  readonly tokenId: string
  readonly conditionId: string | undefined
  readonly timestampMs: number | undefined
  readonly bids: readonly (readonly [number, number])[]
  readonly asks: readonly (readonly [number, number])[]
}

export interface HistoryPointWire {
  /** Unix seconds. */
  readonly t: number
  readonly p: number
}

type Obj = Record<string, unknown>

function fail(url: string, what: string): never {
  throw new UpstreamProtocolError(url, what)
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined
}

function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined
}

function side(v: unknown): 'BUY' | 'SELL' | undefined {
  const s = typeof v === 'string' ? v.toUpperCase() : undefined
  return s === 'BUY' || s === 'SELL' ? s : undefined
}

/** Data API list bodies: a bare array (documented), or the `{data: [...]}` envelope some builds send. */
export function dataList(body: unknown, url: string): unknown[] {
  if (Array.isArray(body)) return body
  if (isObj(body) && Array.isArray(body.data)) return body.data
  return fail(url, 'expected a JSON array')
}

function digestOf(parts: readonly unknown[]): string {
  return createHash('sha1')
    .update(parts.map((p) => String(p ?? '')).join('|'))
    .digest('hex')
    .slice(0, 10)
}

/**
 * Identical rows in one second (two equal fills of one transaction) would share a digest; the k-th repeat gets
 * `k` appended. Every venue answer starts a second at its first row in list order, so the numbering is the
 * same in every answer that contains that second.
 */
function distinctDigests<R extends { ts: number; digest: string }>(rows: R[]): R[] {
  const counts = new Map<string, number>()
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as R
    const key = `${r.ts}:${r.digest}`
    const k = counts.get(key) ?? 0
    counts.set(key, k + 1)
    if (k > 0) rows[i] = { ...r, digest: `${r.digest}${k.toString(16)}` }
  }
  return rows
}

export function parseTrades(body: unknown, url: string): TradeRow[] {
  return distinctDigests(
    dataList(body, url).map((raw, i): TradeRow => {
      if (!isObj(raw)) return fail(url, `trade ${i} is not an object`)
      const s = side(raw.side)
      const size = parseDecimal(raw.size)
      const price = parseDecimal(raw.price)
      const ts = parseInteger(raw.timestamp)
      const conditionId = str(raw.conditionId)
      const tokenId = str(raw.asset)
      if (
        s === undefined ||
        size === undefined ||
        price === undefined ||
        ts === undefined ||
        conditionId === undefined ||
        tokenId === undefined
      ) {
        return fail(url, `trade ${i} lacks side, size, price, timestamp, conditionId or asset`)
      }
      const wallet = str(raw.proxyWallet) ?? ''
      const txHash = str(raw.transactionHash)
      return {
        wallet: wallet.toLowerCase(),
        side: s,
        tokenId,
        conditionId,
        size,
        price,
        ts,
        title: str(raw.title),
        slug: str(raw.slug),
        eventSlug: str(raw.eventSlug),
        outcome: str(raw.outcome),
        outcomeIndex: parseInteger(raw.outcomeIndex),
        name: str(raw.name),
        pseudonym: str(raw.pseudonym),
        txHash,
        digest: digestOf([txHash, tokenId, s, size, price, wallet, ts]),
      }
    }),
  )
}

export function parseActivity(body: unknown, url: string): ActivityRow[] {
  return distinctDigests(
    dataList(body, url).map((raw, i): ActivityRow => {
      if (!isObj(raw)) return fail(url, `activity ${i} is not an object`)
      const type = str(raw.type)?.toUpperCase()
      const ts = parseInteger(raw.timestamp)
      const conditionId = str(raw.conditionId)
      const size = parseDecimal(raw.size)
      if (type === undefined || ts === undefined || conditionId === undefined || size === undefined) {
        return fail(url, `activity ${i} lacks type, timestamp, conditionId or size`)
      }
      const s = side(raw.side)
      const price = parseDecimal(raw.price)
      const tokenId = str(raw.asset)
      if (type === 'TRADE' && (s === undefined || price === undefined))
        return fail(url, `activity ${i} is a TRADE without side or price`)
      const usdcSize = parseDecimal(raw.usdcSize) ?? (price !== undefined ? size * price : size)
      const txHash = str(raw.transactionHash)
      return {
        type,
        ts,
        conditionId,
        size,
        usdcSize,
        price,
        tokenId,
        side: s,
        outcomeIndex: parseInteger(raw.outcomeIndex),
        outcome: str(raw.outcome),
        title: str(raw.title),
        slug: str(raw.slug),
        eventSlug: str(raw.eventSlug),
        txHash,
        digest: digestOf([txHash, type, conditionId, tokenId, s, size, usdcSize, price, ts]),
      }
    }),
  )
}

export function parsePositions(body: unknown, url: string): PositionRow[] {
  return dataList(body, url).map((raw, i) => {
    if (!isObj(raw)) return fail(url, `position ${i} is not an object`)
    const tokenId = str(raw.asset)
    const conditionId = str(raw.conditionId)
    const size = parseDecimal(raw.size)
    if (tokenId === undefined || conditionId === undefined || size === undefined)
      return fail(url, `position ${i} lacks asset, conditionId or size`)
    return {
      tokenId,
      conditionId,
      size,
      avgPrice: parseDecimal(raw.avgPrice),
      initialValue: parseDecimal(raw.initialValue),
      currentValue: parseDecimal(raw.currentValue),
      cashPnl: parseDecimal(raw.cashPnl),
      percentPnl: parseDecimal(raw.percentPnl),
      totalBought: parseDecimal(raw.totalBought),
      realizedPnl: parseDecimal(raw.realizedPnl),
      curPrice: parseDecimal(raw.curPrice),
      redeemable: bool(raw.redeemable) ?? false,
      mergeable: bool(raw.mergeable) ?? false,
      title: str(raw.title),
      slug: str(raw.slug),
      eventSlug: str(raw.eventSlug),
      outcome: str(raw.outcome),
      outcomeIndex: parseInteger(raw.outcomeIndex),
      oppositeOutcome: str(raw.oppositeOutcome),
      oppositeTokenId: str(raw.oppositeAsset),
      endDate: str(raw.endDate),
      negativeRisk: bool(raw.negativeRisk),
    }
  })
}

/** Data `/value`: `[{user, value}]`, or `[]` for a wallet without positions (→ undefined). */
export function parseValue(body: unknown, url: string): number | undefined {
  const list = dataList(body, url)
  if (list.length === 0) return undefined
  const first = list[0]
  if (!isObj(first)) return fail(url, 'value row is not an object')
  const v = parseDecimal(first.value)
  return v === undefined ? fail(url, 'value row lacks value') : v
}

export function parseProfile(body: unknown, url: string): ProfileWire {
  if (!isObj(body)) return fail(url, 'expected a profile object')
  const created = str(body.createdAt)
  const ms = created === undefined ? undefined : Date.parse(created)
  return {
    name: str(body.name),
    pseudonym: str(body.pseudonym),
    bio: str(body.bio),
    profileImage: str(body.profileImage),
    xUsername: str(body.xUsername),
    verifiedBadge: bool(body.verifiedBadge),
    createdAtMs: ms === undefined || Number.isNaN(ms) ? undefined : ms,
  }
}

function levels(v: unknown, url: string, sideName: string): [number, number][] {
  if (v === null || v === undefined) return [] // an empty side may be null (venuep.md §2.2)
  if (!Array.isArray(v)) return fail(url, `book ${sideName} is not an array`)
  return v.map((l, i) => {
    const price = isObj(l) ? parseMicros(l.price) : undefined
    const size = isObj(l) ? parseMicros(l.size) : undefined
    if (price === undefined || size === undefined) return fail(url, `book ${sideName}[${i}] lacks price or size`)
    return [price, size]
  })
}

export function parseBook(body: unknown, url: string): BookWire {
  if (!isObj(body)) return fail(url, 'expected a book object')
  const tokenId = str(body.asset_id)
  if (tokenId === undefined) return fail(url, 'book lacks asset_id')
  return {
    tokenId,
    conditionId: str(body.market),
    timestampMs: parseInteger(body.timestamp),
    bids: levels(body.bids, url, 'bids'),
    asks: levels(body.asks, url, 'asks'),
  }
}

/** CLOB `/prices-history`: `{history:[{t,p}]}`; `p` may be a string in some builds (venuep.md §2.4). */
export function parseHistory(body: unknown, url: string): HistoryPointWire[] {
  if (!isObj(body) || !Array.isArray(body.history)) return fail(url, 'expected {history: [...]}')
  return body.history.map((pt, i) => {
    const t = isObj(pt) ? parseInteger(pt.t) : undefined
    const p = isObj(pt) ? parseDecimal(pt.p) : undefined
    if (t === undefined || p === undefined) return fail(url, `history point ${i} lacks t or p`)
    return { t, p }
  })
}
