import { Actor } from '../core/actor.js'
import type { Clock, TimerHandle } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import { runInSlices, runToEnd, SLICE_BUDGET_MS } from '../core/slices.js'
import type { Outcome, Quote, VenueId } from '../model/types.js'
import type { BookReader } from '../book/order-book.js'
import { BucketIndex } from './bucket-index.js'
import { confidence } from './confidence.js'
import { executableEdge, type Executable } from './executable.js'
import type { MatchingStrategy, MatchQuality } from './matcher.js'
import { pairsPlanSteps, type PairState, type PairsPlan } from './pair-plan.js'

/**
 * The spread actor. It owns one record per matched outcome pair and keeps two indexes current (by confidence
 * for /spreads/top, by spread size for the scanner). A quote change recomputes only the pairs of that
 * instrument; a sweep once a minute re-scores pairs whose freshness moved (freshness changes with time alone).
 * Readers get immutable `SpreadRecord`s; subscribers (history, alerts, the stream) get every change.
 *
 * New pairs (after every catalog change) come either as `pairs` (installed and recomputed in one go: tests,
 * small sets) or through `setPairsInSlices`: the plan is built in event-loop slices, installed in one short step,
 * and the records are recomputed for a budget at once and the rest in chunks (`recompute_pending` messages sent
 * by a computation on the shared slice scheduler, src/core/slices.ts), each chunk's changes emitted as it goes.
 * Until its chunk comes, a continued pair keeps its previous record (same instruments, so the same prices; only
 * catalog fields such as volumes lag, by milliseconds); a quote for it recomputes it at once. The periodic
 * sweep (~0.1 s at 20,000 pairs) runs the same way.
 */
export interface SpreadPairSpec {
  /** `${eventSlug}|${outcomeKey}`: stable across restarts, so history and alerts can refer to it. */
  readonly key: string
  readonly eventSlug: string
  readonly eventTitle: string
  readonly outcomeKey: string
  readonly outcomeTitle: string
  readonly venuep: Outcome
  readonly venuek: Outcome
  readonly venuepUrl: string
  readonly venuekUrl: string
  readonly strategy: MatchingStrategy
  readonly quality: MatchQuality
}

export interface SpreadRecord {
  readonly pairId: number
  readonly key: string
  readonly eventSlug: string
  readonly eventTitle: string
  readonly outcomeTitle: string
  readonly outcomeKey: string
  /** Venue with the lower price. */
  readonly platformA: VenueId
  readonly platformB: VenueId
  readonly priceA: number
  readonly priceB: number
  /** priceB − priceA. */
  readonly spread: number
  readonly spreadBps: number
  readonly confidence: number
  /** Venue time of the newer quote (ms). */
  readonly updatedAt: number
  /** Venue time of the older quote (ms): staleness is judged on it. */
  readonly olderQuoteAt: number
  /** Either feed is disconnected or resyncing. */
  readonly feedStale: boolean
  readonly platformAUrl: string
  readonly platformBUrl: string
  readonly strategy: MatchingStrategy
  readonly quality: MatchQuality
  /** The thinner venue's outcome volume ($). */
  readonly minVolume: number | undefined
  readonly executable: Executable | undefined
}

export interface SpreadChange {
  readonly spec: SpreadPairSpec
  readonly record: SpreadRecord | undefined
  readonly previous: SpreadRecord | undefined
}

export type SpreadMessage =
  | { readonly type: 'pairs'; readonly specs: readonly SpreadPairSpec[] }
  /** A plan from `planPairs` (see `setPairsInSlices`). */
  | { readonly type: 'pairs_planned'; readonly plan: PairsPlan }
  /** Recomputes the next chunk of pending records (see `setPairsInSlices`). */
  | { readonly type: 'recompute_pending' }
  | { readonly type: 'quotes'; readonly venue: VenueId; readonly quotes: readonly Quote[] }
  /** `inSlices` (the engine's own timer): in budgeted chunks like a planned install, not in one go. */
  | { readonly type: 'rescore'; readonly inSlices?: boolean }

