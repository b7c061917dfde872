import { Actor } from '../../actors/actor.js'
import type { Clock, TimerHandle } from '../../core/clock.js'
import type { Logger } from '../../core/logger.js'
import { runInSlices, runToEnd, SLICE_BUDGET_MS } from '../../core/slices.js'
import type { Quote, VenueId } from '../../model/types.js'
import type { BookReader } from '../../book/order-book.js'
import type { InstrumentHandle, InstrumentTable, InstrumentView } from './instrument-table.js'
import { pairIdOf } from './pair-id.js'
import { pairsPlanSteps, tableIn, type PairLayout, type PairState, type PairsPlan } from './pair-plan.js'
import { applyDelta, pairsDeltaOfChange, pairsDeltaSteps, type PairsDelta } from './pair-delta.js'
import { RecordRanks } from './record-ranks.js'
import { RecordDigests, recordFromRows, type BookOf } from './spread-record.js'
import type { SpecsChange, SpreadChange, SpreadPairSpec, SpreadRecord } from './types.js'

export type { PairLeg, SpecsChange, SpreadChange, SpreadPairSpec, SpreadRecord } from './types.js'

/**
 * The spread actor. It owns one record per matched outcome pair and keeps three indexes current (by confidence
 * for /spreads/top, by spread size for the scanner, by executable net edge for both when asked to rank or filter
 * on it: src/spreads/engine/spread-query.ts). A quote change recomputes only the pairs of that
 * instrument; a sweep once a minute re-scores pairs whose freshness moved (freshness changes with time alone).
 * Readers get each pair's live `SpreadRecord`, which the engine rewrites in place (read it synchronously; keep a
 * `snapshotRecord` of it past the turn); subscribers (history, alerts) get every change.
 *
 * What a recompute reads is laid out flat (src/spreads/engine/instrument-table.ts, pair-plan.ts): each matched
 * instrument's top of book is a row the engine writes from the quote messages, each pair's catalog terms a row
 * beside it, and the ranking keeps its lists in typed arrays (bucket-index.ts). A quote change thus reads a few
 * rows instead of a chain of objects, so its cost barely grows with the number of pairs (bench/RESULTS.md). The
 * rows are reloaded from the venue actors' live state when an instrument joins, when the engine (re)starts and on
 * every sweep, so a lost message cannot leave a row behind for more than a sweep period.
 *
 * New pairs (after every catalog change) come either as `pairs` (installed and recomputed in one go: tests,
 * small sets) or through `setPairsInSlices`: the plan is built in event-loop slices, installed in one short step,
 * and the records are recomputed for a budget at once and the rest in chunks (`recompute_pending` messages sent
 * by a computation on the shared slice scheduler, src/core/slices.ts), each chunk's changes emitted as it goes.
 * Until its chunk comes, a continued pair keeps its previous record (same instruments, so the same prices; only
 * catalog fields such as volumes lag, by milliseconds); a quote for it recomputes it at once. The periodic
 * sweep (~0.1 s at 20,000 pairs) runs the same way.
 *
 * Venues are data: the engine is given its quote sources by venue id, and a pair's legs name their venues (any
 * two; see SpreadPairSpec), so another venue adds pairs without code here.
 */
export type SpreadMessage =
  | { readonly type: 'pairs'; readonly specs: readonly SpreadPairSpec[] }
  /** A plan from `planPairs` (see `setPairsInSlices`), made at install `generation`. */
  | { readonly type: 'pairs_planned'; readonly plan: PairsPlan; readonly generation?: number }
  /** The changes to the installed pairs (pair-delta.ts), made at install `generation`. */
  | { readonly type: 'pairs_delta'; readonly delta: PairsDelta; readonly generation: number }
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
   * engine keeps it per instrument for the reads quotes do not carry (pushed volume, the books for a depth
   * walk), so those cost no Map lookup. Sources without it are read through the three lookups above.
   */
  handle?(instrumentId: string): InstrumentHandle | undefined
}

function viewOf(source: QuoteSource, instrumentId: string): InstrumentView {
  return { quote: source.quote(instrumentId), book: source.book(instrumentId), stats: source.stats?.(instrumentId) }
}

