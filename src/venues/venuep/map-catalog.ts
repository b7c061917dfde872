import { parseDecimal } from '../../core/numbers.js'
import { parseTimestampMs } from '../../core/time.js'
import { canonicalCategory } from '../../model/categories.js'
import type { CatalogEvent, FeeModel, Outcome, PlatformMarket, ServiceStatus } from '../../model/types.js'
import { rawStatusOf, serviceStatusOf } from './status.js'
import type { GammaEvent, GammaMarket } from './wire.js'

/**
 * Gamma events → normalized records. A single-market event becomes one PlatformMarket keyed by the market
 * slug whose outcomes are the market's two tokens; a multi-market event (neg-risk group or threshold ladder)
 * becomes one PlatformMarket keyed by the event (group) slug whose outcomes are the child markets, each priced
 * by its first (YES) token. Markets whose token list does not line up with their outcomes are skipped: a
 * misaligned token would price the wrong outcome.
 */
export interface VenuepLinks {
  /** Public link to an event. */
  eventUrl(eventSlug: string): string
}

interface ParsedMarket {
  readonly raw: GammaMarket
  readonly slug: string
  readonly conditionId: string
  readonly labels: readonly [string, string]
  readonly tokens: readonly [string, string]
  readonly prices: readonly (number | undefined)[]
  readonly status: ServiceStatus
  readonly rawStatus: string
}

export function mapGammaEvent(e: GammaEvent, links: VenuepLinks): CatalogEvent | undefined {
  if (e.slug === undefined || e.slug.length === 0) return undefined
  const markets = (e.markets ?? []).map(parseMarket).filter((m): m is ParsedMarket => m !== undefined)
  if (markets.length === 0) return undefined
  const url = links.eventUrl(e.slug)
  const tags = e.tags ?? []
  const category = canonicalCategory([...tags.map((t) => t.slug), ...tags.map((t) => t.label), e.category])
  const title = e.title ?? markets[0]?.raw.question ?? e.slug
  const eventTimes = {
    createdAt: parseTimestampMs(e.createdAt ?? e.creationDate),
    updatedAt: parseTimestampMs(e.updatedAt),
    endTime: parseTimestampMs(e.endDate),
  }
  // Grouping follows the venue's listing, not how many markets survived parsing, so one bad child market
  // cannot turn a group into a Yes/No market.
  const grouped = (e.markets?.length ?? 0) > 1
  const platformMarket = !grouped ? singleMarket(e, markets[0] as ParsedMarket, title, category, url) : groupedMarket(e, markets, title, category, url)
  return {
    venue: 'venuep',
    eventId: e.slug,
    title,
    subtitle: e.subtitle,
    category,
    status: platformMarket.status,
    rawStatus: platformMarket.rawStatus,
    url,
    mutuallyExclusive: e.negRisk === true || e.enableNegRisk === true,
    ...eventTimes,
    volumeTotal: parseDecimal(e.volume) ?? platformMarket.volumeTotal,
    volume24h: parseDecimal(e.volume24hr) ?? platformMarket.volume24h,
    liquidity: parseDecimal(e.liquidity) ?? platformMarket.liquidity,
    openInterest: parseDecimal(e.openInterest),
    markets: [platformMarket],
  }
}

function parseMarket(m: GammaMarket): ParsedMarket | undefined {
  const labels = parseStringArray(m.outcomes)
  const tokens = parseStringArray(m.clobTokenIds)
  if (m.slug === undefined || m.conditionId === undefined || labels?.length !== 2 || tokens?.length !== 2) return undefined
  const prices = (parseStringArray(m.outcomePrices) ?? []).map(parseDecimal)
  return {
    raw: m,
    slug: m.slug,
    conditionId: m.conditionId,
    labels: [labels[0] as string, labels[1] as string],
    tokens: [tokens[0] as string, tokens[1] as string],
    prices,
    status: serviceStatusOf(m),
    rawStatus: rawStatusOf(m),
  }
}

/** Gamma sends some arrays as JSON strings ("[\"Yes\", \"No\"]"); accept real arrays too. */
export function parseStringArray(value: unknown): string[] | undefined {
  let v = value
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v)
    } catch {
      return undefined
    }
  }
  return Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number') ? v.map(String) : undefined
}

