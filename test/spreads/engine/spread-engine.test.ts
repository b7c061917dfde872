import assert from 'node:assert/strict'
import { testOutcome } from '../../helpers/outcomes.js'
import { describe, test } from 'node:test'
import { OrderBook } from '../../../src/book/order-book.js'
import { SimulatedClock } from '../../../src/core/clock.js'
import { createLogger, silentLogger } from '../../../src/core/logger.js'
import { feePerContract, type Outcome, type Quote, type VenueId } from '../../../src/model/types.js'
import { Rng } from '../../../src/sim/world/random.js'
import type { Executable } from '../../../src/spreads/engine/executable.js'
import { pairIdOf } from '../../../src/spreads/engine/pair-id.js'
import { spreadJson } from '../../../src/spreads/engine/spread-json.js'
import { snapshotRecord } from '../../../src/spreads/engine/spread-record.js'
import { selectSpreads, SPREAD_SORTS } from '../../../src/spreads/engine/spread-query.js'
import {
  SpreadEngine,
  type QuoteSource,
  type SpreadChange,
  type SpreadPairSpec,
  type SpreadRecord,
} from '../../../src/spreads/engine/spread-engine.js'
import type { MatchQuality } from '../../../src/spreads/matching/matcher.js'
import { waitFor } from '../../helpers/wait.js'

/**
 * The incremental engine against a brute-force reference of every pair computed from the same quotes and books
 * (`referenceRecord`, from first principles, no engine code), on random seeded sequences: quote updates
 * (recomputing only the touched pairs), pair-set changes and time, over two venues and over three.
 */
const P = (x: number) => Math.round(x * 1e6)

class FakeVenue implements QuoteSource {
  readonly quotes = new Map<string, Quote>()
  readonly books = new Map<string, OrderBook>()
  /** Instrument slots as the venue actor numbers them (a new one when an instrument comes back: see `renumber`). */
  readonly slots = new Map<string, number>()
  seq = 0
  constructor(readonly venue: VenueId) {}
  quote(id: string) {
    return this.quotes.get(id)
  }
  book(id: string) {
    return this.books.get(id)
  }
  /** A random book and the quote the venue actor would publish for it. */
  move(id: string, rng: Rng, now: number): Quote {
    const mid = 0.05 + rng.next() * 0.9
    const half = 0.005 + rng.next() * 0.03
    const book = new OrderBook()
    const bids = Array.from(
      { length: 5 },
      (_, i) => [P(Math.max(0.01, mid - half - i * 0.01)), P(10 + rng.int(0, 500))] as const,
    )
    const asks = Array.from(
      { length: 5 },
      (_, i) => [P(Math.min(0.99, mid + half + i * 0.01)), P(10 + rng.int(0, 500))] as const,
    )
    book.applySnapshot(bids, asks)
    this.books.set(id, book)
    const bestBid = (book.bestBid() as number) / 1e6
    const bestAsk = (book.bestAsk() as number) / 1e6
    const q: Quote = {
      venue: this.venue,
      instrumentId: id,
      bestBid,
      bestAsk,
      bestBidSize: (book.bestBidSize() as number) / 1e6,
      bestAskSize: (book.bestAskSize() as number) / 1e6,
      lastTradePrice: undefined,
      probability: rng.chance(0.05) ? undefined : Math.round(((bestBid + bestAsk) / 2) * 1e6) / 1e6,
      venueTs: now,
      receivedAt: now,
      stale: rng.chance(0.05),
      seq: ++this.seq,
      instrumentSlot: this.slots.get(id) ?? this.renumber(id),
    }
    this.quotes.set(id, q)
    return q
  }
  #slots = 0
  renumber(id: string): number {
    const slot = 1_000 + 3 * this.#slots++
    this.slots.set(id, slot)
    return slot
  }
}

/** Two venues, and a third (any id: the engine takes its venues as data). */
const TWO: readonly VenueId[] = ['venuep', 'venuek']
const THREE: readonly VenueId[] = [...TWO, 'venuex' as VenueId]
/** Instrument ids per venue: `p12`, `k12`, `x12`. */
const prefix = (venue: VenueId) => venue.slice(-1)

function fakeVenues(venues: readonly VenueId[] = TWO): Map<VenueId, FakeVenue> {
  return new Map(venues.map((v) => [v, new FakeVenue(v)]))
}

function outcome(venue: VenueId, id: string, rng: Rng): Outcome {
  // The spreads read the volume of the market the outcome trades in.
  const volume = rng.chance(0.1) ? undefined : rng.int(100, 2_000_000)
  return testOutcome(id, {
    venue,
    marketId: `m-${id}`,
    eventId: `e-${id}`,
    volume,
    marketVolume: volume,
    fees:
      venue === 'venuek'
        ? { kind: 'curve', rate: 0.07, exponent: 1 }
        : venue === 'venuep'
          ? undefined
          : { kind: 'bps', takerBps: 50 },
  })
}

/** A quality and its match explanation (weights as a calibration might give them). */
function withQuality(quality: MatchQuality): { quality: MatchQuality; match: SpreadPairSpec['match'] } {
  const weight = { manual: 1, auto_high: 0.95, auto_medium: 0.6 }[quality]
  return {
    quality,
    match: {
      quality,
      weight,
      manual: quality === 'manual',
      a: { venue: 'venuep', outcomeId: 'p', text: [] },
      b: { venue: 'venuek', outcomeId: 'k', text: [] },
      evidence: undefined,
    },
  }
}

