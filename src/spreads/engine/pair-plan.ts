import { addTo } from '../../core/multimap.js'
import type { Steps } from '../../core/slices.js'
import type { VenueId } from '../../model/types.js'
import { InstrumentTableBuilder, type InstrumentTable } from './instrument-table.js'
import { newTerms, writeTerms } from './pair-terms.js'
import type { SpreadRecordValue } from './spread-record.js'
import type { SpreadPairSpec, SpreadRecord } from './types.js'

/**
 * The structural part of installing a new set of pairs in the spread engine, as steps (src/core/slices.ts): which
 * pairs keep their ids (same key, same instruments), which are gone, the lookups by event, and the pair layout a
 * recompute reads (one instrument table per venue, per-pair terms, each instrument's list of pairs). At 20,000
 * pairs this is tens of milliseconds; the engine installs a finished plan in O(changes) plus one pass of copies,
 * then recomputes the records (see SpreadEngine).
 *
 * A plan is computed against the engine's current pairs, layout and id counter and is valid only while the engine
 * still holds them (the engine checks, and redoes a stale plan in one go).
 */
export interface PairState {
  readonly id: number
  /** Replaced when a patched plan gives the pair new catalog terms under the same key and sides. */
  spec: SpreadPairSpec
  /** The current record: `value` while the pair has one, else undefined. */
  record: SpreadRecord | undefined
  /** The pair's record object, rewritten by each recompute; made on its first record, kept while it has none. */
  value: SpreadRecordValue | undefined
  /** Leg a's venue table (an index into PairLayout.tables) and its instrument's row there (set by the plan, fixed after). */
  tableA: number
  rowA: number
  /** The same for leg b. */
  tableB: number
  rowB: number
  /** The next pair on the same leg a / leg b instrument (lists start at InstrumentTable.firstPair). */
  nextOnA: PairState | undefined
  nextOnB: PairState | undefined
}

export interface PairLayout {
  /** One instrument table per venue the pairs use, in the order the plan met them (pairs name theirs by index). */
  readonly tables: readonly InstrumentTable<PairState>[]
  /** Venue id → index of its table in `tables`. */
  readonly tableOf: ReadonlyMap<VenueId, number>
  /** Per pair id, the catalog terms of its two outcomes (pair-terms.ts). */
  readonly terms: Float64Array
}

export interface PairsPlan {
  readonly specs: readonly SpreadPairSpec[]
  readonly base: ReadonlyMap<string, PairState>
  readonly baseNextId: number
  readonly byKey: Map<string, PairState>
  /** Pair id → state (ids are dense). */
  readonly pairs: (PairState | undefined)[]
  readonly byEvent: Map<string, PairState[]>
  readonly layout: PairLayout
  /** Per table of the new layout, per row: the row of the same instrument in the base layout's table of that venue, or -1 (new). */
  readonly carriedRows: readonly Int32Array[]
  /** Every new state, in spec order: the records to recompute. */
  readonly order: readonly PairState[]
  /** New states that continue an old pair, with it: their records are carried over at install. */
  readonly carried: readonly (readonly [PairState, PairState])[]
  /** Old states not continued (key gone, or the same key on other instruments), in old order. */
  readonly removed: readonly PairState[]
  readonly nextId: number
}

const CHECKPOINT_EVERY = 256