export interface SpreadEngineOptions {
  /** Each venue's live state (its venue actor), by venue id: every venue a pair's leg names. */
  readonly venues: ReadonlyMap<VenueId, QuoteSource>
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
  #byEvent = new Map<string, PairState[]>()
  /** Public id → key (see `keyOfId`), for the pairs of `#idsOf`. */
  #ids = new Map<string, string>()
  #idsOf: ReadonlyMap<string, PairState> | undefined
  /** What recomputes read: the instrument rows, the pairs' terms, each instrument's pairs (see pair-plan.ts). */
  #layout: PairLayout | undefined
  #nextId = 1
  /** The records by confidence, spread and net edge, and the top-list epoch. */
  readonly #ranks = new RecordRanks()
  /** A plan has been installed (`#install`): the pending recomputes, once done, are its first spreads. */
  #installed = false
  /** Counts installs (whole or delta): a plan or delta made before the last one is stale. */
  #generation = 0
  /** Counts `setPairsInSlices` calls: only the last one's plan is sent. */
  #requests = 0
  /** The specs last asked for (`setPairsInSlices`, a `pairs` message), and the last installed (`#install`). */
  #asked: readonly SpreadPairSpec[] | undefined
  #installedSpecs: readonly SpreadPairSpec[] | undefined
  /** The first installed plan's records are all computed (see `ready`). */
  #ready = false
  /** What subscribers were last told of each pair (see RecordDigests). */
  #digests = new RecordDigests()
  #timer: TimerHandle | undefined
  /** Records still to recompute after a planned install or sweep, from `#pendingAt` on. */
  #pending: readonly PairState[] = []
  #pendingAt = 0
  /** The pending recomputes are a sweep: they reload the pairs' rows from the venues first. */
  #pendingReloads = false
  /** A sliced computation is sending `recompute_pending` until nothing is pending. */
  #pendingRunning = false
  readonly #listeners = new Set<(changes: readonly SpreadChange[]) => void>()
  readonly #bookOf: BookOf = (table, row) => this.#live(table as InstrumentTable<PairState>, row).book
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

