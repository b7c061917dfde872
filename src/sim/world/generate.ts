import { MICROS_PER_UNIT } from '../../core/numbers.js'
import { rebalance, SimBook } from './book-model.js'
import { rawFair, venueFair, type DislocationLog } from './fair.js'
import { Ledger } from './ledger.js'
import { Rng, hashString } from './random.js'
import { TEMPLATES, type QuestionSpec, type Template } from './templates/index.js'
import { TradeStore } from './trade-store.js'
import type {
  Contract,
  GroundTruth,
  Lifecycle,
  Question,
  TruePair,
  VkEvent,
  VkMarket,
  VkSeries,
  VpEvent,
  VpMarket,
  VpTag,
  VpWallet,
} from './types.js'
import { episode, generateWallets } from './wallets.js'

export interface WorldOptions {
  readonly seed: number
  /** Canonical questions to generate (each listed on one or both venues). */
  readonly questions: number
  /** The world's "now" at generation: end dates, history and books are laid out around it. */
  readonly anchorMs: number
  readonly wallets: number
  /** Book levels per side. */
  readonly bookDepth: number
  /** Share of questions listed on both venues. */
  readonly shareBoth: number
  /** Share of questions that get a look-alike decoy on one venue. */
  readonly decoyRate: number
}

export const DEFAULT_WORLD_OPTIONS: Omit<WorldOptions, 'anchorMs'> = {
  seed: 42,
  questions: 2400,
  wallets: 400,
  bookDepth: 12,
  shareBoth: 0.45,
  decoyRate: 0.1,
}

const DAY = 86_400_000
const HOUR = 3_600_000

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

export class World {
  readonly options: WorldOptions
  readonly questions: Question[] = []
  readonly questionsById = new Map<string, Question>()
  readonly vpEvents: VpEvent[] = []
  readonly vpEventsBySlug = new Map<string, VpEvent>()
  readonly vpEventsById = new Map<string, VpEvent>()
  readonly vpMarkets: VpMarket[] = []
  readonly vpMarketsBySlug = new Map<string, VpMarket>()
  readonly vpMarketsById = new Map<string, VpMarket>()
  readonly vpMarketsByCondition = new Map<string, VpMarket>()
  readonly vpTokens = new Map<string, { market: VpMarket; index: 0 | 1 }>()
  readonly vpWallets: VpWallet[] = []
  readonly vpWalletsByAddress = new Map<string, VpWallet>()
  readonly vkSeries = new Map<string, VkSeries>()
  readonly vkEvents: VkEvent[] = []
  readonly vkEventsByTicker = new Map<string, VkEvent>()
  readonly vkMarkets: VkMarket[] = []
  readonly vkMarketsByTicker = new Map<string, VkMarket>()
  /** Live books: venuep by condition id (token 0's book), venuek by market ticker. */
  readonly vpBooks = new Map<string, SimBook>()
  readonly vkBooks = new Map<string, SimBook>()
  readonly dislocations: DislocationLog = new Map()
  readonly trades = new TradeStore()
  readonly ledger = new Ledger()
  truth!: GroundTruth

  constructor(options: WorldOptions) {
    this.options = options
  }

  get anchorMs(): number {
    return this.options.anchorMs
  }

  /** YES fair value a venue quotes around for a listed contract. */
  venueFair(contract: Contract, venue: 'venuep' | 'venuek', t: number): number {
    const q = this.questionsById.get(contract.questionId) as Question
    return venueFair(q, contract.index, venue, t, this.dislocations)
  }
}

/**
 * Builds the whole world from `options`. Deterministic: the same options give the same world, identifiers,
 * books, wallets, activity and ground truth.
 */
export function generateWorld(partial: Partial<WorldOptions> & { anchorMs: number }): World {
  const options: WorldOptions = { ...DEFAULT_WORLD_OPTIONS, ...partial }
  const world = new World(options)
  const rng = new Rng(options.seed)
  const specs = planQuestions(rng.fork(1), options)
  const listRng = rng.fork(2)
  let vpEventId = 20_000
  let vpMarketId = 500_000
  for (const planned of specs) {
    const q = makeQuestion(planned, listRng)
    world.questions.push(q)
    world.questionsById.set(q.id, q)
    if (planned.onVenuep) vpEventId = listVenuep(world, q, planned.spec, listRng, vpEventId, () => String(vpMarketId++))
    if (planned.onVenuek) listVenuek(world, q, planned.spec, listRng)
  }
  buildBooks(world, rng.fork(3))
  buildVenuepHistory(world, rng.fork(4))
  buildVenuekHistory(world, rng.fork(5))
  world.truth = groundTruth(world, specs)
  return world
}

// --------------------------------------------------------------------------------------------- planning

