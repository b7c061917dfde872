import type { Steps } from '../../core/slices.js'
import type { FeeModel, VenueId } from '../../model/types.js'
import { InstrumentTableBuilder, type InstrumentTable } from './instrument-table.js'
import type { SpreadPairSpec, SpreadRecord } from './spread-engine.js'
import type { SpreadRecordValue } from './spread-record.js'

/**
 * The structural part of installing a new set of pairs in the spread engine, as steps (src/core/slices.ts): which
 * pairs keep their ids (same key, same instruments), which are gone, the lookups by event, and the pair layout a
 * recompute reads (instrument tables, per-pair terms, each instrument's list of pairs). At 20,000 pairs this is
 * tens of milliseconds; the engine installs a finished plan in O(changes) plus one pass of copies, then
 * recomputes the records (see SpreadEngine).
 *
 * A plan is computed against the engine's current pairs, layout and id counter and is valid only while the engine
 * still holds them (the engine checks, and redoes a stale plan in one go).
 */
export interface PairState {
  readonly id: number
  readonly spec: SpreadPairSpec
  /** The current record: `value` while the pair has one, else undefined. */
  record: SpreadRecord | undefined
  /** The pair's record object, rewritten by each recompute; made on its first record, kept while it has none. */
  value: SpreadRecordValue | undefined
  /** The pair's instruments' rows in the layout's tables (set by the plan, fixed after). */
  rowP: number
  rowK: number
  /** The next pair on the same venuep / venuek instrument (lists start at InstrumentTable.firstPair). */
  nextOnP: PairState | undefined
  nextOnK: PairState | undefined
}

/**
 * Per pair id, `TERMS` numbers: what a recompute needs of the two catalog outcomes, kept beside the rows so it
 * does not follow the spec to its outcome objects. Volumes are NaN when the catalog has none. A fee model is
 * three numbers (see `feeAt`).
 */
export const TERMS = 8
export const VOLUME_P = 0
export const VOLUME_K = 1
export const FEES_P = 2
export const FEES_K = 5

export interface PairLayout {
  readonly tables: Readonly<Record<VenueId, InstrumentTable<PairState>>>
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
  /** Per venue, per row of the new tables: the row of the same instrument in the base layout, or -1 (new). */
  readonly carriedRows: Readonly<Record<VenueId, Int32Array>>
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
    const old = base.get(spec.key)
    if (old !== undefined && sameSides(old.spec, spec)) ids.set(spec.key, [old.id, spec, old])
    else ids.set(spec.key, [nextId++, spec, undefined])
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  const removed: PairState[] = []
  let n = 0
  for (const [key, old] of base) {
    if (ids.get(key)?.[0] !== old.id) removed.push(old)
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  const terms = new Float64Array(nextId * TERMS).fill(Number.NaN)
  const tables = {
    venuep: new InstrumentTableBuilder<PairState>((prev, p) => (prev.nextOnP = p)),
    venuek: new InstrumentTableBuilder<PairState>((prev, p) => (prev.nextOnK = p)),
  }
  const byKey = new Map<string, PairState>()
  const pairs: (PairState | undefined)[] = []
  const byEvent = new Map<string, PairState[]>()
  const order: PairState[] = []
  const carried: (readonly [PairState, PairState])[] = []
  for (const [key, [id, spec, old]] of ids) {
    const p: PairState = { id, spec, record: old?.record, value: old?.value, rowP: -1, rowK: -1, nextOnP: undefined, nextOnK: undefined }
    p.rowP = tables.venuep.add(spec.venuep.instrumentId, p)
    p.rowK = tables.venuek.add(spec.venuek.instrumentId, p)
    writeTerms(terms, id, spec)
    byKey.set(key, p)
    pairs[id] = p
    push(byEvent, spec.eventSlug, p)
    order.push(p)
    if (old !== undefined) carried.push([p, old])
    if (order.length % CHECKPOINT_EVERY === 0) yield
  }
  const layout: PairLayout = { tables: { venuep: tables.venuep.build(), venuek: tables.venuek.build() }, terms }
  const carriedRows = {
    venuep: yield* rowsInSteps(layout.tables.venuep, baseLayout?.tables.venuep),
    venuek: yield* rowsInSteps(layout.tables.venuek, baseLayout?.tables.venuek),
  }
  return { specs, base, baseNextId, byKey, pairs, byEvent, layout, carriedRows, order, carried, removed, nextId }
}

export function sameSides(a: SpreadPairSpec, b: SpreadPairSpec): boolean {
  return a.venuep.instrumentId === b.venuep.instrumentId && a.venuek.instrumentId === b.venuek.instrumentId
}

function writeTerms(terms: Float64Array, id: number, spec: SpreadPairSpec): void {
  const at = id * TERMS
  terms[at + VOLUME_P] = spec.venuep.marketVolume ?? Number.NaN
  terms[at + VOLUME_K] = spec.venuek.marketVolume ?? Number.NaN
  writeFees(terms, at + FEES_P, spec.venuep.fees)
  writeFees(terms, at + FEES_K, spec.venuek.fees)
}

/** A fee model as three numbers: taker bps, curve rate, curve exponent (zeros for no fee). */
function writeFees(terms: Float64Array, at: number, fees: FeeModel | undefined): void {
  terms[at] = fees?.kind === 'bps' ? fees.takerBps : 0
  terms[at + 1] = fees?.kind === 'curve' ? fees.rate : 0
  terms[at + 2] = fees?.kind === 'curve' ? fees.exponent : 1
}

/** Taker fee per contract at `price` from three numbers written by `writeFees`: the same values as feePerContract. */
export function feeAt(terms: Float64Array, at: number, price: number): number {
  const bps = terms[at] as number
  if (bps !== 0) return (bps / 10_000) * price
  const rate = terms[at + 1] as number
  return rate !== 0 ? rate * (price * (1 - price)) ** (terms[at + 2] as number) : 0
}

/** For each row of `table`, the same instrument's row in `base`, or -1. */
function* rowsInSteps(table: InstrumentTable<PairState>, base: InstrumentTable<PairState> | undefined): Steps<Int32Array> {
  const rows = new Int32Array(table.size).fill(-1)
  if (base === undefined) return rows
  for (let i = 0; i < table.size; i++) {
    rows[i] = base.indexOf(table.ids[i] as string)
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  return rows
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}