/** What the engine reads from the venue actors (synchronously, inside `process`). */
export interface QuoteSource {
  quote(instrumentId: string): Quote | undefined
  book(instrumentId: string): BookReader | undefined
  stats?(instrumentId: string): { readonly volume: number | undefined } | undefined
  /**
   * A live view of one instrument that stays current until `retired` (VenueActor's own state record). The
   * engine keeps it per pair: at 100,000 pairs the Map lookups by instrument id, which miss the CPU caches,
   * were a third of a recompute. Sources without it are read through the three lookups above.
   */
  handle?(instrumentId: string): InstrumentHandle | undefined
}

/** What a recompute reads of one instrument. */
export interface InstrumentView {
  readonly quote: Quote | undefined
  readonly book: BookReader | undefined
  readonly stats: { readonly volume: number | undefined } | undefined
}

export interface InstrumentHandle extends InstrumentView {
  /** The source no longer updates this view; look the instrument up again. */
  readonly retired: boolean
}

function viewOf(source: QuoteSource, instrumentId: string): InstrumentView {
  return { quote: source.quote(instrumentId), book: source.book(instrumentId), stats: source.stats?.(instrumentId) }
}

export interface SpreadEngineOptions {
  readonly venues: Readonly<Record<VenueId, QuoteSource>>
  readonly clock: Clock
  readonly log: Logger
  /** Freshness sweep period (ms). */
  readonly rescoreMs?: number
  /** Records recomputed at once after a planned install or sweep, in ms (default SLICE_BUDGET_MS; 0: one chunk). */
  readonly recomputeBudgetMs?: number
}

/** Records per recompute chunk (~1 ms at 20,000 pairs). */
const CHUNK = 64

export class SpreadEngine extends Actor<SpreadMessage> {
  readonly #o: SpreadEngineOptions
  /** Pair id → state (ids are dense). */
  #pairs: (PairState | undefined)[] = []
  #byKey = new Map<string, PairState>()
  /** Per venue: instrument id → the pairs it prices (no key concatenation on the hot path). */
  #byInstrument: Record<VenueId, Map<string, PairState[]>> = { venuep: new Map(), venuek: new Map() }
  #byEvent = new Map<string, PairState[]>()
  #nextId = 1
  #confidence = new BucketIndex()
  #spread = new BucketIndex()
  #timer: TimerHandle | undefined
  /** Records still to recompute after a planned install or sweep, from `#pendingAt` on. */
  #pending: readonly PairState[] = []
  #pendingAt = 0
  /** A sliced computation is sending `recompute_pending` until nothing is pending. */
  #pendingRunning = false
  readonly #listeners = new Set<(changes: readonly SpreadChange[]) => void>()
  /** Recomputations done (benchmarks and tests read it). */
  recomputed = 0
  /**
   * Top-list epoch: bumped by any record change that can alter a cached top list, i.e. a change of a pair whose
   * old or new confidence is at or above the lowest floor a reader registered (`noteTopFloor`) since the last
   * bump. Changes further down the ranking (nearly all of them) leave the top lists' bytes valid.
   */
  #topEpoch = 0
  #topFloor = Number.NEGATIVE_INFINITY

  constructor(options: SpreadEngineOptions) {
    super('spreads')
    this.#o = options
  }