/** Pairs across `venues` (legs in their order, as the registry orients them), on shared instruments. */
function specs(rng: Rng, n: number, instruments: number, venues: readonly VenueId[] = TWO): SpreadPairSpec[] {
  // Instruments are shared between pairs, as one venue's YES token can pair with several markets elsewhere over time.
  return Array.from({ length: n }, (_, i) => {
    let [va, vb] = venues as [VenueId, VenueId]
    if (venues.length > 2) {
      const x = rng.int(0, venues.length - 1)
      const y = (x + rng.int(1, venues.length - 1)) % venues.length
      ;[va, vb] = [venues[Math.min(x, y)] as VenueId, venues[Math.max(x, y)] as VenueId]
    }
    const ia = `${prefix(va)}${rng.int(0, instruments - 1)}`
    const ib = `${prefix(vb)}${rng.int(0, instruments - 1)}`
    return {
      key: `event-${i % 37}|text:o${i}`,
      eventSlug: `event-${i % 37}`,
      eventTitle: `Event ${i % 37}`,
      category: 'politics',
      outcomeKey: `text:o${i}`,
      outcomeTitle: `o${i}`,
      a: { venue: va, outcome: outcome(va, ia, rng), url: `${prefix(va)}-url` },
      b: { venue: vb, outcome: outcome(vb, ib, rng), url: `${prefix(vb)}-url` },
      strategy: 'event_key' as const,
      ...withQuality(rng.pick(['manual', 'auto_high', 'auto_medium'] as const)),
    }
  })
}

/** Every instrument of every venue moved once. */
function moveAll(
  venues: ReadonlyMap<VenueId, FakeVenue>,
  instruments: number,
  rng: Rng,
  now: (venue: VenueId) => number,
): void {
  for (let i = 0; i < instruments; i++) for (const [v, venue] of venues) venue.move(`${prefix(v)}${i}`, rng, now(v))
}

/** Every field of the record interface, own or computed (records keep what the spec decides behind getters). */
function plain(r: SpreadRecord | undefined) {
  if (r === undefined) return undefined
  const {
    pairId,
    key,
    eventSlug,
    eventTitle,
    outcomeTitle,
    outcomeKey,
    platformA,
    platformB,
    priceA,
    priceB,
    spread,
    spreadBps,
    confidence,
  } = r
  const { updatedAt, olderQuoteAt, feedStale, platformAUrl, platformBUrl, strategy, quality, minVolume, executable } = r
  return {
    pairId,
    key,
    eventSlug,
    eventTitle,
    outcomeTitle,
    outcomeKey,
    platformA,
    platformB,
    priceA,
    priceB,
    spread,
    spreadBps,
    confidence,
    updatedAt,
    olderQuoteAt,
    feedStale,
    platformAUrl,
    platformBUrl,
    strategy,
    quality,
    minVolume,
    executable: executable === undefined ? undefined : { ...executable },
  }
}

function digest(r: SpreadRecord | undefined) {
  return r === undefined
    ? undefined
    : [
        r.priceA,
        r.priceB,
        r.platformA,
        r.confidence,
        r.feedStale,
        r.updatedAt,
        r.executable?.size,
        r.executable?.netEdge,
      ]
}

const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals

/** One leg of a pair as its venue shows it now: the outcome's quote, book and pushed volume. */
interface LegNow {
  readonly venue: VenueId
  readonly outcome: Outcome
  readonly url: string
  readonly quote: Quote | undefined
  readonly book: OrderBook | undefined
  readonly pushedVolume: number | undefined
}

/**
 * The reference: a pair's record from first principles, read straight from the venues' current quotes and books
 * (no engine code). Platform A is the cheaper leg by displayed probability (leg a on a tie), the spread is
 * price B − price A, the executable edge buys at A's asks and sells at B's bids while a contract still earns
 * more than both taker fees, and the confidence is the formula documented in confidence.ts.
 */
