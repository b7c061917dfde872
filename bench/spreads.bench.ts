import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { Bench } from 'tinybench'
import { PublishedQuote } from '../src/actors/published-quote.js'
import { OrderBook } from '../src/book/order-book.js'
import { SimulatedClock } from '../src/core/clock.js'
import { silentLogger } from '../src/core/logger.js'
import type { Outcome, VenueId } from '../src/model/types.js'
import { Rng } from '../src/sim/world/random.js'
import { testOutcome } from '../test/helpers/outcomes.js'
import {
  SpreadEngine,
  type QuoteSource,
  type SpreadPairSpec,
  type SpreadRecord,
} from '../src/spreads/engine/spread-engine.js'
import {
  compareBy,
  inOrder,
  NO_EDGE_FILTER,
  selectSpreads,
  type EdgeFilter,
  type SpreadSort,
} from '../src/spreads/engine/spread-query.js'
import { quantile } from './harness.js'

/**
 * Quote change → updated ranking: a venue quote change sent to the spread actor, which recomputes the pair it
 * belongs to (record, executable edge from both books, confidence) and moves it in both indexes. Measured per
 * affected pair at 1,000, 10,000 and 100,000 matched pairs; the cost should not grow with the pair count.
 *
 * Which instruments move is the workload, and it is run two ways over the same world:
 * - `active-set`: the same number of distinct instruments move at every size (ACTIVE_INSTRUMENTS, drawn at random
 *   among the N, each change one of them at random). Only the number of pairs the engine holds varies, which is
 *   what the growth target is about: whether the engine's own work per change (the pair's recompute, both index
 *   moves) depends on how many other pairs it holds. Quote activity on the venues is concentrated like this: a few
 *   hundred markets carry most changes whatever the size of the catalogue.
 * - `all-pairs`: each change picks an instrument at random among all N. Then the data touched per change grows with
 *   N as well (the rows of all 1,000 pairs take a few hundred kB; at 100,000 pairs they are spread over a ~440 MB
 *   heap), and the growth measures the memory hierarchy as much as the engine: reported beside the judged figure,
 *   not instead of it.
 */
export type EngineWorkload = 'active-set' | 'all-pairs'

/** Every workload, in the order the rounds run and the figures come back. */
export const WORKLOADS: readonly EngineWorkload[] = ['active-set', 'all-pairs']

/** Distinct instruments that move in the `active-set` workload, at every size (all of them at 1,000 pairs). */
export const ACTIVE_INSTRUMENTS = 1_000

export interface EngineFigure {
  readonly pairs: number
  readonly workload: EngineWorkload
  /** Median nanoseconds per quote change (one affected pair each). */
  readonly medianNs: number
  readonly p99Ns: number
  /** Each round's median (ns), in round order: the rounds of all sizes alternate, so round i of each is comparable. */
  readonly roundMediansNs: readonly number[]
}

/** Rounds per size, each `ROUND_MS` after `WARMUP_MS` of warm-up; the samples of all rounds are pooled. */
const ROUNDS = 8
const ROUND_MS = 400
const WARMUP_MS = 100

/** A venue's instruments as the venue actor holds them: one live state record per instrument, usable as a handle. */
interface State {
  readonly id: string
  readonly slot: number
  quote: PublishedQuote | undefined
  readonly book: OrderBook
  readonly stats: undefined
  readonly retired: false
}