function feesOf(m: GammaMarket): FeeModel | undefined {
  const s = m.feeSchedule
  if (m.feesEnabled === true && s?.rate !== undefined) return { kind: 'curve', rate: s.rate, exponent: s.exponent ?? 1 }
  if (m.takerBaseFee !== undefined && m.takerBaseFee > 0) return { kind: 'bps', takerBps: m.takerBaseFee }
  return undefined
}

function volumeOf(m: GammaMarket): number | undefined {
  return m.volumeNum ?? parseDecimal(m.volume)
}

function liquidityOf(m: GammaMarket): number | undefined {
  return m.liquidityNum ?? parseDecimal(m.liquidity)
}

/** Prices of token 1 mirror token 0's book: its bid is 1 − token 0's ask. */
function mirror(x: number | undefined): number | undefined {
  return x === undefined ? undefined : Math.round((1 - x) * 1e6) / 1e6
}

function outcome(e: GammaEvent, marketId: string, pm: ParsedMarket, index: 0 | 1, title: string): Outcome {
  const m = pm.raw
  const resolvedPrice = pm.status === 'resolved' ? pm.prices[index] : undefined
  return {
    venue: 'venuep',
    outcomeId: pm.tokens[index],
    marketId,
    eventId: e.slug as string,
    title,
    instrumentId: pm.tokens[index],
    complementInstrumentId: pm.tokens[1 - index],
    conditionId: pm.conditionId,
    childMarketSlug: pm.slug,
    outcomeIndex: index,
    marketTicker: undefined,
    status: pm.status,
    rawStatus: pm.rawStatus,
    volume: volumeOf(m),
    volume24h: m.volume24hr,
    openInterest: undefined,
    liquidity: liquidityOf(m),
    catalogBestBid: index === 0 ? m.bestBid : mirror(m.bestAsk),
    catalogBestAsk: index === 0 ? m.bestAsk : mirror(m.bestBid),
    catalogLastPrice: pm.prices[index],
    closeTime: parseTimestampMs(m.endDate),
    createdAt: parseTimestampMs(m.createdAt),
    won: resolvedPrice === undefined ? undefined : resolvedPrice >= 0.5,
    strike: undefined,
    fees: feesOf(m),
  }
}

function singleMarket(e: GammaEvent, pm: ParsedMarket, title: string, category: string, url: string): PlatformMarket {
  const m = pm.raw
  return {
    venue: 'venuep',
    marketId: pm.slug,
    eventId: e.slug as string,
    title,
    category,
    status: pm.status,
    rawStatus: pm.rawStatus,
    url,
    createdAt: parseTimestampMs(m.createdAt ?? e.createdAt),
    updatedAt: parseTimestampMs(m.updatedAt ?? e.updatedAt),
    endTime: parseTimestampMs(m.endDate ?? e.endDate),
    volumeTotal: volumeOf(m),
    volume24h: m.volume24hr,
    liquidity: liquidityOf(m),
    openInterest: parseDecimal(e.openInterest),
    outcomes: [outcome(e, pm.slug, pm, 0, pm.labels[0]), outcome(e, pm.slug, pm, 1, pm.labels[1])],
  }
}

function groupedMarket(e: GammaEvent, markets: readonly ParsedMarket[], title: string, category: string, url: string): PlatformMarket {
  const marketId = e.slug as string
  const outcomes = markets.map((pm) => outcome(e, marketId, pm, 0, pm.raw.groupItemTitle ?? pm.raw.question ?? pm.slug))
  const status: ServiceStatus = markets.some((m) => m.status === 'active') ? 'active' : markets.every((m) => m.status === 'resolved') ? 'resolved' : 'closed'
  return {
    venue: 'venuep',
    marketId,
    eventId: marketId,
    title,
    category,
    status,
    rawStatus: status === 'active' ? 'active' : status === 'resolved' ? 'resolved' : 'closed',
    url,
    createdAt: parseTimestampMs(e.createdAt ?? e.creationDate),
    updatedAt: parseTimestampMs(e.updatedAt),
    endTime: parseTimestampMs(e.endDate),
    volumeTotal: sum(markets.map((m) => volumeOf(m.raw))),
    volume24h: sum(markets.map((m) => m.raw.volume24hr)),
    liquidity: sum(markets.map((m) => liquidityOf(m.raw))),
    openInterest: parseDecimal(e.openInterest),
    outcomes,
  }
}

/** Sum of the known values; undefined when none is known (an unknown is not a zero). */
function sum(values: readonly (number | undefined)[]): number | undefined {
  let total: number | undefined
  for (const v of values) if (v !== undefined) total = (total ?? 0) + v
  return total
}