function referenceRecord(
  pairId: number,
  spec: SpreadPairSpec,
  venues: ReadonlyMap<VenueId, QuoteSource>,
  now: number,
): SpreadRecord | undefined {
  const legNow = (leg: SpreadPairSpec['a']): LegNow => {
    const source = venues.get(leg.venue) as QuoteSource
    const id = leg.outcome.instrumentId
    return {
      ...leg,
      quote: source.quote(id),
      book: source.book(id) as OrderBook | undefined,
      pushedVolume: source.stats?.(id)?.volume,
    }
  }
  const [legA, legB] = [legNow(spec.a), legNow(spec.b)]
  const pa = legA.quote?.probability
  const pb = legB.quote?.probability
  if (pa === undefined || pb === undefined) return undefined
  const [cheap, dear] = pa <= pb ? [legA, legB] : [legB, legA]
  const [qa, qb] = [cheap.quote as Quote, dear.quote as Quote]
  const priceA = qa.probability as number
  const priceB = qb.probability as number
  const spread = round(priceB - priceA, 6)
  const executable = referenceExecutable(cheap, dear)
  const volume = (leg: LegNow) => leg.pushedVolume ?? leg.outcome.marketVolume
  const [va, vb] = [volume(cheap), volume(dear)]
  const minVolume = va === undefined || vb === undefined ? undefined : Math.min(va, vb)
  const tops = [qa.bestAsk, qa.bestAskSize, qb.bestBid, qb.bestBidSize]
  const topDollars = tops.some((x) => x === undefined)
    ? undefined
    : Math.min(qa.bestAsk! * qa.bestAskSize!, qb.bestBid! * qb.bestBidSize!)
  const liquidity = executable !== undefined && executable.size > 0 ? executable.costDollars : topDollars
  const olderQuoteAt = Math.min(qa.venueTs, qb.venueTs)
  const feedStale = qa.stale || qb.stale
  // confidence = match × (0.30·size + 0.25·volume + 0.25·liquidity + 0.20·freshness)
  const size =
    spread <= 0
      ? 0
      : spread <= 0.05
        ? spread / 0.05
        : spread <= 0.25
          ? 1
          : spread >= 0.6
            ? 0.3
            : 1 - ((spread - 0.25) / 0.35) * 0.7
  const volumeScore = minVolume === undefined ? 0 : Math.min(1, Math.log10(1 + Math.max(0, minVolume)) / 6)
  const liquidityScore = liquidity === undefined ? 0 : Math.min(1, Math.log10(1 + Math.max(0, liquidity)) / 5)
  const minutes = Math.floor(Math.max(0, now - olderQuoteAt) / 60_000)
  const freshness = feedStale ? 0 : Math.max(0, 1 - (minutes * 60_000) / (30 * 60_000))
  const confidence = round(
    spec.match.weight * (0.3 * size + 0.25 * volumeScore + 0.25 * liquidityScore + 0.2 * freshness),
    6,
  )
  return {
    pairId,
    id: pairIdOf(spec.key),
    version: 0,
    key: spec.key,
    eventSlug: spec.eventSlug,
    eventTitle: spec.eventTitle,
    category: spec.category,
    outcomeTitle: spec.outcomeTitle,
    outcomeKey: spec.outcomeKey,
    platformA: cheap.venue,
    platformB: dear.venue,
    priceA,
    priceB,
    spread,
    spreadBps: round(spread * 10_000, 4),
    confidence,
    updatedAt: Math.max(qa.venueTs, qb.venueTs),
    olderQuoteAt,
    feedStale,
    platformAUrl: cheap.url,
    platformBUrl: dear.url,
    strategy: spec.strategy,
    quality: spec.quality,
    match: spec.match,
    minVolume,
    executable,
  }
}

/**
 * Buy where it is cheap, sell where it is dear: each contract pair earns bid − ask less the cheap venue's taker
 * fee at the ask and the dear venue's on the complement (1 − bid). Only with both quotes live and both tops
 * quoted; when the top pays, both books are walked level by level (50 at most) while a contract still earns.
 */
function referenceExecutable(cheap: LegNow, dear: LegNow): Executable | undefined {
  const [qa, qb] = [cheap.quote as Quote, dear.quote as Quote]
  if (qa.stale || qb.stale || qa.bestAsk === undefined || qb.bestBid === undefined) return undefined
  const net = (ask: number, bid: number) =>
    bid - ask - feePerContract(cheap.outcome.fees, ask) - feePerContract(dear.outcome.fees, 1 - bid)
  const [ask, bid] = [qa.bestAsk, qb.bestBid]
  if (net(ask, bid) <= 0)
    return {
      buyPrice: ask,
      sellPrice: bid,
      edge: round(bid - ask, 6),
      netEdge: round(net(ask, bid), 6),
      size: 0,
      costDollars: 0,
      profitDollars: 0,
    }
  const asks = cheap.book?.hasSnapshot ? cheap.book.levels('ask', 50) : []
  const bids = dear.book?.hasSnapshot ? dear.book.levels('bid', 50) : []
  if (asks.length === 0 || bids.length === 0) return undefined
  let [size, cost, profit] = [0, 0, 0]
  let [i, j] = [0, 0]
  let [askLeft, bidLeft] = [asks[0]![1], bids[0]![1]]
  while (i < asks.length && j < bids.length) {
    const [levelAsk, levelBid] = [asks[i]![0] / 1e6, bids[j]![0] / 1e6]
    const e = net(levelAsk, levelBid)
    if (e <= 0) break
    const take = Math.min(askLeft, bidLeft)
    size += take / 1e6
    cost += (take / 1e6) * levelAsk
    profit += (take / 1e6) * e
    askLeft -= take
    bidLeft -= take
    if (askLeft === 0 && ++i < asks.length) askLeft = asks[i]![1]
    if (bidLeft === 0 && ++j < bids.length) bidLeft = bids[j]![1]
  }
  const [buy, sell] = [asks[0]![0] / 1e6, bids[0]![0] / 1e6]
  return {
    buyPrice: buy,
    sellPrice: sell,
    edge: round(sell - buy, 6),
    netEdge: round(net(buy, sell), 6),
    size: round(size, 2),
    costDollars: round(cost, 2),
    profitDollars: round(profit, 2),
  }
}

function bruteForce(
  pairs: readonly SpreadPairSpec[],
  ids: ReadonlyMap<string, number>,
  venues: ReadonlyMap<VenueId, QuoteSource>,
  now: number,
): SpreadRecord[] {
  return pairs
    .map((s) => referenceRecord(ids.get(s.key) as number, s, venues, now))
    .filter((r): r is SpreadRecord => r !== undefined)
}