class Source implements QuoteSource {
  readonly states = new Map<string, State>()
  add(id: string, book: OrderBook, quote: PublishedQuote): State {
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
  return testOutcome(id, {
    venue,
    marketId: `m-${id}`,
    eventId: `e-${id}`,
    volume: 50_000,
    marketVolume: 50_000,
    fees: venue === 'venuek' ? { kind: 'curve', rate: 0.07, exponent: 1 } : undefined,
  })
}

/** The instrument's quote rewritten for the book (`into`, else a new one), as the venue actor does (src/actors/published-quote.ts). */
function quoteFor(
  venue: VenueId,
  id: string,
  slot: number,
  book: OrderBook,
  seq: number,
  now: number,
  into?: PublishedQuote,
): PublishedQuote {
  const bestBid = (book.bestBid() as number) / 1e6
  const bestAsk = (book.bestAsk() as number) / 1e6
  const bidSize = (book.bestBidSize() as number) / 1e6
  const askSize = (book.bestAskSize() as number) / 1e6
  return (into ?? new PublishedQuote(venue, id, slot))
    .setPrices(bestBid, bidSize, bestAsk, askSize, undefined, (bestBid + bestAsk) / 2)
    .stamp(now, now, false, seq)
}

function ladder(mid: number, rng: Rng): OrderBook {
  const book = new OrderBook()
  const levels = (side: 1 | -1) =>
    Array.from(
      { length: 10 },
      (_, i) => [Math.round((mid + side * (0.01 + i * 0.01)) * 1e6), (10 + rng.int(0, 500)) * 1e6] as const,
    )
  book.applySnapshot(levels(-1), levels(1))
  return book
}

/**
 * N pairs with their books and quotes, an engine over them, and the timed call. Before each call, untimed, a
 * venuek instrument's best bid is re-sized and its quote rewritten in place, as the venue actor does when it
 * applies a frame (the ingest bench times that part); the timed call is what follows in the service: the quote
 * sent to the spread actor, which recomputes the pair (record, executable edge, confidence) and moves it in both
 * indexes. Which instrument moves follows the workload set before the round (see EngineWorkload).
 */
interface SizeSetup {
  readonly pairs: number
  readonly engine: SpreadEngine
  workload: EngineWorkload
  readonly beforeEach: () => void
  readonly change: () => void
  readonly stop: () => void
}

export function setup(pairs: number): SizeSetup {
  const rng = new Rng(pairs)
  const clock = new SimulatedClock(Date.UTC(2026, 10, 21, 12))
  const venues = { venuep: new Source(), venuek: new Source() }
  const specs: SpreadPairSpec[] = []
  // The engine never reads a pair's explanation; one shared object stands for all of them.
  const BENCH_MATCH = {
    quality: 'auto_high',
    weight: 0.9,
    manual: false,
    a: { venue: 'venuep', outcomeId: 'p', text: [] },
    b: { venue: 'venuek', outcomeId: 'k', text: [] },
    evidence: undefined,
  } as const
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
      key: `e${i}|text:yes`,
      eventSlug: `e${i}`,
      eventTitle: `E${i}`,
      category: 'politics',
      outcomeKey: 'text:yes',
      outcomeTitle: 'Yes',
      a: { venue: 'venuep', outcome: outcome('venuep', ids.venuep), url: '' },
      b: { venue: 'venuek', outcome: outcome('venuek', ids.venuek), url: '' },
      strategy: 'event_key',
      quality: 'auto_high',
      match: BENCH_MATCH,
    })
  }
  const engine = new SpreadEngine({
    venues: new Map<VenueId, QuoteSource>([
      ['venuep', venues.venuep],
      ['venuek', venues.venuek],
    ]),
    clock,
    log: silentLogger,
    rescoreMs: 3_600_000,
  })
  engine.start()
  engine.send({ type: 'pairs', specs })
  const active = drawDistinct(rng, venuekStates, Math.min(ACTIVE_INSTRUMENTS, pairs))
  const sizes = Array.from({ length: 4_096 }, () => (10 + rng.int(0, 900)) * 1e6)
  let n = 0
  let quote: PublishedQuote | undefined
  const beforeEach = () => {
    const state = (
      s.workload === 'active-set' ? active[rng.int(0, active.length - 1)] : venuekStates[rng.int(0, pairs - 1)]
    ) as State
    state.book.setLevel('bid', state.book.bestBid() as number, sizes[(n * 7) & 4_095] as number)
    quote = quoteFor('venuek', state.id, state.slot, state.book, ++n, clock.now(), state.quote)
    state.quote = quote
  }
  const change = () => {
    engine.send({ type: 'quotes', venue: 'venuek', quotes: [quote as PublishedQuote] })
  }
  const stop = () => {
    if (engine.status !== 'running' || engine.recomputed < pairs + 4_096)
      throw new Error(`engine bench: the engine is ${engine.status} after ${engine.recomputed} recomputes`)
    engine.stop()
  }
  const s: SizeSetup = { pairs, engine, workload: 'active-set', beforeEach, change, stop }
  // tinybench calls the task once without its hook (to see whether it is async): that call needs a quote too.
  beforeEach()
  return s
}

