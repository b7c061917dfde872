import { addTo } from '../../core/multimap.js'
import type { Steps } from '../../core/slices.js'
import type { InstrumentTable } from './instrument-table.js'
import { sameSides, type PairLayout, type PairState } from './pair-plan.js'
import { termsFor, writeTerms } from './pair-terms.js'
import type { SpecsChange, SpreadPairSpec } from './types.js'

/**
 * A new set of pairs as the changes to the installed ones, when few changed (pair-plan.ts makes a whole new layout
 * instead): pairs whose spec is a new object under the same key and instruments take it (their ids, rows and
 * records stay), new pairs get ids in spec order and are linked into the instrument tables in place (rows added
 * for instruments no pair read), and the pairs not continued are unlinked. Applied in one synchronous step by the
 * engine, so a quote never meets a half-patched table; only the changed pairs are recomputed.
 *
 * The instruments' pair lists and the event lists keep their old pairs' order, new pairs at the end; a whole plan
 * orders them by spec. Nothing reads them in an order: a quote recomputes every pair on its instrument, and the
 * event list is sorted where it is served (routes/spreads.ts).
 */
export interface PairsDelta {
  readonly specs: readonly SpreadPairSpec[]
  /** The engine's pairs by key it was computed against: valid only while the engine holds them (and `baseNextId`). */
  readonly base: ReadonlyMap<string, PairState>
  readonly baseNextId: number
  /** Continued pairs with a new spec object: same key, same instruments. */
  readonly respecs: readonly (readonly [PairState, SpreadPairSpec])[]
  /** New pairs, with their ids, in spec order. */
  readonly added: readonly (readonly [number, SpreadPairSpec])[]
  /** Installed pairs not continued (their key gone, or the same key on other instruments). */
  readonly removed: readonly PairState[]
  readonly nextId: number
}

/** Past this share of the installed pairs changed, a whole plan is made instead. */
const MAX_DELTA_SHARE = 1 / 8
const CHECKPOINT_EVERY = 1024

/** The changes from the installed pairs to `specs`, or undefined when a whole plan is better (or needed). */
export function* pairsDeltaSteps(
  specs: readonly SpreadPairSpec[],
  base: ReadonlyMap<string, PairState>,
  layout: PairLayout | undefined,
  baseNextId: number,
): Steps<PairsDelta | undefined> {
  if (layout === undefined) return undefined
  const continued = new Set<PairState>()
  const newKeys = new Set<string>()
  const respecs: (readonly [PairState, SpreadPairSpec])[] = []
  const added: (readonly [number, SpreadPairSpec])[] = []
  let nextId = baseNextId
  const limit = MAX_DELTA_SHARE * Math.max(base.size, 1)
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i] as SpreadPairSpec
    // As the whole plan: a pair across one venue is skipped. A key listed twice: the whole plan settles it.
    if (spec.a.venue === spec.b.venue) continue
    const old = base.get(spec.key)
    if (old !== undefined && sameSides(old.spec, spec)) {
      if (continued.has(old)) return undefined
      continued.add(old)
      if (old.spec !== spec) respecs.push([old, spec])
    } else {
      if (newKeys.has(spec.key)) return undefined
      newKeys.add(spec.key)
      // A venue with no table yet needs a whole plan.
      if (!layout.tableOf.has(spec.a.venue) || !layout.tableOf.has(spec.b.venue)) return undefined
      added.push([nextId++, spec])
    }
    if (respecs.length + added.length > limit) return undefined
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  const removed: PairState[] = []
  if (continued.size < base.size) for (const old of base.values()) if (!continued.has(old)) removed.push(old)
  if (respecs.length + added.length + removed.length > limit) return undefined
  return { specs, base, baseNextId, respecs, added, removed, nextId }
}

/**
 * The same delta as `pairsDeltaSteps` gives for `specs`, read from what changed since the installed specs
 * (`change.from`, which the caller has checked the engine holds): O(changes), not a pass over every spec. Undefined
 * where `pairsDeltaSteps` would be (a key listed twice, a venue with no table, too many changes) or the change does
 * not fit the installed pairs.
 */
export function pairsDeltaOfChange(
  specs: readonly SpreadPairSpec[],
  change: SpecsChange,
  base: ReadonlyMap<string, PairState>,
  layout: PairLayout | undefined,
  baseNextId: number,
): PairsDelta | undefined {
  if (layout === undefined) return undefined
  const leaving = new Map<string, PairState>()
  for (const spec of change.removed) {
    if (spec.a.venue === spec.b.venue) continue
    const old = base.get(spec.key)
    if (old === undefined || old.spec !== spec || leaving.has(spec.key)) return undefined
    leaving.set(spec.key, old)
  }
  const respecs: (readonly [PairState, SpreadPairSpec])[] = []
  const added: (readonly [number, SpreadPairSpec])[] = []
  const newKeys = new Set<string>()
  let nextId = baseNextId
  for (const spec of change.added) {
    if (spec.a.venue === spec.b.venue) continue
    if (newKeys.has(spec.key)) return undefined
    newKeys.add(spec.key)
    const old = base.get(spec.key)
    if (old !== undefined && !leaving.has(spec.key)) return undefined
    if (old !== undefined && sameSides(old.spec, spec)) {
      leaving.delete(spec.key)
      respecs.push([old, spec])
      continue
    }
    if (!layout.tableOf.has(spec.a.venue) || !layout.tableOf.has(spec.b.venue)) return undefined
    added.push([nextId++, spec])
  }
  const removed = [...leaving.values()]
  if (respecs.length + added.length + removed.length > MAX_DELTA_SHARE * Math.max(base.size, 1)) return undefined
  return { specs, base, baseNextId, respecs, added, removed, nextId }
}

