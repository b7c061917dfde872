import { SimulatedClock } from '../../../../src/core/clock.js'
import { silentLogger } from '../../../../src/core/logger.js'
import type { Outcome, Quote, VenueId } from '../../../../src/model/types.js'
import { spreadRoutes } from '../../../../src/http/routes/spreads.js'
import type { AnyRoute } from '../../../../src/http/route.js'
import type { RequestContext } from '../../../../src/http/server.js'
import { compileRequestValidator } from '../../../../src/http/validation.js'
import { SpreadEngine, type QuoteSource, type SpreadPairSpec } from '../../../../src/spreads/engine/spread-engine.js'
import { Sequencer, type FrameSink } from '../../../../src/stream/sequencer.js'
import { PageCache } from '../../../../src/views/page-cache.js'
import { testOutcome } from '../../../helpers/outcomes.js'

/**
 * A real spread engine over two venues whose quotes the test sets, a sequencer with a recording sink, and the
 * REST spread routes on the same engine (the reference the stream is held to).
 */
export const T0 = Date.UTC(2026, 10, 21, 12)

export class FakeVenue implements QuoteSource {
  readonly quotes = new Map<string, Quote>()
  #seq = 0
  constructor(readonly venue: VenueId) {}
  quote(id: string): Quote | undefined {
    return this.quotes.get(id)
  }
  book(): undefined {
    return undefined
  }
  set(id: string, probability: number | undefined, at: number, stale = false): Quote {
    const q: Quote = {
      venue: this.venue,
      instrumentId: id,
      bestBid: undefined,
      bestBidSize: undefined,
      bestAsk: undefined,
      bestAskSize: undefined,
      lastTradePrice: undefined,
      probability,
      venueTs: at,
      receivedAt: at,
      stale,
      seq: ++this.#seq,
    }
    this.quotes.set(id, q)
    return q
  }
}

export class RecordingSink implements FrameSink {
  readonly frames: { topic: string; frame: Record<string, unknown> }[] = []
  publish(topic: string, frame: string): void {
    this.frames.push({ topic, frame: JSON.parse(frame) as Record<string, unknown> })
  }
  /** The frames of one topic, in order. */
  of(topic: string): Record<string, unknown>[] {
    return this.frames.filter((f) => f.topic === topic).map((f) => f.frame)
  }
}

function outcome(venue: VenueId, id: string, volume: number): Outcome {
  return testOutcome(id, { venue, marketId: `m-${id}`, eventId: `e-${id}`, volume, marketVolume: volume })
}

/** Pair `i`: event `event-<i % 3>`, outcome `text:o<i>`, instruments `p<i>` and `k<i>`. */
export function pairSpec(i: number, volume = 50_000): SpreadPairSpec {
  const eventSlug = `event-${i % 3}`
  return {
    key: `${eventSlug}|text:o${i}`,
    eventSlug,
    eventTitle: `Event ${i % 3}`,
    category: ['politics', 'sports', 'economics'][i % 3] as string,
    outcomeKey: `text:o${i}`,
    outcomeTitle: `o${i}`,
    a: { venue: 'venuep', outcome: outcome('venuep', `p${i}`, volume), url: `https://venuep.example/p${i}` },
    b: { venue: 'venuek', outcome: outcome('venuek', `k${i}`, volume), url: `https://venuek.example/k${i}` },
    strategy: 'event_key',
    quality: 'auto_high',
    match: {
      quality: 'auto_high',
      weight: 0.95,
      manual: false,
      a: { venue: 'venuep', outcomeId: `p${i}`, text: [] },
      b: { venue: 'venuek', outcomeId: `k${i}`, text: [] },
      evidence: undefined,
    },
  }
}

export interface World {
  readonly clock: SimulatedClock
  readonly p: FakeVenue
  readonly k: FakeVenue
  readonly engine: SpreadEngine
  readonly sink: RecordingSink
  readonly sequencer: Sequencer
  /** Sets a quote and tells the engine, as the venue actor would. */
  quote(venue: 'p' | 'k', i: number, probability: number | undefined, stale?: boolean): void
  /** The REST answer of GET /api/v2/spreads/top?<query> (`top`) or /api/v2/spreads?<query> (`scan`), parsed. */
  rest(route: 'top' | 'scan', query: string): Promise<{ data: Record<string, unknown>[] }>
}

export function world(pairs: number): World {
  const clock = new SimulatedClock(T0)
  const p = new FakeVenue('venuep')
  const k = new FakeVenue('venuek')
  // The periodic sweep is left to the tests (`rescore`), so nothing runs in slices behind their back.
  const engine = new SpreadEngine({
    venues: new Map<VenueId, QuoteSource>([
      ['venuep', p],
      ['venuek', k],
    ]),
    clock,
    log: silentLogger,
    rescoreMs: 1e12,
  })
  engine.start()
  engine.send({ type: 'pairs', specs: Array.from({ length: pairs }, (_, i) => pairSpec(i)) })
  const sink = new RecordingSink()
  const sequencer = new Sequencer({ clock, sink, epoch: 'e1' })
  const terms = { outcomeId: 'id', text: 'text' } as never
  const routes = spreadRoutes({
    engine,
    clock,
    pages: new PageCache(),
    venues: [
      { id: 'venuep', matchTerms: terms },
      { id: 'venuek', matchTerms: terms },
    ],
  })
  const route = (operationId: string) => {
    const r = routes.find((x) => x.operationId === operationId) as AnyRoute
    return { r, validator: compileRequestValidator(r) }
  }
  const served = { top: route('topSpreads'), scan: route('listSpreads') }
  return {
    clock,
    p,
    k,
    engine,
    sink,
    sequencer,
    quote(venue, i, probability, stale = false) {
      const v = venue === 'p' ? p : k
      const q = v.set(`${venue}${i}`, probability, clock.now(), stale)
      engine.send({ type: 'quotes', venue: v.venue, quotes: [q] })
    },
    async rest(which, query) {
      const { r, validator } = served[which]
      const input = validator.validate({ query, params: {}, headers: {}, body: undefined })
      if (!input.ok) throw new Error(`bad query ${query}`)
      const reply = (await r.handler(input.input, {} as RequestContext)) as { body: string | Uint8Array }
      const text = typeof reply.body === 'string' ? reply.body : Buffer.from(reply.body).toString('utf8')
      return JSON.parse(text) as { data: Record<string, unknown>[] }
    },
  }
}
