import type { World } from './generate.js'
import { uuid, type Rng } from './random.js'
import type { QuestionSpec } from './templates/index.js'
import type { Contract, Question, VkEvent, VkMarket, VkSeries, VpEvent, VpMarket, VpTag } from './types.js'

/**
 * How a generated question is listed on each venue: venuep events and markets (slugs, condition and token ids,
 * tags) and venuek series, events and markets (tickers, ids), added to the world's indexes.
 */

const DAY = 86_400_000

/** venuek category labels → venuep tag for the same category slug. */
const VP_TAGS: Record<string, VpTag> = {
  politics: { id: '2', label: 'Politics', slug: 'politics' },
  economics: { id: '100328', label: 'Economy', slug: 'economy' },
  sports: { id: '1', label: 'Sports', slug: 'sports' },
  crypto: { id: '21', label: 'Crypto', slug: 'crypto' },
  culture: { id: '596', label: 'Pop Culture', slug: 'pop-culture' },
  tech: { id: '1401', label: 'Tech', slug: 'tech' },
  climate: { id: '103037', label: 'Climate & Weather', slug: 'climate-weather' },
}


function uniqueKey(taken: Map<string, unknown>, base: string): string {
  if (!taken.has(base)) return base
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`
}

export function listVenuep(world: World, q: Question, spec: QuestionSpec, rng: Rng, eventId: number, nextMarketId: () => string): number {
  const slug = uniqueKey(world.vpEventsBySlug, spec.venuep.slug)
  const negRisk = spec.venuep.negRisk
  const event: VpEvent = {
    id: String(eventId),
    slug,
    title: spec.venuep.title,
    description: spec.venuep.description,
    tags: [VP_TAGS[spec.category] as VpTag],
    negRisk,
    negRiskMarketId: negRisk ? `0x${rng.hex(64)}` : undefined,
    createdAt: q.createdAt,
    startDate: q.createdAt + 5 * 60_000,
    endDate: q.endTime,
    question: q,
    markets: [],
    image: '',
    capture: undefined,
  }
  const tick = rng.chance(0.15) ? 0.001 : 0.01
  const fee = spec.category === 'crypto' && spec.kind === 'ladder' ? 1000 : 0
  const marketOf = (contract: Contract, question: string, outcomes: readonly [string, string], group: string | undefined, threshold: string | undefined, marketSlug: string): VpMarket => {
    const m: VpMarket = {
      id: nextMarketId(),
      slug: uniqueKey(world.vpMarketsBySlug, marketSlug),
      question,
      description: spec.venuep.description,
      conditionId: `0x${rng.hex(64)}`,
      questionHash: `0x${rng.hex(64)}`,
      outcomes,
      tokenIds: [rng.digits(rng.chance(0.5) ? 77 : 78), rng.digits(rng.chance(0.5) ? 77 : 78)],
      groupItemTitle: group,
      groupItemThreshold: threshold,
      contract,
      canonical: q,
      tickSize: tick,
      minOrderSize: 5,
      takerBaseFeeBps: fee,
      event,
      baseVolume: Math.round(rng.logNormal(60_000, 1.6) * 100) / 100,
      baseVolume24h: 0,
      liquidity: Math.round(rng.logNormal(8_000, 1.1) * 100) / 100,
      capture: undefined,
    }
    ;(m as { baseVolume24h: number }).baseVolume24h = q.lifecycle === 'active' ? Math.round(m.baseVolume * rng.next() * 0.08 * 100) / 100 : 0
    return m
  }
  if (spec.venuep.outcomes !== undefined) {
    // A single binary market: Yes/No, or the two sides of a head-to-head (token 1 prices contract 1).
    const contract = q.contracts[0] as Contract
    event.markets.push(marketOf(contract, spec.venuep.marketQuestion(0), spec.venuep.outcomes, undefined, undefined, slug))
  } else {
    spec.contracts.forEach((c, i) => {
      if (!c.onVenuep) return
      const group = spec.venuep.groupItemTitle?.(i) ?? c.venuepLabel
      const question = spec.venuep.marketQuestion(i)
      event.markets.push(marketOf(q.contracts[i] as Contract, question, ['Yes', 'No'], group, String(i), slugFromQuestion(question)))
    })
  }
  q.venuep = event
  world.vpEvents.push(event)
  world.vpEventsBySlug.set(event.slug, event)
  world.vpEventsById.set(event.id, event)
  for (const m of event.markets) {
    world.vpMarkets.push(m)
    world.vpMarketsBySlug.set(m.slug, m)
    world.vpMarketsById.set(m.id, m)
    world.vpMarketsByCondition.set(m.conditionId, m)
    world.vpTokens.set(m.tokenIds[0], { market: m, index: 0 })
    world.vpTokens.set(m.tokenIds[1], { market: m, index: 1 })
  }
  return eventId + 1
}

function slugFromQuestion(question: string): string {
  return question
    .toLowerCase()
    .replace(/[$%°"?]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

export function listVenuek(world: World, q: Question, spec: QuestionSpec, rng: Rng): void {
  const s = spec.venuek
  let series = world.vkSeries.get(s.seriesTicker)
  if (series === undefined) {
    series = { fromCapture: false, ticker: s.seriesTicker, title: s.seriesTitle, category: s.seriesCategory, frequency: s.frequency, feeType: 'quadratic', feeMultiplier: 1 }
    world.vkSeries.set(series.ticker, series)
  }
  const eventTicker = uniqueKey(world.vkEventsByTicker, s.eventTicker)
  const event: VkEvent = {
    eventTicker,
    series,
    title: s.title,
    subTitle: s.subTitle,
    mutuallyExclusive: s.mutuallyExclusive,
    strikeDate: q.endTime,
    question: q,
    markets: [],
    lastUpdated: Math.min(world.anchorMs, q.createdAt + DAY),
    capture: undefined,
  }
  const deci = rng.chance(0.1)
  spec.contracts.forEach((c, i) => {
    if (!c.onVenuek) return
    const contract = q.contracts[i] as Contract
    const ticker = spec.venuep.outcomes !== undefined && spec.contracts.length === 1 ? eventTicker : `${eventTicker}-${c.venuekSuffix}`
    const market: VkMarket = {
      ticker: uniqueKey(world.vkMarketsByTicker, ticker),
      marketId: uuid(rng),
      event,
      title: s.marketTitle(i),
      subtitle: c.venuekLabel,
      yesSubTitle: c.venuekLabel,
      noSubTitle: c.venuekLabel,
      strikeType: s.strikeType,
      floorStrike: c.floor,
      capStrike: c.cap,
      contract,
      canonical: q,
      createdTime: q.createdAt,
      openTime: q.createdAt + 10 * 60_000,
      closeTime: q.endTime,
      priceLevelStructure: deci ? 'deci_cent' : 'linear_cent',
      tickSize: deci ? 0.001 : 0.01,
      rulesPrimary: `If ${c.venuekLabel.toLowerCase()} for "${s.title}", then the market resolves to Yes. (Simulated market.)`,
      baseVolume: Math.round(rng.logNormal(25_000, 1.5)),
      baseVolume24h: q.lifecycle === 'active' ? Math.round(rng.logNormal(1_200, 1.4)) : 0,
      baseOpenInterest: Math.round(rng.logNormal(8_000, 1.3)),
      capture: undefined,
    }
    event.markets.push(market)
  })
  q.venuek = event
  world.vkEvents.push(event)
  world.vkEventsByTicker.set(event.eventTicker, event)
  for (const m of event.markets) {
    world.vkMarkets.push(m)
    world.vkMarketsByTicker.set(m.ticker, m)
  }
}
