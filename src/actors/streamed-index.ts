import { runInSlices, type Steps } from '../core/slices.js'
import type { CatalogEvent, Outcome } from '../model/types.js'
import type { CatalogSnapshot } from './catalog-snapshot.js'

/**
 * The instruments an installed catalog streams to the venue's feed, without listing and planning the whole catalog
 * again when an install is made of a few changed events. At the venues' real size (131,000 venuek instruments) the
 * whole list (streamed-instruments.ts) and the plan against the whole instrument map (instrument-plan.ts) took about a
 * quarter of a second per install whatever changed; an edit costs the changed events' outcomes.
 */
export interface InstrumentEdit {
  /** The actor's instrument map it applies to (`VenueActor`'s count of map changes when it was made). */
  readonly mapVersion: number
  /** Instruments new to the stream, in the order of the changed events. */
  readonly added: readonly string[]
  /** Instruments no outcome streams any more. */
  readonly removedIds: readonly string[]
}

const CHECKPOINT_EVERY = 256

/**
 * How many of a catalog's streamed outcomes name each instrument, kept by the catalog loader for the snapshot it last
 * prepared, with the streamed list (first appearance first, as streamed-instruments.ts lists it; an edit appends what
 * came and drops what went).
 */
export class StreamedIndex {
  /** The events array of the snapshot the counts describe (its identity: an installed snapshot keeps its events). */
  #events: readonly CatalogEvent[] | undefined
  #counts = new Map<string, number>()
  #list: readonly string[] = []

  /** The counts and the list of a whole catalog, in event-loop slices; the index then describes `snapshot`. */
  async whole(snapshot: CatalogSnapshot, streams: (o: Outcome) => boolean): Promise<readonly string[]> {
    this.#events = undefined
    const counts = await runInSlices(streamedCountsSteps(snapshot.events, streams))
    this.#counts = counts
    this.#list = [...counts.keys()]
    this.#events = snapshot.events
    return this.#list
  }

  /**
   * The list and the edit that take the stream from `previous` (the snapshot this index describes) to `next`, made
   * from it (`next.changes`); the index then describes `next`. Undefined when the index does not describe `previous`
   * (a whole build is needed, `whole`) or `next` holds no changes since it.
   */
  edit(
    previous: CatalogSnapshot,
    next: CatalogSnapshot,
    streams: (o: Outcome) => boolean,
    mapVersion: number,
  ): { readonly instruments: readonly string[]; readonly edit: InstrumentEdit } | undefined {
    const changes = next.changes
    if (this.#events === undefined || this.#events !== previous.events || changes === undefined) return undefined
    const delta = new Map<string, number>()
    for (const e of changes.removed) countStreamed(delta, e, streams, -1)
    for (const e of changes.added) countStreamed(delta, e, streams, 1)
    const added: string[] = []
    const removedIds: string[] = []
    for (const [id, by] of delta) {
      if (by === 0) continue
      const before = this.#counts.get(id) ?? 0
      const after = before + by
      if (after > 0) this.#counts.set(id, after)
      else this.#counts.delete(id)
      if (before === 0 && after > 0) added.push(id)
      else if (before > 0 && after <= 0) removedIds.push(id)
    }
    if (removedIds.length > 0) {
      const gone = new Set(removedIds)
      this.#list = this.#list.filter((id) => !gone.has(id)).concat(added)
    } else if (added.length > 0) this.#list = this.#list.concat(added)
    this.#events = next.events
    return { instruments: this.#list, edit: { mapVersion, added, removedIds } }
  }
}

/** How many of the events' outcomes that `streams` accepts name each instrument, first appearance first. */
function* streamedCountsSteps(
  events: readonly CatalogEvent[],
  streams: (o: Outcome) => boolean,
): Steps<Map<string, number>> {
  const counts = new Map<string, number>()
  let n = 0
  for (const e of events) {
    countStreamed(counts, e, streams, 1)
    if (++n % CHECKPOINT_EVERY === 0) yield
  }
  return counts
}

/** Adds `by` to the count of each instrument that one of `e`'s streamed outcomes names. */
function countStreamed(
  counts: Map<string, number>,
  e: CatalogEvent,
  streams: (o: Outcome) => boolean,
  by: number,
): void {
  for (const m of e.markets)
    for (const o of m.outcomes) if (streams(o)) counts.set(o.instrumentId, (counts.get(o.instrumentId) ?? 0) + by)
}