describe('spread engine', () => {
  for (const list of [TWO, THREE])
    test(`incremental records, top-N and scans equal the reference on random sequences (${list.length} venues)`, () => {
      const rng = new Rng(2024)
      const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
      const venues = fakeVenues(list)
      const engine = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000 })
      // What subscribers were told last, per pair (a digest: records are rewritten in place): it must say what the
      // record says, and a change that would tell them nothing new is not sent.
      const told = new Map<string, ReturnType<typeof digest>>()
      engine.subscribe((changes: readonly SpreadChange[]) => {
        for (const c of changes) {
          assert.notDeepEqual(digest(c.record), told.get(c.spec.key), 'a change tells subscribers something new')
          told.set(c.spec.key, digest(c.record))
        }
      })
      engine.start()
      let pairs = specs(rng, 400, 150, list)
      moveAll(venues, 150, rng, () => clock.now())
      engine.send({ type: 'pairs', specs: pairs })
      // Every two venues of the list are paired (legs in list order).
      assert.deepEqual(
        new Set(pairs.map((s) => `${s.a.venue}-${s.b.venue}`)).size,
        (list.length * (list.length - 1)) / 2,
      )
      for (let round = 0; round < 40; round++) {
        // Time moves only between rounds; a re-score brings every record to the current time first.
        clock.increment(rng.int(0, 5) * 60_000)
        engine.send({ type: 'rescore' })
        if (round % 10 === 9) {
          pairs = [
            ...pairs.filter(() => rng.chance(0.8)),
            ...specs(rng, 60, 150, list).map((s, i) => ({ ...s, key: `new-${round}-${i}|${s.outcomeKey}` })),
          ]
          engine.send({ type: 'pairs', specs: pairs })
        }
        for (let u = 0; u < 60; u++) {
          const venue = rng.pick(list)
          const id = `${prefix(venue)}${rng.int(0, 149)}`
          engine.send({ type: 'quotes', venue, quotes: [venues.get(venue)!.move(id, rng, clock.now())] })
        }
        const ids = new Map(pairs.map((s) => [s.key, engine.record(s.key)?.pairId ?? -1]))
        const expected = bruteForce(
          pairs.filter((s) => engine.spec(s.key) !== undefined),
          ids,
          venues,
          clock.now(),
        )
        const got = pairs.map((s) => engine.record(s.key)).filter((r): r is SpreadRecord => r !== undefined)
        assert.deepEqual(got.map(plain), expected.map(plain), `round ${round}: records`)
        for (const s of pairs) {
          if (engine.spec(s.key) === undefined) continue
          assert.deepEqual(
            told.get(s.key),
            digest(engine.record(s.key)),
            `round ${round}: subscribers were told of ${s.key}'s last change`,
          )
        }
        // One venue's instruments come back under new slots now and then (as after a catalog refresh): found again by id.
        if (round % 7 === 3) for (let i = 0; i < 150; i += 5) venues.get('venuek')!.renumber(`k${i}`)
        const top: SpreadRecord[] = []
        engine.byConfidence((r) => top.push(r) < 25)
        const expectedTop = [...expected]
          .sort((a, b) => b.confidence - a.confidence || a.pairId - b.pairId)
          .slice(0, 25)
        assert.deepEqual(
          top.map((r) => r.key),
          expectedTop.map((r) => r.key),
          `round ${round}: top by confidence`,
        )
        const scan: string[] = []
        engine.bySpread(0.05, (r) => {
          scan.push(r.key)
        })
        assert.deepEqual(
          scan,
          expected
            .filter((r) => r.spread >= 0.05)
            .sort((a, b) => b.spread - a.spread || a.pairId - b.pairId)
            .map((r) => r.key),
          `round ${round}: scan`,
        )
        // The net-edge index: records with an executable edge by net edge (ties by id), down to a floor, then the
        // records without one by id.
        const floor = rng.pick([-2, -0.05, 0, 0.01])
        const byEdge: string[] = []
        engine.byNetEdge(floor, (r) => {
          byEdge.push(r.key)
        })
        const withEdge = expected.filter((r) => r.executable !== undefined)
        const edgeOf = (r: SpreadRecord) => (r.executable as NonNullable<SpreadRecord['executable']>).netEdge
        assert.ok(
          withEdge.length > 20 && withEdge.some((r) => edgeOf(r) > 0),
          `round ${round}: the books give edges of both signs`,
        )
        const sortedByEdge = withEdge
          .filter((r) => edgeOf(r) >= floor)
          .sort((a, b) => edgeOf(b) - edgeOf(a) || a.pairId - b.pairId)
        assert.deepEqual(
          byEdge,
          sortedByEdge.map((r) => r.key),
          `round ${round}: by net edge from ${floor}`,
        )
        const noEdge: string[] = []
        engine.withoutEdge((r) => {
          noEdge.push(r.key)
        })
        assert.deepEqual(
          noEdge,
          expected
            .filter((r) => r.executable === undefined)
            .sort((a, b) => a.pairId - b.pairId)
            .map((r) => r.key),
          `round ${round}: without an edge`,
        )
      }
      assert.ok(engine.recomputed > 0)
      engine.stop()
    })

  test('every record keeps the spread invariants', () => {
    const rng = new Rng(5)
    const clock = new SimulatedClock(0)
    const venues = fakeVenues(THREE)
    const pairs = specs(rng, 300, 300, THREE)
    let checked = 0
    let walked = 0
    // Quotes of all ages up to an hour on all but the first venue.
    moveAll(venues, 300, rng, (v) => clock.now() - (v === 'venuep' ? 0 : rng.int(0, 3_600_000)))
    const engine = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000 })
    engine.start()
    engine.send({ type: 'pairs', specs: pairs })
    for (const spec of pairs) {
      const r = engine.record(spec.key)
      if (r === undefined) continue
      checked++
      assert.ok(r.priceA <= r.priceB, 'price_a ≤ price_b')
      assert.notEqual(r.platformA, r.platformB)
      assert.deepEqual(
        new Set([r.platformA, r.platformB]),
        new Set([spec.a.venue, spec.b.venue]),
        "the platforms are the legs' venues",
      )
      if (r.priceA === r.priceB) assert.equal(r.platformA, spec.a.venue, 'a tie goes to leg a')
      assert.ok(Math.abs(r.spread - (r.priceB - r.priceA)) < 1e-9, 'spread = price_b − price_a')
      assert.ok(Math.abs(r.spreadBps - r.spread * 10_000) < 1e-6, 'spread_bps = spread × 10,000')
      assert.ok(r.confidence >= 0 && r.confidence <= 1, 'confidence in [0, 1]')
      const ts = (leg: SpreadPairSpec['a']) => venues.get(leg.venue)!.quote(leg.outcome.instrumentId)!.venueTs
      assert.equal(r.updatedAt, Math.max(ts(spec.a), ts(spec.b)))
      if (r.executable !== undefined) {
        assert.ok(
          r.executable.size >= 0 && r.executable.netEdge <= r.executable.edge + 1e-12,
          'fees never improve the edge',
        )
        if (r.executable.size > 0) assert.ok(r.executable.profitDollars > 0)
      }
      // The record reads the top of book from the quotes and walks the books only when the top pays: the result is
      // the full walk's, and there is none while either quote is stale.
      assert.deepEqual(plain(r), plain(referenceRecord(r.pairId, spec, venues, clock.now())))
      if (r.executable !== undefined && r.executable.size > 0) walked++
    }
    assert.ok(checked > 250)
    assert.ok(walked > 10, `books walked past the top for ${walked} records`)
    engine.stop()
  })

  test('a planned install and a sweep recomputed in chunks end where the one-go ones end, quotes during the chunks included', async () => {
    const rng = new Rng(99)
    const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
    const venues = fakeVenues()
    moveAll(venues, 150, rng, () => clock.now())
    const oneGo = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000 })
    // A zero budget: 64 pairs per chunk, so 400 pairs take several turns of the event loop.
    const sliced = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000, recomputeBudgetMs: 0 })
    oneGo.start()
    sliced.start()
    const same = (what: string) => {
      const keys = [...new Set([...pairs, ...previous].map((s) => s.key))]
      assert.equal(sliced.pairCount, oneGo.pairCount, `${what}: pairs`)
      assert.deepEqual(
        keys.map((k) => plain(sliced.record(k))),
        keys.map((k) => plain(oneGo.record(k))),
        `${what}: records`,
      )
      assert.deepEqual(
        keys.map((k) => sliced.spec(k)),
        keys.map((k) => oneGo.spec(k)),
        `${what}: specs`,
      )
      const top = (e: SpreadEngine) => {
        const out: string[] = []
        e.byConfidence((r) => out.push(r.key) < 1_000)
        e.bySpread(0, (r) => {
          out.push(r.key)
        })
        return out
      }
      assert.deepEqual(top(sliced), top(oneGo), `${what}: indexes`)
    }
    let previous: SpreadPairSpec[] = []
    let pairs = specs(rng, 400, 150)
    for (let round = 0; round < 3; round++) {
      oneGo.send({ type: 'pairs', specs: pairs })
      await sliced.setPairsInSlices(pairs)
      assert.ok(sliced.pendingRecomputes > 0, `round ${round}: the recompute is chunked`)
      for (let u = 0; u < 20; u++) {
        const venue = rng.pick(TWO)
        const quotes = [venues.get(venue)!.move(`${prefix(venue)}${rng.int(0, 149)}`, rng, clock.now())]
        oneGo.send({ type: 'quotes', venue, quotes })
        sliced.send({ type: 'quotes', venue, quotes })
      }
      await waitFor(() => sliced.pendingRecomputes === 0, 5_000, 'chunks done')
      same(`round ${round}`)
      // The periodic sweep (the engine's timer asks for it in slices) against the one-go sweep.
      clock.increment(rng.int(1, 5) * 60_000)
      oneGo.send({ type: 'rescore' })
      sliced.send({ type: 'rescore', inSlices: true })
      assert.ok(sliced.pendingRecomputes > 0, `round ${round}: the sweep is chunked`)
      await waitFor(() => sliced.pendingRecomputes === 0, 5_000, 'sweep done')
      same(`round ${round}, after a sweep`)
      // Next round: some pairs kept, some gone, some new, and a kept key moved to other instruments.
      previous = pairs
      const first = pairs[0] as SpreadPairSpec
      const moved = { ...first, b: { ...first.b, outcome: outcome('venuek', 'k149', rng) } }
      pairs = [
        moved,
        ...pairs.slice(1).filter(() => rng.chance(0.8)),
        ...specs(rng, 60, 150).map((s, i) => ({ ...s, key: `new-${round}-${i}|${s.outcomeKey}` })),
      ]
      clock.increment(60_000)
    }
    oneGo.stop()
    sliced.stop()
  })
})

