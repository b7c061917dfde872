import { parseTimestampMs } from '../../core/time.js'
import type { VkCapturedEvent, VkCapturedMarket } from './capture-schema.js'
import type { World } from '../world/world.js'
import { uuid, type Rng } from '../world/random.js'
import { seedBook, seededHalfSpread, tickFor, type CapturedQuote } from '../world/replay-book.js'
import { replayQuestion } from '../world/replay-question.js'
import type { Lifecycle } from '../world/types.js'
import type { VkEvent, VkMarket, VkSeries } from './types.js'
import { venuekOf } from './state.js'

/**
 * Captured venuek events → the world's venuek listing. REST bodies are served from each record's `capture`
 * (src/sim/venuek/serialize-captured.ts); the typed fields below feed the simulator's mechanics (status filters,
 * books, WS ticker figures) and are the captured values where the capture has them, else DERIVED as marked.
 *
 * venuek quotes "no quote" as 0 (and an ask of 1): such a side is unquoted, not a price.
 */

/** Typical contracts per derived book level (captures hold no sizes). */
const DEFAULT_DEPTH = 200

export function replayVenuek(world: World, events: readonly VkCapturedEvent[], rng: Rng): void {
  const vk = venuekOf(world)
  for (const c of events) {
    let series = vk.series.get(c.series_ticker)
    if (series === undefined) {
      series = capturedSeries(c)
      vk.series.set(series.ticker, series)
    }
    const event: VkEvent = {
      eventTicker: c.event_ticker,
      series,
      title: c.title,
      subTitle: c.sub_title ?? '',
      mutuallyExclusive: c.mutually_exclusive ?? false,
      strikeDate: undefined,
      question: undefined,
      markets: [],
      // Unknown when not captured: no `min_updated_ts` filter matches it.
      lastUpdated: parseTimestampMs(c.last_updated_ts) ?? Number.NEGATIVE_INFINITY,
      capture: c,
    }
    for (const mc of c.markets) event.markets.push(replayMarket(world, event, mc, rng))
    vk.events.push(event)
    vk.eventsByTicker.set(event.eventTicker, event)
    for (const m of event.markets) {
      vk.markets.push(m)
      vk.marketsByTicker.set(m.ticker, m)
    }
  }
}

/** All a capture says about a series: its ticker and (through its events) its category. */
function capturedSeries(c: VkCapturedEvent): VkSeries {
  return {
    fromCapture: true,
    ticker: c.series_ticker,
    title: undefined,
    category: c.category,
    frequency: undefined,
    feeType: undefined,
    feeMultiplier: undefined,
  }
}

const LIFECYCLE: Readonly<Record<VkCapturedMarket['status'], Lifecycle>> = {
  initialized: 'active',
  active: 'active',
  closed: 'closed',
  determined: 'resolved',
  finalized: 'resolved',
}

function replayMarket(world: World, event: VkEvent, c: VkCapturedMarket, rng: Rng): VkMarket {
  const quoted = (p: number | undefined) => (p !== undefined && p > 0 && p < 1 ? p : undefined)
  const bid = quoted(c.yes_bid)
  const ask = quoted(c.yes_ask)
  const last = quoted(c.last_price)
  const quote: CapturedQuote = { bid, ask, price: bid !== undefined && ask !== undefined ? (bid + ask) / 2 : last }
  const tickSize = tickFor([bid, ask, last], undefined)
  const lifecycle = LIFECYCLE[c.status]
  const open = lifecycle === 'active'
  const canonical = replayQuestion(
    {
      id: `venuek:${c.ticker}`,
      venue: 'venuek',
      label: c.yes_sub_title,
      lifecycle,
      endTime: open ? Number.POSITIVE_INFINITY : (parseTimestampMs(c.close_time) ?? Number.POSITIVE_INFINITY),
      // The captures hold no `result`: who won a determined market is unknown.
      won: undefined,
      // Only a market trading when captured walks; an initialized one keeps its seeded book.
      startPrice: c.status === 'active' ? quote.price : undefined,
      halfSpread: seededHalfSpread(quote, tickSize),
      depthSize: DEFAULT_DEPTH,
    },
    world.options.seed,
    world.anchorMs,
  )
  world.questions.push(canonical)
  world.questionsById.set(canonical.id, canonical)
  const m: VkMarket = {
    ticker: c.ticker,
    marketId: uuid(rng),
    event,
    title: c.title,
    subtitle: '',
    yesSubTitle: c.yes_sub_title,
    noSubTitle: c.no_sub_title ?? '',
    strikeType: undefined,
    floorStrike: undefined,
    capStrike: undefined,
    contract: canonical.contracts[0] as VkMarket['contract'],
    canonical,
    createdTime: undefined,
    // DERIVED: trading (and candle history) starts when the replay does.
    openTime: world.anchorMs,
    // An unknown close cannot be excluded by a close-time filter.
    closeTime: parseTimestampMs(c.close_time) ?? Number.POSITIVE_INFINITY,
    priceLevelStructure: tickSize < 0.01 ? 'deci_cent' : 'linear_cent',
    tickSize,
    rulesPrimary: undefined,
    baseVolume: c.volume ?? 0,
    baseOpenInterest: c.open_interest ?? 0,
    capture: c,
  }
  if (open)
    venuekOf(world).books.set(
      m.ticker,
      seedBook(
        quote,
        { tickSize, depthLevels: world.options.bookDepth, depthSize: DEFAULT_DEPTH, now: world.anchorMs },
        rng.fork(venuekOf(world).books.size + 1),
      ),
    )
  return m
}
