import { parseDecimal } from '../../core/numbers.js'
import { parseTimestampMs } from '../../core/time.js'
import { canonicalCategory } from '../../model/categories.js'
import type {
  CatalogEvent,
  FeeModel,
  IdentifierFacts,
  Outcome,
  PlatformMarket,
  ServiceStatus,
} from '../../model/types.js'
import { distinctPart, nonEmpty } from '../outcome-title.js'
import { eventSlugFacts } from './slug-facts.js'
import { rawStatusOf, serviceStatusOf } from './status.js'
import type { GammaEvent, GammaMarket } from './wire.js'
import { maxOf, minOf } from '../../core/arrays.js'

/**
 * Gamma events → normalized records. A single-market event becomes one PlatformMarket keyed by the market
 * slug whose outcomes are the market's two tokens; a multi-market event (neg-risk group or threshold ladder)
 * becomes one PlatformMarket keyed by the event (group) slug whose outcomes are the child markets, each priced
 * by its first (YES) token. Markets whose token list does not line up with their outcomes are skipped: a
 * misaligned token would price the wrong outcome.
 *
 * Real listings are patchy (test/fixtures/real-venues): children without `groupItemTitle` are titled from their
 * questions (childTitle), an event without dates takes its markets', a bid of 0, an ask of 1 and a last trade of 0
 * are Gamma's "none" rather than prices, and a closed market whose UMA status was dropped still reads as resolved
 * from its 1/0 prices (status.ts). Raw venue fields a matcher needs are kept in `details`.
 */
export interface VenuepLinks {
  /** Public link to an event. */
  eventUrl(eventSlug: string): string
}

type GroupTimes = ReturnType<typeof groupTimes>

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

/**
 * Every property `mapGammaEvent` reads from an event, its tags and its markets: an event's fingerprint covers these
 * alone (mapped-records.ts), so fields the service never maps (`spread`, `lastTradePrice`, `acceptingOrders`, …)
 * moving between two listings do not make the event "changed". test/venues/mapped-fields.test.ts maps real captured
 * events whole and cut to this list and expects the same records.
 */
export const GAMMA_MAPPED_FIELDS: readonly string[] = [
  // event (and the same names on a market)
  'slug',
  'title',
  'subtitle',
  'description',
  'category',
  'active',
  'closed',
  'createdAt',
  'creationDate',
  'endDate',
  'updatedAt',
  'negRisk',
  'enableNegRisk',
  'volume',
  'volume24hr',
  'liquidity',
  'openInterest',
  'tags',
  'markets',
  // tag (`slug` above)
  'label',
  // market
  'question',
  'conditionId',
  'outcomes',
  'outcomePrices',
  'clobTokenIds',
  'volumeNum',
  'liquidityNum',
  'bestBid',
  'bestAsk',
  'umaResolutionStatus',
  'groupItemTitle',
  'groupItemThreshold',
  'takerBaseFee',
  'feesEnabled',
  'feeSchedule',
  // fee schedule
  'rate',
  'exponent',
]

export function mapGammaEvent(e: GammaEvent, links: VenuepLinks): CatalogEvent | undefined {
  if (e.slug === undefined || e.slug.length === 0) return undefined
  const markets = (e.markets ?? []).map(parseMarket).filter((m): m is ParsedMarket => m !== undefined)
  if (markets.length === 0) return undefined
  const url = links.eventUrl(e.slug)
  const tags = e.tags ?? []
  // Each tag votes once (by its label or its slug); a legacy event or market `category` votes too.
  const category = canonicalCategory([
    ...tags.map((t) => [t.label, t.slug]),
    e.category,
    ...markets.map((m) => m.raw.category),
  ])
  const title = nonEmpty(e.title) ?? nonEmpty(markets[0]?.raw.question) ?? e.slug
  const eventTimes = groupTimes(e, markets)
  // Grouping follows the venue's listing, not how many markets survived parsing, so one bad child market
  // cannot turn a group into a Yes/No market.
  const grouped = (e.markets?.length ?? 0) > 1
  const platformMarket = !grouped
    ? singleMarket(e, markets[0] as ParsedMarket, title, category, url)
    : groupedMarket(e, markets, title, category, url, eventTimes)
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
    details: {
      seriesTicker: undefined,
      strikeDate: undefined,
      strikePeriod: undefined,
      tags:
        e.tags === undefined
          ? undefined
          : tags.map((t) => t.label ?? t.slug).filter((l): l is string => l !== undefined),
      negRisk: e.negRisk ?? e.enableNegRisk,
      description: nonEmpty(e.description),
      ...identifierOf(e.slug),
    },
  }
}

