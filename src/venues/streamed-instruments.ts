import type { Steps } from '../core/slices.js'
import type { Catalog, Outcome } from '../model/types.js'

const CHECKPOINT_EVERY = 256

/**
 * The instruments to stream for a catalog: ids of the outcomes `streams` accepts, first appearance first, without
 * repeats. Steps (src/core/slices.ts), because listing them at 20,000 markets is tens of milliseconds, too long
 * for one block of the event loop.
 */
export function* streamedInstrumentsSteps(catalog: Catalog, streams: (o: Outcome) => boolean): Steps<string[]> {
  const ids = new Set<string>()
  let n = 0
  for (const e of catalog.events) {
    for (const m of e.markets) for (const o of m.outcomes) if (streams(o)) ids.add(o.instrumentId)
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  return [...ids]
}

/** What to add and remove to go from the ids keyed in `current` to `wanted` (a feed's setInstruments → changeInstruments). */
export function instrumentChanges(
  current: ReadonlyMap<string, unknown>,
  wanted: readonly string[],
): { added: string[]; removed: string[] } {
  const want = new Set(wanted)
  const removed: string[] = []
  for (const id of current.keys()) if (!want.has(id)) removed.push(id)
  const added: string[] = []
  for (const id of want) if (!current.has(id)) added.push(id)
  return { added, removed }
}