describe('list selection (spread-query.ts)', () => {
  test('selectSpreads is filter, sort and cut of every record, for every sort, edge filter, condition and limit', () => {
    const rng = new Rng(19)
    const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
    const venues = fakeVenues()
    moveAll(venues, 300, rng, () => clock.now())
    const engine = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000 })
    engine.start()
    engine.send({ type: 'pairs', specs: specs(rng, 900, 300) })
    const all: SpreadRecord[] = []
    engine.withoutEdge((r) => {
      all.push(r)
    })
    engine.byNetEdge(-2, (r) => {
      all.push(r)
    })
    assert.ok(all.length > 700 && all.some((r) => r.executable === undefined))
    const edges = all.flatMap((r) => (r.executable === undefined ? [] : [r.executable.netEdge]))
    for (let run = 0; run < 400; run++) {
      const sort = rng.pick(SPREAD_SORTS)
      const edge = {
        executableOnly: rng.chance(0.4),
        // A row's own net edge now and then: the bound is inclusive.
        minNetEdge: rng.chance(0.4)
          ? undefined
          : rng.chance(0.5)
            ? rng.pick(edges)
            : rng.pick([-1, -0.1, 0, 0.05, 0.2, 0.4]),
      }
      const minSpread = rng.pick([0, 0, 0.05, 0.3])
      const parity = rng.int(0, 2)
      // A condition of the route's own (a window, a volume): here every third pair id.
      const keep = (r: SpreadRecord) => r.spread >= minSpread && (parity === 2 || r.pairId % 3 !== parity)
      const limit = rng.pick([1, 3, 20, 200, Number.POSITIVE_INFINITY])
      const value = (r: SpreadRecord) => (sort === 'net_edge' ? (r.executable?.netEdge ?? null) : r[sort])
      const x = (r: SpreadRecord) => r.executable
      const passes = (r: SpreadRecord) =>
        (!edge.executableOnly || (x(r) !== undefined && x(r)!.netEdge > 0 && x(r)!.size > 0)) &&
        (edge.minNetEdge === undefined || (x(r) !== undefined && x(r)!.netEdge >= edge.minNetEdge))
      const expected = all
        .filter((r) => keep(r) && passes(r))
        .sort((a, b) => {
          const [va, vb] = [value(a), value(b)]
          if (va !== vb) return va === null ? 1 : vb === null ? -1 : vb - va
          return a.pairId - b.pairId
        })
        .slice(0, limit)
      const got = selectSpreads(engine, { sort, edge, keep, minSpread, limit })
      assert.deepEqual(
        got.map((r) => r.key),
        expected.map((r) => r.key),
        `run ${run}: ${JSON.stringify({ sort, edge, minSpread, parity, limit })}`,
      )
    }
    engine.stop()
  })
})