/**
 * An event's times, else its markets' (captures often keep them only per market): created at the earliest market
 * creation, updated at the latest update, ending at the latest market end.
 */
function groupTimes(
  e: GammaEvent,
  markets: readonly ParsedMarket[],
): { createdAt: number | undefined; updatedAt: number | undefined; endTime: number | undefined } {
  const times = (pick: (m: GammaMarket) => string | undefined) =>
    markets.map((m) => parseTimestampMs(pick(m.raw))).filter((t): t is number => t !== undefined)
  const created = times((m) => m.createdAt)
  const updated = times((m) => m.updatedAt)
  const ends = times((m) => m.endDate)
  return {
    createdAt: parseTimestampMs(e.createdAt ?? e.creationDate) ?? minOf(created),
    updatedAt: parseTimestampMs(e.updatedAt) ?? maxOf(updated),
    endTime: parseTimestampMs(e.endDate) ?? maxOf(ends),
  }
}

function parseMarket(m: GammaMarket): ParsedMarket | undefined {
  const labels = parseStringArray(m.outcomes)
  const tokens = parseStringArray(m.clobTokenIds)
  if (m.slug === undefined || m.conditionId === undefined || labels?.length !== 2 || tokens?.length !== 2)
    return undefined
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

/**
 * A Gamma top-of-book or last-trade number that is a price: Gamma reports an empty side as a bid of 0 or an ask of
 * 1, and a market that never traded as a last trade of 0 (real captures of unlisted and placeholder markets), so
 * those are unknown, not prices.
 */
function quoted(x: number | undefined): number | undefined {
  return x !== undefined && Number.isFinite(x) && x > 0 && x < 1 ? x : undefined
}

/**
 * One outcome of a venuep market. `wholeMarket`: the outcome is the binary market itself (a group's child, priced by
 * its YES token), so the market's volume is its own; otherwise it is one side of a two-outcome market, whose volume
 * Gamma reports for the market only.
 */
function outcome(
  e: GammaEvent,
  marketId: string,
  pm: ParsedMarket,
  index: 0 | 1,
  title: string,
  wholeMarket: boolean,
): Outcome {
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
    volume: wholeMarket ? volumeOf(m) : undefined,
    volume24h: wholeMarket ? m.volume24hr : undefined,
    marketVolume: volumeOf(m),
    openInterest: undefined,
    liquidity: liquidityOf(m),
    catalogBestBid: index === 0 ? quoted(m.bestBid) : mirror(quoted(m.bestAsk)),
    catalogBestAsk: index === 0 ? quoted(m.bestAsk) : mirror(quoted(m.bestBid)),
    catalogLastPrice: pm.prices[index],
    closeTime: parseTimestampMs(m.endDate),
    createdAt: parseTimestampMs(m.createdAt),
    won: resolvedPrice === undefined ? undefined : resolvedPrice >= 0.5,
    strike: undefined,
    fees: feesOf(m),
    details: {
      question: m.question,
      groupItemTitle: m.groupItemTitle,
      groupItemThreshold: m.groupItemThreshold,
      yesSubTitle: undefined,
      noSubTitle: undefined,
      negRisk: m.negRisk,
      rules: nonEmpty(m.description),
      expectedExpiration: undefined,
      sides: pm.labels,
    },
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
    outcomes: [
      outcome(e, pm.slug, pm, 0, nonEmpty(pm.labels[0]) ?? pm.labels[0], false),
      outcome(e, pm.slug, pm, 1, nonEmpty(pm.labels[1]) ?? pm.labels[1], false),
    ],
  }
}

