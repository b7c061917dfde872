import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { Bench } from 'tinybench'
import { PublishedQuote } from '../src/actors/published-quote.js'
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
  /** Each round's median (ns), in round order: the rounds of all sizes alternate, so round i of each is comparable. */
  readonly roundMediansNs: readonly number[]
}

/** Rounds per size, each `ROUND_MS` after `WARMUP_MS` of warm-up; the samples of all rounds are pooled. */
const ROUNDS = 6
const ROUND_MS = 400
const WARMUP_MS = 100

/** A venue's instruments as the venue actor holds them: one live state record per instrument, usable as a handle. */
interface State {
  readonly id: string
  readonly slot: number
  quote: Quote | undefined
  readonly book: OrderBook
  readonly stats: undefined
  readonly retired: false
}

class Source implements QuoteSource {
  readonly states = new Map<string, State>()
  add(id: string, book: OrderBook, quote: Quote): State {
    const state: State = { id, slot: quote.instrumentSlot as number, quote, book, stats: undefined, retired: false }
    this.states.set(id, state)
    return state
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

/** The quote the venue actor would publish for the book (built the same way: src/actors/published-quote.ts). */
function quoteFor(venue: VenueId, id: string, slot: number, book: OrderBook, seq: number, now: number): Quote {
  const bestBid = (book.bestBid() as number) / 1e6
  const bestAsk = (book.bestAsk() as number) / 1e6
  const bidSize = (book.bestBidSize() as number) / 1e6
  const askSize = (book.bestAskSize() as number) / 1e6
  return new PublishedQuote(venue, id, bestBid, bidSize, bestAsk, askSize, undefined, (bestBid + bestAsk) / 2, now, now, false, seq, slot)
}

function ladder(mid: number, rng: Rng): OrderBook {
  const book = new OrderBook()
  const levels = (side: 1 | -1) => Array.from({ length: 10 }, (_, i) => [Math.round((mid + side * (0.01 + i * 0.01)) * 1e6), (10 + rng.int(0, 500)) * 1e6] as const)
  book.applySnapshot(levels(-1), levels(1))
  return book
}

/**
 * N pairs with their books and quotes, an engine over them, and the timed call. Before each call, untimed, a
 * venuek instrument's best bid is re-sized and its quote rebuilt and stored, as the venue actor does when it
 * applies a frame (the ingest bench times that part); the timed call is what follows in the service: the quote
 * sent to the spread actor, which recomputes the pair (record, executable edge, confidence) and moves it in both
 * indexes. The moving instruments are 4,096 draws at random among the N.
 */
function setup(pairs: number): { readonly pairs: number; readonly beforeEach: () => void; readonly change: () => void; readonly stop: () => void } {
  const rng = new Rng(pairs)
  const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
  const venues = { venuep: new Source(), venuek: new Source() }
  const specs: SpreadPairSpec[] = []
  const venuekStates: State[] = []
  for (let i = 0; i < pairs; i++) {
    const mid = 0.1 + rng.next() * 0.8
    const ids = { venuep: `p${i}`, venuek: `k${i}` }
    for (const venue of ['venuep', 'venuek'] as const) {
      const book = ladder(Math.min(0.85, Math.max(0.15, mid + (rng.next() - 0.5) * 0.1)), rng)
      const state = venues[venue].add(ids[venue], book, quoteFor(venue, ids[venue], i, book, 0, clock.now()))
      if (venue === 'venuek') venuekStates.push(state)
    }
    specs.push({
      key: `e${i}|text:yes`, eventSlug: `e${i}`, eventTitle: `E${i}`, outcomeKey: 'text:yes', outcomeTitle: 'Yes',
      venuep: outcome('venuep', ids.venuep), venuek: outcome('venuek', ids.venuek), venuepUrl: '', venuekUrl: '', strategy: 'event_key', quality: 'auto_high',
    })
  }
  const engine = new SpreadEngine({ venues, clock, log: silentLogger, rescoreMs: 3_600_000 })
  engine.start()
  engine.send({ type: 'pairs', specs })
  const moving = Array.from({ length: 4_096 }, () => venuekStates[rng.int(0, pairs - 1)] as State)
  const sizes = Array.from({ length: 4_096 }, () => (10 + rng.int(0, 900)) * 1e6)
  let n = 0
  let quote: Quote | undefined
  const beforeEach = () => {
    const state = moving[n & 4_095] as State
    state.book.setLevel('bid', state.book.bestBid() as number, sizes[(n * 7) & 4_095] as number)
    quote = quoteFor('venuek', state.id, state.slot, state.book, ++n, clock.now())
    state.quote = quote
  }
  const change = () => {
    engine.send({ type: 'quotes', venue: 'venuek', quotes: [quote as Quote] })
  }
  // tinybench calls the task once without its hook (to see whether it is async): that call needs a quote too.
  beforeEach()
  const stop = () => {
    if (engine.status !== 'running' || engine.recomputed < pairs + 4_096) throw new Error(`engine bench: the engine is ${engine.status} after ${engine.recomputed} recomputes`)
    engine.stop()
  }
  return { pairs, beforeEach, change, stop }
}

/** One round at one size: tinybench's single-call samples (ms, sorted). */
async function round(s: ReturnType<typeof setup>): Promise<readonly number[]> {
  const bench = new Bench({ name: `spread engine, ${s.pairs} pairs`, time: ROUND_MS, warmupTime: WARMUP_MS, retainSamples: true })
  bench.add('quote change → record → ranking', s.change, { beforeEach: s.beforeEach })
  await bench.run()
  const r = bench.tasks[0]?.result
  if (r === undefined || r.state !== 'completed' || r.latency.samples === undefined) throw new Error('engine bench did not complete')
  return r.latency.samples
}

/**
 * Each size lives in a worker thread of its own (its own heap, so one size's garbage collection never lands in
 * another's samples), and the rounds alternate the sizes, so a drift in this shared VM's speed (±30% over
 * seconds) falls on every size alike instead of on whichever ran last. The workers take turns: one runs while
 * the others wait for their next round.
 */
export async function benchSpreadEngine(sizes: readonly number[] = [1_000, 10_000, 100_000]): Promise<EngineFigure[]> {
  const workers = await Promise.all(sizes.map(startSizeWorker))
  const samples = sizes.map((): number[] => [])
  const medians = sizes.map((): number[] => [])
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, w] of workers.entries()) {
        const got = Array.from(await w.round())
        for (const x of got) (samples[i] as number[]).push(x)
        ;(medians[i] as number[]).push(quantile(got, 0.5))
      }
    }
  } finally {
    await Promise.all(workers.map((w) => w.stop()))
  }
  return sizes.map((pairs, i) => {
    const all = (samples[i] as number[]).sort((a, b) => a - b)
    return { pairs, medianNs: quantile(all, 0.5) * 1e6, p99Ns: quantile(all, 0.99) * 1e6, roundMediansNs: (medians[i] as number[]).map((m) => m * 1e6) }
  })
}