describe('readiness', () => {
  test('ready once the first installed plan is priced: not before, not after a sweep alone, and it stays', async () => {
    const rng = new Rng(7)
    const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
    const venues = fakeVenues()
    moveAll(venues, 150, rng, () => clock.now())
    // A zero budget: 64 pairs per chunk, so the first plan is priced over several turns of the event loop.
    const engine = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000, recomputeBudgetMs: 0 })
    engine.start()
    assert.equal(engine.ready, false, 'no plan yet')
    engine.send({ type: 'rescore', inSlices: true })
    engine.send({ type: 'rescore' })
    assert.equal(engine.ready, false, 'a sweep over no pairs proves nothing')
    const pairs = specs(rng, 400, 150)
    await engine.setPairsInSlices(pairs)
    assert.ok(engine.pairCount === 400 && engine.pendingRecomputes > 0)
    assert.equal(engine.ready, false, 'installed, not yet priced')
    await waitFor(() => engine.pendingRecomputes === 0, 5_000, 'chunks done')
    assert.equal(engine.ready, true, 'every pair of the first plan priced')
    // Later installs and sweeps replace records one by one: the engine stays ready through them.
    await engine.setPairsInSlices(pairs.slice(0, 300))
    assert.ok(engine.pendingRecomputes > 0)
    assert.equal(engine.ready, true)
    engine.stop()
  })

  test('a plan with no pairs (catalogs with no overlap) is ready at once', async () => {
    const clock = new SimulatedClock(0)
    const engine = new SpreadEngine({ venues: fakeVenues(), clock, log: silentLogger, recomputeBudgetMs: 0 })
    engine.start()
    await engine.setPairsInSlices([])
    assert.deepEqual([engine.ready, engine.pairCount], [true, 0])
    engine.stop()
  })
})