/** `count` distinct members of `from`, at random (a partial Fisher-Yates shuffle of a copy). */
function drawDistinct<T>(rng: Rng, from: readonly T[], count: number): T[] {
  const pool = from.slice()
  for (let i = 0; i < count; i++) {
    const j = rng.int(i, pool.length - 1)
    const t = pool[i] as T
    pool[i] = pool[j] as T
    pool[j] = t
  }
  return pool.slice(0, count)
}

/** One round at one size: tinybench's single-call samples (ms, sorted). */
async function round(s: SizeSetup): Promise<readonly number[]> {
  const bench = new Bench({
    name: `spread engine, ${s.pairs} pairs, ${s.workload}`,
    time: ROUND_MS,
    warmupTime: WARMUP_MS,
    retainSamples: true,
  })
  bench.add('quote change → record → ranking', s.change, { beforeEach: s.beforeEach })
  await bench.run()
  const r = bench.tasks[0]?.result
  if (r === undefined || r.state !== 'completed' || r.latency.samples === undefined)
    throw new Error('engine bench did not complete')
  return r.latency.samples
}

/**
 * Each size lives in a worker thread of its own (its own heap, so one size's garbage collection never lands in
 * another's samples), and the rounds alternate the sizes and the workloads, so a drift in this shared VM's speed
 * (±30% over seconds) falls on every size alike instead of on whichever ran last. The workers take turns: one runs
 * while the others wait for their next round. Figures come back per workload, sizes in the order given.
 */
export async function benchSpreadEngine(sizes: readonly number[] = [1_000, 10_000, 100_000]): Promise<EngineFigure[]> {
  const workers = await Promise.all(sizes.map(startSizeWorker))
  const runs = WORKLOADS.flatMap((workload) =>
    sizes.map((pairs, i) => ({
      workload,
      pairs,
      worker: workers[i] as SizeWorker,
      samples: [] as number[],
      medians: [] as number[],
    })),
  )
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const run of runs) {
        const got = Array.from(await run.worker.round(run.workload))
        for (const x of got) run.samples.push(x)
        run.medians.push(quantile(got, 0.5))
      }
    }
  } finally {
    await Promise.all(workers.map((w) => w.stop()))
  }
  return runs.map(({ workload, pairs, samples, medians }) => {
    const all = samples.sort((a, b) => a - b)
    return {
      pairs,
      workload,
      medianNs: quantile(all, 0.5) * 1e6,
      p99Ns: quantile(all, 0.99) * 1e6,
      roundMediansNs: medians.map((m) => m * 1e6),
    }
  })
}

interface SizeWorker {
  /** Runs one round of `workload` in the worker; its samples (ms, sorted). */
  round(workload: EngineWorkload): Promise<Float64Array>
  /** Checks the engine kept running through every round, then ends the worker. */
  stop(): Promise<void>
}

type WorkerRequest = { readonly round: EngineWorkload } | 'stop'
type WorkerReply = 'ready' | Float64Array | { readonly stopped: true; readonly error?: string }

/**
 * The young generation is set to the main thread's default (a worker's is smaller, which made every size collect
 * garbage more often than the service does).
 */
