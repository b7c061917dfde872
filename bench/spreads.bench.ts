import { Bench } from 'tinybench'
import { OrderBook } from '../src/book/order-book.js'
import { SimulatedClock } from '../src/core/clock.js'
import { silentLogger } from '../src/core/logger.js'
import type { Outcome, Quote, VenueId } from '../src/model/types.js'
import { Rng } from '../src/sim/world/random.js'
import { SpreadEngine, type QuoteSource, type SpreadPairSpec } from '../src/spreads/spread-engine.js'

/**
 * Quote change → updated ranking: a venue quote change sent to the spread actor, which recomputes the pair it
 * belongs to (record, executable edge from both books, confidence) and moves it in both indexes. Measured per
 * affected pair at 1,000, 10,000 and 100,000 matched pairs; the cost should not grow with the pair count.
 */
export interface EngineFigure {
  readonly pairs: number
  /** Median nanoseconds per quote change (one affected pair each). */
  readonly medianNs: number
  readonly p99Ns: number
}

/** A venue's instruments as the venue actor holds them: one live state record per instrument, usable as a handle. */
interface State {
  quote: Quote | undefined
  readonly book: OrderBook
  readonly stats: undefined
  readonly retired: false
}

class Source implements QuoteSource {
  readonly states = new Map<string, State>()
  add(id: string, book: OrderBook, quote: Quote): void {
    this.states.set(id, { quote, book, stats: undefined, retired: false })
  }
  /** What the venue actor does when it publishes a quote. */
  setQuote(q: Quote): void {
    ;(this.states.get(q.instrumentId) as State).quote = q
  }
  quote(id: string) {
    return this.states.get(id)?.quote
  }
  book(id: string) {
    return this.states.get(id)?.book
  }
  handle(id: string) {
    return this.states.get(id)
  }
}

function outcome(venue: VenueId, id: string): Outcome {
  return {
    venue, outcomeId: id, marketId: `m-${id}`, eventId: `e-${id}`, title: id, instrumentId: id, complementInstrumentId: undefined,
    conditionId: undefined, childMarketSlug: undefined, outcomeIndex: 0, marketTicker: undefined, status: 'active', rawStatus: 'active',
    volume: 50_000, volume24h: undefined, openInterest: undefined, liquidity: undefined, catalogBestBid: undefined, catalogBestAsk: undefined,
    catalogLastPrice: undefined, closeTime: undefined, createdAt: undefined, won: undefined, strike: undefined,
    fees: venue === 'venuek' ? { kind: 'curve', rate: 0.07, exponent: 1 } : undefined,
  }
}

function quoteFor(venue: VenueId, id: string, book: OrderBook, seq: number, now: number): Quote {
  const bestBid = (book.bestBid() as number) / 1e6
  const bestAsk = (book.bestAsk() as number) / 1e6
  return {
    venue, instrumentId: id, bestBid, bestAsk, bestBidSize: (book.bestBidSize() as number) / 1e6, bestAskSize: (book.bestAskSize() as number) / 1e6,
    lastTradePrice: undefined, probability: (bestBid + bestAsk) / 2, venueTs: now, receivedAt: now, stale: false, seq,
  }
}

function ladder(mid: number, rng: Rng): OrderBook {
  const book = new OrderBook()
  const levels = (side: 1 | -1) => Array.from({ length: 10 }, (_, i) => [Math.round((mid + side * (0.01 + i * 0.01)) * 1e6), (10 + rng.int(0, 500)) * 1e6] as const)
  book.applySnapshot(levels(-1), levels(1))
  return book
}

async function measure(pairs: number): Promise<EngineFigure> {
  const rng = new Rng(pairs)
  const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
  const venues = { venuep: new Source(), venuek: new Source() }
  const specs: SpreadPairSpec[] = []
  for (let i = 0; i < pairs; i++) {
    const mid = 0.1 + rng.next() * 0.8
    for (const [venue, src, id] of [['venuep', venues.venuep, `p${i}`], ['venuek', venues.venuek, `k${i}`]] as const) {
      const book = ladder(Math.min(0.85, Math.max(0.15, mid + (rng.next() - 0.5) * 0.1)), rng)
      src.add(id, book, quoteFor(venue, id, book, 0, clock.now()))
    }
    specs.push({
      key: `e${i}|text:yes`, eventSlug: `e${i}`, eventTitle: `E${i}`, outcomeKey: 'text:yes', outcomeTitle: 'Yes',
      venuep: outcome('venuep', `p${i}`), venuek: outcome('venuek', `k${i}`), venuepUrl: '', venuekUrl: '', strategy: 'event_key', quality: 'auto_high',
    })
  }
  const engine = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000 })
  engine.start()
  engine.send({ type: 'pairs', specs })
  // Pre-built quote changes (a top-of-book move on a random venuek instrument), replayed in the timed loop.
  const changes: Quote[] = []
  for (let n = 0; n < 4_096; n++) {
    const i = rng.int(0, pairs - 1)
    const id = `k${i}`
    const book = venues.venuek.book(id) as OrderBook
    book.setLevel('bid', book.bestBid() as number, (10 + rng.int(0, 900)) * 1e6)
    changes.push(quoteFor('venuek', id, book, n + 1, clock.now()))
  }
  let n = 0
  const bench = new Bench({ name: `spread engine, ${pairs} pairs`, time: 1_500, warmupTime: 300, retainSamples: true })
  bench.add('quote change → record → ranking', () => {
    const q = changes[n++ & 4_095] as Quote
    venues.venuek.setQuote(q)
    engine.send({ type: 'quotes', venue: 'venuek', quotes: [q] })
  })
  await bench.run()
  engine.stop()
  const r = bench.tasks[0]?.result
  if (r === undefined || r.state !== 'completed') throw new Error('engine bench did not complete')
  return { pairs, medianNs: r.latency.p50 * 1e6, p99Ns: r.latency.p99 * 1e6 }
}

export async function benchSpreadEngine(): Promise<EngineFigure[]> {
  const out: EngineFigure[] = []
  for (const pairs of [1_000, 10_000, 100_000]) out.push(await measure(pairs))
  return out
}