describe('the same specs again', () => {
  test('install nothing once installed, but are installed again when other specs were asked for meanwhile', async () => {
    const rng = new Rng(17)
    const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
    const venues = fakeVenues()
    moveAll(venues, 150, rng, () => clock.now())
    const engine = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000 })
    engine.start()
    const all = specs(rng, 200, 150)
    await engine.setPairsInSlices(all)
    await waitFor(() => engine.pendingRecomputes === 0, 5_000, 'priced')
    const recomputed = engine.recomputed
    await engine.setPairsInSlices([...all])
    assert.equal(engine.recomputed, recomputed, 'the same spec objects: no plan, no recompute')
    assert.equal(engine.pairCount, 200)
    // Fewer pairs asked for, then the installed ones again before that plan is in: the last request wins.
    const fewer = engine.setPairsInSlices(all.slice(0, 50))
    const again = engine.setPairsInSlices(all)
    await Promise.all([fewer, again])
    await waitFor(() => engine.pendingRecomputes === 0, 5_000, 'priced')
    assert.equal(engine.pairCount, 200, 'the installed specs asked for again after other ones are installed')
    engine.stop()
  })
})

describe('pairs changed in place', () => {
  test('an engine given the changes (found or told) holds and prices what one given whole plans does, along random changes', async () => {
    const rng = new Rng(23)
    const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
    const venues = fakeVenues()
    moveAll(venues, 120, rng, () => clock.now())
    const said: string[] = []
    const log = createLogger('info', 'test', { write: (line: string) => void said.push(JSON.parse(line).msg) })
    const whole = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000 })
    const patched = new SpreadEngine({ venues, clock, log, rescoreMs: 3_600_000 })
    // Told what changed since the specs it holds (as the matcher tells it: pair-specs.ts), not finding it by a pass.
    const told = new SpreadEngine({ venues, clock, log, rescoreMs: 3_600_000 })
    whole.start()
    patched.start()
    told.start()
    let current = specs(rng, 600, 120)
    const settle = () =>
      waitFor(
        () => whole.pendingRecomputes === 0 && patched.pendingRecomputes === 0 && told.pendingRecomputes === 0,
        5_000,
        'priced',
      )
    const same = (what: string) => {
      for (const [name, e] of [
        ['found', patched],
        ['told', told],
      ] as const) {
        assert.equal(e.pairCount, whole.pairCount, `${what}, ${name}: pairs`)
        for (const s of current) {
          assert.deepEqual(plain(e.record(s.key)), plain(whole.record(s.key)), `${what}, ${name}: ${s.key}`)
          assert.equal(e.spec(s.key), s, `${what}, ${name}: ${s.key}'s spec`)
        }
        const ranked = (e: SpreadEngine) => {
          const keys: string[] = []
          e.byConfidence((r) => (keys.push(r.key), true))
          return keys
        }
        assert.deepEqual(ranked(e), ranked(whole), `${what}, ${name}: by confidence`)
        for (let i = 0; i < 37; i++)
          assert.deepEqual(
            e
              .eventRecords(`event-${i}`)
              .map((r) => r.key)
              .sort(),
            whole
              .eventRecords(`event-${i}`)
              .map((r) => r.key)
              .sort(),
            `${what}, ${name}: event-${i}`,
          )
      }
    }
    whole.send({ type: 'pairs', specs: current })
    await patched.setPairsInSlices(current)
    await told.setPairsInSlices(current)
    await settle()
    same('first plan')
    for (let step = 1; step <= 14; step++) {
      const next: SpreadPairSpec[] = []
      for (const s of current) {
        const roll = rng.next()
        if (roll < 0.01) continue // gone
        if (roll < 0.03) {
          // The same pair with new catalog terms (a new spec object: same key, same instruments).
          next.push({ ...s, a: { ...s.a, outcome: { ...s.a.outcome, marketVolume: rng.int(1, 1_000_000) } } })
          continue
        }
        if (roll < 0.035) {
          // The same key on another instrument, sometimes one no pair read yet (a new row).
          const id = `k${rng.int(0, 129)}`
          next.push({ ...s, b: { ...s.b, outcome: { ...s.b.outcome, outcomeId: id, instrumentId: id } } })
          continue
        }
        next.push(s)
      }
      for (const [i, s] of specs(rng, 6, 130).entries())
        next.push({ ...s, key: `new-${step}-${i}|text:n`, eventSlug: `new-${step}-${i}` })
      const was = new Set(current)
      const is = new Set(next)
      const change = {
        from: current,
        removed: current.filter((s) => !is.has(s)),
        added: next.filter((s) => !was.has(s)),
      }
      current = next
      whole.send({ type: 'pairs', specs: current })
      await patched.setPairsInSlices(current)
      await told.setPairsInSlices(current, change)
      await settle()
      same(`step ${step}`)
      // Quotes on every instrument, new rows included: each reaches every pair on it, in both engines.
      for (const [v, venue] of venues) {
        const quotes = Array.from({ length: 130 }, (_, i) => venue.move(`${prefix(v)}${i}`, rng, clock.now()))
        whole.send({ type: 'quotes', venue: v, quotes })
        patched.send({ type: 'quotes', venue: v, quotes })
        told.send({ type: 'quotes', venue: v, quotes })
      }
      same(`step ${step}, after quotes`)
    }
    assert.ok(said.filter((m) => m === 'spread pairs changed').length >= 20, 'most steps were applied as changes')
    whole.stop()
    patched.stop()
    told.stop()
  })
})