interface SizeWorker {
  /** Runs one round in the worker; its samples (ms, sorted). */
  round(): Promise<Float64Array>
  /** Checks the engine kept running through every round, then ends the worker. */
  stop(): Promise<void>
}

type WorkerRequest = 'round' | 'stop'
type WorkerReply = 'ready' | Float64Array | { readonly stopped: true; readonly error?: string }

/**
 * The young generation is set to the main thread's default (a worker's is smaller, which made every size collect
 * garbage more often than the service does).
 */
async function startSizeWorker(pairs: number): Promise<SizeWorker> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { spreadEngineBench: pairs }, resourceLimits: { maxYoungGenerationSizeMb: 48 } })
  const ask = (request?: WorkerRequest) =>
    new Promise<WorkerReply>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
      if (request !== undefined) worker.postMessage(request)
    })
  await ask() // 'ready': the world is built
  return {
    round: async () => (await ask('round')) as Float64Array,
    stop: async () => {
      const reply = (await ask('stop')) as { readonly error?: string }
      await worker.terminate()
      if (reply.error !== undefined) throw new Error(reply.error)
    },
  }
}

/** The worker side: build one size's world, then run a round per request. */
if (!isMainThread && typeof workerData?.spreadEngineBench === 'number' && parentPort !== null) {
  const port = parentPort
  const s = setup(workerData.spreadEngineBench as number)
  settleHeap()
  port.on('message', (request: WorkerRequest) => {
    if (request === 'stop') {
      let error: string | undefined
      try {
        s.stop()
      } catch (err) {
        error = err instanceof Error ? err.message : String(err)
      }
      port.postMessage({ stopped: true, error } satisfies WorkerReply)
      return
    }
    round(s).then((samples) => {
      const out = Float64Array.from(samples)
      port.postMessage(out, [out.buffer])
    })
  })
  port.postMessage('ready' satisfies WorkerReply)
}

/**
 * Two full collections before the first round. The world was just built; until a full collection has compacted
 * it, the first rounds at 10,000 and 100,000 pairs ran 2-3× slower than the later ones (its objects scattered over
 * the heap), which says more about the bench's set-up than about a service that has been running for a minute.
 */
function settleHeap(): void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
  gc()
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number
}