export function* pairsPlanSteps(
  specs: readonly SpreadPairSpec[],
  base: ReadonlyMap<string, PairState>,
  baseLayout: PairLayout | undefined,
  baseNextId: number,
): Steps<PairsPlan> {
  let nextId = baseNextId
  /** Key → [id, its spec (the last for a repeated key), the old state it continues]. */
  const ids = new Map<string, readonly [number, SpreadPairSpec, PairState | undefined]>()
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i] as SpreadPairSpec
    // A pair is across two venues; one with both legs on one venue would share a table and break its pair lists.
    if (spec.a.venue === spec.b.venue) continue
    const old = base.get(spec.key)
    if (old !== undefined && sameSides(old.spec, spec)) ids.set(spec.key, [old.id, spec, old])
    else ids.set(spec.key, [nextId++, spec, undefined])
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  const removed: PairState[] = []
  let n = 0
  // By value (a state's key is its spec's), not entry: an entry is a new [key, value] pair per pair.
  for (const old of base.values()) {
    if (ids.get(old.spec.key)?.[0] !== old.id) removed.push(old)
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  const terms = newTerms(nextId)
  const builders: InstrumentTableBuilder<PairState>[] = []
  const tableOf = new Map<VenueId, number>()
  /** The venue's table index, its builder made on first sight; a pair is linked to the next on its leg there. */
  const tableFor = (venue: VenueId): number => {
    let t = tableOf.get(venue)
    if (t === undefined) {
      const index = (t = builders.length)
      builders.push(
        new InstrumentTableBuilder<PairState>(venue, (prev, p) =>
          prev.tableA === index ? (prev.nextOnA = p) : (prev.nextOnB = p),
        ),
      )
      tableOf.set(venue, t)
    }
    return t
  }
  const byKey = new Map<string, PairState>()
  const pairs: (PairState | undefined)[] = []
  const byEvent = new Map<string, PairState[]>()
  const order: PairState[] = []
  const carried: (readonly [PairState, PairState])[] = []
  for (const [key, [id, spec, old]] of ids) {
    const tableA = tableFor(spec.a.venue)
    const tableB = tableFor(spec.b.venue)
    const p: PairState = {
      id,
      spec,
      record: old?.record,
      value: old?.value,
      tableA,
      rowA: -1,
      tableB,
      rowB: -1,
      nextOnA: undefined,
      nextOnB: undefined,
    }
    p.rowA = (builders[tableA] as InstrumentTableBuilder<PairState>).add(spec.a.outcome.instrumentId, p)
    p.rowB = (builders[tableB] as InstrumentTableBuilder<PairState>).add(spec.b.outcome.instrumentId, p)
    writeTerms(terms, id, spec)
    byKey.set(key, p)
    pairs[id] = p
    addTo(byEvent, spec.eventSlug, p)
    order.push(p)
    if (old !== undefined) carried.push([p, old])
    if (order.length % CHECKPOINT_EVERY === 0) yield
  }
  const layout: PairLayout = { tables: builders.map((b) => b.build()), tableOf, terms }
  const carriedRows: Int32Array[] = []
  for (const table of layout.tables) carriedRows.push(yield* rowsInSteps(table, tableIn(baseLayout, table.venue)))
  return { specs, base, baseNextId, byKey, pairs, byEvent, layout, carriedRows, order, carried, removed, nextId }
}

/** The venue's table in `layout`, if it has one. */
export function tableIn(layout: PairLayout | undefined, venue: VenueId): InstrumentTable<PairState> | undefined {
  const t = layout?.tableOf.get(venue)
  return t === undefined ? undefined : layout?.tables[t]
}

/** The same two instruments on the same venues: a pair that keeps its key and sides keeps its id and record. */
export function sameSides(x: SpreadPairSpec, y: SpreadPairSpec): boolean {
  return (
    x.a.venue === y.a.venue &&
    x.b.venue === y.b.venue &&
    x.a.outcome.instrumentId === y.a.outcome.instrumentId &&
    x.b.outcome.instrumentId === y.b.outcome.instrumentId
  )
}

/** For each row of `table`, the same instrument's row in `base`, or -1. */
function* rowsInSteps(
  table: InstrumentTable<PairState>,
  base: InstrumentTable<PairState> | undefined,
): Steps<Int32Array> {
  const rows = new Int32Array(table.size).fill(-1)
  if (base === undefined) return rows
  for (let i = 0; i < table.size; i++) {
    rows[i] = base.indexOf(table.ids[i] as string)
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  return rows
}