  /**
   * The first pair plan is installed and every one of its records computed from the venues' state: from here on
   * the records answer for the matched pairs (an empty plan, in a world with no overlap, counts: "matched nothing",
   * not "not yet matched"). Stays true: later installs and sweeps replace records one by one, never all at once.
   * /readyz and the spread routes wait for it, so an empty scanner means "no gaps", never "not loaded".
   */
  get ready(): boolean {
    return this.#ready
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

  /**
   * The key of the pair whose public id (pair-id.ts) is `id`, if it is matched now. The index is built on the
   * first lookup after an install (a hash per pair without a record, ~1 µs each), so only readers that look pairs
   * up by id (the stream) pay for it.
   */
  keyOfId(id: string): string | undefined {
    if (this.#idsOf !== this.#byKey) {
      const ids = new Map<string, string>()
      for (const [key, p] of this.#byKey) ids.set(p.value?.id ?? pairIdOf(key), key)
      this.#ids = ids
      this.#idsOf = this.#byKey
    }
    return this.#ids.get(id)
  }

  /** Records of one event, any spread. */
  eventRecords(eventSlug: string): SpreadRecord[] {
    return (this.#byEvent.get(eventSlug) ?? []).map((p) => p.record).filter((r): r is SpreadRecord => r !== undefined)
  }

  /** Bumped by any change that can alter a cached top list (see RecordRanks). */
  get topEpoch(): number {
    return this.#ranks.topEpoch
  }

  /**
   * A reader caching a top list says how far down it looked: the confidence of its last record (0 when the list
   * was not full, so any new record could join it). Until a change reaches that floor, `topEpoch` stays put.
   */
  noteTopFloor(floor: number): void {
    this.#ranks.noteTopFloor(floor)
  }

  /** Records by confidence, highest first, while `visit` returns true. O(k) plus skipped records. */
  byConfidence(visit: (r: SpreadRecord) => boolean): void {
    this.#ranks.byConfidence((id) => visit((this.#pairs[id] as PairState).record as SpreadRecord))
  }

  /** Records with spread ≥ minSpread, largest first. O(returned) plus skipped records. */
  bySpread(minSpread: number, visit: (r: SpreadRecord) => boolean | void): void {
    this.#ranks.bySpread(minSpread, (id) => visit((this.#pairs[id] as PairState).record as SpreadRecord))
  }

  /**
   * Records with an executable edge whose net edge is at least `minNetEdge` (and maybe a few just below it: the
   * index keeps a mapped value, so readers check the record's own), largest first, ties by pair id, while `visit`
   * returns true. O(returned) plus skipped records.
   */
  byNetEdge(minNetEdge: number, visit: (r: SpreadRecord) => boolean | void): void {
    this.#ranks.byNetEdge(minNetEdge, (id) => visit((this.#pairs[id] as PairState).record as SpreadRecord))
  }

  /** Records without an executable edge, by pair id, while `visit` returns true. O(pairs). */
  withoutEdge(visit: (r: SpreadRecord) => boolean | void): void {
    const pairs = this.#pairs
    for (let id = 0; id < pairs.length; id++) {
      const r = pairs[id]?.record
      if (r !== undefined && r.executable === undefined && visit(r) === false) return
    }
  }

  // ------------------------------------------------------------------------------------------ lifecycle

  protected override onStart(): void {
    const period = this.#o.rescoreMs ?? 60_000
    // Re-scoring every pair is ~0.1 s at 20,000 pairs: the periodic sweep runs in chunks between other messages.
    // Sweeps fall on the clock's multiples of the period, so every process of a deployment (an ingest and its edges,
    // docs/SCALE-OUT.md) reloads the pushed volumes at the same instants and their answers agree after each.
    const sweep = () => this.send({ type: 'rescore', inSlices: true })
    const now = this.#o.clock.now()
    this.#timer = this.#o.clock.setTimeout(
      () => {
        this.#timer = this.#o.clock.setInterval(sweep, period)
        sweep()
      },
      period - (now % period),
    )
    // After a restart the rows may have missed quotes while the engine was down: the venues have the truth.
    if (this.#layout !== undefined) for (const table of this.#layout.tables) this.#reloadRows(table)
    // Recomputes left pending when the engine stopped go on (the computation sending them ended with the stop).
    if (this.pendingRecomputes > 0) this.#resumePending()
  }

  protected override onStop(): void {
    // The first sweep is a timeout, the rest an interval: whichever is pending.
    this.#o.clock.clearTimeout(this.#timer)
    this.#o.clock.clearInterval(this.#timer)
  }

  /** The structural work of installing `specs`, as steps against the current pairs (read only). */
  planPairs(specs: readonly SpreadPairSpec[]): Generator<void, PairsPlan, void> {
    return pairsPlanSteps(specs, this.#byKey, this.#layout, this.#nextId)
  }

  /**
   * Installs `specs` without a long block: plan in slices, install in one short step, recompute in chunks. The specs
   * installed, asked for again with no other request since (the same objects in the same order: the matcher gives
   * unchanged spreads back as they were, cross-venue.ts), install nothing: a refresh whose changes matched nothing
   * costs no plan, no install and no recompute of every pair. `change`: what changed since the specs it was made
   * from (matching/pair-specs.ts); when those are the specs installed, the install costs what changed.
   */
  async setPairsInSlices(specs: readonly SpreadPairSpec[], change?: SpecsChange): Promise<void> {
    // Only against specs installed and not since replaced by a request still on its way (or one that failed).
    const installed = this.#installedSpecs
    const holds = installed !== undefined && installed === this.#asked
    if (holds && sameSpecs(installed, specs)) return
    this.#asked = specs
    const request = ++this.#requests
    const generation = this.#generation
    // Few pairs changed: their changes alone, applied in place (pair-delta.ts); else a whole new layout. Told what
    // changed since the specs installed, the delta is read from that alone.
    const delta =
      holds && change?.from === installed
        ? pairsDeltaOfChange(specs, change, this.#byKey, this.#layout, this.#nextId)
        : await runInSlices(pairsDeltaSteps(specs, this.#byKey, this.#layout, this.#nextId))
    // A later request installs what is wanted now; the two paths take different times, so this one may end last.
    if (request !== this.#requests) return
    if (delta !== undefined && generation === this.#generation) {
      this.send({ type: 'pairs_delta', delta, generation })
      return
    }
    const planned = this.#generation
    const plan = await runInSlices(this.planPairs(specs))
    if (request !== this.#requests) return
    this.send({ type: 'pairs_planned', plan, generation: planned })
  }

  protected process(message: SpreadMessage): void {
    switch (message.type) {
      case 'pairs':
        // Installed now: a request still planning in slices is older, and must not install after this.
        this.#requests++
        this.#asked = message.specs
        return this.#install(runToEnd(this.planPairs(message.specs)), Number.POSITIVE_INFINITY)
      case 'pairs_planned':
        return this.#install(message.plan, this.#o.recomputeBudgetMs ?? SLICE_BUDGET_MS, message.generation)
      case 'pairs_delta':
        return this.#installDelta(message.delta, message.generation)
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
   * each), the new layout takes the rows of the instruments it keeps (and loads the others from the venues),
   * then records are recomputed for `budgetMs` (everything with an infinite budget) and the rest later.
   */
  #install(planned: PairsPlan, budgetMs: number, generation?: number): void {
    // A plan made against other pairs (another install came first) is redone against the current ones.
    const plan =
      planned.base === this.#byKey &&
      planned.baseNextId === this.#nextId &&
      (generation === undefined || generation === this.#generation)
        ? planned
        : runToEnd(this.planPairs(planned.specs))
    this.#generation++
    for (const [st, old] of plan.carried) {
      st.record = old.record
      st.value = old.value
    }
    const changes: SpreadChange[] = []
    for (const old of plan.removed) {
      this.#digests.set(old.id, undefined)
      this.#ranks.place(old.id, undefined)
      if (old.record !== undefined) changes.push(new Change(old.spec, undefined))
    }
    const previous = this.#layout
    plan.layout.tables.forEach((table, t) => {
      const from = plan.carriedRows[t] as Int32Array
      const before = tableIn(previous, table.venue)
      for (let i = 0; i < table.size; i++) {
        const j = from[i] as number
        if (j >= 0 && before !== undefined) table.copyRow(i, before, j)
        else table.load(i, this.#live(table, i))
      }
    })
    this.#byKey = plan.byKey
    this.#pairs = plan.pairs
    this.#byEvent = plan.byEvent
    this.#layout = plan.layout
    this.#nextId = plan.nextId
    this.#pending = plan.order
    this.#pendingAt = 0
    this.#pendingReloads = false
    this.#installed = true
    this.#installedSpecs = plan.specs
    this.#o.log.info({ pairs: plan.byKey.size }, 'spread pairs installed')
    this.#recomputePending(budgetMs, changes)
  }

  /**
   * Applies the changes to the installed pairs in place (pair-delta.ts): the gone pairs leave the indexes (a removal
   * change each), rows added for new instruments are loaded from the venues, and only the changed pairs are
   * recomputed. A delta made before another install, or while an install's recomputes are still pending (they
   * could name a pair the delta removes), is installed as a whole plan instead.
   */
  #installDelta(delta: PairsDelta, generation: number): void {
    const budgetMs = this.#o.recomputeBudgetMs ?? SLICE_BUDGET_MS
    const layout = this.#layout
    if (
      layout === undefined ||
      generation !== this.#generation ||
      delta.base !== this.#byKey ||
      delta.baseNextId !== this.#nextId ||
      this.pendingRecomputes > 0
    ) {
      this.#install(runToEnd(this.planPairs(delta.specs)), budgetMs)
      return
    }
    this.#generation++
    const changes: SpreadChange[] = []
    for (const old of delta.removed) {
      this.#digests.set(old.id, undefined)
      this.#ranks.place(old.id, undefined)
      if (old.record !== undefined) changes.push(new Change(old.spec, undefined))
    }
    const state = { byKey: this.#byKey, pairs: this.#pairs, byEvent: this.#byEvent, layout }
    const { recompute, newRows } = applyDelta(delta, state)
    this.#layout = state.layout
    for (const [table, row] of newRows) table.load(row, this.#live(table, row))
    this.#nextId = delta.nextId
    // The public-id lookup is rebuilt on its next use (its cache is keyed by the pairs map, patched in place).
    this.#idsOf = undefined
    this.#pending = recompute
    this.#pendingAt = 0
    this.#pendingReloads = false
    this.#installed = true
    this.#installedSpecs = delta.specs
    this.#o.log.info(
      {
        pairs: this.#byKey.size,
        added: delta.added.length,
        removed: delta.removed.length,
        respecified: delta.respecs.length,
      },
      'spread pairs changed',
    )
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
      const p = pending[i++] as PairState
      if (this.#pendingReloads) this.#reloadPair(p)
      this.#recompute(p, now, changes)
      if (i % CHUNK === 0 && performance.now() >= deadline) break
    }
    this.#pendingAt = i
    if (i >= pending.length) {
      this.#pending = []
      this.#pendingAt = 0
      this.#pendingReloads = false
      // Nothing pending after an install: every record of the installed plan is computed (a sweep before any
      // install has no pairs, so it proves nothing).
      if (this.#installed && !this.#ready) {
        this.#ready = true
        this.#o.log.info({ pairs: this.#byKey.size }, 'first spreads computed')
      }
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
    this.#pendingReloads = true
    this.#recomputePending(this.#o.recomputeBudgetMs ?? SLICE_BUDGET_MS)
  }

  /**
   * The hot path: each quote goes into its instrument's row, then the pairs on that instrument (a list linked
   * through the pair states) are recomputed from the rows.
   */
  #onQuotes(venue: VenueId, quotes: readonly Quote[]): void {
    const layout = this.#layout
    if (layout === undefined) return
    const t = layout.tableOf.get(venue)
    if (t === undefined) return
    const now = this.#o.clock.now()
    const changes: SpreadChange[] = []
    const table = layout.tables[t] as InstrumentTable<PairState>
    for (let n = 0; n < quotes.length; n++) {
      const q = quotes[n] as Quote
      const i = table.rowOf(q)
      if (i < 0) continue
      table.writeQuote(i, q)
      // The instrument's pairs have this venue on leg a or leg b, each its own.
      for (
        let p: PairState | undefined = table.firstPair[i];
        p !== undefined;
        p = p.tableA === t ? p.nextOnA : p.nextOnB
      )
        this.#recompute(p, now, changes)
    }
    this.#emit(changes)
  }

  /** Freshness moves with time alone: re-score every pair that has a record (once a minute by default). */
  #rescore(): void {
    const now = this.#o.clock.now()
    const changes: SpreadChange[] = []
    for (const p of this.#byKey.values()) {
      if (p.record === undefined) continue
      this.#reloadPair(p)
      this.#recompute(p, now, changes)
    }
    this.#emit(changes)
  }

  #recompute(p: PairState, now: number, changes: SpreadChange[]): void {
    this.recomputed++
    // The pair's record object is rewritten in place (made on the pair's first record, kept while it has none).
    const record = recordFromRows(p, this.#layout as PairLayout, now, this.#bookOf, p.value)
    if (record !== undefined) p.value = record
    this.#ranks.place(p.id, record)
    if (!this.#digests.same(p.id, record)) {
      changes.push(new Change(p.spec, record))
      this.#digests.set(p.id, record)
    }
    p.record = record
  }

  #reloadPair(p: PairState): void {
    const tables = (this.#layout as PairLayout).tables
    const a = tables[p.tableA] as InstrumentTable<PairState>
    const b = tables[p.tableB] as InstrumentTable<PairState>
    a.load(p.rowA, this.#live(a, p.rowA))
    b.load(p.rowB, this.#live(b, p.rowB))
  }

  #reloadRows(table: InstrumentTable<PairState>): void {
    for (let i = 0; i < table.size; i++) table.load(i, this.#live(table, i))
  }

  /**
   * The live view of the instrument in row `row` of a venue's table: its held handle, looked up again only when
   * missing or retired (or the three lookups, for sources without handles).
   */
  #live(table: InstrumentTable<PairState>, row: number): InstrumentView {
    const held = table.handles[row]
    if (held !== undefined && !held.retired) return held
    const source = this.#o.venues.get(table.venue)
    if (source === undefined) throw new Error(`spread engine: no quote source for venue ${table.venue}`)
    const id = table.ids[row] as string
    const handle = source.handle?.(id)
    table.handles[row] = handle
    return handle ?? viewOf(source, id)
  }

  #emit(changes: readonly SpreadChange[]): void {
    if (changes.length === 0) return
    for (const listener of this.#listeners) listener(changes)
  }
}

/**
 * Constructed, not a literal: V8 pretenures a literal's allocation site once most of its objects survive (an
 * install's changes all survive until sent), and from then on every change would be allocated in old space.
 */
class Change implements SpreadChange {
  constructor(
    readonly spec: SpreadPairSpec,
    readonly record: SpreadRecord | undefined,
  ) {}
}

/** The same specs, as objects, in the same order. */
function sameSpecs(x: readonly SpreadPairSpec[], y: readonly SpreadPairSpec[]): boolean {
  if (x === y) return true
  if (x.length !== y.length) return false
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false
  return true
}