interface PlannedQuestion {
  readonly id: string
  readonly seed: number
  readonly spec: QuestionSpec
  readonly lifecycle: Lifecycle
  readonly createdAt: number
  readonly resolvedAt: number | undefined
  readonly onVenuep: boolean
  readonly onVenuek: boolean
  readonly decoyOf: string | undefined
}

function pickTemplate(rng: Rng): Template<unknown> {
  const total = TEMPLATES.reduce((s, t) => s + t.weight, 0)
  let x = rng.next() * total
  for (const t of TEMPLATES) {
    x -= t.weight
    if (x <= 0) return t
  }
  return TEMPLATES[TEMPLATES.length - 1] as Template<unknown>
}

function planQuestions(rng: Rng, options: WorldOptions): PlannedQuestion[] {
  const planned: PlannedQuestion[] = []
  const keys = new Set<string>()
  const anchor = options.anchorMs
  let attempts = 0
  while (planned.length < options.questions && attempts < options.questions * 20) {
    attempts++
    const template = pickTemplate(rng)
    const seed = rng.int(1, 2 ** 31 - 1)
    const qr = new Rng(seed)
    const params = template.pick(qr)
    const roll = rng.next()
    const lifecycle: Lifecycle = roll < 0.78 ? 'active' : roll < 0.87 ? 'closed' : 'resolved'
    const [h0, h1] = template.horizonDays
    let endTime: number
    if (lifecycle === 'active') endTime = anchor + (h0 + rng.next() * (h1 - h0)) * DAY
    else if (lifecycle === 'closed') endTime = anchor - (0.05 + rng.next() * 2.5) * DAY
    else endTime = anchor - (2 + rng.next() * 80) * DAY
    // Venues settle at a fixed time of day: 16:00 UTC on the chosen date.
    endTime = Math.floor(endTime / DAY) * DAY + 16 * HOUR
    if (lifecycle === 'active' && endTime <= anchor) endTime += DAY
    if (lifecycle !== 'active' && endTime >= anchor) endTime -= DAY
    const spec = template.build(params, endTime, qr.fork(7))
    if (keys.has(spec.key)) continue
    keys.add(spec.key)
    const createdAt = Math.min(anchor - HOUR, endTime - (h1 * 0.5 + rng.next() * h1) * DAY, endTime - DAY)
    const resolvedAt = lifecycle === 'resolved' ? Math.min(anchor - HOUR, endTime + (1 + rng.next() * 30) * HOUR) : undefined
    const listing = rng.next()
    const both = listing < options.shareBoth
    const onVenuep = both || listing < options.shareBoth + (1 - options.shareBoth) / 2
    const onVenuek = both || !onVenuep
    const id = `q${String(planned.length + 1).padStart(5, '0')}`
    planned.push({ id, seed, spec, lifecycle, createdAt, resolvedAt, onVenuep, onVenuek, decoyOf: undefined })

    // A decoy: same subject and wording with another date, listed only on the venue the original is NOT on
    // (or on venuek when the original is on both), so a careless matcher pairs the wrong question.
    if (lifecycle === 'active' && rng.next() < options.decoyRate && planned.length < options.questions) {
      const shift = template.decoyShiftDays * DAY * (rng.chance(0.5) ? 1 : -1)
      const decoyEnd = endTime + shift > anchor + HOUR ? endTime + shift : endTime + Math.abs(shift)
      const decoySpec = template.build(params, decoyEnd, new Rng(seed).fork(8))
      if (keys.has(decoySpec.key)) continue
      keys.add(decoySpec.key)
      const decoyOnVenuep = !onVenuep
      planned.push({
        id: `q${String(planned.length + 1).padStart(5, '0')}`,
        seed: seed ^ 0x5bd1e995,
        spec: decoySpec,
        lifecycle: 'active',
        createdAt: Math.min(anchor - HOUR, decoyEnd - 30 * DAY),
        resolvedAt: undefined,
        onVenuep: decoyOnVenuep,
        onVenuek: !decoyOnVenuep,
        decoyOf: id,
      })
    }
  }
  return planned
}

function makeQuestion(p: PlannedQuestion, rng: Rng): Question {
  const spec = p.spec
  const partial: Question = {
    id: p.id,
    seed: p.seed,
    category: spec.category,
    kind: spec.kind,
    lifecycle: p.lifecycle,
    subject: spec.subject,
    createdAt: p.createdAt,
    endTime: spec.endTime,
    resolvedAt: p.resolvedAt,
    volatility: 0.5 + rng.next() * 0.8,
    contracts: [],
    model: spec.model,
    decoyOf: p.decoyOf,
    venuep: undefined,
    venuek: undefined,
  }
  const winners = p.resolvedAt === undefined ? undefined : drawWinners(partial, spec, p.resolvedAt - 3 * DAY, new Rng(p.seed ^ 0x1234567))
  const contracts: Contract[] = spec.contracts.map((c, index) => ({
    key: `${p.id}:${index}`,
    questionId: p.id,
    index,
    label: c.label,
    threshold: c.threshold,
    won: winners?.[index],
    halfSpread: Number((0.004 + rng.next() * 0.02).toFixed(4)),
    depthSize: Math.round(rng.logNormal(350, 0.8)),
    tradeIntervalSec: Math.round(rng.logNormal(900, 1)),
  }))
  return { ...partial, contracts }
}

