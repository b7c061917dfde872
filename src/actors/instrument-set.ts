import type { InstrumentPlan } from './instrument-plan.js'
import type { InstrumentState } from './instrument-state.js'
import type { InstrumentEdit } from './streamed-index.js'

/** What an install changed in the set: the instruments to add to the feed and to drop from it. */
export type InstrumentChange = Pick<InstrumentEdit, 'added' | 'removedIds'>

/**
 * A venue actor's streamed instruments: one state per instrument (one map lookup per feed event) and the counts that
 * readiness, /readyz and /metrics read (books with a snapshot, stale books), kept as they change. A catalog install
 * changes the set one of three ways: an edit applied in place (a few changed events, streamed-index.ts), a plan's map
 * swapped in (instrument-plan.ts), or a rebuild from the streamed list. Books that leave stop counting (checked at the
 * install, not when the plan or edit was made: feed events may have moved them since) and are retired.
 */
export class InstrumentSet {
  map = new Map<string, InstrumentState>()
  /** Instruments whose book has a snapshot. */
  synced = 0
  /** Instruments marked stale. */
  stale = 0
  /** Changes of the set so far: an edit applies to the set as it was when the edit was made. */
  version = 0
  readonly #create: (id: string) => InstrumentState
  readonly #retire: (st: InstrumentState) => void

  constructor(create: (id: string) => InstrumentState, retire: (st: InstrumentState) => void) {
    this.#create = create
    this.#retire = retire
  }

  /**
   * The set of an installed catalog streaming `instruments`: by `edit` when made against this version of the set, else
   * by `plan` when made against this map as it is now (its version, when the plan carries it), else rebuilt. Returns what changed, or undefined when rebuilt (the feed is
   * then given the whole list).
   */
  install(
    instruments: readonly string[],
    plan: InstrumentPlan<InstrumentState> | undefined,
    edit: InstrumentEdit | undefined,
  ): InstrumentChange | undefined {
    const version = this.version++
    if (edit !== undefined && edit.mapVersion === version) {
      for (const id of edit.removedIds) {
        const st = this.map.get(id)
        if (st === undefined) continue
        this.#leave(st)
        this.map.delete(id)
      }
      for (const id of edit.added) this.map.set(id, this.#create(id))
      return edit
    }
    if (plan !== undefined && plan.base === this.map && (plan.mapVersion ?? version) === version) {
      for (const st of plan.removed) this.#leave(st)
      this.map = plan.next
      return plan
    }
    const next = new Map<string, InstrumentState>()
    for (const id of instruments) next.set(id, this.map.get(id) ?? this.#create(id))
    for (const [id, st] of this.map) if (next.get(id) !== st) this.#retire(st)
    this.map = next
    this.synced = 0
    this.stale = 0
    for (const st of next.values()) {
      if (st.book.hasSnapshot) this.synced++
      if (st.stale) this.stale++
    }
    return undefined
  }

  setStale(st: InstrumentState, stale: boolean): void {
    if (st.stale === stale) return
    st.stale = stale
    this.stale += stale ? 1 : -1
  }

  #leave(st: InstrumentState): void {
    if (st.book.hasSnapshot) this.synced--
    if (st.stale) this.stale--
    this.#retire(st)
  }
}