  subscribe(listener: (changes: readonly SpreadChange[]) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  // ------------------------------------------------------------------------------------------ readers

  get pairCount(): number {
    return this.#byKey.size
  }

  /** Records still to recompute after the last planned install (0 once it has settled). */
  get pendingRecomputes(): number {
    return this.#pending.length - this.#pendingAt
  }

  record(key: string): SpreadRecord | undefined {
    return this.#byKey.get(key)?.record
  }

  spec(key: string): SpreadPairSpec | undefined {
    return this.#byKey.get(key)?.spec
  }

  /** Records of one event, any spread. */
  eventRecords(eventSlug: string): SpreadRecord[] {
    return (this.#byEvent.get(eventSlug) ?? []).map((p) => p.record).filter((r): r is SpreadRecord => r !== undefined)
  }

  get topEpoch(): number {
    return this.#topEpoch
  }

  /**
   * A reader caching a top list says how far down it looked: the confidence of its last record (0 when the list
   * was not full, so any new record could join it). Until a change reaches that floor, `topEpoch` stays put.
   */
  noteTopFloor(floor: number): void {
    if (floor < this.#topFloor) this.#topFloor = floor
  }

  /** Records by confidence, highest first, while `visit` returns true. O(k) plus skipped records. */
  byConfidence(visit: (r: SpreadRecord) => boolean): void {
    this.#confidence.forEachDescending((id) => visit((this.#pairs[id] as PairState).record as SpreadRecord))
  }

  /** Records with spread ≥ minSpread, largest first. O(returned) plus skipped records. */
  bySpread(minSpread: number, visit: (r: SpreadRecord) => boolean | void): void {
    this.#spread.forEachDescending((id) => visit((this.#pairs[id] as PairState).record as SpreadRecord), minSpread)
  }

  // ------------------------------------------------------------------------------------------ lifecycle

  protected override onStart(): void {
    const period = this.#o.rescoreMs ?? 60_000
    // Re-scoring every pair is ~0.1 s at 20,000 pairs: the periodic sweep runs in chunks between other messages.
    this.#timer = this.#o.clock.setInterval(() => this.send({ type: 'rescore', inSlices: true }), period)
    // Recomputes left pending when the engine stopped go on (the computation sending them ended with the stop).
    if (this.pendingRecomputes > 0) this.#resumePending()
  }

  protected override onStop(): void {
    this.#o.clock.clearInterval(this.#timer)
  }

  /** The structural work of installing `specs`, as steps against the current pairs (read only). */
  planPairs(specs: readonly SpreadPairSpec[]): Generator<void, PairsPlan, void> {
    return pairsPlanSteps(specs, this.#byKey, this.#nextId)
  }

  /** Installs `specs` without a long block: plan in slices, install in one short step, recompute in chunks. */
  async setPairsInSlices(specs: readonly SpreadPairSpec[]): Promise<void> {
    const plan = await runInSlices(this.planPairs(specs))
    this.send({ type: 'pairs_planned', plan })
  }

  protected process(message: SpreadMessage): void {
    switch (message.type) {
      case 'pairs':
        return this.#install(runToEnd(this.planPairs(message.specs)), Number.POSITIVE_INFINITY)
      case 'pairs_planned':
        return this.#install(message.plan, this.#o.recomputeBudgetMs ?? SLICE_BUDGET_MS)
      case 'recompute_pending':
        return this.#recomputePending(0)
      case 'quotes':
        return this.#onQuotes(message.venue, message.quotes)
      case 'rescore':
        return message.inSlices === true ? this.#rescoreInSlices() : this.#rescore()
    }
  }

  /**
   * Swaps a plan in: continued pairs take their current records, gone pairs leave the indexes (a removal change
   * each), then records are recomputed for `budgetMs` (everything with an infinite budget) and the rest later.
   */
  #install(planned: PairsPlan, budgetMs: number): void {
    // A plan made against other pairs (another install came first) is redone against the current ones.
    const plan = planned.base === this.#byKey && planned.baseNextId === this.#nextId ? planned : runToEnd(this.planPairs(planned.specs))
    for (const [st, old] of plan.carried) st.record = old.record
    const changes: SpreadChange[] = []
    for (const old of plan.removed) {
      this.#touchTop(old.record, undefined)
      this.#confidence.delete(old.id)
      this.#spread.delete(old.id)
      if (old.record !== undefined) changes.push({ spec: old.spec, record: undefined, previous: old.record })
    }
    this.#byKey = plan.byKey
    this.#pairs = plan.pairs
    this.#byInstrument = plan.byInstrument
    this.#byEvent = plan.byEvent
    this.#nextId = plan.nextId
    this.#pending = plan.order
    this.#pendingAt = 0
    this.#o.log.info({ pairs: plan.byKey.size }, 'spread pairs installed')
    this.#recomputePending(budgetMs, changes)
  }

  /**
   * Recomputes pending records for about `budgetMs` (at least one chunk of CHUNK pairs); the rest is left to a
   * sliced computation that sends one `recompute_pending` per step, so the shared scheduler decides how many
   * chunks each turn of the event loop takes.
   */
  #recomputePending(budgetMs: number, changes: SpreadChange[] = []): void {
    const now = this.#o.clock.now()
    const deadline = performance.now() + budgetMs
    const pending = this.#pending
    let i = this.#pendingAt
    while (i < pending.length) {
      this.#recompute(pending[i++] as PairState, now, changes)
      if (i % CHUNK === 0 && performance.now() >= deadline) break
    }
    this.#pendingAt = i
    if (i >= pending.length) {
      this.#pending = []
      this.#pendingAt = 0
    } else {
      this.#resumePending()
    }
    this.#emit(changes)
  }

  #resumePending(): void {
    if (this.#pendingRunning) return
    this.#pendingRunning = true
    runInSlices(this.#pendingSteps()).then(
      () => (this.#pendingRunning = false),
      () => (this.#pendingRunning = false),
    )
  }

  *#pendingSteps(): Generator<void, void, void> {
    // `send` processes at once (the actor is idle between turns); false once the actor stopped or failed.
    while (this.pendingRecomputes > 0 && this.send({ type: 'recompute_pending' })) yield
  }

  /** The sweep as pending recomputes; a recompute already pending (after an install) covers every pair anyway. */
  #rescoreInSlices(): void {
    if (this.pendingRecomputes > 0) return
    const pending: PairState[] = []
    for (const p of this.#byKey.values()) if (p.record !== undefined) pending.push(p)
    this.#pending = pending
    this.#pendingAt = 0
    this.#recomputePending(this.#o.recomputeBudgetMs ?? SLICE_BUDGET_MS)
  }

  #onQuotes(venue: VenueId, quotes: readonly Quote[]): void {
    const now = this.#o.clock.now()
    const changes: SpreadChange[] = []
    const byInstrument = this.#byInstrument[venue]
    for (const q of quotes) {
      const pairs = byInstrument.get(q.instrumentId)
      if (pairs !== undefined) for (const p of pairs) this.#recompute(p, now, changes)
    }
    this.#emit(changes)
  }

  /** Freshness moves with time alone: re-score every pair that has a record (once a minute by default). */
  #rescore(): void {
    const now = this.#o.clock.now()
    const changes: SpreadChange[] = []
    for (const p of this.#byKey.values()) if (p.record !== undefined) this.#recompute(p, now, changes)
    this.#emit(changes)
  }

  #recompute(p: PairState, now: number, changes: SpreadChange[]): void {
    this.recomputed++
    const previous = p.record
    const record = recordOf(p.id, p.spec, this.#view(p, 'venuep'), this.#view(p, 'venuek'), now)
    p.record = record
    this.#touchTop(previous, record)
    if (record === undefined) {
      this.#confidence.delete(p.id)
      this.#spread.delete(p.id)
    } else {
      this.#confidence.set(p.id, record.confidence)
      this.#spread.set(p.id, record.spread)
    }
    if (!sameRecord(previous, record)) changes.push({ spec: p.spec, record, previous })
  }

  /** The pair's handle on one of its instruments, looked up again only when missing or retired. */
  #view(p: PairState, venue: VenueId): InstrumentView {
    const held = venue === 'venuep' ? p.venuepHandle : p.venuekHandle
    if (held !== undefined && !held.retired) return held
    const source = this.#o.venues[venue]
    const id = venue === 'venuep' ? p.spec.venuep.instrumentId : p.spec.venuek.instrumentId
    const handle = source.handle?.(id)
    if (venue === 'venuep') p.venuepHandle = handle
    else p.venuekHandle = handle
    return handle ?? viewOf(source, id)
  }

  #touchTop(previous: SpreadRecord | undefined, next: SpreadRecord | undefined): void {
    const floor = this.#topFloor
    if ((previous !== undefined && previous.confidence >= floor) || (next !== undefined && next.confidence >= floor)) {
      this.#topEpoch++
      // Every cached list is invalid now; each re-registers its floor when it is rebuilt.
      this.#topFloor = Number.POSITIVE_INFINITY
    }
  }

