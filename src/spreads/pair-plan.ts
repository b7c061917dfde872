import type { Steps } from '../core/slices.js'
import type { VenueId } from '../model/types.js'
import type { InstrumentHandle, SpreadPairSpec, SpreadRecord } from './spread-engine.js'

/**
 * The structural part of installing a new set of pairs in the spread engine, as steps (src/core/slices.ts): which
 * pairs keep their ids (same key, same instruments), which are gone, and the lookups by instrument and by event.
 * At 20,000 pairs this is tens of milliseconds; the engine installs a finished plan in O(changes) plus one pass
 * of assignments, then recomputes the records (see SpreadEngine).
 *
 * A plan is computed against the engine's current pairs and id counter and is valid only while the engine still
 * holds them (the engine checks, and redoes a stale plan in one go).
 */
export interface PairState {
  readonly id: number
  readonly spec: SpreadPairSpec
  record: SpreadRecord | undefined
  /** The engine's handles on the pair's instruments (resolved on first use, again when retired). */
  venuepHandle: InstrumentHandle | undefined
  venuekHandle: InstrumentHandle | undefined
}

export interface PairsPlan {
  readonly specs: readonly SpreadPairSpec[]
  readonly base: ReadonlyMap<string, PairState>
  readonly baseNextId: number
  readonly byKey: Map<string, PairState>
  /** Pair id → state (ids are dense). */
  readonly pairs: (PairState | undefined)[]
  readonly byInstrument: Record<VenueId, Map<string, PairState[]>>
  readonly byEvent: Map<string, PairState[]>
  /** Every new state, in spec order: the records to recompute. */
  readonly order: readonly PairState[]
  /** New states that continue an old pair, with it: their records are carried over at install. */
  readonly carried: readonly (readonly [PairState, PairState])[]
  /** Old states not continued (key gone, or the same key on other instruments), in old order. */
  readonly removed: readonly PairState[]
  readonly nextId: number
}

const CHECKPOINT_EVERY = 256

export function* pairsPlanSteps(specs: readonly SpreadPairSpec[], base: ReadonlyMap<string, PairState>, baseNextId: number): Steps<PairsPlan> {
  let nextId = baseNextId
  const byKey = new Map<string, PairState>()
  const carriedByKey = new Map<string, readonly [PairState, PairState]>()
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i] as SpreadPairSpec
    const old = base.get(spec.key)
    if (old !== undefined && sameSides(old.spec, spec)) {
      const st: PairState = { id: old.id, spec, record: old.record, venuepHandle: undefined, venuekHandle: undefined }
      byKey.set(spec.key, st)
      carriedByKey.set(spec.key, [st, old])
    } else {
      byKey.set(spec.key, { id: nextId++, spec, record: undefined, venuepHandle: undefined, venuekHandle: undefined })
      carriedByKey.delete(spec.key)
    }
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  const removed: PairState[] = []
  let n = 0
  for (const [key, old] of base) {
    if (byKey.get(key)?.id !== old.id) removed.push(old)
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  const pairs: (PairState | undefined)[] = []
  const byInstrument: Record<VenueId, Map<string, PairState[]>> = { venuep: new Map(), venuek: new Map() }
  const byEvent = new Map<string, PairState[]>()
  const order: PairState[] = []
  for (const p of byKey.values()) {
    pairs[p.id] = p
    push(byInstrument.venuep, p.spec.venuep.instrumentId, p)
    push(byInstrument.venuek, p.spec.venuek.instrumentId, p)
    push(byEvent, p.spec.eventSlug, p)
    order.push(p)
    if (order.length % CHECKPOINT_EVERY === 0) yield
  }
  return { specs, base, baseNextId, byKey, pairs, byInstrument, byEvent, order, carried: [...carriedByKey.values()], removed, nextId }
}

export function sameSides(a: SpreadPairSpec, b: SpreadPairSpec): boolean {
  return a.venuep.instrumentId === b.venuep.instrumentId && a.venuek.instrumentId === b.venuek.instrumentId
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}