async function startSizeWorker(pairs: number): Promise<SizeWorker> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { spreadEngineBench: pairs },
    resourceLimits: { maxYoungGenerationSizeMb: 48 },
  })
  const ask = (request?: WorkerRequest) =>
    new Promise<WorkerReply>((resolve, reject) => {
      const onMessage = (reply: WorkerReply) => {
        worker.off('error', reject)
        resolve(reply)
      }
      worker.once('message', onMessage)
      worker.once('error', reject)
      if (request !== undefined) worker.postMessage(request)
    })
  await ask() // 'ready': the world is built
  return {
    round: async (workload) => (await ask({ round: workload })) as Float64Array,
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
    s.workload = request.round
    // Fire and forget: a failed round rejects unhandled, which ends the worker with an 'error' event, and the
    // main thread's `ask` rejects with it.
    void round(s).then((samples) => {
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

// ------------------------------------------------------------------------------------------ list selection

/**
 * Building a top list of 20 (what /spreads/top does on a cache miss, and on every request with a `sort` or an
 * edge filter, before the JSON): `selectSpreads` (src/spreads/engine/spread-query.ts) on the same worlds as the engine
 * figures, for each sort and with `executable_only`, beside the naive way (sort every record, then slice) that
 * the indexes avoid (with each record's key read once). Each list is first checked against a plain sort.
 */
export interface ListFigure {
  readonly pairs: number
  readonly list: string
  readonly medianNs: number
  readonly p99Ns: number
  /** Records in the world with a positive net edge and size (what `executable_only` keeps). */
  readonly executable: number
}

const LIST_CASES: readonly { readonly list: string; readonly sort: SpreadSort; readonly edge: EdgeFilter }[] = [
  { list: 'top 20 by confidence', sort: 'confidence', edge: NO_EDGE_FILTER },
  { list: 'top 20 by spread', sort: 'spread', edge: NO_EDGE_FILTER },
  { list: 'top 20 by net_edge', sort: 'net_edge', edge: NO_EDGE_FILTER },
  {
    list: 'top 20 by net_edge, executable_only',
    sort: 'net_edge',
    edge: { executableOnly: true, minNetEdge: undefined },
  },
  {
    list: 'top 20 by confidence, executable_only',
    sort: 'confidence',
    edge: { executableOnly: true, minNetEdge: undefined },
  },
  {
    list: 'top 20 by confidence, min_net_edge=-0.05',
    sort: 'confidence',
    edge: { executableOnly: false, minNetEdge: -0.05 },
  },
]

const LIST_LIMIT = 20

export async function benchSpreadLists(sizes: readonly number[] = [1_000, 10_000, 100_000]): Promise<ListFigure[]> {
  const figures: ListFigure[] = []
  for (const pairs of sizes) {
    const s = setup(pairs)
    const engine = s.engine
    const all: SpreadRecord[] = []
    engine.bySpread(0, (r) => {
      all.push(r)
    })
    const executable = all.filter(
      (r) => r.executable !== undefined && r.executable.netEdge > 0 && r.executable.size > 0,
    ).length
    // Rows that can be traded are rare in the venues' books (far rarer than in this world's): a bound only 1% of
    // the records pass, so a list by another sort cannot fill from a short walk of its own index.
    const edges = all.flatMap((r) => (r.executable === undefined ? [] : [r.executable.netEdge])).sort((a, b) => b - a)
    const rare: EdgeFilter = { executableOnly: false, minNetEdge: edges[Math.floor(pairs / 100) - 1] as number }
    const allCases = [
      ...LIST_CASES,
      {
        list: 'top 20 by confidence, min_net_edge passed by 1% of the records',
        sort: 'confidence' as const,
        edge: rare,
      },
    ]
    const cases = [
      ...allCases.map((c) => ({
        list: c.list,
        run: () =>
          selectSpreads(engine, { sort: c.sort, edge: c.edge, keep: () => true, minSpread: 0, limit: LIST_LIMIT }),
        c,
      })),
      {
        list: 'naive: sort every record by net_edge, slice 20',
        run: () => inOrder(all, 'net_edge').slice(0, LIST_LIMIT),
        c: undefined,
      },
    ]
    for (const { list, run, c } of cases) {
      if (c !== undefined) {
        const naive = [...all]
          .filter((r) => passes(r, c.edge))
          .sort(compareBy(c.sort))
          .slice(0, LIST_LIMIT)
        if (
          run()
            .map((r) => r.pairId)
            .join() !== naive.map((r) => r.pairId).join()
        )
          throw new Error(`list bench: ${list} at ${pairs} pairs differs from the naive list`)
      }
      const bench = new Bench({
        name: `${list}, ${pairs} pairs`,
        time: ROUND_MS,
        warmupTime: WARMUP_MS,
        retainSamples: true,
      })
      bench.add(list, run)
      await bench.run()
      const r = bench.tasks[0]?.result
      if (r === undefined || r.state !== 'completed' || r.latency.samples === undefined)
        throw new Error('list bench did not complete')
      const samples = [...r.latency.samples].sort((a, b) => a - b)
      figures.push({
        pairs,
        list,
        medianNs: quantile(samples, 0.5) * 1e6,
        p99Ns: quantile(samples, 0.99) * 1e6,
        executable,
      })
    }
    engine.stop()
  }
  return figures
}

function passes(r: SpreadRecord, edge: EdgeFilter): boolean {
  const x = r.executable
  if (!edge.executableOnly && edge.minNetEdge === undefined) return true
  if (x === undefined) return false
  return (
    (!edge.executableOnly || (x.netEdge > 0 && x.size > 0)) &&
    (edge.minNetEdge === undefined || x.netEdge >= edge.minNetEdge)
  )
}