function groupedMarket(
  e: GammaEvent,
  markets: readonly ParsedMarket[],
  title: string,
  category: string,
  url: string,
  times: GroupTimes,
): PlatformMarket {
  const marketId = e.slug as string
  const outcomes = markets.flatMap((pm) => childOutcomes(e, marketId, pm, childTitle(pm, markets)))
  const status: ServiceStatus = markets.some((m) => m.status === 'active')
    ? 'active'
    : markets.every((m) => m.status === 'resolved')
      ? 'resolved'
      : 'closed'
  return {
    venue: 'venuep',
    marketId,
    eventId: marketId,
    title,
    category,
    status,
    rawStatus: status === 'active' ? 'active' : status === 'resolved' ? 'resolved' : 'closed',
    url,
    ...times,
    volumeTotal: sum(markets.map((m) => volumeOf(m.raw))),
    volume24h: sum(markets.map((m) => m.raw.volume24hr)),
    liquidity: sum(markets.map((m) => liquidityOf(m.raw))),
    openInterest: parseDecimal(e.openInterest),
    outcomes,
  }
}

/**
 * A group child's outcomes. A yes/no child is one outcome, priced by its YES token. A child whose two sides are named
 * otherwise ("FURIA" / "Heroic" in "Map 2 Winner", "Over" / "Under") is two: each side is a contract of its own, priced
 * by its own token (another venue may list only the second side's contract), titled by the child and the side.
 */
function childOutcomes(e: GammaEvent, marketId: string, pm: ParsedMarket, title: string): Outcome[] {
  if (isYesNo(pm.labels)) return [outcome(e, marketId, pm, 0, title, true)]
  // What sets a child apart from its siblings may be a bare number ("2" of "Game 2 Winner"): then its whole question.
  const child = /[a-z]{2}/i.test(title) ? title : (nonEmpty(pm.raw.question) ?? title)
  return [0, 1].map((i) => outcome(e, marketId, pm, i as 0 | 1, `${child}: ${pm.labels[i]}`, false))
}

/** The facts the event's slug states, as an optional field (absent when it states none). */
function identifierOf(slug: string): { identifier?: IdentifierFacts } {
  const facts = eventSlugFacts(slug)
  return facts === undefined ? {} : { identifier: facts }
}

function isYesNo(labels: readonly [string, string]): boolean {
  return labels[0].trim().toLowerCase() === 'yes' && labels[1].trim().toLowerCase() === 'no'
}

/**
 * A group child's outcome title: its `groupItemTitle`; without one (real captures drop it, or send ""), what its
 * question says that its siblings' do not (outcome-title.ts). The siblings are the children still trading when at
 * least two are: a venue lists placeholder children ("Will Person K win …?") inactive, often worded apart from the
 * named ones, and they would hide the shared wording. Nothing distinct left: the whole question.
 */
function childTitle(pm: ParsedMarket, markets: readonly ParsedMarket[]): string {
  const own = nonEmpty(pm.raw.groupItemTitle)
  if (own !== undefined) return own
  const question = nonEmpty(pm.raw.question)
  if (question === undefined) return pm.slug
  const trading = markets.filter((m) => m.raw.active !== false).map((m) => m.raw.question ?? '')
  const siblings = trading.length >= 2 ? [...trading, question] : markets.map((m) => m.raw.question ?? '')
  return distinctPart(question, siblings) ?? question
}

/** Sum of the known values; undefined when none is known (an unknown is not a zero). */
function sum(values: readonly (number | undefined)[]): number | undefined {
  let total: number | undefined
  for (const v of values) if (v !== undefined) total = (total ?? 0) + v
  return total
}
