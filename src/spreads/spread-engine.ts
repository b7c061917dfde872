import { Actor } from '../core/actor.js'
import type { Clock, TimerHandle } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { Outcome, Quote, VenueId } from '../model/types.js'
import type { BookReader } from '../book/order-book.js'
import { BucketIndex } from './bucket-index.js'
import { confidence } from './confidence.js'
import { executableEdge, type Executable } from './executable.js'
import type { MatchingStrategy, MatchQuality } from './matcher.js'

/**
 * The spread actor. It owns one record per matched outcome pair and keeps two indexes current (by confidence
 * for /spreads/top, by spread size for the scanner). A quote change recomputes only the pairs of that
 * instrument; a sweep once a minute re-scores pairs whose freshness moved (freshness changes with time alone).
 * Readers get immutable `SpreadRecord`s; subscribers (history, alerts, the stream) get every change.
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
  | { readonly type: 'quotes'; readonly venue: VenueId; readonly quotes: readonly Quote[] }
  | { readonly type: 'rescore' }

/** What the engine reads from the venue actors (synchronously, inside `process`). */
export interface QuoteSource {
  quote(instrumentId: string): Quote | undefined
  book(instrumentId: string): BookReader | undefined
  stats?(instrumentId: string): { readonly volume: number | undefined } | undefined
}

export interface SpreadEngineOptions {
  readonly venues: Readonly<Record<VenueId, QuoteSource>>
  readonly clock: Clock
  readonly log: Logger
  /** Freshness sweep period (ms). */
  readonly rescoreMs?: number
}

interface PairState {
  readonly id: number
  readonly spec: SpreadPairSpec
  record: SpreadRecord | undefined
}

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
  readonly #listeners = new Set<(changes: readonly SpreadChange[]) => void>()
  /** Recomputations done (benchmarks and tests read it). */
  recomputed = 0

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
    this.#timer = this.#o.clock.setInterval(() => this.send({ type: 'rescore' }), period)
  }

  protected override onStop(): void {
    this.#o.clock.clearInterval(this.#timer)
  }

  protected process(message: SpreadMessage): void {
    switch (message.type) {
      case 'pairs':
        return this.#setPairs(message.specs)
      case 'quotes':
        return this.#onQuotes(message.venue, message.quotes)
      case 'rescore':
        return this.#rescore()
    }
  }

  #setPairs(specs: readonly SpreadPairSpec[]): void {
    const next = new Map<string, PairState>()
    for (const spec of specs) {
      const old = this.#byKey.get(spec.key)
      next.set(spec.key, old !== undefined && sameSides(old.spec, spec) ? { id: old.id, spec, record: old.record } : { id: this.#nextId++, spec, record: undefined })
    }
    const changes: SpreadChange[] = []
    for (const [key, old] of this.#byKey) {
      if (next.get(key)?.id === old.id) continue
      this.#confidence.delete(old.id)
      this.#spread.delete(old.id)
      if (old.record !== undefined) changes.push({ spec: old.spec, record: undefined, previous: old.record })
    }
    this.#byKey = next
    this.#pairs = []
    this.#byInstrument = { venuep: new Map(), venuek: new Map() }
    this.#byEvent = new Map()
    for (const p of next.values()) {
      this.#pairs[p.id] = p
      push(this.#byInstrument.venuep, p.spec.venuep.instrumentId, p)
      push(this.#byInstrument.venuek, p.spec.venuek.instrumentId, p)
      push(this.#byEvent, p.spec.eventSlug, p)
    }
    const now = this.#o.clock.now()
    for (const p of next.values()) this.#recompute(p, now, changes)
    this.#o.log.info({ pairs: next.size }, 'spread pairs installed')
    this.#emit(changes)
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
    const record = computeRecord(p.id, p.spec, this.#o.venues, now)
    p.record = record
    if (record === undefined) {
      this.#confidence.delete(p.id)
      this.#spread.delete(p.id)
    } else {
      this.#confidence.set(p.id, record.confidence)
      this.#spread.set(p.id, record.spread)
    }
    if (!sameRecord(previous, record)) changes.push({ spec: p.spec, record, previous })
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
  const qp = venues.venuep.quote(spec.venuep.instrumentId)
  const qk = venues.venuek.quote(spec.venuek.instrumentId)
  const pp = qp?.probability
  const pk = qk?.probability
  if (qp === undefined || qk === undefined || pp === undefined || pk === undefined) return undefined
  // Ties go to venuep as platform A, so the record does not flip on equal prices.
  const pIsA = pp <= pk
  const [a, b] = pIsA ? (['venuep', 'venuek'] as const) : (['venuek', 'venuep'] as const)
  const [outA, outB] = pIsA ? [spec.venuep, spec.venuek] : [spec.venuek, spec.venuep]
  const spread = Math.round(Math.abs(pk - pp) * 1e6) / 1e6
  const executable = executableEdge(venues[a].book(outA.instrumentId), venues[b].book(outB.instrumentId), outA.fees, outB.fees)
  const volumeOf = (venue: VenueId, o: Outcome) => venues[venue].stats?.(o.instrumentId)?.volume ?? o.volume
  const va = volumeOf(a, outA)
  const vb = volumeOf(b, outB)
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

function sameSides(a: SpreadPairSpec, b: SpreadPairSpec): boolean {
  return a.venuep.instrumentId === b.venuep.instrumentId && a.venuek.instrumentId === b.venuek.instrumentId
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

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}
