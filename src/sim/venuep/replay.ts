import { parseTimestampMs } from '../../core/time.js'
import type { VpCapturedEvent, VpCapturedMarket } from './capture-schema.js'
import type { World } from '../world/world.js'
import type { Rng } from '../world/random.js'
import { seedBook, seededHalfSpread, tickFor, type CapturedQuote } from '../world/replay-book.js'
import { replayQuestion } from '../world/replay-question.js'
import type { Lifecycle } from '../world/types.js'
import type { VpEvent, VpMarket } from './types.js'
import { venuepOf } from './state.js'
import { maxOf } from '../../core/arrays.js'

/**
 * Captured Gamma events → the world's venuep listing. Gamma bodies are served from each record's `capture`
 * (src/sim/venuep/gamma-captured.ts); the typed fields below feed the simulator's mechanics (books, listing
 * filters, wallet rows) and are the captured values where the capture has them. Where it does not and the
 * protocol needs one, the value is DERIVED and says so; it never reaches a Gamma body as if captured.
 */

/** The CLOB book must state a minimum order; 5 shares is the venue's usual one (DERIVED when not captured). */
const DEFAULT_MIN_ORDER = 5
/** Typical shares per derived book level when the capture has no liquidity figure. */
const DEFAULT_DEPTH = 200

export function replayVenuep(world: World, events: readonly VpCapturedEvent[], rng: Rng): void {
  const vp = venuepOf(world)
  for (const c of events) {
    const event = replayEvent(c)
    for (const mc of c.markets) event.markets.push(replayMarket(world, event, mc, rng))
    vp.events.push(event)
    vp.eventsBySlug.set(event.slug, event)
    vp.eventsById.set(event.id, event)
    for (const m of event.markets) {
      vp.markets.push(m)
      vp.marketsBySlug.set(m.slug, m)
      vp.marketsById.set(m.id, m)
      vp.marketsByCondition.set(m.conditionId, m)
      vp.tokens.set(m.tokenIds[0], { market: m, index: 0 })
      vp.tokens.set(m.tokenIds[1], { market: m, index: 1 })
    }
  }
}

function replayEvent(c: VpCapturedEvent): VpEvent {
  const marketEnds = c.markets.map((m) => parseTimestampMs(m.endDate)).filter((t): t is number => t !== undefined)
  const startDate = parseTimestampMs(c.startDate ?? c.createdAt) ?? Number.NEGATIVE_INFINITY
  return {
    id: c.id,
    slug: c.slug,
    title: c.title,
    description: c.description ?? '',
    tags: (c.tags ?? []).map((t) => ({ id: t.id, label: t.label, slug: t.slug })),
    // The CLOB states neg_risk on every book: DERIVED from the event's or its markets' flags when not captured.
    negRisk: c.negRisk ?? c.enableNegRisk ?? c.markets.some((m) => m.negRisk === true),
    negRiskMarketId: undefined,
    createdAt: parseTimestampMs(c.createdAt) ?? startDate,
    startDate,
    // For listing filters and wallet rows: the event's end, else its latest market's (DERIVED), else open-ended.
    endDate: parseTimestampMs(c.endDate) ?? maxOf(marketEnds) ?? Number.POSITIVE_INFINITY,
    question: undefined,
    markets: [],
    image: undefined,
    capture: c,
  }
}

function replayMarket(world: World, event: VpEvent, c: VpCapturedMarket, rng: Rng): VpMarket {
  const open = !c.closed
  const prices = (c.outcomePrices ?? []).map(Number)
  const yesPrice = prices[0] !== undefined && prices[0] > 0 && prices[0] < 1 ? prices[0] : undefined
  const last =
    c.lastTradePrice !== undefined && c.lastTradePrice > 0 && c.lastTradePrice < 1 ? c.lastTradePrice : undefined
  const quoted = (p: number | undefined) => (p !== undefined && p > 0 && p < 1 ? p : undefined)
  const bid = quoted(c.bestBid)
  const ask = quoted(c.bestAsk)
  const quote: CapturedQuote = {
    bid,
    ask,
    price: bid !== undefined && ask !== undefined ? (bid + ask) / 2 : (yesPrice ?? last),
  }
  const tickSize = tickFor([bid, ask], c.orderPriceMinTickSize)
  // A market walks (moves, trades) only if it was open and accepting trades when captured, and had a price.
  const trading = open && c.active && c.acceptingOrders !== false
  const resolved = c.closed && c.umaResolutionStatus === 'resolved'
  const lifecycle: Lifecycle = open ? 'active' : resolved ? 'resolved' : 'closed'
  const depthSize =
    c.liquidityNum !== undefined && c.liquidityNum > 0
      ? Math.min(50_000, Math.max(20, c.liquidityNum / (2 * world.options.bookDepth)))
      : DEFAULT_DEPTH
  const canonical = replayQuestion(
    {
      id: `venuep:${c.conditionId}`,
      venue: 'venuep',
      label: nonEmpty(c.groupItemTitle) ?? c.question,
      lifecycle,
      endTime: open ? Number.POSITIVE_INFINITY : (parseTimestampMs(c.endDate) ?? event.endDate),
      won: resolved && prices[0] !== undefined ? prices[0] >= 0.5 : undefined,
      startPrice: trading ? quote.price : undefined,
      halfSpread: seededHalfSpread(quote, tickSize),
      depthSize,
    },
    world.options.seed,
    world.anchorMs,
  )
  world.questions.push(canonical)
  world.questionsById.set(canonical.id, canonical)
  const m: VpMarket = {
    id: c.id,
    slug: c.slug,
    question: c.question,
    description: undefined,
    conditionId: c.conditionId,
    questionHash: undefined,
    outcomes: [c.outcomes[0] as string, c.outcomes[1] as string],
    tokenIds: [c.clobTokenIds[0] as string, c.clobTokenIds[1] as string],
    groupItemTitle: c.groupItemTitle,
    groupItemThreshold: c.groupItemThreshold,
    contract: canonical.contracts[0] as VpMarket['contract'],
    canonical,
    tickSize,
    minOrderSize: c.orderMinSize ?? DEFAULT_MIN_ORDER,
    // No fee rates in the captures: DERIVED 0, so books and trade frames state no fee.
    takerBaseFeeBps: 0,
    event,
    baseVolume: c.volumeNum ?? 0,
    liquidity: c.liquidityNum ?? 0,
    capture: c,
  }
  // An open market has a book (the service streams it): seeded from the capture, empty when it had no quote.
  if (open)
    venuepOf(world).books.set(
      m.conditionId,
      seedBook(
        quote,
        { tickSize, depthLevels: world.options.bookDepth, depthSize, now: world.anchorMs },
        rng.fork(venuepOf(world).books.size + 1),
      ),
    )
  return m
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s.trim() === '' ? undefined : s
}