describe('instrument handles', () => {
  test('rows come from quotes; pushed volume and books through held handles, looked up again once retired', async () => {
    const rng = new Rng(11)
    const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
    type State = {
      quote: Quote | undefined
      book: OrderBook | undefined
      stats: { volume: number | undefined } | undefined
      retired: boolean
    }
    /** A venue whose instruments are state records, as the venue actor's: `handle` hands them out. */
    class HandleVenue extends FakeVenue {
      readonly states = new Map<string, State>()
      lookups = 0
      handle(id: string) {
        this.lookups++
        return this.states.get(id)
      }
      stats(id: string) {
        return this.states.get(id)?.stats
      }
      publish(id: string, volume: number): Quote {
        const q = this.move(id, rng, clock.now())
        let st = this.states.get(id)
        if (st === undefined)
          this.states.set(id, (st = { quote: q, book: undefined, stats: undefined, retired: false }))
        st.quote = q
        st.book = this.books.get(id)
        st.stats = { volume }
        return q
      }
      /** The instrument leaves and comes back: a new state record (and slot), the old one retired. */
      replace(id: string): void {
        const old = this.states.get(id)!
        old.retired = true
        this.states.set(id, { ...old, retired: false })
        this.renumber(id)
      }
    }
    const vp = new HandleVenue('venuep')
    const vk = new HandleVenue('venuek')
    const venues = new Map<VenueId, HandleVenue>([
      ['venuep', vp],
      ['venuek', vk],
    ])
    const [spec] = specs(rng, 1, 1)
    const key = spec!.key
    const idK = spec!.b.outcome.instrumentId
    vp.publish(spec!.a.outcome.instrumentId, 5e6)
    vk.publish(idK, 10)
    const engine = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000 })
    engine.start()
    engine.send({ type: 'pairs', specs: [spec!] })
    const brute = () => referenceRecord(1, spec!, venues, clock.now())
    assert.deepEqual(plain(engine.record(key)), plain(brute()))
    assert.equal(engine.record(key)?.minVolume, 10, 'the pushed volume, read when the row was loaded')
    const lookups = vk.lookups
    for (let i = 0; i < 5; i++) engine.send({ type: 'quotes', venue: 'venuek', quotes: [vk.publish(idK, 10)] })
    assert.deepEqual(plain(engine.record(key)), plain(brute()), 'quotes alone keep the record current')
    assert.equal(vk.lookups, lookups, 'no lookups by id while the handle is live')

    // A pushed volume that moves without a quote is taken up by the next sweep.
    vk.states.get(idK)!.stats = { volume: 2_000 }
    engine.send({ type: 'rescore' })
    assert.equal(engine.record(key)?.minVolume, 2_000)
    assert.equal(vk.lookups, lookups)

    vk.replace(idK)
    engine.send({ type: 'quotes', venue: 'venuek', quotes: [vk.publish(idK, 3_000)] })
    assert.deepEqual(engine.record(key)?.priceA, brute()?.priceA, 'a quote under the new slot is found by id')
    engine.send({ type: 'rescore' })
    assert.equal(vk.lookups, lookups + 1, 'the retired handle was looked up again, once')
    assert.deepEqual(plain(engine.record(key)), plain(brute()), 'and the record reads the new state')
    assert.equal(engine.record(key)?.minVolume, 3_000)
    engine.stop()
  })
  test('a pair keeps one record object, rewritten in place: version, JSON and snapshots follow', () => {
    const rng = new Rng(11)
    const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
    const venues = fakeVenues()
    const [vp, vk] = [venues.get('venuep')!, venues.get('venuek')!]
    const [spec] = specs(rng, 1, 1)
    const idP = spec!.a.outcome.instrumentId
    const idK = spec!.b.outcome.instrumentId
    const live = (venue: FakeVenue, id: string) => {
      // A live quote with a probability, so the pair has a record after every move.
      for (;;) {
        const q = venue.move(id, rng, clock.now())
        if (!q.stale && q.probability !== undefined) return q
      }
    }
    live(vp, idP)
    live(vk, idK)
    const engine = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000 })
    engine.start()
    engine.send({ type: 'pairs', specs: [spec!] })
    const record = engine.record(spec!.key) as SpreadRecord
    const kept = snapshotRecord(record)
    const keptJson = spreadJson(record, false)
    assert.equal(spreadJson(kept, false), keptJson, 'a snapshot says what the record said')
    const version = record.version
    clock.increment(60_000)
    engine.send({ type: 'quotes', venue: 'venuek', quotes: [live(vk, idK)] })
    assert.equal(engine.record(spec!.key), record, 'the same object')
    assert.ok(record.version > version, 'its version moved')
    assert.deepEqual(
      plain(record),
      plain(referenceRecord(record.pairId, spec!, venues, clock.now())),
      'and it says what the quotes say now',
    )
    assert.notEqual(spreadJson(record, false), keptJson, 'its JSON is rebuilt for the new version')
    assert.equal(JSON.parse(spreadJson(record, false)).price_a, record.priceA)
    assert.equal(spreadJson(kept, false), keptJson, 'the snapshot did not move')

    // A pair that loses its record (no probability on one side) and gets it back keeps the same object.
    const q = live(vp, idP)
    vp.quotes.set(idP, { ...q, probability: undefined })
    engine.send({ type: 'quotes', venue: 'venuep', quotes: [vp.quotes.get(idP)!] })
    assert.equal(engine.record(spec!.key), undefined)
    engine.send({ type: 'quotes', venue: 'venuep', quotes: [live(vp, idP)] })
    assert.equal(engine.record(spec!.key), record)
    assert.deepEqual(plain(record), plain(referenceRecord(record.pairId, spec!, venues, clock.now())))
    engine.stop()
  })
})
