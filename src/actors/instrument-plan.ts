import type { Steps } from '../core/slices.js'

/**
 * The instrument side of a catalog install, prepared in event-loop slices (src/core/slices.ts) so the actor's
 * install is O(changes) instead of O(instruments): at 20,000 markets per venue, listing the streamed
 * instruments and rebuilding the instrument map took tens of milliseconds in one block.
 */
export interface InstrumentPlan<S> {
  /** The map the plan was computed against; the plan is valid only while the actor still holds it. */
  readonly base: ReadonlyMap<string, S>
  /**
   * The version of the actor's set when the plan was made (instrument-set.ts): an edit changes the map in place, so
   * the same map may hold other instruments by the time the plan arrives.
   */
  readonly mapVersion?: number
  /** The new map, in catalog order: states of kept instruments are the base's own objects. */
  readonly next: Map<string, S>
  /** Instruments new to the map, in catalog order. */
  readonly added: readonly string[]
  /** States of instruments that left, in base order. */
  readonly removed: readonly S[]
  readonly removedIds: readonly string[]
}

const CHECKPOINT_EVERY = 256

export function* instrumentPlanSteps<S>(
  instruments: readonly string[],
  base: ReadonlyMap<string, S>,
  create: (id: string) => S,
): Steps<InstrumentPlan<S>> {
  const next = new Map<string, S>()
  const added: string[] = []
  for (let i = 0; i < instruments.length; i++) {
    const id = instruments[i] as string
    if (!next.has(id)) {
      const st = base.get(id)
      if (st === undefined) added.push(id)
      next.set(id, st ?? create(id))
    }
    if (i % CHECKPOINT_EVERY === CHECKPOINT_EVERY - 1) yield
  }
  const removed: S[] = []
  const removedIds: string[] = []
  let n = 0
  // By key, not entry: an entry is a new [key, value] pair per instrument, and few leave.
  for (const id of base.keys()) {
    if (!next.has(id)) {
      removed.push(base.get(id) as S)
      removedIds.push(id)
    }
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  return { base, next, added, removed, removedIds }
}