/** The engine's pairs, which a delta changes in place. */
export interface PairsInPlace {
  readonly byKey: Map<string, PairState>
  readonly pairs: (PairState | undefined)[]
  readonly byEvent: Map<string, PairState[]>
  layout: PairLayout
}

/**
 * Applies `delta` to `state`: the removed pairs unlinked and forgotten, the respecified ones given their spec and
 * terms, the new ones made, linked and filed. Gives back the pairs to recompute (respecified and new, in that
 * order) and, per new instrument row, its table and row (the engine loads them from the venues).
 */
export function applyDelta(
  delta: PairsDelta,
  state: PairsInPlace,
): { recompute: PairState[]; newRows: (readonly [InstrumentTable<PairState>, number])[] } {
  const layout = state.layout
  for (const old of delta.removed) {
    unlink(layout, old, old.tableA, old.rowA)
    unlink(layout, old, old.tableB, old.rowB)
    state.byKey.delete(old.spec.key)
    state.pairs[old.id] = undefined
    const list = state.byEvent.get(old.spec.eventSlug)
    if (list !== undefined) {
      const rest = list.filter((p) => p !== old)
      if (rest.length === 0) state.byEvent.delete(old.spec.eventSlug)
      else state.byEvent.set(old.spec.eventSlug, rest)
    }
  }
  const terms = termsFor(layout.terms, delta.nextId)
  if (terms !== layout.terms) state.layout = { ...layout, terms }
  const recompute: PairState[] = []
  for (const [p, spec] of delta.respecs) {
    p.spec = spec
    writeTerms(terms, p.id, spec)
    recompute.push(p)
  }
  const newRows: (readonly [InstrumentTable<PairState>, number])[] = []
  const rowIn = (t: number, instrumentId: string): number => {
    const table = layout.tables[t] as InstrumentTable<PairState>
    const { row, added } = table.rowFor(instrumentId)
    if (added) newRows.push([table, row])
    return row
  }
  for (const [id, spec] of delta.added) {
    const tableA = layout.tableOf.get(spec.a.venue) as number
    const tableB = layout.tableOf.get(spec.b.venue) as number
    const p: PairState = {
      id,
      spec,
      record: undefined,
      value: undefined,
      tableA,
      rowA: rowIn(tableA, spec.a.outcome.instrumentId),
      tableB,
      rowB: rowIn(tableB, spec.b.outcome.instrumentId),
      nextOnA: undefined,
      nextOnB: undefined,
    }
    link(layout, p, tableA, p.rowA)
    link(layout, p, tableB, p.rowB)
    writeTerms(terms, id, spec)
    state.byKey.set(spec.key, p)
    state.pairs[id] = p
    addTo(state.byEvent, spec.eventSlug, p)
    recompute.push(p)
  }
  return { recompute, newRows }
}

/** The pair after `p` in table `t`'s instrument list (a pair is on two tables: its leg a's and its leg b's). */
const nextIn = (p: PairState, t: number) => (p.tableA === t ? p.nextOnA : p.nextOnB)

function setNext(p: PairState, t: number, next: PairState | undefined): void {
  if (p.tableA === t) p.nextOnA = next
  else p.nextOnB = next
}

/** Takes `p` out of the pair list of row `row` in table `t`. */
function unlink(layout: PairLayout, p: PairState, t: number, row: number): void {
  const table = layout.tables[t] as InstrumentTable<PairState>
  let prev: PairState | undefined
  for (let q = table.firstPair[row]; q !== undefined; prev = q, q = nextIn(q, t)) {
    if (q !== p) continue
    if (prev === undefined) table.firstPair[row] = nextIn(p, t)
    else setNext(prev, t, nextIn(p, t))
    return
  }
}

/** Appends `p` to the pair list of row `row` in table `t`. */
function link(layout: PairLayout, p: PairState, t: number, row: number): void {
  const table = layout.tables[t] as InstrumentTable<PairState>
  let q = table.firstPair[row]
  if (q === undefined) {
    table.firstPair[row] = p
    return
  }
  for (let next = nextIn(q, t); next !== undefined; next = nextIn(q, t)) q = next
  setNext(q, t, p)
}
