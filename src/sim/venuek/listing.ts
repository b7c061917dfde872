import type { World } from '../world/world.js'
import { uniqueKey } from '../world/unique-key.js'
import { uuid, type Rng } from '../world/random.js'
import { observationDates } from '../world/shapes/venue-dates.js'
import type { QuestionSpec } from '../world/templates/index.js'
import type { Contract, Question } from '../world/types.js'
import type { VkEvent, VkMarket } from './types.js'
import { venuekOf } from './state.js'

/**
 * How a generated question is listed on venuek: its series (created once per ticker), one event, one binary market
 * per contract the venue lists, added to the world's indexes. Questions of one occasion may share an event
 * (`eventKey`: a tournament's players, each a question of its own).
 *
 * Dates are the venue's (shapes/venue-dates.ts): while the question is open, `close_time` is the latest date
 * trading can stop, often long after the question's own date, which lives in `sub_title` / `yes_sub_title`; a
 * deadline ladder's markets close at their own deadlines. A question that ended closed then (venuek closes a
 * market early once its answer is known), so its markets show that close.
 */
const DAY = 86_400_000
const EXPECTED_AFTER_CLOSE_MS = 10 * 60_000

export function listVenuek(world: World, q: Question, spec: QuestionSpec, rng: Rng): void {
  const vk = venuekOf(world)
  const s = spec.tickers
  let series = vk.series.get(s.seriesTicker)
  if (series === undefined) {
    series = {
      fromCapture: false,
      ticker: s.seriesTicker,
      title: s.seriesTitle,
      category: s.seriesCategory,
      frequency: s.frequency,
      feeType: 'quadratic',
      feeMultiplier: 1,
    }
    vk.series.set(series.ticker, series)
  }
  const active = q.lifecycle === 'active'
  const planned = s.dates ?? observationDates(q.endTime)
  const ended = observationDates(q.endTime)
  // The event of the question's occasion when another question of it made one (`eventKey`), else a new one.
  const shared = s.eventKey === undefined ? undefined : vk.sharedEvents.get(s.eventKey)
  const eventTicker = shared?.eventTicker ?? uniqueKey(vk.eventsByTicker, s.eventTicker)
  const event: VkEvent = shared ?? {
    eventTicker,
    series,
    title: s.title,
    subTitle: s.subTitle,
    mutuallyExclusive: s.mutuallyExclusive,
    strikeDate: planned.strikeDate,
    question: q,
    markets: [],
    lastUpdated: Math.min(world.anchorMs, q.createdAt + DAY),
    capture: undefined,
  }
  const created: VkMarket[] = []
  const deci = rng.chance(0.1)
  spec.contracts.forEach((c, i) => {
    if (!c.onTickers) return
    const contract = q.contracts[i] as Contract
    const ticker =
      spec.slugs.outcomes !== undefined && spec.contracts.length === 1
        ? eventTicker
        : `${eventTicker}-${c.tickersSuffix}`
    const closeTime = active ? (c.tickersCloseTime ?? planned.closeTime) : ended.closeTime
    const market: VkMarket = {
      ticker: uniqueKey(vk.marketsByTicker, ticker),
      marketId: uuid(rng),
      event,
      title: s.marketTitle(i),
      subtitle: c.tickersLabel,
      yesSubTitle: c.tickersLabel,
      noSubTitle: c.tickersLabel,
      strikeType: c.strikeType ?? s.strikeType,
      floorStrike: c.floor,
      capStrike: c.cap,
      contract,
      canonical: q,
      createdTime: q.createdAt,
      openTime: q.createdAt + 10 * 60_000,
      closeTime,
      // A market closing at its own deadline states no expected date (the real long-dated ladders have none).
      expectedExpiration: !active
        ? closeTime + EXPECTED_AFTER_CLOSE_MS
        : c.tickersCloseTime === undefined
          ? planned.expectedExpiration
          : undefined,
      priceLevelStructure: deci ? 'deci_cent' : 'linear_cent',
      tickSize: deci ? 0.001 : 0.01,
      rulesPrimary: `If ${c.tickersLabel.toLowerCase()} for "${s.title}", then the market resolves to Yes. (Simulated market.)`,
      baseVolume: Math.round(rng.logNormal(25_000, 1.5)),
      baseOpenInterest: Math.round(rng.logNormal(8_000, 1.3)),
      capture: undefined,
    }
    vk.marketsByTicker.set(market.ticker, market)
    vk.listing.set(contract.key, market)
    event.markets.push(market)
    created.push(market)
  })
  vk.questionEvents.set(q.id, event)
  if (shared === undefined) {
    vk.events.push(event)
    vk.eventsByTicker.set(event.eventTicker, event)
    if (s.eventKey !== undefined) vk.sharedEvents.set(s.eventKey, event)
  }
  for (const m of created) vk.markets.push(m)
}