  #emit(changes: readonly SpreadChange[]): void {
    if (changes.length === 0) return
    for (const listener of this.#listeners) listener(changes)
  }
}

/**
 * The spread record of a pair from the venues' current quotes and books, or undefined while either side has no
 * probability. Pure: the brute-force reference in the tests calls it too.
 */
export function computeRecord(pairId: number, spec: SpreadPairSpec, venues: Readonly<Record<VenueId, QuoteSource>>, now: number): SpreadRecord | undefined {
  return recordOf(pairId, spec, viewOf(venues.venuep, spec.venuep.instrumentId), viewOf(venues.venuek, spec.venuek.instrumentId), now)
}

/** computeRecord from the two instruments' views (the engine passes handles it keeps per pair). */
export function recordOf(pairId: number, spec: SpreadPairSpec, vp: InstrumentView, vk: InstrumentView, now: number): SpreadRecord | undefined {
  const qp = vp.quote
  const qk = vk.quote
  const pp = qp?.probability
  const pk = qk?.probability
  if (qp === undefined || qk === undefined || pp === undefined || pk === undefined) return undefined
  // Ties go to venuep as platform A, so the record does not flip on equal prices.
  const pIsA = pp <= pk
  const a: VenueId = pIsA ? 'venuep' : 'venuek'
  const b: VenueId = pIsA ? 'venuek' : 'venuep'
  const outA = pIsA ? spec.venuep : spec.venuek
  const outB = pIsA ? spec.venuek : spec.venuep
  const viewA = pIsA ? vp : vk
  const viewB = pIsA ? vk : vp
  const spread = Math.round(Math.abs(pk - pp) * 1e6) / 1e6
  const executable = executableEdge(viewA.book, viewB.book, outA.fees, outB.fees)
  const va = viewA.stats?.volume ?? outA.volume
  const vb = viewB.stats?.volume ?? outB.volume
  const minVolume = va === undefined || vb === undefined ? undefined : Math.min(va, vb)
  const qa = pIsA ? qp : qk
  const qb = pIsA ? qk : qp
  const topDollars =
    qa.bestAsk !== undefined && qa.bestAskSize !== undefined && qb.bestBid !== undefined && qb.bestBidSize !== undefined
      ? Math.min(qa.bestAsk * qa.bestAskSize, qb.bestBid * qb.bestBidSize)
      : undefined
  const liquidityDollars = executable !== undefined && executable.size > 0 ? executable.costDollars : topDollars
  const olderQuoteAt = Math.min(qp.venueTs, qk.venueTs)
  const feedStale = qp.stale || qk.stale
  return {
    pairId,
    key: spec.key,
    eventSlug: spec.eventSlug,
    eventTitle: spec.eventTitle,
    outcomeTitle: spec.outcomeTitle,
    outcomeKey: spec.outcomeKey,
    platformA: a,
    platformB: b,
    priceA: pIsA ? pp : pk,
    priceB: pIsA ? pk : pp,
    spread,
    spreadBps: Math.round(spread * 10_000 * 1e4) / 1e4,
    confidence: confidence({ quality: spec.quality, spread, minVolume, liquidityDollars, ageMs: now - olderQuoteAt, stale: feedStale }),
    updatedAt: Math.max(qp.venueTs, qk.venueTs),
    olderQuoteAt,
    feedStale,
    platformAUrl: pIsA ? spec.venuepUrl : spec.venuekUrl,
    platformBUrl: pIsA ? spec.venuekUrl : spec.venuepUrl,
    strategy: spec.strategy,
    quality: spec.quality,
    minVolume,
    executable,
  }
}

function sameRecord(a: SpreadRecord | undefined, b: SpreadRecord | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return (
    a.priceA === b.priceA &&
    a.priceB === b.priceB &&
    a.platformA === b.platformA &&
    a.confidence === b.confidence &&
    a.feedStale === b.feedStale &&
    a.updatedAt === b.updatedAt &&
    a.executable?.size === b.executable?.size &&
    a.executable?.netEdge === b.executable?.netEdge
  )
}