function drawWinners(q: Question, spec: QuestionSpec, t: number, rng: Rng): boolean[] {
  const n = spec.contracts.length
  const probe = { ...q, contracts: spec.contracts.map((c, i) => ({ key: `${q.id}:${i}`, threshold: c.threshold }) as Contract) }
  if (q.model.kind === 'binary') {
    const yes = rng.next() < rawFair(probe, 0, t)
    return n === 2 ? [yes, !yes] : [yes]
  }
  if (q.model.kind === 'ladder') {
    // Exceed threshold i with the path's probability: one uniform draw keeps the ladder monotone.
    const u = rng.next()
    return spec.contracts.map((_, i) => u < rawFair(probe, i, t))
  }
  const probs = spec.contracts.map((_, i) => rawFair(probe, i, t))
  let x = rng.next() * probs.reduce((s, v) => s + v, 0)
  let winner = n - 1
  for (let i = 0; i < n; i++) {
    x -= probs[i] as number
    if (x <= 0) {
      winner = i
      break
    }
  }
  return spec.contracts.map((_, i) => i === winner)
}

// --------------------------------------------------------------------------------------------- listings

function uniqueKey(taken: Map<string, unknown>, base: string): string {
  if (!taken.has(base)) return base
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`
}

function listVenuep(world: World, q: Question, spec: QuestionSpec, rng: Rng, eventId: number, nextMarketId: () => string): number {
  const slug = uniqueKey(world.vpEventsBySlug, spec.venuep.slug)
  const negRisk = spec.venuep.negRisk
  const event: VpEvent = {
    id: String(eventId),
    slug,
    title: spec.venuep.title,
    description: spec.venuep.description,
    tag: VP_TAGS[spec.category] as VpTag,
    negRisk,
    negRiskMarketId: negRisk ? `0x${rng.hex(64)}` : undefined,
    createdAt: q.createdAt,
    startDate: q.createdAt + 5 * 60_000,
    endDate: q.endTime,
    question: q,
    markets: [],
    image: '',
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
      tickSize: tick,
      minOrderSize: 5,
      takerBaseFeeBps: fee,
      event,
      baseVolume: Math.round(rng.logNormal(60_000, 1.6) * 100) / 100,
      baseVolume24h: 0,
      liquidity: Math.round(rng.logNormal(8_000, 1.1) * 100) / 100,
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

function listVenuek(world: World, q: Question, spec: QuestionSpec, rng: Rng): void {
  const s = spec.venuek
  let series = world.vkSeries.get(s.seriesTicker)
  if (series === undefined) {
    series = { ticker: s.seriesTicker, title: s.seriesTitle, category: s.seriesCategory, frequency: s.frequency, feeType: 'quadratic', feeMultiplier: 1 }
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
      createdTime: q.createdAt,
      openTime: q.createdAt + 10 * 60_000,
      closeTime: q.endTime,
      priceLevelStructure: deci ? 'deci_cent' : 'linear_cent',
      tickSize: deci ? 0.001 : 0.01,
      rulesPrimary: `If ${c.venuekLabel.toLowerCase()} for "${s.title}", then the market resolves to Yes. (Simulated market.)`,
      baseVolume: Math.round(rng.logNormal(25_000, 1.5)),
      baseVolume24h: q.lifecycle === 'active' ? Math.round(rng.logNormal(1_200, 1.4)) : 0,
      baseOpenInterest: Math.round(rng.logNormal(8_000, 1.3)),
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

export function uuid(rng: Rng): string {
  const h = rng.hex(32)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[rng.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

// --------------------------------------------------------------------------------------------- books

function buildBooks(world: World, rng: Rng): void {
  const t = world.anchorMs
  const depth = world.options.bookDepth
  for (const m of world.vpMarkets) {
    if (m.event.question.lifecycle !== 'active') continue
    const book = new SimBook(Math.round(m.tickSize * MICROS_PER_UNIT), t)
    rebalance(book, { fair: world.venueFair(m.contract, 'venuep', t), halfSpread: m.contract.halfSpread, depthLevels: depth, depthSize: m.contract.depthSize }, rng, [])
    world.vpBooks.set(m.conditionId, book)
  }
  for (const m of world.vkMarkets) {
    if (m.event.question.lifecycle !== 'active') continue
    const book = new SimBook(Math.round(m.tickSize * MICROS_PER_UNIT), t)
    rebalance(book, { fair: world.venueFair(m.contract, 'venuek', t), halfSpread: m.contract.halfSpread, depthLevels: depth, depthSize: m.contract.depthSize }, rng, [])
    world.vkBooks.set(m.ticker, book)
  }
}

// --------------------------------------------------------------------------------------------- history

function buildVenuepHistory(world: World, rng: Rng): void {
  const wallets = generateWallets(rng.fork(1), world.options.wallets, world.anchorMs)
  for (const w of wallets) {
    world.vpWallets.push(w)
    world.vpWalletsByAddress.set(w.address, w)
  }
  const eligible = world.vpMarkets.filter((m) => m.event.createdAt < world.anchorMs - 2 * HOUR)
  if (eligible.length === 0) return
  const ctx = { anchorMs: world.anchorMs, dislocations: world.dislocations }
  const rows = []
  for (const w of wallets) {
    const wr = rng.fork(hashString(w.address))
    const n = wr.int(2, 14)
    const chosen = new Set<VpMarket>()
    for (let i = 0; i < n * 3 && chosen.size < n; i++) chosen.add(wr.pick(eligible))
    for (const m of chosen) rows.push(...episode(wr, w.address, m, ctx))
  }
  rows.sort((a, b) => a.ts - b.ts)
  for (const a of rows) {
    world.ledger.apply(a)
    world.trades.addVp(a, false)
  }
}

function buildVenuekHistory(world: World, rng: Rng): void {
  const rows = []
  for (const m of world.vkMarkets) {
    const q = m.event.question
    const end = Math.min(world.anchorMs - 60_000, q.lifecycle === 'active' ? world.anchorMs : q.endTime)
    const start = Math.max(m.openTime, end - 7 * DAY)
    if (end <= start) continue
    const count = Math.min(30, Math.floor((end - start) / (m.contract.tradeIntervalSec * 1000)))
    const mr = rng.fork(hashString(m.ticker))
    for (let i = 0; i < count; i++) {
      const ts = Math.floor(start + mr.next() * (end - start))
      const fair = world.venueFair(m.contract, 'venuek', ts)
      const takerYes = mr.chance(0.5)
      const raw = takerYes ? fair + m.contract.halfSpread : fair - m.contract.halfSpread
      const yesPrice = Math.min(1 - m.tickSize, Math.max(m.tickSize, Math.round(raw / m.tickSize) * m.tickSize))
      rows.push({
        tradeId: uuid(mr),
        market: m,
        ts,
        yesPrice: Number(yesPrice.toFixed(4)),
        count: Math.max(1, Math.round(mr.logNormal(40, 1.1) * 100) / 100),
        takerOutcomeSide: takerYes ? ('yes' as const) : ('no' as const),
        takerBookSide: takerYes ? ('bid' as const) : ('ask' as const),
      })
    }
  }
  rows.sort((a, b) => a.ts - b.ts)
  for (const t of rows) world.trades.addVk(t, false)
}

// --------------------------------------------------------------------------------------------- truth

function groundTruth(world: World, planned: PlannedQuestion[]): GroundTruth {
  const eventPairs: { questionId: string; venuepEventSlug: string; venuekEventTicker: string }[] = []
  const outcomePairs: TruePair[] = []
  for (const q of world.questions) {
    if (q.venuep === undefined || q.venuek === undefined) continue
    eventPairs.push({ questionId: q.id, venuepEventSlug: q.venuep.slug, venuekEventTicker: q.venuek.eventTicker })
    for (const c of q.contracts) {
      const vk = q.venuek.markets.find((m) => m.contract.index === c.index)
      let vpMarket: VpMarket | undefined
      let tokenIndex: 0 | 1 = 0
      for (const m of q.venuep.markets) {
        if (m.contract.index === c.index) vpMarket = m
        else if (m.outcomes[0] !== 'Yes' && q.contracts.length === 2 && c.index === 1) {
          vpMarket = m
          tokenIndex = 1
        }
      }
      if (vk === undefined || vpMarket === undefined) continue
      outcomePairs.push({
        questionId: q.id,
        contractKey: c.key,
        label: c.label,
        venuepEventSlug: q.venuep.slug,
        venuepConditionId: vpMarket.conditionId,
        venuepTokenId: vpMarket.tokenIds[tokenIndex],
        venuekEventTicker: q.venuek.eventTicker,
        venuekMarketTicker: vk.ticker,
      })
    }
  }
  return {
    sharedQuestions: eventPairs.map((p) => p.questionId),
    eventPairs,
    outcomePairs,
    decoys: planned.filter((p) => p.decoyOf !== undefined).map((p) => ({ questionId: p.decoyOf as string, decoyId: p.id })),
  }
}
